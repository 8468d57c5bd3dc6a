"""What the rules say is checked for grammar and number (issue 34: "A advanced train", "needs 1 mileposts")."""

from __future__ import annotations

import pytest

from games.engines.base import RulesError
from games.engines.resourceful_rails import ENGINE

from .helpers import move, normal_turn, put_train
from .test_rules_move_and_goods import moved, with_line


def refusal(state, seat, command) -> str:
    with pytest.raises(RulesError) as refused:
        ENGINE.apply(state, seat=seat, command=command)
    return refused.value.message


@pytest.mark.parametrize("old, to, said", [
    ("advanced", "fast", "An advanced train cannot become a fast one."),
    ("fast", "heavy", "A fast train cannot become a heavy one."),
])
def test_a_refused_upgrade_says_a_or_an(old, to, said):
    state = normal_turn()
    state["players"][0]["train"] = old
    assert refusal(state, 0, {"cmd": "upgrade", "train": to}) == said


def test_a_move_one_milepost_too_far_says_milepost():
    state, line = with_line()
    put_train(state, 0, line[0])
    speed = ENGINE.view(state, seat=0)["players"][0]["speed"]
    moved(state, 0, move(*line[:speed + 1]))
    assert refusal(state, 0, move(*line[speed:speed + 2])) == "That move needs 1 milepost or more; the train has 0."
