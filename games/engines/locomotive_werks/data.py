"""The fixed components of Locomotive Werks: 14 board spaces and 43 cards.

The board is written as an explicit list in board order (``space`` 1 to 14),
rather than the rules' JSON object, whose key order carried the sequence and
whose keys were spelt two ways. Every number here is the rules' number; the only
derived column is ``published_production`` (development cost / 2), used when the
``production_costs`` option is ``"published"``.
"""

from __future__ import annotations

from dataclasses import dataclass

COLORS = ("green", "red", "yellow", "blue")
COLOR_NAMES = {
    "green": "passenger",
    "red": "fast",
    "yellow": "freight",
    "blue": "special",
}
GENERATION_NAMES = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}

DIE_FACES = 6
PHYSICAL_DICE = 20  # dice in the box, used by the "twenty" dice-pool option


@dataclass(frozen=True)
class Space:
    space: int  # 1-based board position, the id used in commands
    color: str
    generation: int
    cost: int  # development cost
    production: int  # production cost per unit, as printed in the rules
    income: int  # coins per locomotive sold
    existing_orders: int  # boxes for Existing Orders dice
    customer_base: int  # boxes for Customer Base dice (the maximum dice of the generation)
    cards: int  # locomotive cards of this type in the game

    @property
    def published_production(self) -> int:
        return self.cost // 2

    @property
    def name(self) -> str:
        return f"{GENERATION_NAMES[self.generation]} generation {self.color}"


SPACES: tuple[Space, ...] = (
    #     space  colour    gen cost prod inc  EO  CB  cards
    Space(1, "green", 1, 4, 2, 1, 3, 3, 4),
    Space(2, "red", 1, 8, 2, 2, 3, 3, 3),
    Space(3, "yellow", 1, 12, 6, 3, 2, 2, 2),
    Space(4, "blue", 1, 16, 8, 4, 1, 1, 1),
    Space(5, "green", 2, 20, 10, 5, 4, 4, 4),
    Space(6, "red", 2, 24, 12, 6, 3, 3, 3),
    Space(7, "yellow", 2, 28, 16, 7, 3, 3, 2),
    Space(8, "green", 3, 32, 16, 8, 4, 4, 4),
    Space(9, "blue", 2, 36, 18, 9, 2, 2, 2),
    Space(10, "red", 3, 40, 20, 10, 4, 4, 3),
    Space(11, "green", 4, 44, 22, 11, 5, 5, 4),
    Space(12, "yellow", 3, 48, 26, 12, 3, 3, 3),
    Space(13, "red", 4, 52, 26, 13, 4, 4, 4),
    Space(14, "green", 5, 56, 28, 14, 5, 5, 4),
)

SPACE_COUNT = len(SPACES)
TOTAL_CARDS = sum(s.cards for s in SPACES)

# Spaces of each colour, oldest generation first.
SPACES_BY_COLOR: dict[str, tuple[int, ...]] = {
    color: tuple(s.space for s in SPACES if s.color == color) for color in COLORS
}


def space_of(color: str, generation: int) -> Space | None:
    for s in SPACES:
        if s.color == color and s.generation == generation:
            return s
    return None


def _check() -> None:
    assert [s.space for s in SPACES] == list(range(1, 15))
    assert TOTAL_CARDS == 43
    per_color = {c: sum(s.cards for s in SPACES if s.color == c) for c in COLORS}
    assert per_color == {"green": 20, "red": 13, "yellow": 7, "blue": 3}
    assert sum(s.existing_orders for s in SPACES) == 46
    assert all(s.existing_orders == s.customer_base for s in SPACES)
    assert all(s.income * 4 == s.cost for s in SPACES)


_check()
