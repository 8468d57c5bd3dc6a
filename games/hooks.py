"""Extension points for apps built on the platform (e.g. the companion).

- options providers: ``fn(options) -> options`` run when a game of that kind is
  created (the companion snapshots the default board from the ORM into options).
- state listeners: ``fn(game, state)`` run inside the transaction that saves a new
  state (the companion keeps its read-model tables in step with the state). A listener may
  also give the same writes as :class:`StateWrites`: parts of one SQL statement, which the
  write path adds to the move's own statement on PostgreSQL (one prepared statement, one
  round trip, all or nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

_options_providers: dict[str, list[Callable[[dict[str, Any]], dict[str, Any]]]] = {}
_state_listeners: dict[str, list[Callable[[Any, dict[str, Any]], None]]] = {}


@dataclass(frozen=True)
class StateWrites:
    """A state listener's writes as common table expressions of one PostgreSQL statement.

    ``ctes``: ``name AS (...)`` clauses, constant text, with ``%s`` parameters. They may read
    the CTE ``saved``: one row (``game_id``) when the state is being saved, none when the
    move lost its compare-and-set (then they must write nothing). ``params(game, state)``
    gives their parameters, in order. The text never changes, so the statement is prepared
    once per connection; every value travels as a parameter."""

    ctes: tuple[str, ...]
    params: Callable[[Any, dict[str, Any]], list[Any]]


_state_writes: dict[Callable[..., None], StateWrites] = {}


def register_options_provider(kind: str, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    if fn not in _options_providers.setdefault(kind, []):
        _options_providers[kind].append(fn)


def register_state_listener(kind: str, fn: Callable[[Any, dict[str, Any]], None], writes: StateWrites | None = None) -> None:
    if fn not in _state_listeners.setdefault(kind, []):
        _state_listeners[kind].append(fn)
    if writes is not None:
        _state_writes[fn] = writes


def prepare_options(kind: str, options: dict[str, Any]) -> dict[str, Any]:
    for fn in _options_providers.get(kind, []):
        options = fn(options)
    return options


def state_saved(kind: str, game: Any, state: dict[str, Any]) -> None:
    for fn in _state_listeners.get(kind, []):
        fn(game, state)


def has_state_listeners(kind: str) -> bool:
    return bool(_state_listeners.get(kind))


def state_writes(kind: str) -> list[StateWrites] | None:
    """Every listener's :class:`StateWrites` for ``kind`` (an empty list: no listeners), or
    None when a listener has none (then the listeners run as functions, in a transaction)."""
    writes = [_state_writes.get(fn) for fn in _state_listeners.get(kind, [])]
    return None if None in writes else writes  # type: ignore[return-value]
