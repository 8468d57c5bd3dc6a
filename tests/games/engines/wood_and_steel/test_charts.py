"""charts.bar_chart: one bar per series and category carrying its value, drawn to scale
(negative values below the zero line), escaped text, and its refusals."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from games.engines.wood_and_steel.charts import bar_chart

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str):
    root = ET.fromstring(svg)
    bars = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "bar"]
    return root, bars


def test_one_bar_per_series_and_category_with_its_value_and_height_to_scale():
    root, bars = parse(bar_chart("Wins", ["a", "b", "c"], [("x", [1, 2, 4]), ("y", [0, 3, 1])], y_label="games"))
    assert [(b.get("data-series"), b.get("data-category"), float(b.get("data-value"))) for b in bars] == [
        ("x", "a", 1), ("x", "b", 2), ("x", "c", 4), ("y", "a", 0), ("y", "b", 3), ("y", "c", 1),
    ]
    heights = {(b.get("data-series"), b.get("data-category")): float(b.get("height")) for b in bars}
    assert heights[("x", "c")] == pytest.approx(4 * heights[("x", "a")], rel=0.01)
    assert heights[("y", "b")] == pytest.approx(3 * heights[("x", "a")], rel=0.01)
    assert heights[("y", "a")] == 0
    # all bars stand on the same baseline
    assert len({round(float(b.get("y")) + float(b.get("height")), 1) for b in bars}) == 1
    assert root.find(f"{SVG}title").text == "Wins"
    assert [t.text for t in root.find(f".//{SVG}g[@class='legend']").iter(f"{SVG}text")] == ["x", "y"]


def test_negative_values_hang_below_the_zero_line():
    _, bars = parse(bar_chart("Ties", ["delivery", "bankruptcy"], [("mean", [6, -3])]))
    up, down = bars
    assert float(up.get("y")) + float(up.get("height")) == pytest.approx(float(down.get("y")))
    assert float(down.get("height")) == pytest.approx(float(up.get("height")) / 2, rel=0.01)


def test_percentages_a_reference_line_and_escaped_names():
    root, bars = parse(bar_chart("A & B <share>", ["seat 0", "seat 1"], [("by seat", [0.25, 0.75])], percent=True, reference=("fair 50%", 0.5)))
    assert "A & B <share>" in root.find(f"{SVG}title").text
    labels = [t.text for t in root.find(f".//{SVG}g[@class='y-axis']").iter(f"{SVG}text")]
    assert labels[0] == "0%" and labels[-1] == "80%"
    line = root.find(f".//{SVG}g[@class='reference']/{SVG}line")
    assert float(line.get("data-value")) == 0.5
    assert [b.find(f"{SVG}title").text for b in bars] == ["seat 0: 25%", "seat 1: 75%"]


def test_crowded_long_labels_turn_and_the_chart_grows():
    short = ET.fromstring(bar_chart("t", ["1", "2"], [("n", [1, 2])]))
    names = [f"upgrade:commodities-exchange-{i}" for i in range(20)]
    long = ET.fromstring(bar_chart("t", names, [("n", list(range(20)))]))
    assert float(long.get("height")) > float(short.get("height"))
    assert all("rotate(-60" in t.get("transform") for t in long.find(f".//{SVG}g[@class='x-axis']").iter(f"{SVG}text"))


def test_a_series_must_have_a_value_per_category():
    with pytest.raises(ValueError, match="has 1 values for 2 categories"):
        bar_chart("t", ["a", "b"], [("x", [1])])
