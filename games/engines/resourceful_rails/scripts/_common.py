"""Shared helpers of the data scripts: paths, the reference file, and the stable JSON writer (from the rail core's authoring module)."""

from __future__ import annotations

import re
from pathlib import Path

from games.engines.rail_core.authoring import dumps, read_json, write_json

PACKAGE = Path(__file__).resolve().parents[1]
DATA = PACKAGE / "data"
SOURCES = DATA / "sources"
REPO = PACKAGE.parents[2]
# The MIT-licensed reference map lives outside the repository (see the README's Data section).
REFERENCE_MAP = REPO.parent / "shared" / "reference" / "resourceful-rails-map.json"


def slug(name: str) -> str:
    """An id from a name: ``"Crude Oil"`` → ``"crude-oil"`` (the rail core's city ids use the same form)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


__all__ = ["DATA", "PACKAGE", "REPO", "SOURCES", "dumps", "read_json", "write_json", "REFERENCE_MAP", "slug"]
