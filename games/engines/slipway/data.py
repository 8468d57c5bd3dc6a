"""Slipway's components: read once per process from the generated data files (``data/``, made by
``scripts/make_content.py``; CONTENT.md says why each family is as it is)."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
FILES = ("ships", "canals", "goods", "wheels", "employees", "contracts", "setup")

# Players' colours: the Okabe–Ito palette, in seat order.
COLORS: dict[str, str] = {"orange": "#E69F00", "sky": "#56B4E9", "green": "#009E73", "vermilion": "#D55E00"}


@functools.cache
def raw(name: str) -> dict[str, Any]:
    with open(DATA / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


def _by_id(name: str, key: str = "tiles") -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in raw(name)[key]}


@functools.lru_cache(maxsize=1)
def ships() -> dict[str, dict[str, Any]]:
    return _by_id("ships")


@functools.lru_cache(maxsize=1)
def canals() -> dict[str, dict[str, Any]]:
    """Every canal tile by id, the starting tile included (under its own id, ``start``)."""
    out = _by_id("canals")
    start = dict(raw("canals")["start"])
    start.setdefault("id", "start")
    out[start["id"]] = start
    return out


@functools.lru_cache(maxsize=1)
def start_canal() -> str:
    """The id of every player's starting canal tile."""
    return raw("canals")["start"].get("id", "start")


@functools.lru_cache(maxsize=1)
def goods() -> dict[str, dict[str, Any]]:
    """Commodity tiles by id."""
    return _by_id("goods")


@functools.lru_cache(maxsize=1)
def kinds() -> dict[str, dict[str, Any]]:
    """The goods' kinds by id, each with its exchange table (``trades``)."""
    return {k["id"]: k for k in raw("goods")["kinds"]}


def price_ring() -> list[dict[str, int]]:
    return raw("goods")["price_ring"]


def wheels() -> dict[str, Any]:
    return raw("wheels")


@functools.lru_cache(maxsize=1)
def employees() -> dict[str, dict[str, Any]]:
    return _by_id("employees")


@functools.lru_cache(maxsize=1)
def contracts() -> dict[str, dict[str, Any]]:
    return _by_id("contracts")


def setup() -> dict[str, Any]:
    return raw("setup")


@functools.lru_cache(maxsize=1)
def content() -> dict[str, Any]:
    """What a page needs to draw and name every component; ``version`` changes whenever any of it does."""
    body = {name: raw(name) for name in FILES}
    body["colors"] = dict(COLORS)
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return {"version": hashlib.sha256(text.encode()).hexdigest()[:16], **body}
