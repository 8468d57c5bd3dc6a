import pytest

from games.engines.locomotive_werks.data import SPACES, TOTAL_CARDS
from games.engines.locomotive_werks.rules import PRODUCTION

# space, colour, generation, cost, production (rules), income, existing orders, customer base, cards
RULES_TABLE = [
    (1, "green", 1, 4, 2, 1, 3, 3, 4),
    (2, "red", 1, 8, 2, 2, 3, 3, 3),
    (3, "yellow", 1, 12, 6, 3, 2, 2, 2),
    (4, "blue", 1, 16, 8, 4, 1, 1, 1),
    (5, "green", 2, 20, 10, 5, 4, 4, 4),
    (6, "red", 2, 24, 12, 6, 3, 3, 3),
    (7, "yellow", 2, 28, 16, 7, 3, 3, 2),
    (8, "green", 3, 32, 16, 8, 4, 4, 4),
    (9, "blue", 2, 36, 18, 9, 2, 2, 2),
    (10, "red", 3, 40, 20, 10, 4, 4, 3),
    (11, "green", 4, 44, 22, 11, 5, 5, 4),
    (12, "yellow", 3, 48, 26, 12, 3, 3, 3),
    (13, "red", 4, 52, 26, 13, 4, 4, 4),
    (14, "green", 5, 56, 28, 14, 5, 5, 4),
]


@pytest.mark.parametrize("row", RULES_TABLE, ids=lambda r: f"space-{r[0]}")
def test_space_matches_the_rules(row):
    s = SPACES[row[0] - 1]
    assert (
        s.space,
        s.color,
        s.generation,
        s.cost,
        s.production,
        s.income,
        s.existing_orders,
        s.customer_base,
        s.cards,
    ) == row


def test_card_totals():
    assert TOTAL_CARDS == 43
    by_color = {}
    for s in SPACES:
        by_color.setdefault(s.color, []).append(s.cards)
    assert by_color == {"green": [4, 4, 4, 4, 4], "red": [3, 3, 3, 4], "yellow": [2, 2, 3], "blue": [1, 2]}


def test_production_tables():
    assert PRODUCTION["fixed"] == (2, 2, 6, 8, 10, 12, 16, 16, 18, 20, 22, 26, 26, 28)
    assert PRODUCTION["published"] == (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28)
