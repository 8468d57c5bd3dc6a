"""Wood and Steel's phone pages in a browser: the setup every browser test plays through."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def place_engine(phone) -> None:
    """Tap "place engine" until the phone has left that step: a tap that lands while the page
    redraws the button (another phone's move arriving) is lost with the old element."""
    for _ in range(5):
        phone.wait_for_selector("body[data-phase=engines] button[data-cmd=place-engine], body[data-phase=play]")
        if phone.evaluate("document.body.dataset.phase") == "play":
            return
        phone.locator("button[data-cmd=place-engine]").first.click()
        try:
            phone.wait_for_function(
                "document.body.dataset.phase === 'play' || !document.querySelector('button[data-cmd=place-engine]')",
                timeout=3000,
            )
            return
        except Exception:  # the tap was lost: tap the redrawn button again
            continue
    raise AssertionError("the phone never placed its engine")


def play_setup(phones: Iterable, picks: Callable[[int], Iterable[int]] = lambda i: (i, i + 2, i + 4)) -> None:
    """Every phone ranks three starting routes (``picks(i)`` for the i-th phone, by position in
    the list), learns its route and places its engine; returns once every phone is in play."""
    phones = list(phones)
    for i, phone in enumerate(phones):
        phone.wait_for_selector("body[data-phase=ranking] #ws-setup button.ws-route")
        routes = phone.locator("#ws-setup button.ws-route")
        for j in picks(i):
            routes.nth(j).click()
        phone.click("#ws-setup button[data-cmd=rank-starting-routes]")
        # The phone confirms the ranking; the last one to rank ends the phase.
        phone.wait_for_function("document.body.dataset.phase === 'engines' || document.querySelector('#ws-setup').innerText.includes('Your ranking is in')")
    for phone in phones:
        place_engine(phone)
    for phone in phones:
        phone.wait_for_selector("body[data-phase=play]")
