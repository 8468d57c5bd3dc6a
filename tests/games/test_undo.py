"""Undo back to the start of the current turn, server-side, from the log."""

from __future__ import annotations

import pytest

from games import services
from games.errors import Forbidden, ServiceError
from games.replay import game_replay
from games.selectors import game_get
from tests.games.factories import actor

pytestmark = pytest.mark.django_db


def send(code, token, command):
    return services.game_command(code=code, actor=actor(code, token), command=command)


@pytest.fixture
def in_play():
    """A 3-player Wood and Steel game past setup, hosted from a seatless table screen.
    Returns (code, tokens) where tokens["host"] is the host's and tokens[1] is the
    seat to move, tokens[2] another player."""
    from games.engines.registry import get_engine

    engine = get_engine("wood-and-steel")
    created = services.game_create(kind="wood-and-steel")
    code = created.game.code
    seats = {}
    for i in range(3):
        seat, token, _ = services.seat_join(code=code, name=f"P{i}")
        seats[seat.index] = token
    services.game_start(code=code, actor=actor(code, created.host_token))
    for _ in range(2):  # rank routes, then place engines
        for seat in range(3):
            send(code, seats[seat], engine.legal_commands(game_get(code=code).state, seat=seat)[0])
    state = game_get(code=code).state
    assert state["phase"] == "play"
    mover = engine.active_seats(state)[0]
    other = next(s for s in range(3) if s != mover)
    return code, {"host": created.host_token, 1: seats[mover], 2: seats[other], "mover": mover, "other": other}


def money(code, seat):
    return game_get(code=code).state["players"][seat]["money"]


def test_fixture_mover_is_on_turn(in_play):
    code, tokens = in_play
    assert game_get(code=code).state["current_seat"] == tokens["mover"]


def test_player_undoes_their_own_move_and_the_log_replays(in_play):
    code, tokens = in_play
    before = game_get(code=code)
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    assert money(code, tokens["mover"]) == before.state["players"][tokens["mover"]]["money"] + 5000
    result = send(code, tokens[1], {"cmd": "undo"})
    assert result.events[0]["type"] == "undone" and result.events[0]["command"] == {"cmd": "borrow", "amount": 5000}
    after = game_get(code=code)
    assert after.state == before.state and after.version == before.version + 2
    assert game_replay(game=after) == after.state
    with pytest.raises(ServiceError) as err:
        send(code, tokens[1], {"cmd": "undo"})
    assert err.value.code == "nothing-to-undo"  # the turn started with the previous player's move


def test_others_cannot_undo_but_the_host_can(in_play):
    code, tokens = in_play
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    with pytest.raises(Forbidden) as err:
        send(code, tokens[2], {"cmd": "undo"})
    assert err.value.code == "not-your-command"
    result = send(code, tokens["host"], {"cmd": "undo"})  # the seatless host
    assert result.events[0]["command"] == {"cmd": "borrow", "amount": 5000}
    assert game_get(code=code).actions.order_by("-sequence")[0].seat is None
    assert game_replay(game=game_get(code=code)) == game_get(code=code).state


def test_a_random_draw_seen_by_others_needs_the_host_to_confirm(in_play):
    code, tokens = in_play
    before = game_get(code=code).state
    result = send(code, tokens[1], {"cmd": "discard-private-contract"})
    assert any(e.get("random") for e in result.events)
    with pytest.raises(ServiceError) as err:
        send(code, tokens[1], {"cmd": "undo"})
    assert err.value.code == "undo-needs-host"
    with pytest.raises(ServiceError) as err:
        send(code, tokens["host"], {"cmd": "undo"})
    assert err.value.code == "confirm-required"
    send(code, tokens["host"], {"cmd": "undo", "confirm": True})
    assert game_get(code=code).state == before
    with pytest.raises(ServiceError) as err:
        send(code, tokens["host"], {"cmd": "undo", "confirm": "yes"})
    assert err.value.code == "invalid-command"


def test_undo_never_crosses_into_the_previous_turn(in_play):
    code, tokens = in_play
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    send(code, tokens[1], {"cmd": "end-turn"})
    with pytest.raises(ServiceError) as err:
        send(code, tokens[2], {"cmd": "undo"})
    assert err.value.code == "nothing-to-undo"
    with pytest.raises(ServiceError):
        send(code, tokens["host"], {"cmd": "undo"})


def test_engines_without_turns_do_not_offer_undo():
    from tests.games.factories import make_game

    code, tokens = make_game()
    with pytest.raises(ServiceError) as err:
        send(code, tokens[0], {"cmd": "undo"})
    assert err.value.code == "unknown-command"


def test_the_broadcast_after_an_undo_carries_the_restored_state(in_play, django_capture_on_commit_callbacks, monkeypatch):
    import json

    from games import broadcast

    code, tokens = in_play
    before = game_get(code=code).state
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    sent: list = []
    monkeypatch.setattr(broadcast, "send", lambda messages: sent.extend(messages))
    with django_capture_on_commit_callbacks(execute=True):
        send(code, tokens[1], {"cmd": "undo"})
    states = [json.loads(text) for _, m in sent for text in m["states"].values()]
    assert len(states) == 4  # three seats and the spectators
    for payload in states:
        assert [p["money"] for p in payload["state"]["players"]] == [p["money"] for p in before["players"]]
