"""What a first-time player sees, checked on one screen state (tests/e2e/test_first_game.py): the
layout walk's checks (tests/e2e/test_browser_walk.py: words a person should not see, glued to other
words too; the page wider than the screen; axe-core) at 360, 390 and 1280 px, plus raw coordinates
("(3, 7)"), and a screenshot of each state kept in var/artifacts/first-game/<title>/."""

from __future__ import annotations

import re
from pathlib import Path

from .test_browser_walk import FORBIDDEN, OVERFLOW, VISIBLE_TEXT, axe_violations

ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "artifacts" / "first-game"
WIDTHS = (360, 390, 1280)
COORDINATES = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")


class Screens:
    """Every check of every screen state of one first game; ``problems`` collects, the test asserts once."""

    def __init__(self, title: str) -> None:
        self.folder = ARTIFACTS / title
        self.folder.mkdir(parents=True, exist_ok=True)
        self.problems: list[str] = []
        self.shots: list[Path] = []

    def check(self, page, moment: str, *, axe: bool = False) -> None:
        """Check ``page`` as it is now at each width (it is put back to its own width after), and keep a
        screenshot per width. ``axe``: run axe-core too (a second or two a width: key moments only)."""
        own = page.viewport_size
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": own["height"] if width < 1000 else 900})
            page.wait_for_timeout(50)  # one frame to lay out again
            where = f"{moment} @ {width} px"
            text = page.evaluate(VISIBLE_TEXT)
            for pattern in (FORBIDDEN, COORDINATES):
                for match in sorted({m.group(0) for m in pattern.finditer(text)}):
                    at = text.find(match)
                    self.problems.append(f"{where}: shows {match!r}: …{text[max(0, at - 60):at + 40]!r}…")
            over = page.evaluate(OVERFLOW)
            if over:
                self.problems.append(f"{where}: {over}")
            if axe:
                self.problems.extend(f"{where}: axe {v}" for v in axe_violations(page, full=width < 1000))
            shot = self.folder / f"{moment}-{width}.png"
            page.screenshot(path=str(shot), full_page=True)
            self.shots.append(shot)
        page.set_viewport_size(own)
