"""The first-game driver (tests/e2e/test_first_game*.py): one person on a phone taps through their turns
until the game is over, then reads how it ended and opens the replay. Every screen state met on the way
is checked (tests/e2e/screens.py) at the moments a test names. Waits are by time, never by a count of
reads."""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .screens import Screens

GAME_SECONDS = 240  # a whole game with two bots, on a busy 2-core machine (the test's own timeout is above it)


def tap_until_the_end(page: Page, *, actions: str, prefer: tuple[str, ...], screens: Screens, moments: dict[int, str],
                      pick: tuple[str, str] | None = None,
                      other_taps: tuple[str, Callable[[Page], str | None]] | None = None,
                      leave: tuple[str, ...] = ()) -> int:
    """Tap through the person's turns until the game is over: at each turn the first enabled command button
    of ``actions`` whose command comes first in ``prefer`` (else the first enabled one; never a take-back,
    which would go round in circles). ``pick``: a (piece, place) pair of selectors for a title where a
    command is built by taps on the page (Slipway's ship tiles into yard slots): when no command button is
    open, tap the first piece, then the first open place. ``other_taps``: for what neither does (a title's
    own way of building a command on the page), a (JavaScript condition, function) pair: when no command
    button is open and the condition holds, the function taps and returns what it did in words (None:
    nothing done, look again). ``leave``: commands whose buttons are steps of a flow ``other_taps`` drives
    (an item added to a load, a choice it makes its own way), never tapped on their own. ``moments``: after
    which tap (1, 2, …) to check the screen, and under what name. Returns the number of taps."""
    deadline = time.monotonic() + GAME_SECONDS
    taps = 0
    tapped: list[str] = []
    refused: str | None = None
    buttons = f"{actions} button[data-cmd]:enabled" + "".join(f":not([data-cmd={cmd}])" for cmd in ("undo", "take-back", *leave))
    pieces = f"{actions} {pick[0]}:enabled" if pick else None
    tappable = buttons + (f", {pieces}" if pieces else "")
    ready = (f"document.body.dataset.status === 'finished'"
             f" || [...document.querySelectorAll({tappable!r})].some((b) => b.getClientRects().length > 0)"
             + (f" || ({other_taps[0]})" if other_taps else ""))
    while time.monotonic() < deadline:
        try:
            page.wait_for_function(ready, timeout=max(1_000, (deadline - time.monotonic()) * 1000))
        except PlaywrightTimeout:
            break  # nothing to tap and no end: said below with the page as it was
        if page.evaluate("document.body.dataset.status") == "finished":
            return taps
        version = int(page.evaluate("document.body.dataset.version"))
        page.evaluate(f"window.__before = document.querySelector({actions!r}).innerHTML")
        enabled = page.locator(buttons + ":visible")
        try:  # the page may redraw under the finger (a bot moved): look again
            if enabled.count():
                choice = next((enabled.and_(page.locator(f"[data-cmd='{cmd}']")) for cmd in prefer
                               if enabled.and_(page.locator(f"[data-cmd='{cmd}']")).count()), enabled)
                words = choice.first.inner_text(timeout=2_000).strip()[:50]
                choice.first.click(timeout=3_000)
            elif pieces is not None and page.locator(pieces + ":visible").count():
                piece = page.locator(pieces + ":visible").first
                words = "pick " + piece.inner_text(timeout=2_000).strip()[:40]
                piece.click(timeout=3_000)
                place = page.locator(f"{actions} {pick[1]}:enabled:visible").first
                place.click(timeout=5_000)
            elif other_taps is not None and page.evaluate(other_taps[0]):
                done = other_taps[1](page)
                if done is None:
                    continue
                words = done
            else:
                continue
        except PlaywrightTimeout:
            continue
        tapped.append(words)
        taps += 1
        page.wait_for_function(
            f"Number(document.body.dataset.version) > {version} || document.body.dataset.status === 'finished'"
            " || !!document.querySelector('#play-error:not([hidden])')"
            f" || document.querySelector({actions!r}).innerHTML !== window.__before",  # a step of a choice on the page
            timeout=30_000,
        )
        error = page.locator("#play-error:not([hidden])")
        if error.count() and error.inner_text().strip():
            # A tap on a button the next state was about to take away (the answer to the last tap came
            # before the state that follows it) is refused with a reason, as it would be for a person; the
            # same button refused again once the page has settled is a button offered wrongly.
            assert refused != words, f"tap {taps} ({words!r}) was refused twice: {error.inner_text()}; before it: {tapped[-6:-1]}"
            refused = words
            page.wait_for_timeout(500)
        else:
            refused = None
        if taps in moments:
            screens.check(page, moments[taps])
    page.screenshot(path=str(screens.folder / "stuck.png"), full_page=True)
    where = page.evaluate("(sel) => ({...document.body.dataset, actions: document.querySelector(sel)?.innerText.slice(0, 300)})", actions)
    raise AssertionError(f"the game did not end within {GAME_SECONDS} s ({taps} taps; the last: {tapped[-12:]};"
                         f" the page's data: {where}; as it looked: {screens.folder / 'stuck.png'})")


def the_ending(page: Page, *, seats: int, screens: Screens, base_url: str) -> None:
    """The ending: everyone ranked, the winner's line, how it was won, and a replay that opens; "Game over"
    is not said again on its own beside it (a phase heading such as "Round 19 · Game over" may name it)."""
    ending = page.locator("section.ending")
    ending.wait_for()
    rows = ending.locator(".ending-row")
    assert rows.count() == seats
    assert rows.first.locator(".ending-place").inner_text() == "1st"
    assert ending.locator(".ending-headline").inner_text().endswith(("won.", "first place."))
    said_again = page.evaluate(r"""() => [...document.body.querySelectorAll("*")].filter((n) =>
        !n.closest("section.ending, ol, ul") && n.getClientRects().length
        && /^\s*game over[.!]?\s*$/i.test(n.textContent))
      .map((n) => n.tagName.toLowerCase() + (n.id ? "#" + n.id : "") + ": " + n.textContent.trim().slice(0, 60))""")
    assert not said_again, f"the game's end is said again beside the ending: {said_again}"
    screens.check(page, "ending", axe=True)
    page.click("section.ending a.ending-replay")
    page.wait_for_url("**/replay")
    page.wait_for_selector("body[data-step]")
    assert page.url.startswith(base_url)
