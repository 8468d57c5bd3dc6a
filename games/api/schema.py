"""OpenAPI post-processing (drf-spectacular hooks, in the order config/settings.py lists them).

- :func:`add_kinds`: ``kind`` of a new game is one of the engines registered in this process.
- :func:`add_kind_schemas`: each kind's options, commands and state, from the engine's own
  declarations (games/engines/specs.py): a client generator gets a model per command, per
  kind's options and per kind's view.
- :func:`add_errors`: every error status an operation can answer, with the one error shape.
- :func:`add_links`: links from the call that creates a game to the calls that use its code,
  so a client generator (and schemathesis' stateful mode) can chain them.

How the commands are described, and why. ``POST /api/games/{code}/commands`` is one URL for
every kind (the kind is the game's, not the path's), and two kinds may share a command name
with different arguments (the coming rail games and Wood and Steel both build track), so no
single ``cmd`` → schema mapping exists across kinds. Within a kind names are unique: each
kind's commands are one ``oneOf`` discriminated by ``cmd`` (``<Kind>Command``, a model per
command, ``additionalProperties: false``), and the body is the ``anyOf`` of the kinds'
unions. Client generators (openapi-python-client, datamodel-code-generator) turn that into a
typed model per command and a union the caller picks from; one operation per kind would have
needed a URL per kind that the API does not have. A new game's body is ``oneOf`` discriminated
by ``kind`` (each kind's options typed); the state a seat sees is the ``anyOf`` of the kinds'
views (their top-level fields typed, deeper ones described).
"""

from __future__ import annotations

from typing import Any

from games.engines.specs import PLATFORM, Field, Int, Text, object_schema

CREATED_GAME = ("/api/games", "post", "201")
NULL = {"type": "object", "nullable": True, "enum": [None], "description": "null"}
REF = "#/components/schemas/"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


def camel(slug: str) -> str:
    """``locomotive-werks`` → ``LocomotiveWerks`` (component names)."""
    return "".join(part[:1].upper() + part[1:] for part in slug.replace("_", "-").split("-") if part)


def add_kinds(result, generator, request, public):
    """drf-spectacular hook: ``kind`` of a new game is one of the registered engines' kinds."""
    from games.engines.registry import all_engines

    create = result.get("components", {}).get("schemas", {}).get("GameCreateRequest", {})
    kind = create.get("properties", {}).get("kind")
    if kind is not None:
        kind["enum"] = sorted(engine.kind for engine in all_engines())
    return result


# -- each kind's options, commands and state -------------------------------------------------


def option_schema(option) -> dict[str, Any]:
    """One ``games.engines.base.Option`` as a property schema."""
    out: dict[str, Any]
    if option.type == "bool":
        out = {"type": "boolean"}
    elif option.type == "int":
        out = {"type": "integer"}
        if option.min is not None:
            out["minimum"] = option.min
        if option.max is not None:
            out["maximum"] = option.max
    else:  # "choice"
        values = list(option.choices)
        out = {"enum": values}
        if values and all(isinstance(v, str) for v in values):
            out["type"] = "string"
        elif values and all(type(v) is int for v in values):
            out["type"] = "integer"
    out["default"] = option.default
    if option.help:
        out["description"] = option.help
    return out


def command_meta_fields() -> tuple[Field, ...]:
    """What the commands endpoint takes beside a command's arguments."""
    from .serializers import COMMAND_ID_MAX

    return (
        Field("command_id", Text(max_length=COMMAND_ID_MAX), "Any id you choose (ASCII, no surrounding spaces): "
              "sending the same command again with it answers the first result; another command with it is "
              "409 command-id-reused.", optional=True),
        Field("expected_version", Int(min=0), "The version you act on: another version is 409 stale-version "
              "(with the current version).", optional=True),
    )


def add_kind_schemas(result, generator, request, public):
    """drf-spectacular hook: options, commands and state of every registered kind."""
    from games.engines.registry import all_engines

    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    engines = sorted(all_engines(), key=lambda e: e.kind)
    meta = command_meta_fields()

    # platform commands every kind takes, and undo where the kind has it
    platform = {spec.name: spec for spec in PLATFORM}
    for spec in platform.values():
        schemas[camel(spec.name) + "Command"] = spec.schema(meta)

    create_generic = schemas.get("GameCreateRequest", {})
    create_props = {k: v for k, v in create_generic.get("properties", {}).items() if k not in ("kind", "options")}
    create_variants: dict[str, str] = {}
    command_unions: list[str] = []
    states: list[str] = []
    for engine in engines:
        name = camel(engine.kind)
        # options
        options = {
            "type": "object",
            "description": f"{engine.title}: the options a host may set (each has its default).",
            "properties": {o.name: option_schema(o) for o in engine.options},
        }
        schemas[f"{name}Options"] = options
        create = {
            "type": "object",
            "description": f"A new {engine.title} game ({engine.min_players}–{engine.max_players} players).",
            "properties": {
                "kind": {"type": "string", "enum": [engine.kind]},
                "options": _ref(f"{name}Options"),
                **create_props,
            },
            "required": ["kind"],
            "additionalProperties": False,
        }
        schemas[f"{name}GameCreateRequest"] = create
        create_variants[engine.kind] = REF + f"{name}GameCreateRequest"
        # commands
        mapping: dict[str, str] = {}
        for spec in engine.command_specs():
            component = f"{name}{camel(spec.name)}Command"
            schemas[component] = spec.schema(meta)
            mapping[spec.name] = REF + component
        if mapping:
            for cmd, spec in platform.items():
                mapping.setdefault(cmd, REF + camel(spec.name) + "Command")
            schemas[f"{name}Command"] = {
                "description": f"A command of a {engine.title} game.",
                "oneOf": [{"$ref": ref} for ref in mapping.values()],
                "discriminator": {"propertyName": "cmd", "mapping": mapping},
            }
            command_unions.append(f"{name}Command")
        # state
        if engine.view_fields:
            state = object_schema(engine.view_fields, closed=False)
            state["description"] = f"What a seat (or a spectator) sees of a {engine.title} game."
            schemas[f"{name}State"] = state
            states.append(f"{name}State")

    if create_variants:
        schemas["GameCreateRequest"] = {
            "description": "A new game: its kind, that kind's options, and the host's seat if `name` is given.",
            "oneOf": [{"$ref": ref} for ref in create_variants.values()],
            "discriminator": {"propertyName": "kind", "mapping": create_variants},
        }
    generic = schemas.get("CommandRequest")
    if command_unions:
        if len(command_unions) < len(engines) and generic is not None:  # a kind that declares no commands
            schemas["GenericCommand"] = generic
            command_unions.append("GenericCommand")
        schemas["CommandRequest"] = {
            "description": "A command of the game's kind: `{\"cmd\": …, …its arguments, \"command_id\"?, "
            "\"expected_version\"?}`. Each kind's commands are a union discriminated by `cmd` (names repeat "
            "across kinds; GET /api/kinds lists each kind's commands with their help).",
            "anyOf": [_ref(u) for u in command_unions],
        }
    view = {"anyOf": [_ref(s) for s in states]} if states else {}
    state = schemas.get("State", {}).get("properties", {})
    if "state" in state:
        # OpenAPI 3.0 has no null type: `nullable` beside a bare anyOf allows nothing (3.0.3),
        # so null is a member of its own
        nullable = {"anyOf": [*view["anyOf"], NULL]} if view else {"nullable": True}
        state["state"] = {**nullable, "description": "Your view of the game (null before it starts)."}
    if "legal_commands" in state and command_unions:
        state["legal_commands"] = {"type": "array", "items": _ref("CommandRequest"),
                                   "description": "Every command you may send now (empty off turn)."}
    replay = schemas.get("ReplayStep", {}).get("properties", {})
    if "state" in replay:
        replay["state"] = {**view, "description": "The spectator view after this step."}
    if "State" in schemas:
        got = {k: v for k, v in schemas["State"].get("properties", {}).items() if k not in ("status",)}
        schemas["GetStateResult"] = {
            "type": "object",
            "description": "The answer to `{\"cmd\": \"get-state\"}`: your view, as GET …/state gives it.",
            "properties": {
                "response": {"type": "string", "enum": ["get-state-response"]},
                "status": {"type": "string", "enum": ["ok"]},
                **got,
            },
            "required": ["response", "status", *[k for k in schemas["State"].get("required", []) if k != "status"]],
        }
        command_op = result.get("paths", {}).get("/api/games/{code}/commands", {}).get("post")
        if command_op is not None:
            ok = command_op.get("responses", {}).get("200", {}).get("content", {}).get("application/json")
            if ok is not None:
                ok["schema"] = {"anyOf": [_ref("CommandResult"), _ref("GetStateResult")]}
    return result


# -- error statuses ------------------------------------------------------------------------

ERROR_DESCRIPTIONS = {
    400: "Bad request: a body or parameter of the wrong shape (`invalid-request`, `invalid-json`, "
    "`malformed-json`), or a command the rules refuse (`invalid-command`, `unknown-command`, or the "
    "rules' own code).",
    401: "No token where one is needed (`token-required`), or a token that is not valid "
    "(`invalid-token`, `seat-moved`).",
    403: "A valid token that may not do this (`wrong-game`, `not-host`, `not-a-player`, …).",
    404: "No such game (`game-not-found`) or thing.",
    409: "The game is not in a state for this (`stale-version` with the current `version`, "
    "`command-id-reused`, `game-started`, `game-paused`, `busy`, …).",
    410: "Gone: the code was used or has expired.",
    413: "The body is larger than the server takes (`payload-too-large`).",
    429: "Too many requests from this address or token (`rate-limited`); `Retry-After` says when to try again.",
    503: "The server is busy (`server-busy`, `database-busy`) or its database went away (`database-unavailable`): "
    "retry after `Retry-After` seconds, with the same `command_id` (a command applies once).",
}
RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait before retrying."}}


def _error_response(status: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "description": ERROR_DESCRIPTIONS.get(status, "An error."),
        "content": {"application/json": {"schema": _ref("Error")}},
    }
    if status in (429, 503):
        out["headers"] = dict(RETRY_AFTER)
    return out


def _throttled_paths(generator) -> set[tuple[str, str]]:
    out = set()
    for path, _regex, method, callback in getattr(generator, "endpoints", None) or []:
        view = getattr(callback, "cls", None)
        if view is not None and getattr(view, "throttle_classes", None):
            out.add((path, method.lower()))
    return out


def add_errors(result, generator, request, public):
    """drf-spectacular hook: every operation under /api lists each error status it can answer,
    with the one error shape (``{"status": "error", "error": {"code", "message"}}``): 503 for
    all (a busy server or database), 429 where requests are counted, 400 and 413 where a body
    is read, 404 where a game's code is in the path; the views declare the rest (401, 403,
    409, 410). Every error response is described."""
    error = result.get("components", {}).get("schemas", {}).get("Error")
    if error is not None:
        error.setdefault("properties", {}).setdefault("status", {})["enum"] = ["error"]
        error["required"] = sorted({*error.get("required", []), "status", "error"})
        error["description"] = "Every error has this shape; `error.code` is a stable kebab-case slug."
    throttled = _throttled_paths(generator)
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            statuses = {503}
            if (path, method) in throttled:
                statuses.add(429)
            if "requestBody" in operation:
                statuses |= {400, 413}
            if "{code}" in path:
                statuses.add(404)
            responses = operation["responses"]
            for status in sorted(statuses):
                responses.setdefault(str(status), _error_response(status))
            for status, response in responses.items():
                if status.startswith(("4", "5")) and not response.get("description"):
                    response["description"] = ERROR_DESCRIPTIONS.get(int(status), "An error.")
                if status in ("429", "503"):
                    response.setdefault("headers", dict(RETRY_AFTER))
    return result


def add_links(result, generator, request, public):
    """drf-spectacular hook: every operation on ``/api/games/{code}…`` is linked from the 201
    answer of ``POST /api/games``, its ``code`` path parameter taken from the answer's body."""
    path, method, status = CREATED_GAME
    created = result.get("paths", {}).get(path, {}).get(method, {}).get("responses", {}).get(status)
    if created is None:
        return result
    links = {}
    for other_path, operations in result["paths"].items():
        if not other_path.startswith("/api/games/{code}"):
            continue
        for operation in operations.values():
            operation_id = operation.get("operationId")
            if operation_id:
                links[operation_id] = {
                    "operationId": operation_id,
                    "parameters": {"code": "$response.body#/code"},
                    "description": "The game just created.",
                }
    created["links"] = links
    return result
