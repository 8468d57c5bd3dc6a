"""A first game, as a newcomer plays it: from the home page, one person on a phone with bots in the
other seats plays the whole game to its end by tapping only, reads how it ended and opens the replay
(the driver: tests/e2e/first_game.py). Every screen state met on the way is checked (tests/e2e/screens.py:
words a person should not see, raw coordinates, overflow at 360, 390 and 1280 px, axe-core at the key
moments) and screenshotted into var/artifacts/first-game/."""

from __future__ import annotations

import pytest

from .conftest import create_game
from .first_game import tap_until_the_end, the_ending
from .screens import Screens

# The first pass only (the layout mark, tests/conftest.py): a first game is mostly what its pages look like, at three
# widths with axe-core; the services behind them are played by every other browser test on both passes.
pytestmark = [pytest.mark.browser, pytest.mark.layout, pytest.mark.timeout(420)]


def test_locomotive_werks_first_game_on_a_phone_with_two_bots(live_server_url, new_page):
    screens = Screens("locomotive-werks")
    ann = new_page(width=390, height=844)
    code = create_game(ann, live_server_url, kind="locomotive-werks", name="Ann")
    for _ in range(2):
        ann.click("#add-bot")
    ann.wait_for_selector("#seat-list li[data-seat='2']")
    screens.check(ann, "waiting-room", axe=True)
    ann.click("#start-game")
    ann.wait_for_url(f"**/games/{code}/")
    ann.wait_for_selector("#lw-actions")
    screens.check(ann, "first-turn", axe=True)
    taps = tap_until_the_end(ann, actions="#lw-actions", prefer=("develop",), screens=screens,
                             moments={3: "early", 15: "round-report", 40: "later"})
    assert taps > 5, "Ann played her turns"
    the_ending(ann, seats=3, screens=screens, base_url=live_server_url)
    assert not screens.problems, "\n".join(screens.problems)

