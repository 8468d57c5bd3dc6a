"""Slipway: a pure-Python rules engine (no Django). See README.md."""

from .rules import Slipway

ENGINE = Slipway()

__all__ = ["ENGINE", "Slipway"]
