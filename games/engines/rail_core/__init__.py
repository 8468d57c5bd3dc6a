"""The rail core: hex mileposts, track and trains shared by the crayon-rail games.

Pure Python, no Django, no game's own rules. See README.md in this package.

    from games.engines.rail_core import RailCore, load_map

    core = RailCore(load_map(map_data), rules={"terrain_cost": {...}})
    rail = core.new_state(players=[0, 1, 2])
    core.start_turn(rail, 0)
    plan = core.plan_build(rail, 0, target="0,20,31")     # cheapest legal path and its cost
    core.build(rail, 0, plan.path, budget=20)             # checked, then recorded
"""

from .core import BuildPlan, MovePlan, Place, RailCore
from .grid_asset import map_from_grid_asset
from .hooks import DEFAULT_HOOKS, Fee, RailHooks, SectionCost
from .mapdata import FORMAT, City, Link, Milepost, RailMap, load_map, node_key, pair_key, validate_map
from .rules import DEFAULT_RULES, normalize_rules

__all__ = [
    "BuildPlan", "City", "DEFAULT_HOOKS", "DEFAULT_RULES", "FORMAT", "Fee", "Link", "Milepost", "MovePlan",
    "Place", "RailCore", "RailHooks", "RailMap", "SectionCost", "load_map", "map_from_grid_asset", "node_key",
    "normalize_rules", "pair_key", "validate_map",
]
