"""Locomotive Werks: a pure-Python rules engine (no Django). See README.md."""

from .rules import LocomotiveWerks

ENGINE = LocomotiveWerks()

__all__ = ["ENGINE", "LocomotiveWerks"]
