"""Whatever a client sends to the command endpoint: a 2xx or a 4xx with a code, never a
5xx, and the game changes only when the answer is 200."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.selectors import game_get

from .test_views import post

pytestmark = pytest.mark.django_db

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
bodies = st.one_of(
    st.dictionaries(st.sampled_from(["cmd", "n", "command_id", "expected_version", "x"]), json_values, max_size=5),
    st.fixed_dictionaries({"cmd": st.sampled_from(["add", "get-state", "start", "teleport", ""]), "n": json_values}),
    json_values,
)


@pytest.fixture
def game(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "options": {"target": 1000}}).json()
    post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"})
    post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"])
    return created


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=bodies)
def test_any_body_gets_a_clear_answer(api_client, game, body):
    before = game_get(code=game["code"])
    response = post(api_client, f"/api/games/{game['code']}/commands", None, game["host_token"], raw=json.dumps(body))
    assert response.status_code < 500
    after = game_get(code=game["code"])
    if response.status_code == 200:
        assert response.json()["status"] == "ok"
    else:
        data = response.json()
        assert data["status"] == "error" and data["error"]["code"] and data["error"]["message"]
        assert (after.version, after.state) == (before.version, before.state)
