"""Hooks: where a game changes what building and moving cost and allow.

The core calls a :class:`RailHooks` object at six points. The defaults are the plain rules,
so a game that changes nothing passes no hooks at all. A game subclasses it and overrides
only what it needs; the hooks object is built by the engine for each command and may hold
whatever game state it reads (the current player's foreman, the events in force...).

Every method gets the :class:`~.mapdata.RailMap` ``m`` and mileposts as indices into
``m.nodes`` (``m.nodes[b].terrain``, ``.city``, ``.layer``, ``.region``...). Rules that must
hold for the planners to stay exact and fast:

- costs and movement points are whole numbers ``>= 0``;
- a hook answers from its arguments and the game state it was built with, never from the
  path being planned (path-wide charges go in :meth:`RailHooks.build_fee` or in
  :meth:`RailHooks.step_fees`, which are once per turn by id);
- the core only calls the methods a subclass overrides, so the default game pays nothing
  for the hooks in its planners.

Worked examples (the fantasy game's foremen and events)::

    class Foremen(RailHooks):
        def __init__(self, foreman, banned_area):
            self.foreman, self.banned_area = foreman, banned_area

        def section_cost(self, m, player, a, b, cost):
            node = cost.node
            if self.foreman == "dwarf" and m.nodes[b].terrain == "mountain" and m.nodes[b].city is None:
                node = 1
            crossings = sum(0 if kind == "river" and self.foreman == "human" else c
                            for kind, c in cost.crossings)
            return node + crossings + cost.link

        def section_refusal(self, m, player, a, b):
            if m.nodes[b].key in self.banned_area:
                return ("area-closed", "No building in the storm's area this turn.")
            return None
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # pragma: no cover
    from .mapdata import RailMap


class SectionCost(NamedTuple):
    """What the rules charge for one new section built from ``a`` to ``b``."""

    node: int  # the milepost built to: its city's cost, else its terrain's
    crossings: tuple[tuple[str, int], ...]  # (kind, cost) of each crossing of the pair
    link: int  # a track link's own cost (0 on hex pairs)

    @property
    def total(self) -> int:
        return self.node + sum(c for _, c in self.crossings) + self.link


class Fee(NamedTuple):
    """A once-per-turn charge for using something while moving (a toll, a bribe).

    ``id`` names it within the turn (paid once per id per turn); ``payee`` is the seat paid,
    or None for the bank.
    """

    id: str
    payee: int | None
    amount: int


class RailHooks:
    """The plain rules. Override any method; see the module's docstring."""

    def section_cost(self, m: RailMap, player: int, a: int, b: int, cost: SectionCost) -> int | None:
        """The price of a new section a → b (``cost`` is the rules' breakdown); None: may not build it."""
        return cost.total

    def section_refusal(self, m: RailMap, player: int, a: int, b: int) -> tuple[str, str] | None:
        """``(code, message)`` if ``player`` may not build a → b for a game reason; None if they may."""
        return None

    def build_fee(self, m: RailMap, player: int, sections: Sequence[tuple[int, int]]) -> int:
        """An extra charge for a whole build (e.g. a per-turn bribe once any section is underground).

        The planner adds it to the path it found; it does not steer the search.
        """
        return 0

    def step_moves(self, m: RailMap, player: int, a: int, b: int, moves: int) -> int | None:
        """Movement points a step a → b uses (``moves`` is the rules' number); None: it may not be taken."""
        return moves

    def step_refusal(self, m: RailMap, player: int, a: int, b: int) -> tuple[str, str] | None:
        """``(code, message)`` if ``player``'s train may not step a → b for a game reason."""
        return None

    def step_fees(self, m: RailMap, player: int, a: int, b: int) -> Sequence[Fee]:
        """Charges for stepping a → b besides tolls, each paid once per turn by its id, before use."""
        return ()

    def can_reverse_at(self, m: RailMap, player: int, node: int, default: bool) -> bool:
        """Whether a train may reverse at ``node`` (``default``: a city, or a port if the rules say so)."""
        return default


DEFAULT_HOOKS = RailHooks()


def overrides(hooks: RailHooks, name: str) -> bool:
    """True if ``hooks`` changes method ``name`` (the core skips calls to untouched hooks)."""
    return getattr(type(hooks), name) is not getattr(RailHooks, name)
