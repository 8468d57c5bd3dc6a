"""The write path's SQL, written by hand.

Measured on PostgreSQL over loopback (docs/PERFORMANCE.md): building the ORM queries
for one move cost three to four times their round trips (loading the game with the
idempotency subquery 1.4 ms through the ORM against 0.17 ms as plain SQL; the
compare-and-set ``UPDATE`` in ``atomic()`` 1.5 ms against 0.46 ms). Everything else
keeps using the ORM; these few statements are portable SQL that runs unchanged on
SQLite and PostgreSQL, with values prepared by the model fields themselves.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import InterfaceError, OperationalError, connection

from . import hooks
from .models import Action, Game, Seat

_q = connection.ops.quote_name
GAME = _q(Game._meta.db_table)
ACTION = _q(Action._meta.db_table)
SEAT = _q(Seat._meta.db_table)

# Model.from_db wants the loaded fields' values in the model's field order.
_LOAD_FIELDS = tuple(f.attname for f in Game._meta.concrete_fields if f.attname in {"id", "kind", "code", "status", "version", "state"})
_STATE_AT = _LOAD_FIELDS.index("state")
# The seats as "index:is_bot,..." in the same round trip (what the broadcast and the
# bot check need); string aggregation is spelled differently per database.
_SEAT_ITEM = f"s.{_q('index')} || ':' || " + ("CAST(s.is_bot AS integer)" if connection.vendor == "postgresql" else "s.is_bot")
_SEAT_AGG = f"string_agg({_SEAT_ITEM}, ',')" if connection.vendor == "postgresql" else f"group_concat({_SEAT_ITEM}, ',')"
_LOAD = (
    f"SELECT {', '.join('g.' + _q(f) for f in _LOAD_FIELDS)}, "
    f"(SELECT a.sequence FROM {ACTION} a WHERE a.game_id = g.id AND a.command_id = %s) AS previous_sequence, "
    f"(SELECT {_SEAT_AGG} FROM {SEAT} s WHERE s.game_id = g.id) AS seats "
    f"FROM {GAME} g WHERE g.code = %s"
)
_CAS = (
    f"UPDATE {GAME} SET state = %s, version = version + 1, updated_at = %s, status = %s, finished_at = %s "
    f"WHERE id = %s AND version = %s AND status = %s"
)
_APPEND_COLUMNS = "(game_id, sequence, seat, command, events, command_id, created_at)"
_APPEND = f"INSERT INTO {ACTION} {_APPEND_COLUMNS} VALUES (%s, %s, %s, %s, %s, %s, %s)"
# PostgreSQL: compare-and-set and append in one statement, so one round trip and
# atomic on its own (a unique-violation on the command id undoes the update too).
_CAS_AND_APPEND = (
    f"WITH moved AS ({_CAS} RETURNING id) "
    f"INSERT INTO {ACTION} {_APPEND_COLUMNS} SELECT id, %s, %s, %s, %s, %s, %s FROM moved"
)
_SEATS = f"SELECT {_q('index')}, is_bot FROM {SEAT} WHERE game_id = %s ORDER BY {_q('index')}"

_state_field = Game._meta.get_field("state")
_json_field = Action._meta.get_field("command")
_time_field = Game._meta.get_field("updated_at")


def game_load(*, code: str, command_id: str | None) -> Game | None:
    """The game's fields a command needs (others load lazily if used), plus
    ``previous_sequence`` (the sequence the same ``command_id`` already produced, or None)
    and ``seat_list`` (the (index, is_bot) of its seats)."""
    try:
        row = _fetch_one(_LOAD, [command_id, code])
    except (OperationalError, InterfaceError):
        # A persistent connection the server dropped (a restart, an idle timeout): this
        # is the command's first query and a read, so reconnect and ask again, once.
        if connection.in_atomic_block:
            raise
        connection.close()
        row = _fetch_one(_LOAD, [command_id, code])
    if row is None:
        return None
    *values, previous, seats = row
    values[_STATE_AT] = _state_field.from_db_value(values[_STATE_AT], None, connection)
    game = Game.from_db(connection.alias, _LOAD_FIELDS, values)
    game.previous_sequence = previous
    game.seat_list = sorted((int(i), b == "1") for i, _, b in (item.partition(":") for item in seats.split(","))) if seats else []
    return game


def _fetch_one(sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def move_save(
    *,
    game: Game,
    state: dict[str, Any],
    seat: int | None,
    command: dict[str, Any],
    events: list[dict[str, Any]],
    command_id: str | None,
    finished: bool,
    now: datetime.datetime,
) -> bool:
    """Compare-and-set ``game`` from its loaded version to the next and append the action.
    False when another writer got there first (nothing written). Raises IntegrityError when
    ``command_id`` was used concurrently (nothing written either). Runs the kind's state
    listeners in the same transaction."""
    status = Game.Status.FINISHED if finished else Game.Status.ACTIVE
    cas = [
        _state_field.get_db_prep_save(state, connection),
        _time_field.get_db_prep_save(now, connection),
        status,
        _time_field.get_db_prep_save(now if finished else None, connection),
        game.pk,
        game.version,
        Game.Status.ACTIVE,
    ]
    append = [
        game.version + 1,
        seat,
        _json_field.get_db_prep_save(command, connection),
        _json_field.get_db_prep_save(events, connection),
        command_id,
        _time_field.get_db_prep_save(now, connection),
    ]
    single = connection.vendor == "postgresql" and not connection.in_atomic_block and not hooks.has_state_listeners(game.kind)
    if single:  # autocommit: this one statement is the transaction
        with connection.cursor() as cursor:
            cursor.execute(_CAS_AND_APPEND, cas + append)
            return cursor.rowcount == 1
    from django.db import transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(_CAS, cas)
        if cursor.rowcount != 1:
            return False
        cursor.execute(_APPEND, [game.pk, *append])
        hooks.state_saved(game.kind, game, state)
    return True


def seat_list(*, game_id: int) -> list[tuple[int, bool]]:
    """(index, is_bot) of every seat: what the broadcast and the bot check need."""
    with connection.cursor() as cursor:
        cursor.execute(_SEATS, [game_id])
        return [(index, bool(is_bot)) for index, is_bot in cursor.fetchall()]
