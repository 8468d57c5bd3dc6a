"""OpenAPI post-processing: the kinds a game may be created as (the engines registered in this
process), and links from the call that creates a game to the calls that use its code, so a
client generator (and schemathesis' stateful mode) can chain them."""

from __future__ import annotations

CREATED_GAME = ("/api/games", "post", "201")


def add_kinds(result, generator, request, public):
    """drf-spectacular hook: ``kind`` of a new game is one of the registered engines' kinds."""
    from games.engines.registry import all_engines

    create = result.get("components", {}).get("schemas", {}).get("GameCreateRequest", {})
    kind = create.get("properties", {}).get("kind")
    if kind is not None:
        kind["enum"] = sorted(engine.kind for engine in all_engines())
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
