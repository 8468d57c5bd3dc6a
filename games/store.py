"""The write path's SQL, written by hand.

Measured on PostgreSQL over loopback (docs/PERFORMANCE.md): building the ORM queries
for one move cost three to four times their round trips (loading the game with the
idempotency subquery 1.4 ms through the ORM against 0.17 ms as plain SQL; the
compare-and-set ``UPDATE`` in ``atomic()`` 1.5 ms against 0.46 ms). Everything else
keeps using the ORM; these few statements are portable SQL that runs unchanged on
SQLite and PostgreSQL, with values prepared by the model fields themselves.

It also remembers, per process, the games it last loaded or saved (``_known``), so the
next command on a game skips the load: the compare-and-set matches on ``version`` *and*
``updated_at`` (which every other writer, admin included, changes), so a remembered game
that someone else changed meanwhile fails it, is forgotten and reloaded. Nothing is
remembered that was not committed. A game master's seat change moves ``updated_at`` too;
seats are re-read at least every ``KNOWN_FOR`` seconds all the same.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, InterfaceError, OperationalError, connection, connections, transaction

from . import hooks, jsontext
from .errors import database_busy
from .models import Action, Game, Seat
from .turns import turns_track

log = logging.getLogger(__name__)
# Django's ``connection`` is one object per thread and, on an event loop, one per task: every
# WebSocket consumer that touched it on the loop got a DatabaseWrapper of its own (with its
# operations, features, client, ...), some hundred objects living as long as the socket. At
# 1,000 sockets they made each full garbage collection take 90-150 ms. What may run on the
# loop uses this one wrapper instead, for its vendor, operations and error mapping only: it
# never connects (the loop's own connection is ``_loop_connection``'s).
_db = connections.create_connection(DEFAULT_DB_ALIAS)
_q = _db.ops.quote_name
GAME = _q(Game._meta.db_table)
ACTION = _q(Action._meta.db_table)
SEAT = _q(Seat._meta.db_table)

# Model.from_db wants the loaded fields' values in the model's field order.
_LOAD_FIELDS = tuple(f.attname for f in Game._meta.concrete_fields if f.attname in {"id", "kind", "code", "status", "version", "state", "watched", "turn_seconds", "bank_seconds", "increment_seconds"})
_STATE_AT = _LOAD_FIELDS.index("state")
# The seats as "index:is_bot,..." in the same round trip (what the broadcast and the
# bot check need); string aggregation is spelled differently per database.
_SEAT_ITEM = f"s.{_q('index')} || ':' || " + ("CAST(s.is_bot AS integer)" if _db.vendor == "postgresql" else "s.is_bot")
_SEAT_AGG = f"string_agg({_SEAT_ITEM}, ',')" if _db.vendor == "postgresql" else f"group_concat({_SEAT_ITEM}, ',')"
_LOAD = (
    f"SELECT {', '.join('g.' + _q(f) for f in _LOAD_FIELDS)}, g.updated_at, "
    f"(SELECT a.sequence FROM {ACTION} a WHERE a.game_id = g.id AND a.command_id = %s) AS previous_sequence, "
    f"(SELECT {_SEAT_AGG} FROM {SEAT} s WHERE s.game_id = g.id) AS seats "
    f"FROM {GAME} g WHERE g.code = %s"
)
_STATE_VALUE = "CAST(%s AS jsonb)" if _db.vendor == "postgresql" else "%s"
_CAS = (
    f"UPDATE {GAME} SET state = {_STATE_VALUE}, version = version + 1, updated_at = %s, status = %s, finished_at = %s "
    f"WHERE id = %s AND version = %s AND updated_at = %s AND status = %s"
)
_APPEND_COLUMNS = "(game_id, sequence, seat, command, events, command_id, created_at)"
_APPEND = f"INSERT INTO {ACTION} {_APPEND_COLUMNS} VALUES (%s, %s, %s, %s, %s, %s, %s)"
# PostgreSQL: compare-and-set and append in one statement, so one round trip and
# atomic on its own (a unique-violation on the command id undoes the update too).
_CAS_AND_APPEND = (
    f"WITH moved AS ({_CAS} RETURNING id) "
    f"INSERT INTO {ACTION} {_APPEND_COLUMNS} SELECT id, %s, %s, %s, %s, %s, %s FROM moved"
)
_COMMITTED = f"SELECT 1 FROM {ACTION} WHERE game_id = %s AND sequence = %s AND created_at = %s"
# PostgreSQL, a kind whose state listeners give their writes as hooks.StateWrites: the
# compare-and-set, the append and those writes in one statement, whose text is the same for
# every move of the kind (prepared once per connection). The listeners' CTEs read ``saved``,
# which is empty when the compare-and-set lost: then nothing at all is written and no row
# comes back; a command id used concurrently fails the whole statement.
_SAVED = f"saved AS (INSERT INTO {ACTION} {_APPEND_COLUMNS} SELECT id, %s, %s, %s, %s, %s, %s FROM moved RETURNING game_id)"

_state_field = Game._meta.get_field("state")
_json_field = Action._meta.get_field("command")
_time_field = Game._meta.get_field("updated_at")


KNOWN_MAX = 4096  # games remembered per process
# Seconds before a remembered game is read again, seats included. Whatever changes a game's
# seats moves its ``updated_at`` (``services.game_seats_changed``), so a remembered copy
# fails its compare-and-set at once; this bounds only a change made behind the app's back.
# (At 10 s, a table moving every few seconds went to the database thread every third move.)
KNOWN_FOR = 300.0


@dataclass(frozen=True)
class _Known:
    id: int
    kind: str
    code: str
    version: int
    updated_at: Any  # as the database holds it: what the compare-and-set matches
    state_text: str
    seat_list: tuple[tuple[int, bool], ...]
    read_at: float  # when its seats were read
    state_ours: bool = False  # jsontext wrote state_text with orjson: orjson reads it back exactly


_known: OrderedDict[str, _Known] = OrderedDict()
_known_lock = threading.Lock()


def _remember(known: _Known) -> None:
    with _known_lock:
        _known[known.code] = known
        _known.move_to_end(known.code)
        while len(_known) > KNOWN_MAX:
            _known.popitem(last=False)


def _recall(code: str) -> _Known | None:
    with _known_lock:
        known = _known.get(code)
    if known is None or time.monotonic() - known.read_at > KNOWN_FOR:
        return None
    return known


def known_export(code: str, version: int) -> dict[str, Any] | None:
    """What this process remembers of game ``code`` at ``version``, as plain values: the broadcast
    of that version carries it to the other processes (:func:`known_receive`), so a move made
    here does not make the next move there on the same game lose its compare-and-set and be
    read again. None when this process does not remember that version."""
    with _known_lock:
        known = _known.get(code)
    if known is None or known.version != version:
        return None
    stamp = known.updated_at
    return {
        "id": known.id, "kind": known.kind, "version": known.version, "state_text": known.state_text,
        "state_ours": known.state_ours, "seat_list": [list(seat) for seat in known.seat_list],
        "updated_at": stamp.isoformat() if isinstance(stamp, datetime.datetime) else stamp,
        "updated_at_is_datetime": isinstance(stamp, datetime.datetime),
        "age": time.monotonic() - known.read_at,
    }


def known_receive(code: str, version: int, exported: dict[str, Any] | None) -> None:
    """Another process committed ``version`` of game ``code``: remember it as that process did
    (``exported``, from :func:`known_export`), or, without it, forget an older copy. A copy as
    new or newer stays. Whatever is remembered is still checked by the compare-and-set."""
    with _known_lock:
        known = _known.get(code)
    if known is not None and known.version >= version:
        return
    if exported is None or exported.get("version") != version:
        forget(code)
        return
    stamp = exported["updated_at"]
    _remember(_Known(
        exported["id"], exported["kind"], code, version,
        datetime.datetime.fromisoformat(stamp) if exported["updated_at_is_datetime"] else stamp,
        exported["state_text"], tuple((int(index), bool(is_bot)) for index, is_bot in exported["seat_list"]),
        time.monotonic() - exported["age"], exported["state_ours"],
    ))


def forget(code: str | None = None) -> None:
    """Drop what this process remembers of game ``code`` (of every game: None)."""
    with _known_lock:
        if code is None:
            _known.clear()
        else:
            _known.pop(code, None)


def _game(known: _Known, state: Any) -> Game:
    values = [{"id": known.id, "kind": known.kind, "code": known.code, "status": Game.Status.ACTIVE,
               "version": known.version, "state": state, "watched": False, "turn_seconds": None, "bank_seconds": None,
               "increment_seconds": None}[f]
              for f in _LOAD_FIELDS]
    game = Game.from_db(_db.alias, _LOAD_FIELDS, values)
    game.db_updated_at, game.seat_list, game.read_at = known.updated_at, list(known.seat_list), known.read_at
    return game


def game_recall(*, code: str) -> Game | None:
    """The active game ``code`` as this process remembers it (see :func:`game_load`), without
    a query; None when it is not remembered."""
    known = _recall(code)
    if known is None:
        return None
    game = _game(known, jsontext.loads(known.state_text, ours=known.state_ours))
    game.previous_sequence, game.remembered = None, True
    return game


def game_load(*, code: str, command_id: str | None, fresh: bool = False) -> Game | None:
    """The game's fields a command needs (others load lazily if used), plus
    ``previous_sequence`` (the sequence the same ``command_id`` already produced, or None)
    and ``seat_list`` (the (index, is_bot) of its seats).

    Unless ``fresh``, an active game this process remembers comes without a query; it has
    ``remembered`` set and ``previous_sequence`` None (unknown): before refusing a command on
    it, the caller asks again with ``fresh``."""
    game = None if fresh else game_recall(code=code)
    if game is not None:
        return game
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
        forget(code)
        return None
    *values, updated_at, previous, seats = row
    state_text = values[_STATE_AT]
    values[_STATE_AT] = _state_field.from_db_value(state_text, None, connection)
    game = Game.from_db(connection.alias, _LOAD_FIELDS, values)
    game.previous_sequence, game.remembered, game.db_updated_at, game.read_at = previous, False, updated_at, time.monotonic()
    game.seat_list = sorted((int(i), b == "1") for i, _, b in (item.partition(":") for item in seats.split(","))) if seats else []
    # A watched game (games/turns.py) is never remembered: its moves take the transaction's path.
    if game.status == Game.Status.ACTIVE and not game.watched and isinstance(state_text, str):
        _remember(_Known(game.pk, game.kind, game.code, game.version, updated_at, state_text, tuple(game.seat_list), game.read_at))
    else:
        forget(code)
    return game


def _execute(sql: str, params: list[Any]) -> tuple[tuple[Any, ...] | None, int]:
    """Run one of this module's statements: (its first row or None, its row count).

    On PostgreSQL it goes through a server-binding psycopg cursor as a prepared statement
    on the same session Django uses: Django's own cursors bind client-side (escaping every
    value, the state's JSON included, into the SQL text) and never prepare, so PostgreSQL
    parsed and planned the compare-and-set's two-statement CTE for every move. Errors
    come out as Django's (``IntegrityError``, ``OperationalError``), as from its cursors."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return (cursor.fetchone() if cursor.description else None), cursor.rowcount
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=True)
        return (cursor.fetchone() if cursor.description else None), cursor.rowcount


def _fetch_one(sql: str, params: list[Any]) -> tuple[Any, ...] | None:
    return _execute(sql, params)[0]


@dataclass(frozen=True)
class _Move:
    """One move's compare-and-set and append, as statement parameters."""

    version: int  # the game's version once saved
    cas: list[Any]
    append: list[Any]
    state_text: str
    updated_at: Any
    state_ours: bool  # see _Known


def _move(*, game: Game, state: dict[str, Any], seat: int | None, command: dict[str, Any], events: list[dict[str, Any]],
          command_id: str | None, finished: bool, now: datetime.datetime) -> _Move:
    status = Game.Status.FINISHED if finished else Game.Status.ACTIVE
    stamp = _time_field.get_db_prep_save(now, _db)  # updated_at, created_at (and finished_at)
    state_text, state_ours = jsontext.encode(state)
    cas = [
        state_text,
        stamp,
        status,
        stamp if finished else None,
        game.pk,
        game.version,
        game.db_updated_at,
        Game.Status.ACTIVE,
    ]
    append = [
        game.version + 1,
        seat,
        _json_field.get_db_prep_save(command, _db),
        _json_field.get_db_prep_save(events, _db),
        command_id,
        stamp,
    ]
    return _Move(game.version + 1, cas, append, state_text, stamp, state_ours)


def _move_committed(game: Game, move: _Move, finished: bool) -> None:
    """What this process remembers once ``move`` is committed."""
    if finished or game.watched:
        forget(game.code)
    else:
        _remember(_Known(game.pk, game.kind, game.code, move.version, move.updated_at, move.state_text,
                         tuple(game.seat_list), game.read_at, move.state_ours))


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
    listeners in the same transaction. Once committed, the new version is remembered."""
    move = _move(game=game, state=state, seat=seat, command=command, events=events, command_id=command_id,
                 finished=finished, now=now)
    # A watched game's turn fields are written in the same transaction, by functions (games/turns.py).
    sql = None if game.watched else _save_statement(game.kind)
    try:
        if sql is not None and not connection.in_atomic_block:  # this one statement is the transaction
            won = _execute(sql, _save_params(game, move, state))[1] == 1
        else:
            with transaction.atomic():
                if sql is not None:
                    won = _execute(sql, _save_params(game, move, state))[1] == 1
                elif connection.vendor == "postgresql":  # listeners that are only functions, after it
                    won = _execute(_CAS_AND_APPEND, move.cas + move.append)[1] == 1
                else:
                    won = _execute(_CAS, move.cas)[1] == 1
                    if won:
                        _execute(_APPEND, [game.pk, *move.append])
                if won and sql is None:
                    hooks.state_saved(game.kind, game, state)
                if won and game.watched:
                    turns_track(game=game, state=state, now=now, finished=finished)
    except (OperationalError, InterfaceError) as exc:
        forget(game.code)
        if connection.in_atomic_block or database_busy(exc):  # busy: nothing was sent, nothing written
            raise
        # The connection broke (the server restarted, say) with the outcome unknown: the
        # commit may or may not have happened. Ask on a fresh connection whether this
        # very action (its game, sequence and creation time) is in the log.
        connection.close()
        won = move_in_log(game=game, move=move)
    except Exception:
        forget(game.code)
        raise
    if not won:
        forget(game.code)
        return False
    game.db_updated_at = move.updated_at
    transaction.on_commit(lambda: _move_committed(game, move, finished))
    return True


def _save_statement(kind: str) -> str | None:
    """PostgreSQL: the one statement that saves a move of ``kind`` together with its state
    listeners' writes (a row comes back when it won); None on SQLite, or when a listener
    runs only as a function (then it runs after the compare-and-set, in a transaction)."""
    if _db.vendor != "postgresql":
        return None
    writes = hooks.state_writes(kind)
    return None if writes is None else _statement_with(tuple(writes))


@functools.lru_cache(maxsize=64)
def _statement_with(writes: tuple[hooks.StateWrites, ...]) -> str:
    """The save's text for these listeners' writes, built once (it is the same for every move)."""
    if not writes:
        return _CAS_AND_APPEND
    ctes = ", ".join(cte for w in writes for cte in w.ctes)
    return f"WITH moved AS ({_CAS} RETURNING id), {_SAVED}, {ctes} SELECT game_id FROM saved"


def _save_params(game: Game, move: _Move, state: dict[str, Any]) -> list[Any]:
    writes = hooks.state_writes(game.kind) or []
    return [*move.cas, *move.append, *(p for w in writes for p in w.params(game, state))]


def move_in_log(*, game: Game, move: _Move) -> bool:
    """Whether ``move`` (its game, sequence and creation time) is in the log: the outcome of
    a save whose connection broke before the answer came."""
    params = [game.pk, move.version, move.append[-1]]
    try:
        return _fetch_one(_COMMITTED, params) is not None
    except (OperationalError, InterfaceError):
        if connection.in_atomic_block:
            raise
        connection.close()  # a persistent connection the server dropped too: once more, afresh
        return _fetch_one(_COMMITTED, params) is not None


# --- the same save, awaited on an event loop --------------------------------------------
#
# A WebSocket command on a game this process remembers needs the database for one
# statement only (the compare-and-set + append above). Moving the whole command to the
# database thread and its answer back to the event loop cost two thread wake-ups per move;
# on PostgreSQL the consumer can instead await that very statement on a connection of the
# loop's own (psycopg's async connection, one per loop, prepared statements). Everything
# else about the save is shared with ``move_save``.


class OutcomeUnknown(Exception):
    """The loop's connection broke before the answer: ask :func:`move_in_log` (in the
    database thread) whether ``move`` was committed."""

    def __init__(self, move: _Move) -> None:
        super().__init__("the connection broke before the commit's answer")
        self.move = move


_loop_connections: dict[Any, psycopg.AsyncConnection] = {}


def saves_on_loop(game: Game) -> bool:
    """Whether ``move_save_on_loop`` can save a move of ``game``: PostgreSQL, and state listeners
    (if any) that give their writes as ``hooks.StateWrites`` (ORM code needs the database thread), and a
    game whose turns are not tracked (games/turns.py writes through the ORM)."""
    return not game.watched and _save_statement(game.kind) is not None


async def _loop_connection() -> psycopg.AsyncConnection:
    loop = asyncio.get_running_loop()
    conn = _loop_connections.get(loop)
    if conn is None or conn.closed:
        params = {k: v for k, v in _db.get_connection_params().items() if k != "cursor_factory"}
        conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
        current = _loop_connections.get(loop)
        if current is not None and not current.closed:  # another task connected meanwhile
            await conn.close()
            return current
        for other in [other for other in _loop_connections if other.is_closed()]:
            del _loop_connections[other]
        _loop_connections[loop] = conn
    return conn


async def move_save_on_loop(
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
    """``move_save`` for a caller on an event loop, when :func:`saves_on_loop`: the one
    statement (with the state listeners' writes in it) awaited on the loop's own connection. False when another
    writer got there first or the loop has no connection to save on; IntegrityError (Django's) when
    ``command_id`` was used concurrently; nothing is written in any of these cases.
    :class:`OutcomeUnknown` when the connection broke with the statement sent."""
    move = _move(game=game, state=state, seat=seat, command=command, events=events, command_id=command_id,
                 finished=finished, now=now)
    try:
        with _db.wrap_database_errors:
            conn = await _loop_connection()
    except (OperationalError, InterfaceError):  # cannot connect: nothing was sent
        log.warning("no database connection on the event loop; saving from the database thread", exc_info=True)
        return False
    sql, params = _save_statement(game.kind), _save_params(game, move, state)
    try:
        with _db.wrap_database_errors:
            cursor = await conn.execute(sql, params, prepare=True)
        won = cursor.rowcount == 1
    except (OperationalError, InterfaceError):
        forget(game.code)
        if conn.broken or conn.closed:  # the next save connects afresh
            _loop_connections.pop(asyncio.get_running_loop(), None)
            await conn.close()
        raise OutcomeUnknown(move) from None
    except Exception:
        forget(game.code)
        raise
    if not won:
        forget(game.code)
        return False
    game.db_updated_at = move.updated_at
    _move_committed(game, move, finished)
    return True
