import random

import pytest

from games.engines.base import RulesError
from games.engines.locomotive_werks import ENGINE

from .helpers import new_game
from .play import play_game


def test_greedy_beats_random():
    games, greedy_wins = 40, 0
    for seed in range(games):
        players = 3 + seed % 3
        bots = ["random"] * players
        greedy_seat = seed % players
        bots[greedy_seat] = "greedy"
        state, _ = play_game(bots, seed=1000 + seed, check_legal=True)
        greedy_wins += state["winners"] == [greedy_seat]
    # One greedy bot against two to four random bots: a fair share would be 1/3 to 1/5.
    assert greedy_wins >= 30, f"greedy won only {greedy_wins} of {games}"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_greedy_games_end(players):
    for seed in range(4):
        state, log = play_game(["greedy"] * players, seed=seed, check_legal=True)
        assert state["finished"] and state["winners"]
        assert state["round"] < 40
        assert max(p["coins"] for p in state["players"]) >= 300


def test_random_games_end_with_legal_commands():
    for seed in range(3):
        state, _ = play_game(["random"] * 3, seed=seed, check_legal=True)
        assert state["finished"]


def test_bot_errors():
    state = new_game()
    active = ENGINE.active_seats(state)[0]
    other = (active + 1) % 3
    with pytest.raises(RulesError) as err:
        ENGINE.bot_command(state, seat=active, bot="genius", rng=random.Random(1))
    assert err.value.code == "unknown-bot"
    for bot in ENGINE.bots:
        with pytest.raises(RulesError) as err:
            ENGINE.bot_command(state, seat=other, bot=bot, rng=random.Random(1))
        assert err.value.code == "not-your-turn"


def test_greedy_fills_the_die_it_will_sell_to():
    from .helpers import blank_game, give_card, set_dice, to_capacity

    state = blank_game(coins=40)
    state["order"] = [1, 0, 2]
    set_dice(state, 5, existing=[5, 2])
    give_card(state, 1, 5, units=4)  # seat 1 sells first: lowers the 5 to 1
    give_card(state, 0, 5, units=1)
    to_capacity(state)
    ENGINE.apply(state, seat=1, command={"cmd": "pass"})
    command = ENGINE.bot_command(state, seat=0, bot="greedy", rng=random.Random(0))
    assert command == {"cmd": "buy-units", "space": 5, "count": 1}  # dice left: 1, 2 -> 2 units
