"""The rules' numbers as data: what terrains, crossings and links cost and allow.

A game passes its own table (any key left out takes the default below). The defaults
are the numbers the crayon-rail family shares (the notes' "rules-data"); a game with
other terrains (desert, jungle, underground rock...) lists them in ``terrain_cost``.

``terrain_cost``    terrain → cost of building *to* a milepost of it; ``None``: no track
                    may ever touch it (water, sea).
``city_cost``       city size → cost of building to a city milepost (replaces the terrain's).
``crossing_cost``   crossing kind → extra cost of building across it; ``None``: not buildable.
``link_kinds``      link kind → ``{"track": bool, "cost": int, "moves": int, "connects": bool}``:
                    ``track`` true: a section is built on the link like on a hex pair (cost of
                    the milepost built to + ``cost``), owned and tolled; false: a public
                    passage nobody builds, open to every train while enabled. ``moves``:
                    movement points to cross it. ``connects``: joins networks (building may
                    go on from the far end; counts for connectivity and the win).
``city_caps``       city size → how many players may build into it (small 2, medium 3);
                    majors are never capped.
``terrain_caps``    terrain → the same for single mileposts that are not cities (e.g. a
                    port: 2); ``None`` means any number of players but still a capped place
                    for ``max_own_sections`` and the courtesy rule.
``max_own_sections`` at most this many of one player's sections into one capped place
                    (``None``: no limit).
``major_starts_per_turn`` at most this many new sections per turn whose build starts at a
                    major-city milepost (``None``: no limit).
``toll``            what a player pays each opponent whose track they use, once per turn.
``courtesy``        apply the courtesy (no blocking) rule.
``courtesy_counts_players`` the players still entitled to a way into a capped city are
                    at most the players in the game (true), or the cap alone (false).
``reverse_at_ports`` a train may also reverse at a milepost marked ``port``.
"""

from __future__ import annotations

import copy
from typing import Any

from ..base import RulesError

DEFAULT_RULES: dict[str, Any] = {
    "terrain_cost": {"clear": 1, "mountain": 2, "water": None},
    "city_cost": {"small": 3, "medium": 3, "major": 5},
    "crossing_cost": {"river": 2, "inlet": 3},
    "link_kinds": {},
    "city_caps": {"small": 2, "medium": 3},
    "terrain_caps": {},
    "max_own_sections": 3,
    "major_starts_per_turn": 2,
    "toll": 4,
    "courtesy": True,
    "courtesy_counts_players": True,
    "reverse_at_ports": True,
}

LINK_DEFAULTS = {"track": False, "cost": 0, "moves": 1, "connects": True}


def _rules_error(message: str) -> RulesError:
    return RulesError("invalid-rules", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cost_table(rules: dict[str, Any], name: str, *, allow_none: bool = True) -> None:
    table = rules[name]
    if not isinstance(table, dict):
        raise _rules_error(f"Rules: {name!r} must be an object.")
    for key, value in table.items():
        if value is None and allow_none:
            continue
        if not _is_int(value) or value < 0:
            raise _rules_error(f"Rules: {name}[{key!r}] must be a whole number >= 0" + (" or null." if allow_none else "."))


def normalize_rules(rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Defaults merged with ``rules`` (each given key replaces the default's), checked."""
    out = copy.deepcopy(DEFAULT_RULES)
    if rules is None:
        return out
    if not isinstance(rules, dict):
        raise _rules_error("Rules must be an object.")
    for key, value in rules.items():
        if key not in DEFAULT_RULES:
            raise _rules_error(f"Rules: unknown key {key!r}.")
        out[key] = copy.deepcopy(value)
    for name in ("terrain_cost", "crossing_cost", "city_caps", "terrain_caps"):
        _cost_table(out, name)
    _cost_table(out, "city_cost", allow_none=False)
    for size in ("small", "medium", "major"):
        if size not in out["city_cost"]:
            raise _rules_error(f"Rules: city_cost needs a cost for {size!r} cities.")
    if "major" in out["city_caps"]:
        raise _rules_error("Rules: major cities are never capped (city_caps may name small and medium only).")
    kinds = out["link_kinds"]
    if not isinstance(kinds, dict):
        raise _rules_error("Rules: 'link_kinds' must be an object.")
    for kind, spec in list(kinds.items()):
        if not isinstance(spec, dict) or set(spec) - set(LINK_DEFAULTS):
            raise _rules_error(f"Rules: link_kinds[{kind!r}] may only set {', '.join(LINK_DEFAULTS)}.")
        merged = {**LINK_DEFAULTS, **spec}
        for flag in ("track", "connects"):
            if not isinstance(merged[flag], bool):
                raise _rules_error(f"Rules: link_kinds[{kind!r}].{flag} must be true or false.")
        for number in ("cost", "moves"):
            if not _is_int(merged[number]) or merged[number] < 0:
                raise _rules_error(f"Rules: link_kinds[{kind!r}].{number} must be a whole number >= 0.")
        kinds[kind] = merged
    for name in ("max_own_sections", "major_starts_per_turn"):
        value = out[name]
        if value is not None and (not _is_int(value) or value < 0):
            raise _rules_error(f"Rules: {name!r} must be a whole number >= 0 or null.")
    if not _is_int(out["toll"]) or out["toll"] < 0:
        raise _rules_error("Rules: 'toll' must be a whole number >= 0.")
    for name in ("courtesy", "courtesy_counts_players", "reverse_at_ports"):
        if not isinstance(out[name], bool):
            raise _rules_error(f"Rules: {name!r} must be true or false.")
    return out
