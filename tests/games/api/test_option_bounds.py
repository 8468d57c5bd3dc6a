"""The API refuses an option past its bound with a 400 naming the option."""

from __future__ import annotations

import pytest


@pytest.mark.django_db
@pytest.mark.parametrize(("kind", "name", "value"), [("locomotive-werks", "end_threshold", 2_000), ("wood-and-steel", "target_ties", 100)])
def test_an_option_past_its_bound_is_a_400_naming_it(api_client, kind, name, value):
    response = api_client.post("/api/games", {"kind": kind, "name": "Ann", "options": {name: value}}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid-option"
    assert repr(name) in error["message"]


@pytest.mark.django_db
def test_kinds_show_the_bound(api_client):
    kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    option = next(o for o in kinds["locomotive-werks"]["options"] if o["name"] == "end_threshold")
    assert option["max"] == 1_000
    assert "stored_max" not in option
