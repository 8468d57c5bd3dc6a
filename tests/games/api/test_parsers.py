"""Bodies are bounded before they are parsed: nesting deeper than ``MAX_DEPTH`` is 400
``invalid-json`` (it was a 500: the standard library's parser ran out of stack), a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` is 413; other text that is not JSON stays ``malformed-json``."""

from __future__ import annotations

import json

import pytest

from games.api.parsers import MAX_DEPTH, TooDeep, depth_exceeds, loads_bounded
from games.selectors import game_get


def nested(depth: int, leaf: str = "1") -> str:
    """``depth`` levels alternating arrays and objects around ``leaf``."""
    text = leaf
    for level in range(depth):
        text = f"[{text}]" if level % 2 else f'{{"k":{text}}}'
    return text


# --- the bound itself ------------------------------------------------------------------


def test_depth_is_counted_exactly():
    for depth in (0, 1, 2, MAX_DEPTH - 1, MAX_DEPTH):
        text = nested(depth)
        assert not depth_exceeds(text, MAX_DEPTH), depth
        assert loads_bounded(text) == json.loads(text)
    for depth in (MAX_DEPTH + 1, MAX_DEPTH + 2, 5000):
        assert depth_exceeds(nested(depth), MAX_DEPTH), depth
        with pytest.raises(TooDeep):
            loads_bounded(nested(depth))


def test_siblings_are_not_depth():
    text = json.dumps({"a": [[1]] * 500, "b": [{"c": [2]}] * 500})  # wide, three levels deep
    assert loads_bounded(text) == json.loads(text)
    assert not depth_exceeds("[]" * 10_000, 1) and depth_exceeds("[[]]", 1)


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"cmd": "say", "text": "[" * 1000 + "{" * 1000, "q": 'he said "[[[[" \\ ok'})
    assert loads_bounded(text, 2) == json.loads(text)
    # an escaped quote does not end the string: the brackets after it are still inside it
    text = '{"a": "\\"' + "[" * 100 + '"}'
    assert loads_bounded(text, 1) == {"a": '"' + "[" * 100}
    # ... and a real array after the string counts again
    assert depth_exceeds('{"a": "\\"[[", "b": [[[1]]]}', 3)


def test_bytes_and_errors_are_value_errors_as_json_loads_raises():
    assert loads_bounded(b'{"cmd": "add"}') == {"cmd": "add"}
    with pytest.raises(ValueError):
        loads_bounded('{"cmd": ')
    with pytest.raises(ValueError):
        loads_bounded(b"\xff\xfe")
    assert issubclass(TooDeep, ValueError)  # a consumer's `except ValueError` still catches it


def test_a_deep_frame_that_would_crash_json_loads_is_refused_first():
    text = "[" * 100_000 + "]" * 100_000
    with pytest.raises(RecursionError):
        json.loads(text)
    with pytest.raises(TooDeep):
        loads_bounded(text)


# --- over HTTP -----------------------------------------------------------------------------

def post(client, path, raw, token=None):
    extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=raw, content_type="application/json", **extra)


def assert_error(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["status"] == "error" and body["error"]["code"] == code and body["error"]["message"], body
    return body


@pytest.fixture
def started(api_client):
    created = api_client.post("/api/games", {"kind": "toy", "name": "Ann"}, format="json").json()
    api_client.post(f"/api/games/{created['code']}/seats", {"name": "Bo"}, format="json")
    assert api_client.post(f"/api/games/{created['code']}/start", HTTP_AUTHORIZATION=f"Bearer {created['host_token']}").status_code == 200
    return created


@pytest.mark.django_db
@pytest.mark.parametrize("raw", [
    "[" * 5000,  # the body: unterminated, a few thousand levels
    "[" * 5000 + "]" * 5000,
    '{"kind": "toy", "options": ' + nested(MAX_DEPTH) + "}",  # one level too many
    "[" * 60_000,  # just under the size limit
], ids=["open-brackets", "balanced", "one-too-deep", "60k-brackets"])
def test_nested_bodies_are_400_invalid_json(api_client, raw):
    assert_error(post(api_client, "/api/games", raw), 400, "invalid-json")


@pytest.mark.django_db
def test_a_deep_command_changes_nothing(api_client, started):
    before = game_get(code=started["code"])
    raw = '{"cmd": "add", "n": ' + "[" * 3000 + "1" + "]" * 3000 + "}"
    assert_error(post(api_client, f"/api/games/{started['code']}/commands", raw, started["host_token"]), 400, "invalid-json")
    after = game_get(code=started["code"])
    assert (after.version, after.state) == (before.version, before.state)


@pytest.mark.django_db
def test_bodies_within_the_bound_are_parsed_as_before(api_client):
    # as deep as allowed: parsed, then refused by the rules for what it says (not for its shape)
    response = post(api_client, "/api/games", '{"kind": "toy", "options": ' + nested(MAX_DEPTH - 1) + "}")
    assert response.status_code == 400 and response.json()["error"]["code"] != "invalid-json"
    created = post(api_client, "/api/games", json.dumps({"kind": "toy", "name": "Ann"}))
    assert created.status_code == 201, created.content


@pytest.mark.django_db
@pytest.mark.parametrize("raw,status,code", [
    ('{"kind": ', 400, "malformed-json"),
    ('{"kind": "toy", "x": NaN}', 400, "malformed-json"),
    ('{"kind": "toy", "x": Infinity}', 400, "malformed-json"),
    (b'{"kind": "\xff"}', 400, "malformed-json"),
    (json.dumps({"kind": "toy", "pad": "x" * (64 * 1024)}), 413, "payload-too-large"),
])
def test_other_bad_bodies_keep_their_codes(api_client, raw, status, code):
    assert_error(post(api_client, "/api/games", raw), status, code)
