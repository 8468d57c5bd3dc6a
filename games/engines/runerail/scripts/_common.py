"""Shared helpers of Runerail's data scripts: paths, and the rail titles' stable JSON writer
(``games/engines/rail_core/authoring.py``: one line per item of the top levels, compact below)."""

from __future__ import annotations

from pathlib import Path

from games.engines.rail_core.authoring import dumps, read_json, write_json

PACKAGE = Path(__file__).resolve().parents[1]
DATA = PACKAGE / "data"
SOURCES = DATA / "sources"
REPO = PACKAGE.parents[2]


__all__ = ["DATA", "PACKAGE", "REPO", "SOURCES", "dumps", "read_json", "write_json"]
