"""Read-only queries and the JSON shapes clients see (no writes here)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Q

from .engines.base import RulesError
from .engines.registry import find_engine, get_engine
from .errors import Forbidden, NotFound, ServiceError, Unauthorized
from .models import Action, Game, RejoinCode, Seat, SeatRemoval, SeatToken
from .redaction import action_redacted, reveals_all, seed_public
from .tokens import hash_token, normalize_join_code


@dataclass(frozen=True)
class Actor:
    """Who is calling: a seat, the host (who may also hold a seat), or a spectator."""

    game_id: int
    seat: int | None
    is_host: bool
    bot: bool = False  # games/bots.py playing the seat (a person's token is refused on a bot's seat)

    @property
    def is_spectator(self) -> bool:
        return self.seat is None and not self.is_host


def game_get(*, code: str, command_id: str | None = None) -> Game:
    """The game with this join code. With ``command_id`` the same query also fetches
    ``game.previous_sequence``: the sequence of the action that id already made, or None
    (the write path's idempotency check without a round trip of its own)."""
    games = Game.objects
    if command_id is not None:
        from django.db.models import OuterRef, Subquery

        previous = Action.objects.filter(game=OuterRef("pk"), command_id=command_id).values("sequence")[:1]
        games = games.annotate(previous_sequence=Subquery(previous))
    try:
        return games.get(code=normalize_join_code(code))
    except Game.DoesNotExist:
        raise NotFound("game-not-found", f"There is no game with code {code!r}.") from None


def game_for_token(*, code: str) -> Game:
    """The game with this join code, enough of it to resolve a token (no state, no options):
    what a WebSocket handshake needs before it is accepted."""
    try:
        return Game.objects.only("id", "code", "host_token_hash").get(code=normalize_join_code(code))
    except Game.DoesNotExist:
        raise NotFound("game-not-found", f"There is no game with code {code!r}.") from None


def actor_for_token(*, game: Game, token: str | None) -> Actor:
    """Resolve a bearer token for ``game``. No token: a spectator."""
    if not token:
        return Actor(game_id=game.id, seat=None, is_host=False)
    digest = hash_token(token)
    if digest == game.host_token_hash:
        host_seat = next((s for s in game.seats.all() if s.is_host), None)
        return Actor(game_id=game.id, seat=host_seat.index if host_seat else None, is_host=True)
    seat = seat_for_token_hash(digest, Seat.objects.only("index", "is_host", "game_id"))
    if seat is None:
        raise token_lost(digest)
    if seat.game_id != game.id:
        raise Forbidden("wrong-game", "This token belongs to a seat in another game.")
    return Actor(game_id=game.id, seat=seat.index, is_host=seat.is_host)


SEAT_MOVED_MESSAGE = (
    "This device no longer holds its seat: the host handed it to another device. "
    "Ask the host for a rejoin code to take it back here."
)


SEAT_REMOVED_MESSAGE = (
    "The host removed you from this game's waiting room: this device no longer holds a seat there. "
    "Ask the host if you should join again."
)


def token_lost(digest: str) -> Unauthorized:
    """The error for a token (by its hash) that holds no seat and is not the host's: 401
    ``seat-moved`` when a rejoin code moved its seat to another device (its hash is kept on
    the used code), 401 ``seat-removed`` when the host removed its seat from the waiting room
    (games/seating.py seat_remove), else 401 ``invalid-token``. Only a refused token pays for
    these queries."""
    if RejoinCode.objects.filter(revoked_token_hash=digest).exists():
        return Unauthorized("seat-moved", SEAT_MOVED_MESSAGE)
    if SeatRemoval.objects.filter(token_hash=digest).exists():
        return Unauthorized("seat-removed", SEAT_REMOVED_MESSAGE)
    return Unauthorized("invalid-token", "This token is not valid.")


def token_current(*, game: Game, actor: Actor, digest: str) -> bool:
    """Whether the token hashed ``digest``, which resolved to ``actor``, still does: its seat
    was not handed to another device since. Reads the game's seats (prefetch them)."""
    if actor.seat is None:
        return not actor.is_host or digest == game.host_token_hash
    seat = next((s for s in game.seats.all() if s.index == actor.seat), None)
    if seat is None:
        return False
    return seat.token_hash == digest or SeatToken.objects.filter(seat_id=seat.pk, token_hash=digest).exists()


def seat_for_token_hash(digest: str, seats=None) -> Seat | None:
    """The seat the token hashed ``digest`` holds (from ``seats``, a Seat queryset, by default all):
    the seat's own token, else a signed-in player's device token (``SeatToken``, made when they
    opened the seat from My games on that device), asked only when the first missed. None: neither."""
    seats = Seat.objects.all() if seats is None else seats
    return seats.filter(token_hash=digest).first() or seats.filter(device_tokens__token_hash=digest).first()


def seat_json(seat: Seat) -> dict[str, Any]:
    return {
        "index": seat.index,
        "name": seat.name,
        "color": seat.color,
        "is_host": seat.is_host,
        "is_bot": seat.is_bot,
        "bot": seat.bot or None,
        # clocks (games/clocks.py): a bot plays for the seat's absent player, who may take it back;
        # by when the seat on turn must move (null: no clock, or not on turn)
        "away": seat.away,
        "resigned": seat.resigned_at is not None,  # its player resigned (games/resign.py): ranks last, a bot plays on
        "turn_deadline": seat.turn_deadline.isoformat() if seat.turn_deadline else None,
        # a time bank (games/clocks.py): seconds left between turns (null: no bank, or the whole bank)
        "bank_left": None if seat.bank_left is None else round(seat.bank_left),
        "turn_only": seat.turn_only,  # its time ran out: a bot plays this turn only, then it is its player's again
        "away_until": None,  # its player's away period in a slow game (games/away.py): its end
    }


def game_summary(game: Game) -> dict[str, Any]:
    engine = get_engine(game.kind)
    rows = list(game.seats.all())
    seats = [seat_json(s) for s in rows]
    if game.slow and game.status in (Game.Status.LOBBY, Game.Status.ACTIVE, Game.Status.PAUSED):
        _away_fill(rows, seats)
    return {
        "code": game.code,
        "kind": game.kind,
        "title": engine.title,
        "status": game.status,
        "version": game.version,
        "revision": game.revision,  # pages keep the summary with the highest (see Game.revision)
        "options": {k: v for k, v in game.options.items() if not isinstance(v, dict | list)},
        "seats": seats,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "created_at": game.created_at.isoformat() if game.created_at else None,
        "turn_seconds": game.turn_seconds,  # the clock: seconds per turn (null: none)
        "bank_seconds": game.bank_seconds,  # or a time bank (games/clocks.py) ...
        "increment_seconds": game.increment_seconds,  # ... with what each turn adds to it
        "listed": game.listed,  # an open table (games/listing.py): in the lobby list; false: code, link or QR only
        "next_game": _next_game_code(game),  # the table's rematch (games/rematch.py); null: none yet
        "unrated_reason": game.unrated_reason or None,  # why it rates nobody (games/rejoin.py: a seat handed on); null: none
        "seed": seed_public(game),  # published once the game is finished (games/redaction.py), so anyone can verify it
    }


def _away_fill(rows: list[Seat], seats: list[dict[str, Any]]) -> None:
    """The end of each seated player's away period under way (games/away.py), in the seats' JSON."""
    from django.utils import timezone

    from .away import away_ends

    users = {row.index: row.user_id for row in rows if row.user_id is not None}
    ends = away_ends(user_ids=set(users.values()), now=timezone.now())
    for seat in seats:
        end = ends.get(users.get(seat["index"]))
        seat["away_until"] = end.isoformat() if end else None


def _next_game_code(game: Game) -> str | None:
    if not game.next_game_id:
        return None
    return Game.objects.filter(pk=game.next_game_id).values_list("code", flat=True).first()


def state_payload(*, game: Game, seat: int | None, document: dict[str, Any] | None = None) -> dict[str, Any]:
    """What one seat (None: spectator) receives: its own view (or ``document`` in its place) and its legal
    commands."""
    payload: dict[str, Any] = {"version": game.version, "status": game.status, "seat": seat}
    if game.state is None:
        payload["state"] = None
        payload["legal_commands"] = []
        return payload
    engine = get_engine(game.kind)
    payload["state"] = engine.view(game.state, seat=seat) if document is None else document
    payload["legal_commands"] = (
        engine.legal_commands(game.state, seat=seat)
        if seat is not None and game.status == Game.Status.ACTIVE
        else []
    )
    if engine.takes_back and seat is not None:  # what this seat may take back now (games/takeback.py)
        from .takeback import offer

        payload["take_back"] = offer(game, seat)
    if game.status == Game.Status.FINISHED:
        from .results import game_result

        result = game_result(game=game)  # the ending screen's ranking and scores (Engine.result, with resignations)
        if result is not None:
            payload["result"] = result
    return payload


def game_plan(*, game: Game, seat: int | None, request: dict[str, Any]) -> dict[str, Any]:
    """A seat's plan of a build or a move (the rail games: ``Engine.plan``), before they confirm it.
    Reads only: nothing is written and nobody else is told."""
    engine = get_engine(game.kind)
    planner = getattr(engine, "plan", None)
    if planner is None:
        raise ServiceError("no-planner", f"{engine.title} has no build or move planner.")
    if seat is None:
        raise Forbidden("not-a-player", "Only a seated player may plan a build or a move.")
    if game.status != Game.Status.ACTIVE or game.state is None:
        raise ServiceError("game-not-active", "The game is not being played.", status=409)
    try:
        return {"version": game.version, **planner(game.state, seat=seat, request=request)}
    except RulesError as exc:
        raise ServiceError(exc.code, exc.message) from None


def get_state_response(*, game: Game, seat: int | None, protocol: bool = False, geography: bool = True) -> dict[str, Any]:
    """The answer to ``{"cmd": "get-state"}``: the caller's view; ``status`` is the response's.

    ``protocol`` (``POST /api``): when the kind has a protocol document of its own
    (``Engine.protocol_state`` not None, e.g. Runerail's, the server notes' state), ``state`` is
    that document with ``commands``, every action of the log so far, added; ``geography=False``
    leaves out its static ``geography``. The other routes' get-state is the view (pages rely on it)."""
    document = None
    if protocol and game.state is not None:
        document = get_engine(game.kind).protocol_state(game.state, seat=seat)
        if document is not None:
            document = protocol_document(game=game, document=document, geography=geography, viewer=seat)
    payload = state_payload(game=game, seat=seat, document=document)  # the view only when no document replaces it
    payload.pop("status")
    return {"response": "get-state-response", "status": "ok", **payload}


def protocol_document(*, game: Game, document: dict[str, Any], geography: bool, viewer: int | None = None) -> dict[str, Any]:
    """A kind's protocol document with the notes' "list of all effectful commands made so far": every
    action of the log, in order, as ``{"sequence", "player_id", "command"}`` (``player_id`` is the acting seat
    (the host's for the start; None for a seatless host and a game master's changes)), each command as
    ``viewer`` may read it (games/redaction.py: another seat's hidden choices redacted while the game runs).
    It goes after ``current_player`` (the notes' order) when the document has one, else at the end."""
    engine, reveal = get_engine(game.kind), reveals_all(game)
    log = [
        {"sequence": sequence, "player_id": seat,
         "command": action_redacted(engine=engine, command=command, events=(), actor=seat, viewer=viewer, reveal=reveal)[0]}
        for sequence, seat, command in game.actions.filter(sequence__lte=game.version).order_by("sequence")
        .values_list("sequence", "seat", "command")
    ]
    out: dict[str, Any] = {}
    for key, value in document.items():
        if key == "geography" and not geography:
            continue
        out[key] = value
        if key == "current_player":
            out["commands"] = log
    out.setdefault("commands", log)
    return out


def action_json(action: Action, *, engine=None, viewer: int | None = None, reveal: bool = False) -> dict[str, Any]:
    """One log entry as ``viewer`` (a seat; None: a spectator) may read it (games/redaction.py): another
    seat's private arguments and event fields are null while the game runs (``reveal``: it is finished);
    a game master's edit shows that it happened, not the state it wrote (that would hold every seat's secrets)."""
    if engine is None and not reveal:
        engine = find_engine(action.game.kind)
    command, events = action_redacted(
        engine=engine, command=action.command, events=action.events, actor=action.seat, viewer=viewer, reveal=reveal,
    )
    return {
        "sequence": action.sequence,
        "seat": action.seat,
        "command": command,
        "events": events,
        "created_at": action.created_at.isoformat(),
    }


def actions_after(*, game: Game, after: int, viewer: int | None = None, limit: int = 1000) -> list[dict[str, Any]]:
    """The log after ``after`` up to the version ``game`` was read at (what a read kept for that version
    holds: games/readcache.py), as ``viewer`` may read it."""
    engine, reveal = get_engine(game.kind), reveals_all(game)
    return [action_json(a, engine=engine, viewer=viewer, reveal=reveal)
            for a in game.actions.filter(sequence__gt=after, sequence__lte=game.version).order_by("sequence")[:limit]]


def replay_step(*, game: Game, step: int, viewer: int | None = None) -> dict[str, Any]:
    """The spectator's view after action ``step`` (1 = start), rebuilt from the log; the step's action as
    ``viewer`` may read it."""
    from .errors import Conflict, ServiceError
    from .replay import game_replay_step

    if game.version == 0:
        raise Conflict("game-not-started", "This game has not started; there is nothing to replay.")
    if not 1 <= step <= game.version:
        raise ServiceError("invalid-request", f"step must be between 1 and {game.version}.")
    state, action = game_replay_step(game=game, step=step)
    if action is None:
        raise NotFound("step-not-found", f"The log holds no action {step}.")
    engine = get_engine(game.kind)
    step_json = {
        "step": step,
        "last": game.version,
        "status": game.status,
        "action": action_json(action, engine=engine, viewer=viewer, reveal=reveals_all(game)),
        "state": engine.view(state, seat=None),
    }
    if engine.is_finished(state):  # the step that ended the game: its ending, as the players saw it
        step_json["result"] = engine.result(state)
    return step_json


GAMES_PAGE_MAX = 100  # games per page of GET /api/games (and its default)


def open_games(*, status: str | None = None, limit: int = GAMES_PAGE_MAX) -> list[Game]:
    """The newest ``limit`` open tables (of ``status``): the first page of :func:`games_page`."""
    return games_page(status=status, limit=limit)[0]


def games_page(*, status: str | None = None, cursor: str | None = None, limit: int = GAMES_PAGE_MAX) -> tuple[list[Game], str | None]:
    """A page of the open tables (``Game.listed``: games/listing.py; an unlisted game is reached
    by its code only), newest first, and the cursor of the next page (None on the last).

    The cursor is a position — the (created_at, id) of the page's last game — so a flood of
    new games never pushes an older game off the pages a client walks through, and no game
    is shown twice. Raises ServiceError for a cursor this server did not give."""
    games = Game.objects.filter(listed=True).prefetch_related("seats").order_by("-created_at", "-id")
    if status:
        games = games.filter(status=status)
    if cursor:
        created_at, pk = _cursor_decode(cursor)
        games = games.filter(Q(created_at__lt=created_at) | Q(created_at=created_at, pk__lt=pk))
    page = list(games[: limit + 1])
    if len(page) <= limit:
        return page, None
    page = page[:limit]
    return page, _cursor_encode(page[-1])


def _cursor_encode(game: Game) -> str:
    raw = f"{game.created_at.isoformat()}|{game.pk}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _cursor_decode(cursor: str) -> tuple[datetime, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        stamp, _, pk = raw.partition("|")
        created_at, pk = datetime.fromisoformat(stamp), int(pk)
        if created_at.tzinfo is None or not 0 < pk < 2**63:
            raise ValueError
        created_at = created_at.astimezone(UTC)
    except (ValueError, OverflowError, UnicodeDecodeError, binascii.Error):
        raise ServiceError("invalid-request", "cursor is not one this server gave; start again without it.") from None
    return created_at, pk
