"""Take back (games/takeback.py): any seat takes back its own last action without the host, even
after ending its turn, until the next player acts; refused with a code when it drew something
hidden or another player has acted since; recorded in the log like any command; the seat's state
payload says what it may take back."""

from __future__ import annotations

import pytest

from games import services
from games.errors import Forbidden, ServiceError
from games.replay import game_replay
from games.selectors import game_get, state_payload
from tests.games import test_undo
from tests.games.factories import actor

in_play = test_undo.in_play  # the fixture: a 3-player game in play hosted from a seatless table screen
send = test_undo.send

pytestmark = pytest.mark.django_db
TAKE_BACK = {"cmd": "take-back"}


def engine():
    from games.engines.registry import get_engine

    return get_engine("wood-and-steel")


def build(code, seat):
    return next(c for c in engine().legal_commands(game_get(code=code).state, seat=seat) if c["cmd"] == "build-track")


def offered(code, seat):
    return state_payload(game=game_get(code=code), seat=seat)["take_back"]


def refused(code, token, command=TAKE_BACK):
    with pytest.raises((ServiceError, Forbidden)) as err:
        send(code, token, command)
    return err.value.code


def test_a_player_takes_back_a_build_and_the_end_of_their_turn_until_the_next_player_acts(in_play):
    code, tokens = in_play
    mover = tokens["mover"]
    before = game_get(code=code)
    send(code, tokens[1], build(code, mover))
    send(code, tokens[1], {"cmd": "end-turn"})
    assert game_get(code=code).state["current_seat"] != mover
    ended = game_get(code=code).actions.order_by("-sequence")[0].sequence
    assert offered(code, mover) == {"sequence": ended, "cmd": "end-turn"}

    result = send(code, tokens[1], TAKE_BACK)  # no host: the turn comes back to the mover
    assert result.events == [{"type": "undone", "sequence": ended, "seat": mover, "command": {"cmd": "end-turn"}}]
    assert game_get(code=code).state["current_seat"] == mover
    assert offered(code, mover)["cmd"] == "build-track"
    send(code, tokens[1], TAKE_BACK)
    after = game_get(code=code)
    assert after.state == before.state and after.version == before.version + 4
    assert game_replay(game=after) == after.state
    log = [(a.seat, a.command.get("cmd")) for a in after.actions.order_by("sequence")][-4:]
    assert log == [(mover, "build-track"), (mover, "end-turn"), (mover, "take-back"), (mover, "take-back")]
    # What is left is the setup, whose last move placed seat 2's engine (drawing nothing).
    if mover == 2:
        assert offered(code, mover)["cmd"] == "place-engine"
    else:
        assert offered(code, mover) is None and refused(code, tokens[1]) == "another-player-acted"


@pytest.fixture
def seats():
    """A 3-player Wood and Steel game in play: (code, every seat's token by index)."""
    created = services.game_create(kind="wood-and-steel")
    code = created.game.code
    tokens = {}
    for i in range(3):
        seat, token, _ = services.seat_join(code=code, name=f"P{i}")
        tokens[seat.index] = token
    services.game_start(code=code, actor=actor(code, created.host_token))
    for _ in range(2):  # rank routes, then place engines
        for seat in range(3):
            send(code, tokens[seat], engine().legal_commands(game_get(code=code).state, seat=seat)[0])
    return code, tokens


def test_once_the_next_player_acts_it_stays(seats):
    code, tokens = seats
    mover = game_get(code=code).state["current_seat"]
    send(code, tokens[mover], build(code, mover))
    send(code, tokens[mover], {"cmd": "end-turn"})
    nxt = game_get(code=code).state["current_seat"]
    send(code, tokens[nxt], {"cmd": "borrow", "amount": 5000})
    assert refused(code, tokens[mover]) == "another-player-acted"
    assert offered(code, mover) is None and offered(code, nxt) == {"sequence": game_get(code=code).version, "cmd": "borrow"}
    send(code, tokens[nxt], TAKE_BACK)  # the next player's own action is theirs to take back
    assert game_get(code=code).state["current_seat"] == nxt
    # An action taken back counts for nothing: the mover's end of turn is the last action again.
    assert offered(code, mover)["cmd"] == "end-turn"


def test_another_seat_cannot_take_back_the_movers_action(in_play):
    code, tokens = in_play
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    assert refused(code, tokens[2]) == "another-player-acted"
    assert offered(code, tokens["other"]) is None
    assert refused(code, tokens["host"]) == "not-a-player"  # the seatless host undoes instead


def test_an_action_that_drew_something_hidden_is_refused_and_not_offered(in_play):
    code, tokens = in_play
    result = send(code, tokens[1], {"cmd": "discard-private-contract"})
    assert any(e.get("random") for e in result.events)
    assert offered(code, tokens["mover"]) is None
    version = game_get(code=code).version
    with pytest.raises(ServiceError) as err:
        send(code, tokens[1], TAKE_BACK)
    assert err.value.code == "drew-hidden" and "hidden" in err.value.message
    assert game_get(code=code).version == version  # nothing written


def test_take_back_takes_no_arguments(in_play):
    code, tokens = in_play
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    assert refused(code, tokens[1], {"cmd": "take-back", "sequence": 3}) in ("invalid-command", "invalid-args")


def test_an_undo_and_a_take_back_read_one_log(in_play):
    code, tokens = in_play
    mover = tokens["mover"]
    before = game_get(code=code).state
    send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    send(code, tokens[1], build(code, mover))
    send(code, tokens[1], {"cmd": "undo"})  # the build
    assert offered(code, mover)["cmd"] == "borrow"
    send(code, tokens[1], TAKE_BACK)  # the loan
    game = game_get(code=code)
    assert game.state == before and game_replay(game=game) == game.state
    with pytest.raises(ServiceError) as err:
        send(code, tokens[1], {"cmd": "undo"})
    assert err.value.code == "nothing-to-undo"


def test_titles_that_do_not_take_back_refuse_it_and_offer_nothing():
    from tests.games.factories import make_game

    code, tokens = make_game()
    services.game_command(code=code, actor=actor(code, tokens[0]), command={"cmd": "add", "n": 1})
    assert refused(code, tokens[0]) == "unknown-command"
    assert "take_back" not in state_payload(game=game_get(code=code), seat=0)


def test_the_broadcast_after_a_move_offers_it_without_reading_the_log(in_play, django_capture_on_commit_callbacks, monkeypatch,
                                                                      django_assert_num_queries):
    """On the event loop the broadcast cannot read the log: the move just saved answers for it."""
    import json

    from games import broadcast, takeback

    code, tokens = in_play
    mover = tokens["mover"]
    sent: list = []
    monkeypatch.setattr(broadcast, "send", lambda messages: sent.extend(messages))
    with django_capture_on_commit_callbacks(execute=True):
        send(code, tokens[1], {"cmd": "borrow", "amount": 5000})
    payloads = [json.loads(text) for _, m in sent for text in m["states"].values()]
    by_seat = {p["seat"]: p for p in payloads}
    assert by_seat[mover]["take_back"] == offered(code, mover) == {"sequence": game_get(code=code).version, "cmd": "borrow"}
    assert all(p.get("take_back") is None for seat, p in by_seat.items() if seat != mover)

    game = game_get(code=code)
    game.version += 1  # as services.py does once the move is saved
    takeback.moved(game, seat=mover, command={"cmd": "discard-private-contract"}, events=[{"type": "offers-dealt", "random": True}])
    with django_assert_num_queries(0):
        assert takeback.offer(game, mover) is None
    takeback.moved(game, seat=mover, command={"cmd": "end-turn"}, events=[])
    with django_assert_num_queries(0):
        assert takeback.offer(game, mover) == {"sequence": game.version, "cmd": "end-turn"}
        assert takeback.offer(game, tokens["other"]) is None
    takeback.moved(game, seat=mover, command={"cmd": "take-back"}, events=[])
    assert game.last_move is None  # an older move is the last again: offer reads the log
