"""The crayon-rail games' ending (``Engine.result``): a race to a goal of major cities joined and money
held, so no total is ranked; each seat's parts say how near it came. A game may also end by its option
``round_limit`` (0: none, the spec's rule; else the game ends after that many normal rounds and the most
money wins): :func:`round_limit_reached`, :func:`richest` and :func:`round_limit_how` are what the titles
share of it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

ROUND_LIMIT = "round-limit"  # state["end_reason"] of a game ended by its option round_limit


def round_limit_reached(state: dict[str, Any]) -> bool:
    """True when the round now ending is the last one the option ``round_limit`` allows (0: no limit)."""
    limit = state["options"].get("round_limit", 0)
    return bool(limit) and state["round"] >= limit


def richest(money: dict[int, int], seats: Iterable[int]) -> list[int]:
    """The seats of ``seats`` holding the most ``money`` (seat → amount), in seat order: they share the win."""
    seats = list(seats)
    best = max(money[s] for s in seats)
    return sorted(s for s in seats if money[s] == best)


def round_limit_how(names: str, shared: bool, rounds: int, amount: str, money_words: str) -> str:
    """How a game ended by the round limit was won: "Nobody reached the goal in the 4 rounds the game was
    limited to: Ann had the most cash, $82." (``names``: the winners in words; ``amount``: their money in
    words; ``money_words``: "cash", "gold")."""
    who = f"{names} shared the most {money_words}, {amount} each" if shared else f"{names} had the most {money_words}, {amount}"
    return f"Nobody reached the goal in the {rounds} {'round' if rounds == 1 else 'rounds'} the game was limited to: {who}."


def race_ranking(core, rail: dict[str, Any], *, places: list[int], money: dict[int, int],
                 money_label: str, by_money: bool = False) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """(each seat's major cities joined by one network, every seat in ``places`` order): within a place,
    by major cities joined, then ``money`` (``by_money``, a game ended by the round limit where the most
    money won: by money, then major cities); ``score`` None, the parts "Major cities" and ``money_label``."""
    majors = {seat: len(core.majors_connected(rail, seat)) for seat in money}

    def order(s: int) -> tuple[int, ...]:
        return (places[s], -money[s], -majors[s], s) if by_money else (places[s], -majors[s], -money[s], s)

    ranking = [
        {"seat": s, "place": places[s], "score": None,
         "parts": [{"label": "Major cities", "value": majors[s]}, {"label": money_label, "value": money[s]}]}
        for s in sorted(majors, key=order)
    ]
    return majors, ranking
