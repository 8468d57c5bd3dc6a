"""The JSON API. Views check request shapes and tokens, then call a service."""

from __future__ import annotations

import re

from django.http import HttpResponse, HttpResponseNotModified
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.decorators import method_decorator
from django.views.decorators.gzip import gzip_page
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from games import chat, listing, readcache, rematch, seating, selectors, services
from games.converters import GameCodeConverter
from games.engines.base import RulesError
from games.engines.registry import all_engines, get_engine
from games.errors import Forbidden, NotFound, ServiceError, Unauthorized
from games.tokens import normalize_join_code

from . import serializers as s
from .throttling import (
    ChatRateThrottle,
    CommandOrReadThrottle,
    CommandRateThrottle,
    CreateRateThrottle,
    JoinRateThrottle,
    ReadRateThrottle,
    read_charge,
)

# Every operation that reads the database may also answer 503 database-busy (with Retry-After),
# and every one but GET /api/kinds 429 rate-limited (with Retry-After; games/api/throttling.py).
GAME_CODE = re.compile(GameCodeConverter.regex)  # what can be a join code, as the routes' <gamecode:…> take it
ERRORS = {400: s.ErrorSerializer, 401: s.ErrorSerializer, 403: s.ErrorSerializer, 404: s.ErrorSerializer, 429: s.ErrorSerializer, 503: s.ErrorSerializer}
TOKEN_PARAM = OpenApiParameter(
    "Authorization", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False, description="`Bearer <seat or host token>`"
)


def bearer_token(request) -> str | None:
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("invalid-token", "Send the token as 'Authorization: Bearer <token>'.")
    return token.strip()


def actor_for(request, game):
    return selectors.actor_for_token(game=game, token=bearer_token(request))


def signed_in_user(request):
    """The signed-in account behind the request's session (players/: a seat taken while signed
    in is theirs), else None. The API authenticates no one itself: tokens are its identities (and
    DRF set the request's ``user`` to None), so the session is read here."""
    from django.contrib.auth import get_user

    if not hasattr(request._request, "session"):
        return None
    user = get_user(request._request)
    return user if user.is_authenticated else None


def json_object(request) -> dict:
    """The request's body, which must be a JSON object."""
    if not isinstance(request.data, dict):
        raise ServiceError("invalid-request", "The request body must be a JSON object.")
    return request.data


def validated(serializer_class, request):
    serializer = serializer_class(data=json_object(request))
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def read_response(request, *, key: readcache.ReadKey, build) -> HttpResponse:
    """A big read from its kept bytes (games/readcache.py; ``build`` makes them on a miss): 304 with no
    body when ``If-None-Match`` names its ETag (the first read token only), else the JSON, charged the
    rest of its price against the read limits (games/api/throttling.py: 429 past them)."""
    body = readcache.read_bytes(key=key, build=build)
    if readcache.etag_matches(if_none_match=request.headers.get("If-None-Match"), etag=key.etag):
        response = HttpResponseNotModified()
    else:
        read_charge(request, size=len(body))
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = key.etag
    return response


def game_read_response(request, *, game, seat: int | None, ask: tuple, build) -> HttpResponse:
    """:func:`read_response` for what ``seat`` (resolved from the token on this request; None: a
    spectator) asked of ``game``: kept per version and viewer; a browser keeps it, asking again with
    its ETag (``no-cache``), per token (``Vary: Authorization``)."""
    response = read_response(request, key=readcache.read_key(game=game, seat=seat, ask=ask), build=build)
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ["Authorization"])
    return response


class KindsView(APIView):
    @extend_schema(
        responses={200: s.KindSerializer(many=True)},
        summary="Game kinds: player counts, options, bots and every command with its help",
        description="Each kind's `commands` are what POST /api/games/{code}/commands takes for a game of that kind "
        "(besides `get-state`, `start`, `seat-return` and `resign`, which every kind takes): each argument with its JSON Schema.",
    )
    def get(self, request):
        return Response([engine.describe() for engine in all_engines()])


# Gzip for the large public JSON only (a kind's content, the action log): neither carries a secret, so
# compressing them cannot leak one (BREACH); pages with a CSRF token stay uncompressed.
@method_decorator(gzip_page, name="dispatch")
class KindContentView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(
        parameters=[OpenApiParameter("map", str, description="A kind with several boards (the game option `map`): "
                                     "which board's content; without it, the default board's.")],
        responses={200: OpenApiTypes.OBJECT, 304: None, 404: s.ErrorSerializer, 429: s.ErrorSerializer},
        summary="A kind's content: its map and what pages draw and name (the rail games)",
        description="The same for every game of the kind (or of one board, `?map=`), so it is cached: `ETag` is "
        "its `version` (a game's view names it as `content_version`); send `If-None-Match` to get 304.",
    )
    def get(self, request, kind):
        engine = _engine_or_404(kind)
        content = getattr(engine, "content", None)
        if content is None:
            raise NotFound("no-content", f"{engine.title} has no content to fetch.")
        board = request.query_params.get("map")
        if board is None:
            body = content()
        elif board in getattr(engine, "maps", ()):
            body = content(board)
        else:
            raise NotFound("unknown-map", f"{engine.title} has no board {board!r}.")
        # Compressed, the ETag goes out weak (W/"…"); either form names the same content.
        slot = kind if board is None else f"{kind}:{board}"  # one cached copy per board
        response = read_response(request, key=readcache.content_read_key(kind=slot, version=body["version"]), build=lambda: body)
        response["Cache-Control"] = "public, max-age=3600"
        return response


def _engine_or_404(kind: str):
    try:
        return get_engine(kind)
    except RulesError:
        raise NotFound("unknown-kind", f"There is no game kind {kind!r}.") from None


class GamesView(APIView):
    throttle_classes = [CreateRateThrottle, ReadRateThrottle]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=["lobby", "active", "finished", "abandoned"]),
            OpenApiParameter("cursor", str, description="Where the page starts: from the previous page's `Link: <…>; rel=\"next\"`."),
            OpenApiParameter("limit", int, description=f"Games per page, 1–{selectors.GAMES_PAGE_MAX} (default {selectors.GAMES_PAGE_MAX})."),
            OpenApiParameter(
                "Link", str, OpenApiParameter.HEADER, response=[200],
                description='`<…>; rel="next"`: the next page (a relative URL with its `cursor`); absent on the last page.',
            ),
        ],
        responses={200: s.GameSummarySerializer(many=True), 400: s.ErrorSerializer, 429: s.ErrorSerializer, 503: s.ErrorSerializer},
        summary="List the open tables, newest first, a page at a time (e.g. ?status=lobby for games to join)",
        description=(
            "Only open tables (`listed`: the host opened them) are listed; an unlisted game is reached by its code "
            "(GET /api/games/{code}). The body is a page of games (a list, newest first). When there are more, the `Link` header "
            "names the next page (`rel=\"next\"`); follow it until it is absent to see every game. The cursor "
            "is a position, not an offset: games created meanwhile never shift or repeat a page."
        ),
    )
    def get(self, request):
        wanted = request.query_params.get("status")
        if wanted and wanted not in {"lobby", "active", "finished", "abandoned"}:
            raise ServiceError("invalid-request", "status must be one of lobby, active, finished, abandoned.")
        raw_limit = request.query_params.get("limit", str(selectors.GAMES_PAGE_MAX))
        try:
            limit = int(raw_limit)
            if not 1 <= limit <= selectors.GAMES_PAGE_MAX:
                raise ValueError
        except ValueError:
            raise ServiceError("invalid-request", f"limit must be a whole number from 1 to {selectors.GAMES_PAGE_MAX}.") from None
        games, next_cursor = selectors.games_page(status=wanted, cursor=request.query_params.get("cursor"), limit=limit)
        response = Response([selectors.game_summary(g) for g in games])
        if next_cursor:
            query = request.query_params.copy()
            query["cursor"] = next_cursor
            response["Link"] = f'<{request.path}?{query.urlencode()}>; rel="next"'
        return response

    @extend_schema(
        request=s.GameCreateSerializer,
        responses={201: s.GameCreatedSerializer, 400: s.ErrorSerializer, 429: s.ErrorSerializer, 503: s.ErrorSerializer},
        summary="Create a game",
        description="The body names the kind and that kind's options (GET /api/kinds lists them); with `name` the "
        "host also takes seat 0. Keep `host_token`: it is shown only once. The game is unlisted unless `listed` is "
        "true: joined by its code, link or QR code only, and absent from GET /api/games.",
    )
    def post(self, request):
        data = validated(s.GameCreateSerializer, request)
        created = services.game_create(
            kind=data["kind"], options=data.get("options"), host_name=data.get("name"), host_color=data.get("color"),
            user=signed_in_user(request), turn_seconds=data.get("turn_seconds"), listed=data["listed"],
            bank_seconds=data.get("bank_seconds"), increment_seconds=data.get("increment_seconds"),
        )
        body = selectors.game_summary(created.game)
        body.update(
            host_token=created.host_token,
            seat=created.seat.index if created.seat else None,
            token=created.host_token if created.seat else None,
        )
        return Response(body, status=status.HTTP_201_CREATED)


class GameView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(responses={200: s.GameSummarySerializer, 404: s.ErrorSerializer, 429: s.ErrorSerializer}, summary="A game's summary")
    def get(self, request, code):
        return Response(selectors.game_summary(selectors.game_get(code=code)))


class SeatsView(APIView):
    throttle_classes = [JoinRateThrottle]

    @extend_schema(
        request=s.SeatJoinSerializer,
        parameters=[TOKEN_PARAM],
        responses={201: s.SeatJoinedSerializer, 200: s.SeatJoinedSerializer, 409: s.ErrorSerializer, 429: s.ErrorSerializer, **ERRORS},
        summary="Take a seat (or, with your token, get your seat back; host: seat a bot)",
    )
    def post(self, request, code):
        data = validated(s.SeatJoinSerializer, request)
        token = bearer_token(request)
        if data.get("bot"):
            game = selectors.game_get(code=code)
            seat = services.seat_add_bot(code=code, actor=actor_for(request, game), bot=data["bot"], name=data.get("name"))
            new_token, created = None, True
        else:
            seat, new_token, created = services.seat_join(
                code=code, name=data["name"], color=data.get("color"), token=token, user=signed_in_user(request))
        game = selectors.game_get(code=code)
        body = {"seat": seat.index, "token": new_token, "game": selectors.game_summary(game)}
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RejoinCodeView(APIView):
    throttle_classes = [JoinRateThrottle]

    @extend_schema(
        request=None,
        parameters=[TOKEN_PARAM],
        responses={201: s.RejoinCodeSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Hand a seat to a new device: a one-time rejoin code and its QR code (host)",
        description=(
            "For a player whose phone died or lost its storage. The code lives `JUNCTION_REJOIN_TTL` seconds "
            "(10 minutes by default), works once, and replaces any earlier code for the seat. Whoever redeems "
            "it (`POST /api/games/{code}/rejoin`, or the page at `url`) takes the seat with a new token; the "
            "old token is then refused with 401 `seat-moved` and its sockets are told and closed. Making the code is "
            "logged (`rejoin-code-made`) and every seat and spectator is told. "
            "403 `host-only` for any token but the host's; 404 `seat-not-found`; 409 when the game is over, or "
            "`seat-present` (with `retry_after`, seconds) while a player's phone has been away less than "
            "`JUNCTION_REJOIN_AWAY` seconds (the host's own seat and a bot's are not held back)."
        ),
    )
    def post(self, request, code, seat):
        from games.tokens import rejoin_code_display
        from games.views import rejoin_link

        game = selectors.game_get(code=code)
        actor = actor_for(request, game)
        issued = services.rejoin_code_create(game_id=game.pk, seat=seat, by="host", actor=actor)
        url, svg = rejoin_link(request, game_code=game.code, rejoin_code=issued.code)
        body = {
            "game": game.code, "seat": issued.seat.index, "name": issued.seat.name,
            "code": rejoin_code_display(issued.code), "url": url, "qr_svg": svg,
            "expires_at": issued.expires_at.isoformat(),
            "expires_in": max(0, int((issued.expires_at - timezone.now()).total_seconds())),
        }
        return Response(body, status=status.HTTP_201_CREATED)


# -- clocks: a seat a bot keeps for its player (games/clocks.py) --------------------------------


def _seat_changed_response(result, code: str) -> Response:
    """A seat change's answer: the logged action's result (null when nothing changed) and the game."""
    return Response({"result": result.to_json() if result is not None else None,
                     "game": selectors.game_summary(selectors.game_get(code=code))})


class SeatOrderView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=s.SeatOrderSerializer,
        parameters=[TOKEN_PARAM],
        responses={200: s.SeatsOrderedSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Reorder the waiting room's seats (host)",
        description=(
            "`order` lists every seat's current index once: the seat at `order[i]` becomes seat `i` (the game's "
            "turn order and colours follow the seats). Each person keeps their seat, token and colour; only its "
            "index changes. 400 `bad-seat-order` for a list that is not a reordering of the seats, 403 "
            "`host-only` for any token but the host's, 409 `game-started` once the game has started."
        ),
    )
    def post(self, request, code):
        data = validated(s.SeatOrderSerializer, request)
        game = selectors.game_get(code=code)
        seating.seats_reorder(code=code, actor=actor_for(request, game), order=list(data["order"]))
        return Response({"game": selectors.game_summary(selectors.game_get(code=code))})


class SeatRemoveView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=None,
        parameters=[TOKEN_PARAM],
        responses={200: s.SeatRemovedSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Remove a seat from the waiting room (host)",
        description=(
            "Before the start only. The seat is freed and the seats after it move up one; its token (and a signed-in "
            "player's device tokens) stop working: any request with one is answered 401 `seat-removed`, and its socket "
            "gets the error frame `seat-removed` and is closed (4401). Bots' seats may be removed too. 401 "
            "`token-required` without a token, 403 `host-only` for any token but the host's, 404 `seat-not-found`, "
            "409 `own-seat` for the host's own seat, 409 `game-started` once the game has started."
        ),
    )
    def post(self, request, code, seat):
        game = selectors.game_get(code=code)
        removed = seating.seat_remove(code=code, actor=actor_for(request, game), seat=seat)
        return Response({"seat": removed.index, "name": removed.name, "game": selectors.game_summary(selectors.game_get(code=code))})


class ListingView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=s.ListingSerializer,
        parameters=[TOKEN_PARAM],
        responses={200: s.ListedSerializer, **ERRORS},
        summary="Open the table to anyone, or make it unlisted again (host)",
        description=(
            "`{\"listed\": true}`: the game is listed on the home page and in GET /api/games for anyone to join or "
            "watch. `{\"listed\": false}`: unlisted, reached by its code, link or QR code only (a new game's default). "
            "Every page of the game gets the summary with `listed`; the lobby's pages look again. 400 "
            "`invalid-request` for anything but true or false, 401 `token-required` without a token, 403 `host-only` "
            "for any token but the host's."
        ),
    )
    def post(self, request, code):
        data = validated(s.ListingSerializer, request)
        game = selectors.game_get(code=code)
        listing.game_listed_set(code=code, actor=actor_for(request, game), listed=data["listed"])
        return Response({"game": selectors.game_summary(selectors.game_get(code=code))})


class SeatReturnView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=None,
        parameters=[TOKEN_PARAM],
        responses={200: s.SeatChangedSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Take your seat back from the bot that played it while you were away (your seat's token)",
        description=(
            "When a clock ran out (or the host handed your seat to a bot), a bot plays your seat and the seat is "
            "`away`. This gives it back to you: logged as `seat-returned`; on your turn your clock starts afresh. "
            "`result` is null when the seat was not away. 401 without a token, 403 for the host's token "
            "without a seat, 409 when the game is over. The command `{\"cmd\": \"seat-return\"}` does the same "
            "over the WebSocket, `POST /api` or `…/commands`."
        ),
    )
    def post(self, request, code):
        game = selectors.game_get(code=code)
        result = services.seat_return(code=code, actor=actor_for(request, game))
        return _seat_changed_response(result, code)


class ChatView(APIView):
    """The game's chat (games/chat.py). A signed-in spectator writes with their session (and its CSRF token);
    players and the host with their token."""

    authentication_classes = [SessionAuthentication]
    throttle_classes = [ChatRateThrottle, ReadRateThrottle]

    @extend_schema(
        parameters=[TOKEN_PARAM, OpenApiParameter("after", int, description="Only messages with a greater `id`.")],
        responses={200: s.ChatSerializer, **ERRORS},
        summary="The game's chat as you may read it (no token: as a spectator)",
        description="The players' messages (`table`), and the spectators' (`watchers`) for spectators, or for everyone "
        "once the game is over; without messages a game master hid, or those of players you muted. New messages "
        "arrive over the WebSocket as `{\"type\": \"chat\", \"message\"}`; a hidden one as `{\"type\": \"chat-hidden\", \"id\"}`.",
    )
    def get(self, request, code):
        game = selectors.game_get(code=code)
        after = request.query_params.get("after", "0")
        if not after.isdigit() or len(after) > 18:
            raise ServiceError("invalid-request", "after: a whole number, 0 or more.")
        return Response(chat.chat_read(game=game, actor=actor_for(request, game), user=request.user, after=int(after)))

    @extend_schema(
        request=s.ChatPostSerializer, parameters=[TOKEN_PARAM],
        responses={201: s.ChatMessageSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Say something in the game's chat (your seat's or the host's token; a spectator signed in)",
        description="At most 300 characters; no control or invisible formatting characters (400). A guest who only "
        "watches is 401 `sign-in-required`. Rate-limited (429 with `Retry-After`).",
    )
    def post(self, request, code):
        game = selectors.game_get(code=code)
        body = s.ChatPostSerializer(data=request.data if isinstance(request.data, dict) else {})
        body.is_valid(raise_exception=True)
        message = chat.chat_post(game=game, actor=actor_for(request, game), user=request.user, text=body.validated_data["text"])
        return Response(chat.message_json(message), status=status.HTTP_201_CREATED)


class ResignView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=None,
        parameters=[TOKEN_PARAM],
        responses={200: s.SeatChangedSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Resign from the game (your seat's token): you finish last",
        description=(
            "Logged as `seat-resigned` (an `admin` action). When only one other seat is left that has not resigned, "
            "the game ends at once and that seat wins (a two-player game); otherwise the title's default bot plays "
            "your seat to the end and you cannot take it back. You rank last either way (after anyone who resigned "
            "later), in the ending's `result` and in ratings. 401 without a token, 403 for the host's token without a "
            "seat, 409 `already-resigned`, or `game-<status>` when the game is not on. The command `{\"cmd\": "
            "\"resign\"}` does the same over the WebSocket, `POST /api` or `…/commands`."
        ),
    )
    def post(self, request, code):
        from games.resign import seat_resign

        game = selectors.game_get(code=code)
        result = seat_resign(code=code, actor=actor_for(request, game))
        return _seat_changed_response(result, code)


class RematchView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=None,
        parameters=[TOKEN_PARAM],
        responses={200: s.RematchSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Play again: the table's next game, with the same title, options and seats (your seat's or the host's token)",
        description=(
            "At game over any seat (or the host) asks; the first ask makes the next game (same title, options, clock, "
            "listing, people, bots and colours; the turn order turned by one: the old second seat sits first) in its "
            "waiting room, and the old game's summary names it as `next_game` (every page hears it over the "
            "WebSocket). Every ask, first or later, answers with the next game's `code` and the asker's `token` there "
            "(their seat's, or the host's): the same token on every device and every retry. 401 `token-required` "
            "without a token, 409 `game-not-finished` before the game is over."
        ),
    )
    def post(self, request, code):
        game = selectors.game_get(code=code)
        return Response(rematch.game_rematch(code=code, actor=actor_for(request, game)).to_json())


class SeatBotView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(
        request=None,
        parameters=[TOKEN_PARAM],
        responses={200: s.SeatChangedSerializer, 409: s.ErrorSerializer, **ERRORS},
        summary="Hand a seat whose player is away to a bot, until they take it back (host)",
        description=(
            "The kind's default bot plays the seat from now on; the seat is `away`, and its player takes it back "
            "with POST /api/games/{code}/seats/me/return. Logged as `seat-to-bot` by the host. `result` is null "
            "when a bot plays the seat already. 403 `host-only` for any token but the host's, 409 `own-seat` for "
            "the host's own seat, 409 before the game starts or once it is over."
        ),
    )
    def post(self, request, code, seat):
        game = selectors.game_get(code=code)
        result = services.seat_bot_hand(code=code, actor=actor_for(request, game), seat=seat)
        return _seat_changed_response(result, code)


class RejoinView(APIView):
    throttle_classes = [JoinRateThrottle]

    @extend_schema(
        request=s.RejoinSerializer,
        responses={200: s.SeatRejoinedSerializer, 409: s.ErrorSerializer, 410: s.ErrorSerializer, **ERRORS},
        summary="Take a seat back on this device with the host's rejoin code",
        description=(
            "Moves the seat the code was issued for to the caller: the answer carries its new token (keep it; "
            "the old one is revoked). 400 `invalid-request` for something that cannot be a code, 404 "
            "`rejoin-code-unknown` (never issued for this game, or replaced by a newer one), 410 "
            "`rejoin-code-used` or `rejoin-code-expired`, 409 when the game is over. Limited like joining."
        ),
    )
    def post(self, request, code):
        data = validated(s.RejoinSerializer, request)
        rejoined = services.rejoin_code_redeem(code=code, rejoin_code=data["code"], user=signed_in_user(request))
        body = {"seat": rejoined.seat.index, "token": rejoined.token, "host": rejoined.is_host,
                "game": selectors.game_summary(rejoined.game)}
        return Response(body)


class StartView(APIView):
    throttle_classes = [CommandRateThrottle]

    @extend_schema(request=None, parameters=[TOKEN_PARAM], responses={200: s.CommandResultSerializer, 409: s.ErrorSerializer, **ERRORS}, summary="Start the game (host)")
    def post(self, request, code):
        game = selectors.game_get(code=code)
        result = services.game_start(code=code, actor=actor_for(request, game))
        return Response(result.to_json())


class StateView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(parameters=[TOKEN_PARAM], responses={200: s.StateSerializer, 304: None, **ERRORS}, summary="Your view of the game (no token: spectator)")
    def get(self, request, code):
        game = selectors.game_get(code=code)
        actor = actor_for(request, game)
        return game_read_response(request, game=game, seat=actor.seat, ask=("state",),
                                  build=lambda: selectors.state_payload(game=game, seat=actor.seat))


class CommandsView(APIView):
    throttle_classes = [CommandOrReadThrottle]

    @extend_schema(
        request=s.CommandSerializer,
        parameters=[TOKEN_PARAM],
        responses={200: s.CommandResultSerializer, 304: None, 409: s.ErrorSerializer, **ERRORS},
        summary="Send a command",
        description=(
            "Body: `{\"cmd\": \"<name>\", ...arguments, \"command_id\"?: str, \"expected_version\"?: int}`. "
            "Each kind's commands and their arguments: the body's schema, or GET /api/kinds. "
            "`{\"cmd\": \"get-state\"}` returns your view (a read: with an `ETag`; `If-None-Match` naming it gets 304, "
            "and it counts against the read limits, priced by its size). The same command again with the same `command_id` "
            "returns the first result; another command with it is 409 `command-id-reused` (`first`: the command it "
            "made); a stale `expected_version` gets 409 with the current `version`."
        ),
    )
    def post(self, request, code):
        game = selectors.game_get(code=code)
        actor = actor_for(request, game)
        return command_response(request, code=code, game=game, actor=actor, body=json_object(request))


def command_response(request, *, code: str, game, actor, body: dict, protocol: bool = False, geography: bool = True) -> HttpResponse:
    """A command body (its shape checked here) through the write path, or get-state: the HTTP edges' one way in.
    ``protocol`` (POST /api): get-state answers with the kind's protocol document when it has one. A get-state
    is a big read (:func:`game_read_response`: kept per version and viewer, ETag, 304, priced by its size)."""
    serializer = s.CommandSerializer(data=body)
    serializer.is_valid(raise_exception=True)
    data = serializer.validated_data
    if data["cmd"] == "get-state":
        return game_read_response(
            request, game=game, seat=actor.seat, ask=("get-state", protocol, geography or not protocol),
            build=lambda: selectors.get_state_response(game=game, seat=actor.seat, protocol=protocol, geography=geography),
        )
    command = {k: v for k, v in body.items() if k not in ("command_id", "expected_version")}
    result = services.game_command(
        code=code,
        actor=actor,
        command=command,
        command_id=data.get("command_id"),
        expected_version=data.get("expected_version"),
    )
    return Response(result.to_json())


class ProtocolView(APIView):
    """The fantasy rail game's server notes' protocol: every interaction a JSON POST to ``/api`` naming
    the game in the body. The same write path as ``POST /api/games/{code}/commands`` and the WebSocket."""

    throttle_classes = [CommandOrReadThrottle]

    @extend_schema(
        request=s.ProtocolSerializer,
        parameters=[TOKEN_PARAM],
        responses={
            200: PolymorphicProxySerializer(
                component_name="ProtocolResult",
                serializers=[s.CommandResultSerializer, s.ProtocolStateResultSerializer],
                resource_type_field_name=None,
            ),
            304: None,
            409: s.ErrorSerializer,
            **ERRORS,
        },
        summary="Send a command the server notes' way: POST /api with the game in the body",
        description=(
            "Body: `{\"cmd\": \"<name>\", \"game\": \"<join code>\", \"player_id\"?: <seat>, ...arguments, "
            "\"command_id\"?, \"expected_version\"?}`, answered `{\"response\": \"<cmd>-response\", \"status\": "
            "\"ok\", ...}` exactly as POST /api/games/{code}/commands answers. The seat is the Bearer token's; a "
            "`player_id` that is not that seat is refused (403 `player-mismatch`; 401 `token-required` with no token). `{\"cmd\": \"get-state\"}` "
            "returns the caller's view (a spectator's without a token), or, for a kind with a protocol document "
            "of its own (Runerail: the server notes' state), that document as `state`: the whole public state "
            "(phase, special phase, turn, the current player's turn phase, money spent and distance moved, "
            "`commands`: every action of the log so far, the winner, the effects and the turn each ends, the decks' "
            "sizes and discard piles, every player, the static `geography` and every player's `track`) and `you`, "
            "the caller's private part (null for a spectator); `version`, `seat` and `legal_commands` as on the "
            "other routes. The static part is large (about 340 KB): `\"geography\": false` in the get-state body "
            "leaves it out (default true). A get-state is a read: it carries an `ETag` (`If-None-Match` naming it gets "
            "304 with no body) and counts against the read limits with or without a token, one token per started 64 KiB."
        ),
    )
    def post(self, request):
        body = dict(json_object(request))
        code = body.pop("game", None)
        if not isinstance(code, str) or not GAME_CODE.fullmatch(code):
            raise ServiceError("invalid-request", 'Name the game in the body: "game": its join code (5 letters).')
        player_id = body.pop("player_id", None)
        if player_id is not None and (type(player_id) is not int or player_id < 0):
            raise ServiceError("invalid-request", "player_id must be a seat number (a whole number from 0).")
        geography = True
        if body.get("cmd") == "get-state" and "geography" in body:
            geography = body.pop("geography")
            if type(geography) is not bool:
                raise ServiceError("invalid-request", "geography must be true or false.")
        code = normalize_join_code(code)
        game = selectors.game_get(code=code)
        actor = actor_for(request, game)
        if player_id is not None and player_id != actor.seat:
            if bearer_token(request) is None:  # no credentials at all: 401, as on the other routes
                raise Unauthorized("token-required", "Send your seat's token (Authorization: Bearer <token>) to play as player_id.")
            held = "no seat" if actor.seat is None else f"seat {actor.seat}"
            raise Forbidden("player-mismatch", f"player_id {player_id} is not your seat: your token holds {held}.")
        return command_response(request, code=code, game=game, actor=actor, body=body, protocol=True, geography=geography)


class PlanView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        parameters=[TOKEN_PARAM],
        responses={200: OpenApiTypes.OBJECT, 409: s.ErrorSerializer, **ERRORS},
        summary="Plan a build or a move before sending it (the rail games)",
        description=(
            "Body `{\"plan\": \"build\", \"points\": [[layer, q, r] | null, ...]}`: the cheapest legal build "
            "through the tapped mileposts (a first point null: from wherever building may start), with `path`, "
            "`sections`, `costs`, `cost`, `budget` (what is left to spend this turn), `affordable` and the `command` "
            "that builds it. Body `{\"plan\": \"move\", \"to\": [layer, q, r]}`: the shortest legal move there this "
            "turn, with `moves`, `moves_left`, `tolls` and the `command`. Nothing changes until the command is sent."
        ),
    )
    def post(self, request, code):
        game = selectors.game_get(code=code)
        actor = actor_for(request, game)
        return Response(selectors.game_plan(game=game, seat=actor.seat, request=json_object(request)))


@method_decorator(gzip_page, name="dispatch")
class ActionsView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="Return actions with sequence > after (default 0).")],
        responses={200: s.ActionSerializer(many=True), 304: None, **ERRORS},
        summary="The action log after a version (what a reconnecting client fetches)",
    )
    def get(self, request, code):
        raw = request.query_params.get("after", "0")
        try:
            after = int(raw)
            if after < 0:
                raise ValueError
        except ValueError:
            raise ServiceError("invalid-request", "after must be a whole number ≥ 0.") from None
        game = selectors.game_get(code=code)
        viewer = actor_for(request, game).seat  # another seat's hidden choices are redacted (games/redaction.py)
        return game_read_response(request, game=game, seat=viewer, ask=("actions", after),
                                  build=lambda: selectors.actions_after(game=game, after=after, viewer=viewer))


class ReplayView(APIView):
    throttle_classes = [ReadRateThrottle]

    @extend_schema(
        parameters=[OpenApiParameter("step", int, description="Action sequence to show (1 = start; default 1).")],
        responses={200: s.ReplayStepSerializer, 304: None, 409: s.ErrorSerializer, **ERRORS},
        summary="Replay: the spectator view after a given action",
    )
    def get(self, request, code):
        raw = request.query_params.get("step", "1")
        try:
            step = int(raw)
        except ValueError:
            raise ServiceError("invalid-request", "step must be a whole number.") from None
        game = selectors.game_get(code=code)
        viewer = actor_for(request, game).seat  # the step's action as this seat may read it
        return game_read_response(request, game=game, seat=viewer, ask=("replay", step),
                                  build=lambda: selectors.replay_step(game=game, step=step, viewer=viewer))
