"""Wood and Steel companion: the pure-Python rules engine (no Django).

``ENGINE`` is registered by ``games.engines.registry``; ``turn_key`` supports the
platform's undo (replay back to the first command of the current turn).
"""

from .rules import WoodAndSteelEngine, turn_key

ENGINE = WoodAndSteelEngine()

__all__ = ["ENGINE", "WoodAndSteelEngine", "turn_key"]
