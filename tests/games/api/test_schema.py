"""/api/schema/ is valid OpenAPI (a real validator says so), describes every kind's options,
commands and state from the engines' own declarations, every error status of every operation,
and what the server really sends and takes fits it."""

from __future__ import annotations

import json

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

from games.api.schema import camel
from games.engines.registry import all_engines
from games.engines.specs import PLATFORM

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return json.loads(response.content)


def fits(schema, component: str, value) -> list[str]:
    """What an OpenAPI 3.0 schema validator says of ``value`` against ``component`` (no errors: [])."""
    validator = OAS30Validator({"components": schema["components"], "allOf": [{"$ref": f"#/components/schemas/{component}"}]})
    return [e.message[:300] for e in validator.iter_errors(value)]


def post(client, path, body, token=None):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, data=json.dumps(body), content_type="application/json", **headers)


def test_the_schema_is_valid_openapi(schema):
    validate(schema)  # raises with the first violation
    assert schema["openapi"].startswith("3.0")


def test_every_kind_has_its_options_commands_and_state(schema):
    components = schema["components"]["schemas"]
    create = components["GameCreateRequest"]
    assert create["discriminator"]["propertyName"] == "kind"
    kinds = sorted(engine.kind for engine in all_engines())
    assert sorted(create["discriminator"]["mapping"]) == kinds
    assert {"$ref": "#/components/schemas/CommandRequest"} == schema["paths"]["/api/games/{code}/commands"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    unions = {ref["$ref"].rsplit("/", 1)[1] for ref in components["CommandRequest"]["anyOf"]}
    for engine in all_engines():
        name = camel(engine.kind)
        options = components[f"{name}Options"]["properties"]
        assert set(options) == {o.name for o in engine.options}
        for option in engine.options:
            assert options[option.name]["default"] == option.default and options[option.name]["description"] == option.help
        union = components[f"{name}Command"]
        assert f"{name}Command" in unions
        assert union["discriminator"]["propertyName"] == "cmd"
        assert sorted(union["discriminator"]["mapping"]) == sorted({s.name for s in engine.command_specs()} | {spec.name for spec in PLATFORM})
        for spec in engine.command_specs():
            body = components[f"{name}{camel(spec.name)}Command"]
            assert body["description"] == spec.help and body["additionalProperties"] is False
            assert body["properties"]["cmd"]["enum"] == [spec.name]
            for arg in spec.args:
                described = body["properties"][arg.name]["description"]
                assert described.startswith(arg.help) and ("Private:" in described) == arg.private, (spec.name, arg.name)
            assert set(body["required"]) == {"cmd", *(a.name for a in spec.args if not a.optional)}
            assert {"command_id", "expected_version"} <= set(body["properties"])
        state = components[f"{name}State"]
        assert set(state["required"]) == {f.name for f in engine.view_fields if not f.optional}
        assert {"$ref": f"#/components/schemas/{name}State"} in components["State"]["properties"]["state"]["anyOf"]


def test_every_operation_lists_its_error_statuses_with_the_error_shape(schema):
    error = schema["components"]["schemas"]["Error"]
    assert error["properties"]["status"]["enum"] == ["error"] and set(error["required"]) == {"status", "error"}
    throttled_reads = {("/api/games/{code}/state", "get"), ("/api/games/{code}/actions", "get"), ("/api/games", "get")}
    for path, operations in schema["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            responses = operation["responses"]
            expected = {"503"}
            if "requestBody" in operation:
                expected |= {"400", "413"}
            if "{code}" in path:
                expected.add("404")
            if (path, method) in throttled_reads or (method == "post" and path.startswith("/api/games")):
                expected.add("429")
            assert expected <= set(responses), (path, method, sorted(responses))
            for status, response in responses.items():
                if status[0] in "45":
                    assert response["description"], (path, method, status)
                    assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}, (path, method, status)
                if status in ("429", "503"):
                    assert "Retry-After" in response["headers"]
    assert "429" not in schema["paths"]["/api/kinds"]["get"]["responses"]  # /api/kinds is not counted


def test_create_bodies_fit_and_misfits_do_not(schema):
    assert fits(schema, "GameCreateRequest", {"kind": "toy", "name": "Ann", "options": {"target": 20}}) == []
    assert fits(schema, "GameCreateRequest", {"kind": "locomotive-werks", "options": {"end_threshold": 200, "dice_pool": "twenty"}}) == []
    assert fits(schema, "GameCreateRequest", {"kind": "toy", "options": {"target": 2}})  # below the option's min
    assert fits(schema, "GameCreateRequest", {"kind": "locomotive-werks", "options": {"dice_pool": "ten"}})
    assert fits(schema, "GameCreateRequest", {"kind": "chess"})


def test_a_played_game_fits_the_schema_both_ways(api_client, schema):
    """Bodies the server takes fit the request schemas; what it answers fits the responses'."""
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann", "options": {"target": 12}}).json()
    assert fits(schema, "GameCreated", created) == []
    code, host = created["code"], created["host_token"]
    lobby = api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {host}").json()
    assert lobby["state"] is None and fits(schema, "State", lobby) == []
    joined = post(api_client, f"/api/games/{code}/seats", {"name": "Bo"}).json()
    assert fits(schema, "SeatJoined", joined) == []
    tokens = [host, joined["token"]]
    assert fits(schema, "CommandResult", post(api_client, f"/api/games/{code}/start", {}, host).json()) == []
    moves = 0
    while True:
        states = [api_client.get(f"/api/games/{code}/state", HTTP_AUTHORIZATION=f"Bearer {t}").json() for t in tokens]
        for state in states:
            assert fits(schema, "State", state) == [], state
        if states[0]["status"] != "active":
            break
        seat = next(s for s in states if s["legal_commands"])
        command = {**seat["legal_commands"][-1], "command_id": f"m{moves}", "expected_version": seat["version"]}
        assert fits(schema, "CommandRequest", command) == []
        answer = post(api_client, f"/api/games/{code}/commands", command, tokens[seat["seat"]])
        assert answer.status_code == 200 and fits(schema, "CommandResult", answer.json()) == []
        moves += 1
    got = post(api_client, f"/api/games/{code}/commands", {"cmd": "get-state"}, host).json()
    assert fits(schema, "GetStateResult", got) == []
    assert fits(schema, "ReplayStep", api_client.get(f"/api/games/{code}/replay?step=2").json()) == []
    kinds = api_client.get("/api/kinds").json()
    validator = OAS30Validator({"components": schema["components"], "type": "array", "items": {"$ref": "#/components/schemas/Kind"}})
    assert [e.message for e in validator.iter_errors(kinds)] == []


@pytest.mark.parametrize(
    "command",
    [{"cmd": "add", "n": 9}, {"cmd": "add"}, {"cmd": "add", "n": 1, "seat": 0}, {"cmd": "add", "n": "1"}],
)
def test_a_body_the_schema_refuses_the_server_refuses(api_client, schema, command):
    assert fits(schema, "ToyCommand", command)
    created = post(api_client, "/api/games", {"kind": "toy", "name": "Ann"}).json()
    post(api_client, f"/api/games/{created['code']}/seats", {"name": "Bo"})
    post(api_client, f"/api/games/{created['code']}/start", {}, created["host_token"])
    answer = post(api_client, f"/api/games/{created['code']}/commands", command, created["host_token"])
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid-command"


def test_real_views_of_every_kind_fit_their_state_schema(schema):
    """Each engine's views through a few bot moves fit ``<Kind>State`` (the toy's are played above)."""
    import random

    from games.engines.registry import get_engine

    for kind in ("locomotive-werks", "wood-and-steel"):
        engine = get_engine(kind)
        players = max(engine.min_players, 3)
        state = engine.setup(players=[f"P{i}" for i in range(players)], options=engine.normalize_options({}), seed=5)
        rng = random.Random(5)
        for _ in range(60):
            if engine.is_finished(state):
                break
            for viewer in (None, 0):
                assert fits(schema, f"{camel(kind)}State", engine.view(state, seat=viewer)) == [], kind
            seat = engine.active_seats(state)[0]
            command = engine.bot_command(state, seat=seat, bot=engine.bots[0], rng=rng)
            assert fits(schema, f"{camel(kind)}Command", command) == [], command
            engine.apply(state, seat=seat, command=command)


def test_kinds_lists_every_command_with_its_help_from_the_specs(api_client):
    kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    for engine in all_engines():
        listed = kinds[engine.kind]["commands"]
        assert [c["cmd"] for c in listed] == [s.name for s in engine.command_specs()]
        assert listed == [s.to_json() for s in engine.command_specs()]
        assert all(c["help"] for c in listed)
    toy = kinds["toy"]["commands"]
    assert toy == [{"cmd": "add", "help": "Add 1, 2 or 3 to the counter.", "args": [
        {"name": "n", "help": "How much to add.", "optional": False, "nullable": False, "private": False,
         "schema": {"type": "integer", "minimum": 1, "maximum": 3}}]}]
    assert "undo" in [c["cmd"] for c in kinds["wood-and-steel"]["commands"]]  # a turn_key: the platform's undo
    assert "undo" not in [c["cmd"] for c in kinds["locomotive-werks"]["commands"]]
    develop = next(c for c in kinds["locomotive-werks"]["commands"] if c["cmd"] == "develop")
    assert develop["args"][0]["schema"] == {"type": "integer", "minimum": 1, "maximum": 14}


def test_a_kind_that_declares_no_commands_gets_the_generic_command_body(api_client):
    from games.engines.base import Engine
    from games.engines.registry import register, unregister

    class Legacy(Engine):
        kind = "legacy-test"
        title = "Legacy"
        min_players = 1
        max_players = 2

    register(Legacy())
    try:
        schema = json.loads(api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content)
        kinds = {k["kind"]: k for k in api_client.get("/api/kinds").json()}
    finally:
        unregister("legacy-test")
    validate(schema)
    assert {"$ref": "#/components/schemas/GenericCommand"} in schema["components"]["schemas"]["CommandRequest"]["anyOf"]
    assert fits(schema, "CommandRequest", {"cmd": "anything", "x": 1}) == []
    assert "legacy-test" in schema["components"]["schemas"]["GameCreateRequest"]["discriminator"]["mapping"]
    assert kinds["legacy-test"]["commands"] == []
