"""``command_validate`` (one shared serializer instance) decides exactly as a fresh
``CommandSerializer`` does, for any body and from many threads at once."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from games.api.serializers import CommandSerializer, command_validate

# The edges where the canonical-form shortcut and DRF could part: whitespace to trim, NUL,
# non-ASCII and surrogates, lengths around 48 and 64, floats, booleans, negative and large integers.
EDGES = [
    "add", "add\n", " add", "add ", "", " ", "id", " id", "id ", "a\x00b", "\x00", "é", "\ud800", "x" * 64, "x" * 65,
    "a" * 48, "a" * 49, 0, -1, -2, 1.0, 2.5, -0.0, 10**18 - 1, 10**18, 10**30, True, False, "5", " 7 ", "1e3", None, [],
]
edges = st.sampled_from(EDGES)
values = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-5, max_value=10**12), st.text(max_size=80),
    st.from_regex(r"[a-z][a-z0-9-]{0,50}", fullmatch=True), st.lists(st.integers(), max_size=2),
    st.floats(allow_nan=False), edges, st.text(st.characters(codec="utf-8"), min_size=1, max_size=70),
)
bodies = st.one_of(
    st.dictionaries(st.sampled_from(["cmd", "command_id", "expected_version", "n", "city"]), values, max_size=5),
    # a valid command name, so the other fields decide
    st.fixed_dictionaries({"cmd": st.from_regex(r"[a-z][a-z0-9-]{0,47}", fullmatch=True)},
                          optional={"command_id": st.one_of(edges, st.from_regex(r"[ -~\x00]{0,66}", fullmatch=True), values),
                                    "expected_version": st.one_of(edges, st.integers(min_value=-3, max_value=3), values)}),
)


def outcome(body):
    try:
        return True, command_validate(body)
    except ValidationError as exc:
        return False, exc.detail


@settings(deadline=None, max_examples=600)
@given(bodies)
def test_command_validate_decides_as_a_fresh_serializer(body):
    serializer = CommandSerializer(data=body)
    ok = serializer.is_valid()
    assert outcome(body) == (ok, dict(serializer.validated_data) if ok else serializer.errors)


def test_command_validate_decides_as_a_fresh_serializer_at_every_edge():
    absent = object()
    for cmd, command_id, expected in itertools.product(["add", "add\n", "x-1", 5, None], [absent, *EDGES], [absent, *EDGES]):
        body = {"cmd": cmd}
        if command_id is not absent:
            body["command_id"] = command_id
        if expected is not absent:
            body["expected_version"] = expected
        serializer = CommandSerializer(data=body)
        ok = serializer.is_valid()
        assert outcome(body) == (ok, dict(serializer.validated_data) if ok else serializer.errors), body


def test_command_validate_from_many_threads_keeps_each_answer_its_own():
    good = [{"cmd": f"move-{i}", "command_id": f"id-{i}", "expected_version": i} for i in range(200)]
    bad = [{"cmd": f"Bad {i}", "expected_version": -i - 1} for i in range(200)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(outcome, [b for pair in zip(good, bad, strict=True) for b in pair]))
    for i in range(200):
        assert results[2 * i] == (True, good[i])
        ok, detail = results[2 * i + 1]
        assert not ok and set(detail) == {"cmd", "expected_version"}
