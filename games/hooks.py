"""Extension points for apps built on the platform (e.g. the companion).

- options providers: ``fn(options) -> options`` run when a game of that kind is
  created (the companion snapshots the default board from the ORM into options).
- state listeners: ``fn(game, state)`` run inside the transaction that saves a new
  state (the companion keeps its read-model tables in step with the state). A listener may
  also give ``statements(game, state) -> [(sql, params), ...]``: the same writes as SQL,
  which the write path sends on PostgreSQL together with the move, in one round trip.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_options_providers: dict[str, list[Callable[[dict[str, Any]], dict[str, Any]]]] = {}
_state_listeners: dict[str, list[Callable[[Any, dict[str, Any]], None]]] = {}
Statements = list[tuple[str, list[Any]]]
_state_statements: dict[Callable[..., None], Callable[[Any, dict[str, Any]], Statements]] = {}


def register_options_provider(kind: str, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    if fn not in _options_providers.setdefault(kind, []):
        _options_providers[kind].append(fn)


def register_state_listener(
    kind: str, fn: Callable[[Any, dict[str, Any]], None],
    statements: Callable[[Any, dict[str, Any]], Statements] | None = None,
) -> None:
    if fn not in _state_listeners.setdefault(kind, []):
        _state_listeners[kind].append(fn)
    if statements is not None:
        _state_statements[fn] = statements


def prepare_options(kind: str, options: dict[str, Any]) -> dict[str, Any]:
    for fn in _options_providers.get(kind, []):
        options = fn(options)
    return options


def state_saved(kind: str, game: Any, state: dict[str, Any]) -> None:
    for fn in _state_listeners.get(kind, []):
        fn(game, state)


def has_state_listeners(kind: str) -> bool:
    return bool(_state_listeners.get(kind))


def has_state_statements(kind: str) -> bool:
    """Whether every state listener of ``kind`` gives its writes as statements."""
    return all(fn in _state_statements for fn in _state_listeners.get(kind, []))


def state_statements(kind: str, game: Any, state: dict[str, Any]) -> Statements | None:
    """Every listener's writes for ``state`` as SQL statements, or None when a listener has
    none (then the listeners must run as functions, inside a transaction)."""
    statements: Statements = []
    for fn in _state_listeners.get(kind, []):
        given = _state_statements.get(fn)
        if given is None:
            return None
        statements += given(game, state)
    return statements
