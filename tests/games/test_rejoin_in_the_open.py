"""Seats change hands in the open (games/rejoin.py): the host hands a person's seat to a new device
only once its phone has been away JUNCTION_REJOIN_AWAY seconds (409 seat-present before, saying how
long to wait); a bot's seat and the host's own go at once, and so does any seat for a game master;
making a code is an admin action everyone is told of; a seat taken by anyone but its own account
makes the game unrated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import broadcast, services
from games.errors import ServiceError
from games.models import Action, Game, RejoinCode, Seat
from games.replay import game_replay
from games.selectors import game_get, game_summary

from .factories import actor, make_game, seat_away
from .test_undo import in_play  # noqa: F401  (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    messages: list = []
    monkeypatch.setattr(broadcast, "send", lambda batch: messages.extend(batch))
    return messages


def host_issues(code: str, tokens: dict, seat: int) -> services.RejoinCodeIssued:
    return services.rejoin_code_create(game_id=game_get(code=code).pk, seat=seat, by="host", actor=actor(code, tokens[0]))


def seen(code: str, seat: int, seconds_ago: float) -> None:
    Seat.objects.filter(game__code=code, index=seat).update(last_seen=timezone.now() - timedelta(seconds=seconds_ago))


def refused(code: str, tokens: dict, seat: int) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        host_issues(code, tokens, seat)
    return err.value


def test_the_host_waits_until_the_seats_phone_has_been_away_for_a_minute(settings):
    settings.JUNCTION_REJOIN_AWAY = 60
    code, tokens = make_game()
    seen(code, 1, 20)  # a socket of Ben's seat was open 20 s ago (or is open now: refreshed then)
    error = refused(code, tokens, 1)
    assert (error.code, error.status) == ("seat-present", 409)
    assert error.message == ("P1's phone is still connected, or was 20 seconds ago. A seat goes to a new device only "
                             "once its phone has been away for 60 seconds: try again in 40 seconds.")
    assert error.extra == {"retry_after": 40}
    assert not RejoinCode.objects.exists() and game_get(code=code).version == 1  # nothing made, nothing logged

    seen(code, 1, 61)
    assert host_issues(code, tokens, 1).seat.index == 1


def test_a_seat_that_never_opened_a_socket_counts_from_when_it_was_taken(settings):
    settings.JUNCTION_REJOIN_AWAY = 60
    code, tokens = make_game()
    assert Seat.objects.get(game__code=code, index=1).last_seen is None
    assert refused(code, tokens, 1).code == "seat-present"  # joined a moment ago
    Seat.objects.filter(game__code=code, index=1).update(joined_at=timezone.now() - timedelta(seconds=60))
    assert host_issues(code, tokens, 1).seat.index == 1


def test_the_wait_is_a_setting(settings):
    code, tokens = make_game()
    seen(code, 1, 20)
    settings.JUNCTION_REJOIN_AWAY = 300
    assert refused(code, tokens, 1).extra == {"retry_after": 280}
    settings.JUNCTION_REJOIN_AWAY = 10
    assert host_issues(code, tokens, 1).seat.index == 1


def test_a_bots_seat_and_the_hosts_own_go_at_once_a_seat_a_bot_keeps_for_its_player_does_not(settings):
    settings.JUNCTION_REJOIN_AWAY = 60
    code, tokens = make_game(players=3)
    game = game_get(code=code)
    services.seat_bot_assign(game_id=game.pk, seat=1, bot="random", by="gm")  # a bot plays it for good
    assert host_issues(code, tokens, 1).seat.index == 1
    assert host_issues(code, tokens, 0).seat.index == 0  # the host's own seat: the host is here
    # The host hands Cleo's seat to a bot "while she is away": it is still hers, so the code waits.
    services.seat_bot_hand(code=code, actor=actor(code, tokens[0]), seat=2)
    assert Seat.objects.get(game=game, index=2).away
    assert refused(code, tokens, 2).code == "seat-present"
    seat_away(code, 2)
    assert host_issues(code, tokens, 2).seat.index == 2


def test_a_game_master_makes_a_code_at_any_time_and_it_says_so(settings, sent, django_capture_on_commit_callbacks):
    settings.JUNCTION_REJOIN_AWAY = 60
    code, _ = make_game()
    seen(code, 1, 0)  # connected right now
    with django_capture_on_commit_callbacks(execute=True):
        services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="gm")
    made = Action.objects.get(game__code=code, sequence=2)
    assert made.command == {"cmd": "admin", "action": "rejoin-code-made", "by": "gm", "seat": 1}
    assert made.events == [{"type": "rejoin-code-made", "seat": 1, "name": "P1", "by": "gm"}]


def test_making_a_code_is_told_to_everyone_and_replay_steps_over_it(sent, django_capture_on_commit_callbacks):
    code, tokens = make_game(kind="toy")
    seat_away(code, 1)
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    with django_capture_on_commit_callbacks(execute=True):
        host_issues(code, tokens, 1)
    game = game_get(code=code)
    made = Action.objects.get(game=game, sequence=3)
    assert made.command == {"cmd": "admin", "action": "rejoin-code-made", "by": "host", "seat": 1}
    assert made.seat is None and game.version == 3
    update = next(m for g, m in sent if g == broadcast.game_group(game.pk) and m["type"] == "game.update")
    assert update["version"] == 3 and set(update["states"]) == {"0", "1", "watch"}  # every seat and the watchers
    assert game_replay(game=game) == game.state


def test_undo_takes_back_the_move_not_the_code(in_play):  # noqa: F811  (the fixture imported above)
    code, tokens = in_play
    before = game_get(code=code).state
    services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "borrow", "amount": 5000})
    seat_away(code, tokens["other"])
    services.rejoin_code_create(game_id=game_get(code=code).pk, seat=tokens["other"], by="host", actor=actor(code, tokens["host"]))
    undone = services.game_command(code=code, actor=actor(code, tokens[1]), command={"cmd": "undo"})
    assert undone.events[0]["command"] == {"cmd": "borrow", "amount": 5000}
    game = game_get(code=code)
    assert game.state["players"] == before["players"] and game_replay(game=game) == game.state


def test_in_the_lobby_a_code_is_made_without_a_log(settings):
    code, tokens = make_game(start=False)
    seat_away(code, 1)
    host_issues(code, tokens, 1)
    game = game_get(code=code)
    assert game.version == 0 and not Action.objects.filter(game=game).exists()


def user(name: str):
    return get_user_model().objects.create_user(name, f"{name}@example.com")


def signed_in_game(owners: dict[int, object], players: int = 2) -> tuple[str, dict]:
    code, tokens = make_game(players=players)
    for index, owner in owners.items():
        Seat.objects.filter(game__code=code, index=index).update(user=owner)
    return code, tokens


def moved_event(code: str) -> dict:
    return Action.objects.filter(game__code=code, command__action="seat-moved").get().events[0]


def test_a_seat_taken_by_another_device_unrates_the_game_and_says_so(sent):
    ann, bob = user("ann"), user("bob")
    code, _ = signed_in_game({0: ann, 1: bob})
    seen(code, 1, 3600)  # away: the host's door needs it when the code is made and used
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="host")
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code, user=ann)  # the host's account takes Bob's seat
    game = Game.objects.get(code=code)
    assert game.unrated_reason == "P1's seat was handed to another device"
    assert moved_event(code) == {"type": "seat-moved", "seat": 1, "name": "P1", "by": "host", "unrated": True}
    assert game_summary(game)["unrated_reason"] == "P1's seat was handed to another device"  # the pages say it at the end


def test_a_guests_device_taking_a_seat_unrates_it_too(sent):
    ann, bob = user("ann"), user("bob")
    code, _ = signed_in_game({0: ann, 1: bob})
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="gm")
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code)  # nobody signed in on the new device
    assert Game.objects.get(code=code).unrated_reason == "P1's seat was handed to another device"
    assert moved_event(code)["unrated"] is True


def test_the_seats_own_account_taking_it_back_keeps_the_game_rated(sent):
    ann, bob = user("ann"), user("bob")
    code, _ = signed_in_game({0: ann, 1: bob})
    seen(code, 1, 3600)  # away: the host's door needs it when the code is made and used
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="host")
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code, user=bob)
    game = Game.objects.get(code=code)
    assert game.unrated_reason == "" and game_summary(game)["unrated_reason"] is None
    assert "unrated" not in moved_event(code)


def test_a_guests_game_records_the_reason_too(sent):
    """Nobody in it is rated now, but its seats may yet be linked to accounts (players who sign in)."""
    code, _ = make_game()
    seen(code, 1, 3600)  # away: the host's door needs it when the code is made and used
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="host")
    services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    game = Game.objects.get(code=code)
    assert game.unrated_reason == "P1's seat was handed to another device" == game_summary(game)["unrated_reason"]
    assert moved_event(code)["unrated"] is True


def test_the_first_reason_stays(sent):
    ann, bob = user("ann"), user("bob")
    code, _ = signed_in_game({0: ann, 1: bob}, players=3)
    game_id = game_get(code=code).pk
    for seat in (1, 2):
        seen(code, seat, 3600)
        issued = services.rejoin_code_create(game_id=game_id, seat=seat, by="host")
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert Game.objects.get(code=code).unrated_reason == "P1's seat was handed to another device"
    moved = [a.events[0] for a in Action.objects.filter(game__code=code, command__action="seat-moved").order_by("sequence")]
    assert [e.get("unrated") for e in moved] == [True, None]  # said once


def test_a_hosts_code_is_refused_if_the_seats_phone_came_back_before_it_was_used(settings, sent):
    settings.JUNCTION_REJOIN_AWAY = 60
    code, tokens = make_game()
    seen(code, 1, 61)
    issued = host_issues(code, tokens, 1)
    seen(code, 1, 2)  # the player's phone opened its socket again
    with pytest.raises(ServiceError) as err:
        services.rejoin_code_redeem(code=code, rejoin_code=issued.code)
    assert (err.value.code, err.value.status) == ("seat-present", 409)
    seat = Seat.objects.get(game__code=code, index=1)
    assert actor(code, tokens[1]).seat == 1 and seat.is_bot is False  # the player keeps the seat
    assert RejoinCode.objects.get().used_at is None

    seen(code, 1, 61)  # away again: the same code works
    assert services.rejoin_code_redeem(code=code, rejoin_code=issued.code).seat.index == 1


def test_a_game_masters_code_is_not_held_back_at_use(settings, sent):
    settings.JUNCTION_REJOIN_AWAY = 60
    code, tokens = make_game()
    issued = services.rejoin_code_create(game_id=game_get(code=code).pk, seat=1, by="admin")
    seen(code, 1, 2)
    assert services.rejoin_code_redeem(code=code, rejoin_code=issued.code).seat.index == 1
