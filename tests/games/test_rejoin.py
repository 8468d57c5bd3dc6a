"""Seats that come back (games/rejoin.py, reached as services.rejoin_code_create /
rejoin_code_redeem): the host or a game master hands a seat to a new device with a one-time code;
the old token is revoked; making the code and the move are admin actions in the log, told to
everyone after commit; replay and undo step over them. (The host's wait for a seat whose phone is
away, and the game made unrated: test_rejoin_in_the_open.py.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import broadcast, rejoin, services
from games.errors import Forbidden, ServiceError, Unauthorized
from games.models import Action, Game, RejoinCode, Seat
from games.replay import game_replay
from games.selectors import actor_for_token, game_get
from games.tokens import hash_token, normalize_rejoin_code, rejoin_code_display

from .factories import actor, make_game, seat_away

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    """What the broadcast would send, in order (a list of (group, message))."""
    messages: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: messages.extend(batch))
    return messages


def issue(code: str, seat: int, by: str = "host", **kw) -> services.RejoinCodeIssued:
    """A code for ``seat``; made as the host (``by="host"``), for a seat whose phone has been away, as
    the host's door requires when the code is made and again when it is used (tests/games/test_rejoin_in_the_open.py)."""
    if by == "host":
        seat_away(code, seat)
    return services.rejoin_code_create(game_id=game_get(code=code).pk, seat=seat, by=by, **kw)


def test_a_code_is_stored_only_as_its_hash_and_expires_after_the_ttl(settings):
    settings.JUNCTION_REJOIN_TTL = 300
    code, _ = make_game()
    before = timezone.now()
    issued = issue(code, 1)
    row = RejoinCode.objects.get()
    assert len(issued.code) == 10 and set(issued.code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ")
    assert row.code_hash == hash_token(issued.code) and issued.code not in row.code_hash
    assert (row.seat, row.created_by, row.used_at, row.revoked_token_hash) == (1, "host", None, None)
    assert timedelta(seconds=299) < row.expires_at - before <= timedelta(seconds=301)
    assert issued.seat.name == "P1"


def test_redeeming_moves_the_seat_to_a_new_token_and_revokes_the_old_one(sent, django_capture_on_commit_callbacks):
    code, tokens = make_game(players=3)
    issued = issue(code, 1)
    with django_capture_on_commit_callbacks(execute=True):
        rejoined = services.rejoin_code_redeem(code=code, rejoin_code=rejoin_code_display(issued.code).lower())
    assert (rejoined.seat.index, rejoined.is_host) == (1, False)
    assert rejoined.token not in tokens.values()
    game = game_get(code=code)
    new_actor = actor_for_token(game=game, token=rejoined.token)
    assert (new_actor.seat, new_actor.is_host) == (1, False)
    with pytest.raises(Unauthorized) as err:
        actor_for_token(game=game, token=tokens[1])
    assert err.value.code == "seat-moved" and err.value.status == 401
    with pytest.raises(Unauthorized) as err:  # a token that never was stays simply invalid
        actor_for_token(game=game, token="never-issued")
    assert err.value.code == "invalid-token"
    assert actor_for_token(game=game, token=tokens[2]).seat == 2  # the other seats keep theirs

    # The new token plays the seat; it is seat 1's turn after seat 0 moves.
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    with django_capture_on_commit_callbacks(execute=True):
        result = services.game_command(code=code, actor=new_actor, command={"cmd": "add", "n": 2})
    assert result.version == 5  # start, the code made, the move, two adds


def test_the_move_is_an_admin_action_in_the_log_told_after_commit(sent, django_capture_on_commit_callbacks):
    code, tokens = make_game()
    issued = issue(code, 1, by="gm")
    with django_capture_on_commit_callbacks() as callbacks:
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
        assert sent == []  # nothing is told before the commit
    for callback in callbacks:
        callback()
    game = game_get(code=code)
    made, action = Action.objects.get(game=game, sequence=2), Action.objects.get(game=game, sequence=3)
    assert made.command == {"cmd": "admin", "action": "rejoin-code-made", "by": "gm", "seat": 1}
    assert action.command == {"cmd": "admin", "action": "seat-moved", "by": "gm", "seat": 1}
    # a guest's device took it: the game rates nobody from now on (test_rejoin_in_the_open.py)
    assert action.events == [{"type": "seat-moved", "seat": 1, "name": "P1", "by": "gm", "unrated": True}]
    assert action.seat is None and game.version == 3
    # First the old token's sockets are told (a message only the server reads: the token's
    # hash), then everyone gets the new version with each seat's own view.
    group = broadcast.game_group(game.pk)
    assert sent[0] == (group, {"type": "seat.moved", "token_hash": hash_token(tokens[1]), "seat": 1})
    update = next(message for g, message in sent if g == group and message["type"] == "game.update")
    assert update["version"] == 3 and set(update["states"]) == {"0", "1", "watch"}


def test_a_code_works_once(sent):
    code, _ = make_game()
    issued = issue(code, 1)
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    with pytest.raises(ServiceError) as err:
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert (err.value.code, err.value.status) == ("rejoin-code-used", 410)
    assert game_get(code=code).version == 3  # the code made, one move: in the log


def test_an_expired_code_is_refused_and_changes_nothing(sent, settings):
    code, tokens = make_game()
    issued = issue(code, 1)
    RejoinCode.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ServiceError) as err:
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert (err.value.code, err.value.status) == ("rejoin-code-expired", 410)
    game = game_get(code=code)
    assert game.version == 2 and actor_for_token(game=game, token=tokens[1]).seat == 1  # the code made, no move
    assert sent == []


def test_unknown_codes_and_another_games_code_are_404(sent):
    code, _ = make_game()
    other, _ = make_game()
    issued = issue(other, 1)
    for wrong in ("ABCDEFGHJK", issued.code):
        with pytest.raises(ServiceError) as err:
            services.rejoin_code_redeem(code=code, rejoin_code=wrong)
        assert (err.value.code, err.value.status) == ("rejoin-code-unknown", 404)
    assert RejoinCode.objects.get().used_at is None  # the other game's code still works there


def test_a_newer_code_replaces_the_seats_earlier_one(sent):
    code, _ = make_game(players=3)
    first, for_other_seat, second = issue(code, 1), issue(code, 2), issue(code, 1)
    with pytest.raises(ServiceError) as err:
        services.rejoin_code_redeem(code=code, rejoin_code=first.code)
    assert err.value.code == "rejoin-code-unknown"
    assert services.rejoin_code_redeem(code=code, rejoin_code=second.code).seat.index == 1
    assert services.rejoin_code_redeem(code=code, rejoin_code=for_other_seat.code).seat.index == 2


def test_only_the_host_issues_codes_over_the_api_and_only_for_seats_that_exist():
    code, tokens = make_game()
    with pytest.raises(Forbidden) as err:
        issue(code, 0, actor=actor(code, tokens[1]))
    assert err.value.code == "host-only"
    with pytest.raises(Unauthorized):
        issue(code, 0, actor=actor(code, None))
    with pytest.raises(ServiceError) as err:
        issue(code, 7, actor=actor(code, tokens[0]))
    assert (err.value.code, err.value.status) == ("seat-not-found", 404)
    seat_away(code, 1)
    assert issue(code, 1, actor=actor(code, tokens[0])).seat.index == 1


def test_the_hosts_own_seat_moves_with_the_host_token(sent):
    code, tokens = make_game()
    issued = issue(code, 0)
    rejoined = services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert rejoined.is_host
    game = game_get(code=code)
    assert game.host_token_hash == hash_token(rejoined.token) == Seat.objects.get(game=game, index=0).token_hash
    now = actor_for_token(game=game, token=rejoined.token)
    assert (now.seat, now.is_host) == (0, True)
    with pytest.raises(Unauthorized) as err:
        actor_for_token(game=game, token=tokens[0])
    assert err.value.code == "seat-moved"


def test_a_seat_a_bot_played_comes_back_to_a_person(sent):
    code, _ = make_game()
    game = game_get(code=code)
    services.seat_bot_assign(game_id=game.pk, seat=1, bot="random", by="gm")
    issued = issue(code, 1)
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    seat = Seat.objects.get(game=game, index=1)
    assert (seat.is_bot, seat.bot) == (False, "")
    last = Action.objects.filter(game=game).order_by("-sequence").first()
    assert last.events[0]["bot"] == "random"


def test_a_lobby_seat_moves_without_a_log_and_a_paused_games_seat_moves_too(sent):
    code, tokens = make_game(start=False)
    rejoined = services.rejoin_code_redeem(code=code, rejoin_code=issue(code, 1).code)
    game = game_get(code=code)
    assert game.version == 0 and not Action.objects.filter(game=game).exists()
    assert actor_for_token(game=game, token=rejoined.token).seat == 1

    code, tokens = make_game()
    game = game_get(code=code)
    services.game_pause(game_id=game.pk, by="gm", reason="a phone died")
    services.rejoin_code_redeem(code=code, rejoin_code=issue(code, 1).code)
    game = game_get(code=code)
    assert game.status == "paused" and game.version == 4


def test_no_code_for_a_game_that_is_over_and_an_open_code_dies_with_it(sent):
    code, tokens = make_game()
    game = game_get(code=code)
    issued = issue(code, 1)
    services.game_end(game_id=game.pk, by="gm", reason="closing time")
    with pytest.raises(ServiceError) as err:
        issue(code, 1)
    assert (err.value.code, err.value.status) == ("game-abandoned", 409)
    with pytest.raises(ServiceError) as err:
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert (err.value.code, err.value.status) == ("game-abandoned", 409)
    assert RejoinCode.objects.get().used_at is None  # nothing was half done
    assert actor_for_token(game=game_get(code=code), token=tokens[1]).seat == 1


def test_replay_and_undo_step_over_the_move():
    code, tokens = make_game(players=2)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 3})
    rejoined = services.rejoin_code_redeem(code=code, rejoin_code=issue(code, 1).code)
    services.game_command(code=code, actor=actor(code, rejoined.token), command={"cmd": "add", "n": 1})
    game = game_get(code=code)
    assert game.version == 5 and game_replay(game=game) == game.state


def test_normalised_codes():
    assert normalize_rejoin_code(" abcde-fghjk ") == "ABCDEFGHJK"
    assert rejoin_code_display("ABCDEFGHJK") == "ABCDE-FGHJK"


def test_two_devices_redeeming_at_once_one_wins(sent, monkeypatch):
    """The code is marked used by a conditional update under the game's lock: a device whose
    check before the lock passed, while the other device won meanwhile, is refused."""
    code, _ = make_game()
    issued = issue(code, 1)
    RejoinCode.objects.update(used_at=timezone.now())  # the other device won meanwhile
    real = rejoin._rejoin_code_usable
    checks = []

    def pre_check_passes(row):  # as if checked just before the other device's commit
        checks.append(row)
        if len(checks) > 1:
            real(row)

    monkeypatch.setattr(rejoin, "_rejoin_code_usable", pre_check_passes)
    with pytest.raises(ServiceError) as err:
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert (err.value.code, err.value.status) == ("rejoin-code-used", 410)
    assert len(checks) == 2 and Game.objects.get(code=code).version == 2
