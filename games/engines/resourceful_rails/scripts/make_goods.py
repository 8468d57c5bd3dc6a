"""Make ``data/goods.json``: the 30 goods and the cities that source each.

    python -m games.engines.resourceful_rails.scripts.make_goods [--reference PATH]

Reads the reference map's 25 goods and their sources, then ``data/sources/goods.json`` (5 new
goods and sources for every good the reference leaves unsourced). Checks: 30 goods, each
sourced, no city with more than 3. Deterministic: goods in name order, sources in city order.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ._common import DATA, REFERENCE_MAP, SOURCES, read_json, slug, write_json

GOODS_COUNT = 30  # the spec's number
MAX_GOODS_PER_CITY = 3  # the spec: each city has between 0 and 3 goods


def make_goods(reference: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    names = list(reference["goods"]) + list(source["new_goods"])
    if len(set(names)) != len(names):
        raise ValueError("a new good repeats a reference good")
    sources: dict[str, list[str]] = {slug(n): [] for n in names}
    city_ids = [slug(c["name"]) for c in reference["cities"]]
    for cid, city in zip(city_ids, reference["cities"], strict=True):
        for index, _flag in city.get("goods", []):
            sources[slug(names[index])].append(cid)
    for add in source["added_sources"]:
        gid, cid = slug(add["good"]), add["city"]
        if gid not in sources or cid not in city_ids:
            raise ValueError(f"unknown good or city in {add}")
        if cid in sources[gid]:
            raise ValueError(f"{cid} already sources {gid}")
        sources[gid].append(cid)
    per_city: dict[str, int] = {}
    for cities in sources.values():
        for cid in cities:
            per_city[cid] = per_city.get(cid, 0) + 1
    if len(names) != GOODS_COUNT:
        raise ValueError(f"{len(names)} goods, not {GOODS_COUNT}")
    if unsourced := [g for g, c in sources.items() if not c]:
        raise ValueError(f"goods with no source: {unsourced}")
    if crowded := [c for c, n in per_city.items() if n > MAX_GOODS_PER_CITY]:
        raise ValueError(f"cities with more than {MAX_GOODS_PER_CITY} goods: {crowded}")
    order = {cid: i for i, cid in enumerate(city_ids)}
    goods = [{"id": slug(n), "name": n, "sources": sorted(sources[slug(n)], key=order.__getitem__),
              "added": n in source["new_goods"]}
             for n in sorted(names)]
    return {"format": "junction/resourceful-rails-goods@1",
            "about": "The 30 goods and the cities that source each (made by scripts/make_goods.py; "
                     "'added': not in the reference map).",
            "goods": goods}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=REFERENCE_MAP)
    args = parser.parse_args(argv)
    data = make_goods(read_json(args.reference), read_json(SOURCES / "goods.json"))
    write_json(DATA / "goods.json", data)
    print(f"wrote {DATA / 'goods.json'}: {len(data['goods'])} goods")


if __name__ == "__main__":
    main()
