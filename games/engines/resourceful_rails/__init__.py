"""Resourceful Rails: a pure-Python rules engine (no Django) on the shared rail core. See README.md."""

from .rules import ResourcefulRails

ENGINE = ResourcefulRails()

__all__ = ["ENGINE", "ResourcefulRails"]
