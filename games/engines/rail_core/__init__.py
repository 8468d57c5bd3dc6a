"""The rail core: hex mileposts, track and trains shared by the crayon-rail games.

Pure Python, no Django, no game's own rules.
"""

from .grid_asset import map_from_grid_asset
from .mapdata import FORMAT, City, Link, Milepost, RailMap, load_map, node_key, pair_key, validate_map
from .rules import DEFAULT_RULES, normalize_rules

__all__ = [
    "City", "DEFAULT_RULES", "FORMAT", "Link", "Milepost", "RailMap", "load_map", "map_from_grid_asset", "node_key",
    "normalize_rules", "pair_key", "validate_map",
]
