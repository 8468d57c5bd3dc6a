"""Runerail: the fantasy rail game, a pure-Python rules engine (no Django) on the shared rail core. See README.md."""

from .rules import Runerail

ENGINE = Runerail()

__all__ = ["ENGINE", "Runerail"]
