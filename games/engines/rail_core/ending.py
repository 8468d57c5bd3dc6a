"""The crayon-rail games' ending (``Engine.result``): a race to a goal of major cities joined and money
held, so no total is ranked; each seat's parts say how near it came."""

from __future__ import annotations

from typing import Any


def race_ranking(core, rail: dict[str, Any], *, places: list[int], money: dict[int, int],
                 money_label: str) -> tuple[dict[int, int], list[dict[str, Any]]]:
    """(each seat's major cities joined by one network, every seat in ``places`` order): within a place,
    by major cities joined, then ``money``; ``score`` None, the parts "Major cities" and ``money_label``."""
    majors = {seat: len(core.majors_connected(rail, seat)) for seat in money}
    ranking = [
        {"seat": s, "place": places[s], "score": None,
         "parts": [{"label": "Major cities", "value": majors[s]}, {"label": money_label, "value": money[s]}]}
        for s in sorted(majors, key=lambda s: (places[s], -majors[s], -money[s], s))
    ]
    return majors, ranking
