"""The seats' colours from the waiting room, for a title that has player colours of its own.

The platform seats each player with a colour from its palette (games/services.py ``PALETTE``,
the Okabe–Ito eight, the same names a title's ``COLORS`` use). At the start it hands them to
setup in the game's options under ``seat_colors`` (a list, seat by seat), so a replay of the
game sets it up the same. A game without them (created before, or set up by a script) keeps
the title's old colours: ``COLORS`` in seat order.

``seat_colors`` is no option a host sets: ``normalize_options`` refuses it for a new game and
takes it only from a stored one (``stored=True``: setup and replays).
"""

from __future__ import annotations

from typing import Any

from .base import RulesError

SEAT_COLORS = "seat_colors"


def options_split(options: dict[str, Any] | None, *, stored: bool) -> tuple[dict[str, Any], list[str] | None]:
    """``options`` without ``seat_colors``, and that list (None: absent). Refused (invalid-option)
    unless ``stored``, or when it is not a list of colour names."""
    options = dict(options or {})
    if SEAT_COLORS not in options:
        return options, None
    chosen = options.pop(SEAT_COLORS)
    if not stored:
        raise RulesError("invalid-option", f"Unknown option(s): {SEAT_COLORS}.")
    if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
        raise RulesError("invalid-option", f"Option {SEAT_COLORS!r} must be a list of colour names.")
    return options, chosen


def seat_colors(palette: list[str], players: int, chosen: list[str] | None) -> list[str]:
    """Each seat's colour: without ``chosen``, ``palette`` in seat order (the old way); else each
    seat's chosen colour when the title has it and no earlier seat took it, and every other seat
    the first colour of ``palette`` nobody has."""
    if chosen is None:
        return list(palette[:players])
    out: list[str | None] = []
    for s in range(players):
        color = chosen[s] if s < len(chosen) else None
        out.append(color if color in palette and color not in out else None)
    free = iter([c for c in palette if c not in out])
    return [c if c is not None else next(free) for c in out]
