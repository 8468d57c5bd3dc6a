"""Shared helpers of Runerail's data scripts: paths and a stable JSON writer (the house style of
Resourceful Rails' scripts: one line per item of the top levels, compact below)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parents[1]
DATA = PACKAGE / "data"
SOURCES = DATA / "sources"
REPO = PACKAGE.parents[2]


def read_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dumps(value: Any, level: int = 0, flat_below: int = 2) -> str:
    """JSON with one line per item of the top ``flat_below`` levels and compact lines below them,
    so a data file diffs line by line. Same input, same bytes."""
    if level >= flat_below or not isinstance(value, (dict, list)) or not value:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(v, level + 1, flat_below)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + dumps(v, level + 1, flat_below) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def write_json(path: Path, value: Any, flat_below: int = 2) -> str:
    text = dumps(value, 0, flat_below) + "\n"
    path.write_text(text, encoding="utf-8")
    return text
