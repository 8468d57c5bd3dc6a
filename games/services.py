"""Every write to a game goes through this module.

The write path (:func:`game_command`) is the one place where a command becomes
part of a game: load → engine.apply → compare-and-set on ``version`` → append
the :class:`~games.models.Action` → after commit, send each seat its own view.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from channels.db import database_sync_to_async
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from . import broadcast, hooks, jsontext, store, takeback
from .clocks import Clock, clock_check, expiries_keep, turn_time
from .engines.base import RulesError
from .engines.registry import get_engine
from .engines.specs import PLATFORM
from .errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized
from .models import Action, Game, Seat, SeatToken
from .names import name_clean
from .replay import ADMIN, SEAT_RENAMED, seat_renamed
from .selectors import Actor, actor_for_token, game_get
from .tokens import hash_token, new_join_code, new_token, normalize_join_code
from .turns import game_watch, turns_track

log = logging.getLogger(__name__)

# The seats' colours, one palette for the waiting room and every title: the Okabe–Ito eight (told apart
# with the common colour-vision deficiencies), named as the titles' COLORS name them; static/js/junction.js
# draws them. The colour a seat picks is the colour it plays (game_start hands them to setup).
PALETTE = ("orange", "sky", "green", "yellow", "blue", "vermilion", "purple", "black")
MAX_CAS_RETRIES = 5
PLATFORM_COMMANDS = {spec.name for spec in PLATFORM}


@dataclass
class CommandResult:
    version: int
    events: list[dict[str, Any]] = field(default_factory=list)
    cmd: str = ""
    duplicate: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"response": f"{self.cmd}-response", "status": "ok", "version": self.version, "events": self.events}


# --- lobby --------------------------------------------------------------------------


@dataclass
class GameCreated:
    game: Game
    host_token: str
    seat: Seat | None


def game_create(
    *, kind: str, options: dict[str, Any] | None = None, host_name: str | None = None, host_color: str | None = None,
    user: Any | None = None, turn_seconds: int | None = None, bank_seconds: int | None = None,
    increment_seconds: int | None = None, listed: bool = False, host_token: str | None = None,
) -> GameCreated:
    """A new game in the lobby. With ``host_name`` the host sits at seat 0; ``user`` (a signed-in
    player, else None) then holds that seat (seat_user_link). ``listed``: an open table, in the
    lobby list for anyone (games/listing.py); by default unlisted, joined by its code only. ``host_token``:
    the host's token when the caller made it (games/rematch.py), else a new one. The clock
    (games/clocks.py): ``turn_seconds``, or ``bank_seconds`` with ``increment_seconds``, or none."""
    engine = _engine_or_400(kind)
    if type(listed) is not bool:
        raise ServiceError("invalid-request", "listed must be true or false.")
    host_name = _name_or_400(host_name) if host_name else None
    clock = clock_check(engine=engine, turn_seconds=turn_seconds, bank_seconds=bank_seconds, increment_seconds=increment_seconds)
    try:
        clean_options = engine.normalize_options(hooks.prepare_options(kind, dict(options or {})))
    except RulesError as exc:
        raise ServiceError(exc.code, exc.message) from None
    host_token = host_token or new_token()
    for _ in range(20):
        try:
            with transaction.atomic():
                game = Game.objects.create(
                    kind=kind,
                    code=new_join_code(),
                    options=clean_options,
                    seed=secrets.randbits(62),
                    host_token_hash=hash_token(host_token),
                    turn_seconds=clock.turn_seconds,
                    bank_seconds=clock.bank_seconds,
                    increment_seconds=clock.increment_seconds,
                    watched=clock != Clock(),  # a clock: its turns are watched from the start
                    listed=listed,
                )
                seat = None
                if host_name:
                    seat = Seat.objects.create(
                        game=game,
                        index=0,
                        name=host_name,
                        color=host_color or PALETTE[0],
                        token_hash=game.host_token_hash,
                        is_host=True,
                    )
            break
        except IntegrityError:  # join code taken: draw another
            continue
    else:  # pragma: no cover - 23^5 codes
        raise ServiceError("no-code-available", "Could not allocate a join code; try again.", status=503)
    if listed:  # an unlisted game is news to nobody in the lobby
        transaction.on_commit(_guarded(broadcast.lobby_changed))
    if seat is not None and _signed_in(user):
        seat_user_link(seat=seat, user=user)
    return GameCreated(game=game, host_token=host_token, seat=seat)


def seat_join(
    *, code: str, name: str, color: str | None = None, token: str | None = None, user: Any | None = None
) -> tuple[Seat, str | None, bool]:
    """Take a seat. Returns (seat, token, created). A known token gets its seat back
    (token None in the result: the caller already holds it). ``user``: the signed-in player
    (None for a guest), who then holds the seat (seat_user_link)."""
    game = game_get(code=code)
    user = _signed_in(user)
    if token:
        actor = actor_for_token(game=game, token=token)
        if actor.seat is not None:
            seat = game.seats.get(index=actor.seat)
            if user is not None and seat.user_id is None:
                seat_user_link(seat=seat, user=user)
            return seat, None, False
    name = _name_or_400(name)
    host_joining = bool(token) and hash_token(token) == game.host_token_hash
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.LOBBY:
            raise Conflict("game-started", "This game has already started; you can watch it instead.")
        engine = get_engine(game.kind)
        seats = list(game.seats.all())
        if len(seats) >= engine.max_players:
            raise Conflict("game-full", f"This game is full ({engine.max_players} players).")
        taken = {s.color for s in seats}
        if color and color in taken:
            raise ServiceError("color-taken", f"The colour {color} is taken; pick another.")
        color = color or next((c for c in PALETTE if c not in taken), "")
        new_secret = None if host_joining else new_token()
        seat = Seat.objects.create(
            game=game,
            index=len(seats),
            name=name,
            color=color,
            token_hash=game.host_token_hash if host_joining else hash_token(new_secret),
            is_host=host_joining,
        )
        transaction.on_commit(lambda: _after_commit(game.pk, schedule_bots=False))
    if user is not None:
        seat_user_link(seat=seat, user=user)
    return seat, (token if host_joining else new_secret), True


# --- seats of signed-in players (players/: accounts and My games) ------------------------


def _signed_in(user: Any | None) -> Any | None:
    """``user`` when it is a signed-in account (not None, not Django's AnonymousUser)."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def seat_user_link(*, seat: Seat, user: Any) -> bool:
    """``seat`` is ``user``'s from now on (My games lists it) unless another account holds it;
    its game's turns are tracked from now on (turns.game_watch: clocks and turn notices).
    True when the seat is the user's afterwards."""
    if seat.user_id == user.pk:
        linked = True
    else:
        linked = bool(Seat.objects.filter(pk=seat.pk, user__isnull=True).update(user=user))
        if linked:
            seat.user = user
    if linked:
        game_watch(game_id=seat.game_id)
    return linked


def seat_device_tokens_revoke(*, seat: Seat | None = None, user: Any = None) -> None:
    """The device tokens a signed-in player made (My games' "Open", ``SeatToken``) stop working:
    those of ``seat``, which went to another device or person, or every one of ``user``'s, who
    deleted their account. Runs in the caller's transaction; after commit the sockets holding
    them are told and closed, as a rejoin code's old token is."""
    if (seat is None) == (user is None):
        raise TypeError("seat_device_tokens_revoke takes a seat or a user")
    tokens = SeatToken.objects.filter(seat_id=seat.pk) if seat is not None else SeatToken.objects.filter(Q(user=user) | Q(seat__user=user))
    rows = list(tokens.values_list("pk", "token_hash", "seat__game_id", "seat__index"))
    if not rows:
        return
    SeatToken.objects.filter(pk__in=[pk for pk, *_ in rows]).delete()
    for _, digest, game_id, index in rows:
        transaction.on_commit(_guarded(lambda digest=digest, game_id=game_id, index=index: _token_revoked_send(game_id, token_hash=digest, seat=index)))


def seat_add_bot(*, code: str, actor: Actor, bot: str, name: str | None = None) -> Seat:
    game = game_get(code=code)
    _require_host(actor)
    name = _name_or_400(name) if name else None
    engine = get_engine(game.kind)
    if bot not in engine.bots:
        raise ServiceError("unknown-bot", f"{engine.title} has no bot {bot!r}; choose one of {', '.join(engine.bots) or 'none'}.")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.LOBBY:
            raise Conflict("game-started", "Bots can only be seated before the game starts.")
        seats = list(game.seats.all())
        if len(seats) >= engine.max_players:
            raise Conflict("game-full", f"This game is full ({engine.max_players} players).")
        taken = {s.color for s in seats}
        seat = Seat.objects.create(
            game=game,
            index=len(seats),
            name=name or f"{bot.title()} bot {len(seats) + 1}",
            color=next((c for c in PALETTE if c not in taken), ""),
            token_hash=hash_token(new_token()),
            is_bot=True,
            bot=bot,
        )
        transaction.on_commit(lambda: _after_commit(game.pk, schedule_bots=False))
    return seat


def game_start(*, code: str, actor: Actor) -> CommandResult:
    game = game_get(code=code)
    _require_host(actor)
    if game.status != Game.Status.LOBBY:
        raise Conflict("game-started", "This game has already started.", version=game.version)
    engine = get_engine(game.kind)
    with transaction.atomic():
        # The seats are read under the game's lock, as joins and the host's reordering take it
        # (games/seating.py): a join or a reorder either comes before the start, whole, or is refused after.
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.LOBBY:
            raise Conflict("game-started", "This game has already started.", version=game.version)
        seats = list(game.seats.all())
        if len(seats) < engine.min_players:
            raise ServiceError(
                "not-enough-players", f"{engine.title} needs at least {engine.min_players} players; {len(seats)} seated."
            )
        options = game.options
        if getattr(engine, "takes_seat_colors", False):  # a title with colours: each seat plays its own (seat_colors.py)
            options = {**options, "seat_colors": [s.color for s in seats]}
        try:
            state = engine.setup(players=[s.name for s in seats], options=options, seed=game.seed)
        except RulesError as exc:
            raise ServiceError(exc.code, exc.message) from None
        events = [{"type": "game-started", "players": [s.name for s in seats]}]
        updated = Game.objects.filter(pk=game.pk, version=0, status=Game.Status.LOBBY).update(
            options=options, state=state, version=1, status=Game.Status.ACTIVE, started_at=timezone.now(), updated_at=timezone.now()
        )
        if not updated:
            raise Conflict("game-started", "This game has already started.")
        Action.objects.create(game=game, sequence=1, seat=actor.seat, command={"cmd": "start"}, events=events)
        hooks.state_saved(game.kind, game, state)
        turns_track(game=game, state=state, now=timezone.now())
        transaction.on_commit(lambda: _after_commit(game.pk))
    return CommandResult(version=1, events=events, cmd="start")


# --- the write path -----------------------------------------------------------------


def game_command(
    *,
    code: str,
    actor: Actor,
    command: dict[str, Any],
    command_id: str | None = None,
    expected_version: int | None = None,
    schedule_bots: bool = True,
) -> CommandResult:
    """Apply one command for ``actor``. Idempotent on ``command_id``; with
    ``expected_version`` a stale client gets a Conflict carrying the current version."""
    cmd = command.get("cmd")
    if cmd == "start":
        return game_start(code=code, actor=actor)
    if cmd == "seat-return":  # the one command a person may send while a bot plays their seat
        returned = seat_return(code=code, actor=actor)
        if returned is None:  # it was not away: nothing changed
            return CommandResult(version=game_get(code=code).version, events=[], cmd=cmd)
        return CommandResult(version=returned.version, events=returned.events, cmd=cmd)
    if cmd == "resign":  # games/resign.py
        from .resign import seat_resign

        resigned = seat_resign(code=code, actor=actor)
        return CommandResult(version=resigned.version, events=resigned.events, cmd=cmd)
    game = _game_for_command(code=code, command_id=command_id)
    try:
        return _command_on(
            game=game, actor=actor, command=command, command_id=command_id,
            expected_version=expected_version, schedule_bots=schedule_bots,
        )
    except ServiceError:
        if not game.remembered:
            raise
    # What this process remembered came without the idempotency lookup and may be out of
    # date (another process moved): before refusing, ask the database.
    return _command_on(
        game=_game_for_command(code=code, command_id=command_id, fresh=True), actor=actor, command=command,
        command_id=command_id, expected_version=expected_version, schedule_bots=schedule_bots,
    )


def _command_on(
    *, game: Game, actor: Actor, command: dict[str, Any], command_id: str | None,
    expected_version: int | None, schedule_bots: bool,
) -> CommandResult:
    if command_id is not None and game.previous_sequence is not None:  # a retry
        previous = _previous_result(game=game, actor=actor, command_id=command_id, command=command)
        if previous is not None:
            return previous
    if actor.is_spectator:
        raise Unauthorized("token-required", "Spectators cannot act; join the game to play.")
    engine = get_engine(game.kind)
    undo = command.get("cmd") == "undo" and game.state is not None and engine.turn_key(game.state) is not None
    if actor.seat is None and not undo:
        raise Forbidden("not-a-player", "The host has no seat in this game; take a seat to play.")
    return _command_apply(
        game=game, engine=engine, actor=actor, command=command, command_id=command_id,
        expected_version=expected_version, schedule_bots=schedule_bots, undo=undo,
    )


def _command_apply(
    *, game: Game, engine, actor: Actor, command: dict[str, Any], command_id: str | None,
    expected_version: int | None, schedule_bots: bool, undo: bool,
) -> CommandResult:
    code = game.code
    for _attempt in range(MAX_CAS_RETRIES):
        state, events, finished = _command_move(
            game=game, engine=engine, actor=actor, command=command, expected_version=expected_version, undo=undo,
        )
        now = timezone.now()
        try:
            won = store.move_save(
                game=game, state=state, seat=actor.seat, command=command, events=events,
                command_id=command_id, finished=finished, now=now,
            )
        except IntegrityError:
            # The same command id committed concurrently: answer with its result.
            if command_id is not None:
                previous = _previous_result(game=game, actor=actor, command_id=command_id, command=command)
                if previous is not None:
                    return previous
            raise
        if won:
            _command_saved(game=game, state=state, finished=finished, now=now)
            takeback.moved(game, seat=actor.seat, command=command, events=events)  # for the broadcast's take_back
            # ``game`` now carries the new state: the broadcast needs no second read. A clocked
            # game's seats changed with the turn (their turn_deadline): its summary too.
            transaction.on_commit(
                lambda saved=game, summary=finished or bool(game.watched and game.clocked): _after_commit(
                    saved.pk, schedule_bots=schedule_bots, game=saved, summary=summary
                )
            )
            return CommandResult(version=game.version, events=events, cmd=command.get("cmd"))
        # Lost the race (or what this process remembered was out of date): read it afresh.
        game = _game_for_command(code=code, command_id=None, fresh=True)
        if expected_version is not None:
            continue  # reports the conflict with the current version
    raise Conflict("busy", "The game changed too often while applying this command; try again.", version=game.version)


def _command_move(
    *, game: Game, engine, actor: Actor, command: dict[str, Any], expected_version: int | None, undo: bool,
) -> tuple[dict[str, Any], list[dict[str, Any]], bool]:
    """The command applied to ``game`` as loaded: (new state, events, finished), or the refusal."""
    if expected_version is not None and expected_version != game.version:
        raise Conflict(
            "stale-version",
            f"The game is at version {game.version}, not {expected_version}; reload and try again.",
            version=game.version,
        )
    if game.status == Game.Status.PAUSED:
        raise Conflict("game-paused", "The game master paused this game; moves are accepted again once it resumes.", version=game.version)
    if not actor.bot and actor.seat is not None and (actor.seat, True) in game.seat_list:
        # A bot plays this seat (its player's time ran out, or the host or a game master handed it
        # over): its player's device takes it back first, so the two never race for its moves.
        raise Conflict("seat-played-by-bot", "A bot is playing this seat; take it back first "
                       '(Take my seat back: {"cmd": "seat-return"}, or POST /api/games/{code}/seats/me/return).',
                       version=game.version)
    if game.status != Game.Status.ACTIVE:
        raise Conflict(f"game-{game.status}", f"This game is {game.status}; no commands are accepted.", version=game.version)
    try:
        if undo:
            from .undo import undo_plan

            state, events = undo_plan(game=game, actor=actor, command=command)
        elif command.get("cmd") == "take-back" and engine.takes_back:
            state, events = takeback.take_back_plan(game=game, actor=actor, command=command)
        else:
            state = game.state  # a fresh dict loaded from the database: apply may mutate it
            events = engine.apply(state, seat=actor.seat, command=command)
    except RulesError as exc:
        raise ServiceError(exc.code, exc.message, version=game.version) from None
    except ServiceError as exc:
        exc.extra.setdefault("version", game.version)
        raise
    return state, events, engine.is_finished(state)


def _command_saved(*, game: Game, state: dict[str, Any], finished: bool, now) -> None:
    game.state, game.version, game.updated_at = state, game.version + 1, now
    if finished:
        game.status, game.finished_at = Game.Status.FINISHED, now


async def game_command_async(
    *, code: str, actor: Actor, command: dict[str, Any], command_id: str | None = None,
    expected_version: int | None = None,
) -> CommandResult:
    """:func:`game_command` for a caller on an event loop (the WebSocket consumer).

    The usual move — a game this process remembers, a plain command, its save one PostgreSQL
    message (``store.saves_on_loop``: state listeners, if any, give statements) — takes the same
    steps here, with that message awaited on the loop: no hop to the database thread and back.
    Everything else (nothing remembered, a refusal to re-check, a lost race, undo, a game that
    ends, state listeners that are only functions, SQLite) runs :func:`game_command` in the database thread, as from the start:
    nothing was written before it does."""

    def in_thread() -> CommandResult:
        return game_command(code=code, actor=actor, command=command, command_id=command_id,
                            expected_version=expected_version)

    game = None
    if command.get("cmd") not in PLATFORM_COMMANDS | {"undo", "take-back"} and actor.seat is not None:
        game = store.game_recall(code=normalize_join_code(code))
    if game is None or not store.saves_on_loop(game):
        return await database_sync_to_async(in_thread)()
    engine = get_engine(game.kind)
    try:
        state, events, finished = _command_move(
            game=game, engine=engine, actor=actor, command=command, expected_version=expected_version, undo=False,
        )
    except ServiceError:  # refusing a remembered game: re-checked against the database first
        return await database_sync_to_async(in_thread)()
    if finished:  # its summary reads the seats afresh: the database thread does it all
        return await database_sync_to_async(in_thread)()
    now = timezone.now()
    try:
        won = await store.move_save_on_loop(
            game=game, state=state, seat=actor.seat, command=command, events=events,
            command_id=command_id, finished=False, now=now,
        )
    except IntegrityError:  # the command id is in the log already: the thread path answers it
        won = False
    except store.OutcomeUnknown as unknown:
        won = await database_sync_to_async(store.move_in_log)(game=game, move=unknown.move)
    if not won:
        return await database_sync_to_async(in_thread)()
    _command_saved(game=game, state=state, finished=False, now=now)
    takeback.moved(game, seat=actor.seat, command=command, events=events)  # the broadcast below reads no log
    _after_commit(game.pk, schedule_bots=False, game=game, summary=False)
    if _bot_to_move(game):  # bots read the game through the ORM: from the database thread
        from .bots import bots_schedule

        await database_sync_to_async(bots_schedule)(game.pk)
    return CommandResult(version=game.version, events=events, cmd=command.get("cmd"))


EDIT_STATE = "edit-state"


def game_state_edit(*, game_id: int, state: dict[str, Any], editor: str) -> CommandResult:
    """A game master replaces a running game's state (Django admin). The edit is an action in
    the log like any move (``{"cmd": "edit-state"}``, the new state in its event), so the
    version moves on, every client gets the new state, and replay still equals the stored state."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.state is None:
            raise Conflict("game-not-started", "Only a started game has a state to edit.", version=game.version)
        new_version = game.version + 1
        events = [{"type": "state-edited", "by": editor, "state": state}]
        Game.objects.filter(pk=game.pk).update(state=state, version=new_version, updated_at=now)
        Action.objects.create(
            game=game, sequence=new_version, seat=None, command={"cmd": EDIT_STATE, "by": editor}, events=events
        )
        game.state, game.version = state, new_version
        hooks.state_saved(game.kind, game, state)
        turns_track(game=game, state=state, now=now)
        transaction.on_commit(lambda: _after_commit(game.pk))
    store.forget(game.code)
    return CommandResult(version=new_version, events=events, cmd=EDIT_STATE)


def game_seats_changed(*, game_id: int) -> None:
    """A game master changed a game's seats (Django admin: a seat handed to a bot, renamed,
    removed). The game's ``updated_at`` moves, so a copy of the game that any process
    remembers fails its next compare-and-set and is read again, seats included; everyone
    gets the new seats, and a bot now on turn moves."""
    Game.objects.filter(pk=game_id).update(updated_at=timezone.now())
    code = Game.objects.filter(pk=game_id).values_list("code", flat=True).first()
    if code is not None:
        store.forget(code)
        transaction.on_commit(lambda: _after_commit(game_id))


# --- a game master's changes to a live game (Django admin) ---------------------------------
#
# Each is an action in the game's log, ``{"cmd": "admin", "action": …, "by": …}`` with its events
# (``GET /api/games/{code}/actions`` shows them), so the version moves on as for a move; every
# process's remembered copy fails its next compare-and-set (``updated_at`` moved) and everyone is
# sent the game after commit. The engines never see them: pausing is the platform's (the write
# path refuses commands of a paused game, 409 game-paused); a rename renames the player in the
# state by the platform's convention (``replay.seat_renamed``), and replay does the same. A game
# still in its lobby has no log yet: its seats change and everyone is told, nothing is logged.


def seat_rename(*, game_id: int, seat: int, name: str, by: str) -> CommandResult | None:
    """Seat ``seat`` is called ``name`` from now on, on every phone and in the game's state."""
    name = _name_or_400(name)

    def change(game: Game, target: Seat):
        if target.name == name:
            return None
        Seat.objects.filter(pk=target.pk).update(name=name)
        state = seat_renamed(game.state, seat, name) if game.state is not None else None
        return "rename-seat", {"seat": seat, "name": name}, [
            {"type": SEAT_RENAMED, "seat": seat, "from": target.name, "to": name, "by": by}], state

    return _admin_change(game_id=game_id, seat=seat, by=by, change=change)


def seat_bot_assign(*, game_id: int, seat: int, bot: str, by: str) -> CommandResult | None:
    """A bot of level ``bot`` plays seat ``seat`` from now on (a player who left); it moves at
    once when the seat is on turn."""

    def change(game: Game, target: Seat):
        engine = get_engine(game.kind)
        if bot not in engine.bots:
            raise ServiceError("unknown-bot", f"{engine.title} has no bot {bot!r}; choose one of {', '.join(engine.bots) or 'none'}.")
        if target.is_bot and target.bot == bot:
            return None
        Seat.objects.filter(pk=target.pk).update(is_bot=True, bot=bot, turn_deadline=None)  # a bot has no clock
        return "seat-to-bot", {"seat": seat, "bot": bot}, [
            {"type": "seat-to-bot", "seat": seat, "name": target.name, "bot": bot, "by": by}], None

    return _admin_change(game_id=game_id, seat=seat, by=by, change=change)


def game_pause(*, game_id: int, by: str, reason: str = "") -> CommandResult:
    """Commands (and bots) wait until :func:`game_resume`: each is answered 409 game-paused."""

    def change(game: Game, _seat):
        if game.status != Game.Status.ACTIVE:
            raise Conflict(f"game-{game.status}", f"Only an active game can be paused; this one is {game.status}.", version=game.version)
        return "pause", {"reason": reason}, [{"type": "game-paused", "by": by, "reason": reason}], None

    return _admin_change(game_id=game_id, by=by, change=change, status=Game.Status.PAUSED)


def game_resume(*, game_id: int, by: str) -> CommandResult:
    def change(game: Game, _seat):
        if game.status != Game.Status.PAUSED:
            raise Conflict(f"game-{game.status}", f"Only a paused game can be resumed; this one is {game.status}.", version=game.version)
        return "resume", {}, [{"type": "game-resumed", "by": by}], None

    return _admin_change(game_id=game_id, by=by, change=change, status=Game.Status.ACTIVE)


def game_end(*, game_id: int, by: str, reason: str) -> CommandResult | None:
    """The game master ends an active or paused game (it becomes ``abandoned``: the rules did
    not finish it), saying why; a lobby game is abandoned with nothing logged."""
    reason = reason.strip()
    if not reason:
        raise ServiceError("invalid-request", "reason: say why the game ends.")

    def change(game: Game, _seat):
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED, Game.Status.LOBBY):
            raise Conflict(f"game-{game.status}", f"This game is already {game.status}.", version=game.version)
        return "end", {"reason": reason}, [{"type": "game-ended", "by": by, "reason": reason}], None

    return _admin_change(game_id=game_id, by=by, change=change, status=Game.Status.ABANDONED)


def _admin_change(*, game_id: int, by: str, change, seat: int | None = None, status: str | None = None) -> CommandResult | None:
    """Runs ``change(game, seat)`` on the locked game; it writes its seat's row and returns
    (action, arguments, events, new state or None), or None when nothing changes. Appends the
    action to a started game's log with the new state and ``status``; tells everyone after commit."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        target = None
        if seat is not None:
            target = Seat.objects.filter(game=game, index=seat).first()
            if target is None:
                raise NotFound("seat-not-found", f"Game {game.code} has no seat {seat}.")
        changed = change(game, target)
        if changed is None:
            return None
        action, arguments, events, state = changed
        now = timezone.now()
        update: dict[str, Any] = {"updated_at": now}
        if status is not None:
            update["status"] = status
            if status in (Game.Status.ABANDONED, Game.Status.FINISHED):  # finished: a resignation ended it (games/resign.py)
                update["finished_at"] = now
        result = None
        if game.version > 0:  # started: the change is in the log
            update["version"] = game.version + 1
            if state is not None:
                update["state"] = state
            Action.objects.create(
                game=game, sequence=game.version + 1, seat=None,
                command={"cmd": ADMIN, "action": action, "by": by, **arguments}, events=events,
            )
            result = CommandResult(version=game.version + 1, events=events, cmd=ADMIN)
        Game.objects.filter(pk=game.pk).update(**update)
        if state is not None and game.version > 0:
            game.state, game.version = state, game.version + 1
            hooks.state_saved(game.kind, game, state)
        game.status = update.get("status", game.status)
        turns_track(game=game, state=game.state, now=now, finished=game.status == Game.Status.FINISHED)
        code = game.code
        transaction.on_commit(lambda: (store.forget(code), _after_commit(game_id)))
    store.forget(code)
    return result


# --- clocks: a seat a bot keeps for its player (games/clocks.py fires the clock) -----------
#
# When a clocked game's seat runs out of time (seat_clock_expire, by "clock"), or the host hands
# a seat whose player is away to a bot (seat_bot_hand, by "host"), the kind's default bot plays
# it and the seat is ``away``: its player takes it back from their own device (seat_return).
# Each is an ``admin`` action in the log ("seat-to-bot" with ``"away": true``, "seat-returned"),
# broadcast after commit; the engines never see them and replay steps over them.

SEAT_TO_BOT = "seat-to-bot"
SEAT_RETURNED = "seat-returned"
CLOCK = "clock"


def seat_clock_expire(*, game_id: int, seat: int, now) -> CommandResult | None:
    """Seat ``seat``'s time ran out: the kind's default bot plays it (``away``) and moves at once,
    for this turn only (``turn_only``: the seat comes back to its player when the turn ends), or
    for good after ``JUNCTION_CLOCK_EXPIRIES_KEEP`` such turns in a row. A bank that ran out is 0.
    Checked again under the game's lock: None when the game is no longer active, the seat moved
    or is a bot already, or its deadline moved on (another clock runner fired first)."""

    def change(game: Game, target: Seat):
        if (game.status != Game.Status.ACTIVE or not game.clocked or target.is_bot or target.away
                or target.turn_deadline is None or target.turn_deadline > now):
            return None
        expiries = target.expiries + 1
        turn_only = expiries < expiries_keep()
        update: dict[str, Any] = {"expiries": expiries, "turn_only": turn_only}
        if game.bank_seconds:
            update["bank_left"] = 0.0
        return _seat_to_bot_away(game, target, by=CLOCK, update=update, said={"turn_only": turn_only, "expiries": expiries})

    return _admin_change(game_id=game_id, seat=seat, by=CLOCK, change=change)


def seat_bot_hand(*, code: str, actor: Actor, seat: int) -> CommandResult | None:
    """The host hands seat ``seat`` (a player who is away; any seat but the host's own) to the
    kind's default bot until its player takes it back (:func:`seat_return`). None when a bot
    plays it already."""
    game = game_get(code=code)
    _require_host(actor)
    if actor.seat is not None and actor.seat == seat:
        raise ServiceError("own-seat", "This is your own seat: you are here to play it.", status=409)

    def change(locked: Game, target: Seat):
        if locked.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            what = "has not started: seat a bot in the waiting room instead" if locked.status == Game.Status.LOBBY else f"is {locked.status}"
            raise Conflict(f"game-{locked.status}", f"This game {what}.", version=locked.version)
        if target.is_bot:
            return None
        return _seat_to_bot_away(locked, target, by="host")

    return _admin_change(game_id=game.pk, seat=seat, by="host", change=change)


def seat_return(*, code: str, actor: Actor) -> CommandResult | None:
    """The player takes back their seat from the bot that played it while they were away (from
    a device holding the seat's token). On turn, their clock starts afresh. None when the seat
    was not away."""
    game = game_get(code=code)
    if actor.seat is None:
        if actor.is_spectator:
            raise Unauthorized("token-required", "Send your seat's token to take your seat back.")
        raise Forbidden("not-a-player", "The host has no seat in this game.")

    def change(locked: Game, target: Seat):
        if locked.status not in (Game.Status.ACTIVE, Game.Status.PAUSED):
            raise Conflict(f"game-{locked.status}", f"This game is {locked.status}; its seats stay as they are.", version=locked.version)
        if not target.away:
            return None
        update: dict[str, Any] = {"is_bot": False, "away": False, "bot": "", "turn_only": False, "expiries": 0}
        if locked.status == Game.Status.ACTIVE and locked.clocked and target.turn_started_at is not None:
            # On turn: the turn's time afresh, or the bank that is left (at least one increment).
            seconds = max(turn_time(locked, target.bank_left), float(locked.increment_seconds or 0))
            update["turn_deadline"] = timezone.now() + timedelta(seconds=seconds)
        Seat.objects.filter(pk=target.pk).update(**update)
        return SEAT_RETURNED, {"seat": target.index}, [
            {"type": SEAT_RETURNED, "seat": target.index, "name": target.name, "bot": target.bot, "by": "player"}], None

    return _admin_change(game_id=game.pk, seat=actor.seat, by="player", change=change)


def _seat_to_bot_away(game: Game, target: Seat, *, by: str, update: dict[str, Any] | None = None,
                      said: dict[str, Any] | None = None):
    engine = get_engine(game.kind)
    bot = engine.bot_default()
    if bot is None:
        raise ServiceError("no-bots", f"{engine.title} has no bot to play a seat.")
    Seat.objects.filter(pk=target.pk).update(is_bot=True, bot=bot, away=True, turn_deadline=None, **(update or {}))
    return SEAT_TO_BOT, {"seat": target.index, "bot": bot, "away": True, **(said or {})}, [
        {"type": SEAT_TO_BOT, "seat": target.index, "name": target.name, "bot": bot, "by": by, "away": True, **(said or {})}], None


# --- a seat handed to a new device (a phone that died or lost its storage) ----------------
#
# games/rejoin.py: the host's or a game master's one-time rejoin code, announced to everyone,
# and its use. Its names stay reachable here (services.rejoin_code_create, …) for the edges.

_REJOIN_NAMES = {"REJOINABLE", "SEAT_MOVED", "RejoinCodeIssued", "SeatRejoined", "rejoin_code_create", "rejoin_code_redeem"}


def __getattr__(name: str):
    if name in _REJOIN_NAMES:  # imported on first use: games/rejoin.py imports this module
        from . import rejoin

        return getattr(rejoin, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _token_revoked_send(game_id: int, *, token_hash: str, seat: int) -> None:
    """Tell the game's sockets that the token hashed ``token_hash`` lost its seat: those holding
    it tell their client and close (``GameConsumer.seat_moved``). Between processes only (the
    hash never reaches a client)."""
    broadcast.send([(broadcast.game_group(game_id), {"type": "seat.moved", "token_hash": token_hash, "seat": seat})])


def game_abandon(*, code: str, actor: Actor) -> Game:
    game = game_get(code=code)
    _require_host(actor)
    if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED):
        raise Conflict(f"game-{game.status}", f"This game is already {game.status}.")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.ABANDONED, updated_at=timezone.now())
    transaction.on_commit(lambda: _after_commit(game.pk, schedule_bots=False))
    game.refresh_from_db()
    return game


def games_expire(*, ttl: float | None = None, now=None, batch: int = 500) -> int:
    """Lobby games nobody started, joined or changed for ``ttl`` seconds (default
    ``JUNCTION_LOBBY_TTL``) become abandoned; returns how many. Each batch is one UPDATE that
    re-checks its conditions, so a game started or joined meanwhile stays; its waiting rooms
    get the game's summary and the lobby one ``lobby-changed`` per batch (not one per game)."""
    from django.conf import settings

    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.JUNCTION_LOBBY_TTL if ttl is None else ttl)
    stale = (
        Game.objects.filter(status=Game.Status.LOBBY, updated_at__lt=cutoff)
        .exclude(seats__joined_at__gte=cutoff)
        .order_by("pk")
    )
    expired, after = 0, 0
    while True:
        ids = list(stale.filter(pk__gt=after).values_list("pk", flat=True)[:batch])
        if not ids:
            return expired
        after = ids[-1]
        with transaction.atomic():
            count = stale.filter(pk__in=ids).update(status=Game.Status.ABANDONED, updated_at=now, revision=F("revision") + 1)
            if count:
                transaction.on_commit(_guarded(lambda ids=ids: _expired_broadcast(ids)))
        expired += count


def _expired_broadcast(ids: list[int]) -> None:
    messages = []
    for game in Game.objects.prefetch_related("seats").filter(pk__in=ids, status=Game.Status.ABANDONED):
        game.seat_list = [(s.index, s.is_bot) for s in game.seats.all()]
        messages += broadcast.game_messages(game)
    messages.append((broadcast.LOBBY_GROUP, {"type": "relay", "text": broadcast.dumps({"type": "lobby-changed"})}))
    broadcast.send(messages)


# --- helpers --------------------------------------------------------------------------


def _game_for_command(*, code: str, command_id: str | None, fresh: bool = False) -> Game:
    game = store.game_load(code=normalize_join_code(code), command_id=command_id, fresh=fresh)
    if game is None:
        raise NotFound("game-not-found", f"There is no game with code {code!r}.")
    return game


def _previous_result(*, game: Game, actor: Actor, command_id: str, command: dict[str, Any]) -> CommandResult | None:
    """The first result of ``command_id`` when ``command`` is a retry of it (same seat, same
    command: idempotent); a Conflict when the id made another seat's action, or another
    command of this seat (``command-id-reused``, naming it); None when the id is unused."""
    action = Action.objects.filter(game=game, command_id=command_id).first()
    if action is None:
        return None
    if action.seat != actor.seat:
        raise Conflict("duplicate-command-id", "This command id was already used by another seat.", version=game.version)
    if action.command != command:
        named = {"cmd": action.command.get("cmd"), **action.command}  # "cmd" first (jsonb keeps no key order)
        raise Conflict(
            "command-id-reused",
            f"This command id already made action {action.sequence}, {jsontext.dumps(named)}; "
            "send a new command with a new id.",
            version=game.version, first={"sequence": action.sequence, "command": action.command},
        )
    return CommandResult(version=action.sequence, events=action.events, cmd=action.command.get("cmd", ""), duplicate=True)


def _guarded(fn):
    def run() -> None:
        try:
            fn()
        except Exception:
            log.exception("after-commit %s failed", getattr(fn, "__name__", fn))

    return run


def _after_commit(game_id: int, schedule_bots: bool = True, game: Game | None = None, summary: bool = True) -> None:
    """Runs once the change is committed: it must never fail the request that made it
    (clients that miss a broadcast catch up by version). ``summary``: seats or status changed."""
    try:
        game = broadcast.game_changed(game_id, game=game, summary=summary)
        if schedule_bots and game is not None and _bot_to_move(game):
            from .bots import bots_schedule

            bots_schedule(game_id)
    except Exception:
        log.exception("after-commit work failed for game %s", game_id)


def _bot_to_move(game: Game) -> bool:
    """Whether a seated bot is on turn (the broadcast loaded the seats: no query). Without this
    check every move started a bot thread, which opened its own database connection."""
    if game.status != Game.Status.ACTIVE or game.state is None:
        return False
    bots = {index for index, is_bot in game.seat_list if is_bot}
    return bool(bots) and any(seat in bots for seat in get_engine(game.kind).active_seats(game.state))


def _require_host(actor: Actor) -> None:
    if not actor.is_host:
        if actor.is_spectator:
            raise Unauthorized("token-required", "Only the host may do this; send the host token.")
        raise Forbidden("host-only", "Only the host may do this.")


def _name_or_400(name: str) -> str:
    """A name a person typed, in its one normal form (games/names.py), or 400 invalid-request."""
    try:
        return name_clean(name)
    except ValueError as exc:
        raise ServiceError("invalid-request", f"name: {exc}") from None


def _engine_or_400(kind: str):
    try:
        return get_engine(kind)
    except RulesError as exc:
        raise ServiceError(exc.code, exc.message) from None
