"""GET /api/kinds/{kind}/content (a kind's map, cached by version) and POST /api/games/{code}/plan
(a rail game's build or move planned before it is sent)."""

from __future__ import annotations

import json

import pytest

from games.engines.resourceful_rails import data as rr_data

pytestmark = pytest.mark.django_db


def post(client, path, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body), content_type="application/json", **headers)


def error_code(response):
    return response.json()["error"]["code"]


@pytest.fixture
def rails(api_client):
    created = post(api_client, "/api/games", {"kind": "resourceful-rails", "name": "Ann",
                                              "options": {"turn_order": "seated"}}).json()
    joined = post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"}).json()
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    return {"code": created["code"], "t0": created["host_token"], "t1": joined["token"]}


def test_content_is_the_map_and_goods_with_an_etag(api_client):
    response = api_client.get("/api/kinds/resourceful-rails/content")
    assert response.status_code == 200
    body = response.json()
    assert body["map"]["format"] == "junction/rail-map@1" and len(body["map"]["nodes"]) == 1720
    assert len(body["goods"]) == 30 and body["trains"]["modest"]["speed"] == 9
    assert response["ETag"] == f'"{body["version"]}"' and "max-age" in response["Cache-Control"]
    again = api_client.get("/api/kinds/resourceful-rails/content", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and not again.content


def test_content_of_a_kind_without_any_or_of_no_kind_is_a_404(api_client):
    assert error_code(api_client.get("/api/kinds/locomotive-werks/content")) == "no-content"
    response = api_client.get("/api/kinds/no-such-kind/content")
    assert response.status_code == 404 and error_code(response) == "unknown-kind"


# (the map option, or None: not given) -> the board a game's view and pages draw
BOARDS = [
    (None, "Pacific Northwest", 1720),
    ("pacific-northwest", "Pacific Northwest", 1720),
    ("juniper-basin", "Juniper Basin", 1297),
]


@pytest.mark.parametrize("board, name, mileposts", BOARDS)
def test_a_games_board_comes_from_its_map_option(api_client, board, name, mileposts):
    kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    offered = {o["name"]: o for o in kinds["resourceful-rails"]["options"]}
    assert offered["map"]["choices"] == ["pacific-northwest", "juniper-basin"]  # the lobby offers it
    options = {"turn_order": "seated", **({"map": board} if board else {})}
    created = post(api_client, "/api/games", {"kind": "resourceful-rails", "name": "Ann", "options": options}).json()
    post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"})
    assert post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"]).status_code == 200
    view = api_client.get(f"/api/games/{created['code']}/state",
                          HTTP_AUTHORIZATION=f"Bearer {created['host_token']}").json()["state"]
    query = f"?map={view['options']['map']}"
    content = api_client.get("/api/kinds/resourceful-rails/content" + query)
    assert content.status_code == 200
    body = content.json()
    assert body["version"] == view["content_version"] and content["ETag"] == f'"{body["version"]}"'
    assert body["map"]["name"] == name and len(body["map"]["nodes"]) == mileposts
    assert {c["id"] for c in body["map"]["cities"]} >= {c for p in view["players"] for card in p["hand"] or []
                                                        for c in (d["city"] for d in card["demands"])}
    default = api_client.get("/api/kinds/resourceful-rails/content").json()
    assert (default["version"] == body["version"]) == (name == "Pacific Northwest")
    # a build planned on the game's own board
    m = rr_data.core(view["options"]["map"]).map
    major = next(c for c in m.cities.values() if c.size == "major")
    out = next(nb.node for u in major.nodes for nb in m.adjacency[u] if m.nodes[nb.node].city is None
               and m.nodes[nb.node].terrain == "clear")
    plan = post(api_client, f"/api/games/{created['code']}/plan", {"plan": "build", "points": [None, m.address(out)]},
                created["host_token"])
    assert plan.status_code == 200, plan.content
    assert plan.json()["cost"] == 1


def test_content_of_an_unknown_board_is_a_404(api_client):
    response = api_client.get("/api/kinds/resourceful-rails/content?map=atlantis")
    assert response.status_code == 404 and error_code(response) == "unknown-map"
    assert error_code(api_client.get("/api/kinds/slipway/content?map=juniper-basin")) == "unknown-map"


def seattle_to_tacoma_ish():
    """Two mileposts: a Seattle milepost and a clear milepost 3 hexes away."""
    core = rr_data.core()
    m = core.map
    seattle = m.cities["seattle-wa"].nodes[0]
    far = next(i for i, n in enumerate(m.nodes) if n.terrain == "clear" and n.city is None
               and m.hex_distance(seattle, i) == 3)
    return m.address(seattle), m.address(far)


def test_a_build_plan_is_priced_against_the_turn_and_changes_nothing(api_client, rails):
    code = rails["code"]
    before = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {rails['t0']}").json()
    start, end = seattle_to_tacoma_ish()
    response = post(api_client, f"/api/games/{code}/plan", {"plan": "build", "points": [start, end]}, rails["t0"])
    assert response.status_code == 200, response.content
    plan = response.json()
    assert plan["plan"] == "build" and plan["budget"] == 20 and plan["affordable"] is True
    assert plan["cost"] == sum(plan["costs"]) and len(plan["sections"]) >= 3
    assert plan["command"]["cmd"] == "build" and plan["command"]["path"][0] == start
    after = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {rails['t0']}").json()
    assert after["version"] == before["version"] and after["state"]["track"] == {}
    # the planned command is accepted as it is
    sent = post(api_client, f"/api/games/{code}/commands", plan["command"], rails["t0"])
    assert sent.status_code == 200, sent.content
    state = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {rails['t0']}").json()["state"]
    assert len(state["track"]) == len(plan["sections"]) and state["players"][0]["cash"] == 50 - plan["cost"]


def test_plans_are_refused_with_clear_errors(api_client, rails):
    code = rails["code"]
    start, end = seattle_to_tacoma_ish()
    response = post(api_client, f"/api/games/{code}/plan", {"plan": "build", "points": [start, end]})
    assert response.status_code == 403 and error_code(response) == "not-a-player"
    response = post(api_client, f"/api/games/{code}/plan", {"plan": "build", "points": [start, end]}, rails["t1"])
    assert response.status_code == 400 and error_code(response) == "not-your-turn"
    for body, code_expected in (
        ({"plan": "fly"}, "invalid-plan"),
        ({"plan": "build", "points": []}, "invalid-plan"),
        ({"plan": "build", "points": [[0, 999, 999]]}, "not-a-milepost"),
        ({"plan": "build", "points": [{"x": 1}]}, "not-a-milepost"),
        ({"plan": "move", "to": start}, "phase-over"),
    ):
        response = post(api_client, f"/api/games/{code}/plan", body, rails["t0"])
        assert response.status_code == 400, (body, response.content)
        assert error_code(response) == code_expected, (body, response.json())
    response = api_client.post(f"/api/games/{code}/plan", data="[1]", content_type="application/json",
                               HTTP_AUTHORIZATION=f"Bearer {rails['t0']}")
    assert response.status_code == 400 and error_code(response) == "invalid-request"


def test_a_kind_without_a_planner_says_so(api_client):
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"})
    post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"])
    response = post(api_client, f"/api/games/{created['code']}/plan", {"plan": "build", "points": []}, created["host_token"])
    assert response.status_code == 400 and error_code(response) == "no-planner"


def test_content_is_sent_compressed_and_its_weak_etag_still_matches(api_client):
    import gzip
    import json

    response = api_client.get("/api/kinds/resourceful-rails/content", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    body = json.loads(gzip.decompress(response.content))
    assert len(response.content) * 4 < len(json.dumps(body))
    assert response["ETag"] == f'W/"{body["version"]}"' and "Accept-Encoding" in response["Vary"]
    again = api_client.get("/api/kinds/resourceful-rails/content", HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and not again.content
    plain = api_client.get("/api/kinds/resourceful-rails/content")
    assert "Content-Encoding" not in plain and json.loads(plain.content)["version"] == body["version"]


def test_the_action_log_is_sent_compressed(api_client, rails):
    import gzip

    for token in ("t0", "t1", "t1", "t0"):  # the snake: Ann, Bo, Bo, Ann end their build turns
        assert post(api_client, f"/api/games/{rails['code']}/commands", {"cmd": "end-turn"}, rails[token]).status_code == 200
    response = api_client.get(f"/api/games/{rails['code']}/actions?after=0", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert [a["sequence"] for a in json.loads(gzip.decompress(response.content))] == [1, 2, 3, 4, 5]
