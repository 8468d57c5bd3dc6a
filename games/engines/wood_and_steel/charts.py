"""The simulator's summary as SVG bar charts a designer can read at a glance (pure Python,
no plotting library).

``bar_chart`` draws one chart: categories along the bottom, one bar per series in each
category, a labelled value axis (negative values below a zero line), an optional dashed
reference line (for example a fair share), a legend when there is more than one series.
Every bar is a ``<rect class="bar">`` carrying ``data-series``, ``data-category`` and
``data-value`` (and a ``<title>`` tooltip), so a test or a script can read the numbers
back. ``summary_charts(summary)`` turns the aggregate of ``manage.py
simulate_wood_and_steel`` (its ``summary.json``) into the files it writes next to the CSV.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape, quoteattr

SERIES_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
WIDTH, PLOT_HEIGHT = 760, 260
LEFT, RIGHT, TOP = 64, 20, 66
CHAR = 6.2  # about how wide a label character is at font size 11


def _nice_step(span: float) -> float:
    """A round tick step (1, 2 or 5 times a power of ten) giving about five ticks."""
    if span <= 0:
        return 1.0
    raw = span / 5
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return m * power
    return 10 * power


def _fmt(value: float, percent: bool = False) -> str:
    if percent:
        return f"{value * 100:.0f}%" if abs(value * 100 - round(value * 100)) < 1e-9 else f"{value * 100:.1f}%"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


def bar_chart(
    title: str,
    categories: list[str],
    series: list[tuple[str, list[float]]],
    *,
    x_label: str = "",
    y_label: str = "",
    percent: bool = False,
    reference: tuple[str, float] | None = None,
    subtitle: str = "",
    width: int = WIDTH,
    plot_height: int = PLOT_HEIGHT,
) -> str:
    """An SVG grouped bar chart. ``series`` is ``[(name, values)]`` with one value per
    category; ``percent`` shows fractions as percentages; ``reference`` is ``(label,
    value)`` for a dashed horizontal line. Category labels too long for their slot are
    turned (and the chart grows to fit them)."""
    for name, values in series:
        if len(values) != len(categories):
            raise ValueError(f"series {name!r} has {len(values)} values for {len(categories)} categories")
    values_all = [v for _, vs in series for v in vs] + ([reference[1]] if reference else [])
    top = max([0.0, *values_all])
    bottom = min([0.0, *values_all])
    step = _nice_step((top - bottom) or 1)
    top = math.ceil(top / step) * step if top > 0 else 0.0
    bottom = math.floor(bottom / step) * step if bottom < 0 else 0.0
    if top == bottom:
        top = step
    plot_w = width - LEFT - RIGHT
    plot_h = plot_height
    n_cat = max(1, len(categories))
    group_w = plot_w / n_cat
    every = max(1, math.ceil(len(categories) / 30))  # label every k-th category when crowded
    longest = max((len(str(c)) for c in categories), default=0)
    rotate = longest * CHAR > group_w * every
    label_h = longest * CHAR * 0.87 + 16 if rotate else 18  # turned 60 degrees
    height = round(TOP + plot_h + label_h + (28 if x_label else 10))

    def y(v: float) -> float:
        return round(TOP + (top - v) / (top - bottom) * plot_h, 2)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    if subtitle:
        out.append(f'<text x="{width / 2}" y="36" text-anchor="middle" fill="#555">{escape(subtitle)}</text>')
    # value axis: grid lines and labels
    out.append('<g class="grid" stroke="#e3e3e3">')
    ticks = []
    v = bottom
    while v <= top + step / 1000:
        ticks.append(v)
        v += step
    for t in ticks:
        out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{y(t)}" y2="{y(t)}"/>')
    out.append("</g>")
    out.append('<g class="y-axis" text-anchor="end" fill="#333">')
    for t in ticks:
        out.append(f'<text x="{LEFT - 6}" y="{y(t) + 4}">{escape(_fmt(round(t, 10), percent))}</text>')
    out.append("</g>")
    out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{y(0)}" y2="{y(0)}" stroke="#333"/>')
    # bars
    bar_w = group_w * 0.8 / max(1, len(series))
    out.append('<g class="bars">')
    for si, (name, values) in enumerate(series):
        colour = SERIES_COLOURS[si % len(SERIES_COLOURS)]
        for ci, (cat, value) in enumerate(zip(categories, values, strict=True)):
            x = LEFT + ci * group_w + group_w * 0.1 + si * bar_w
            y0, y1 = sorted((y(0), y(value)))
            tip = f"{name}: {cat}: {_fmt(value, percent)}" if len(series) > 1 else f"{cat}: {_fmt(value, percent)}"
            out.append(
                f'<rect class="bar" data-series={quoteattr(name)} data-category={quoteattr(str(cat))} data-value="{value}" '
                f'x="{round(x, 2)}" y="{y0}" width="{round(max(bar_w - 1, 1), 2)}" height="{round(y1 - y0, 2)}" fill="{colour}">'
                f"<title>{escape(tip)}</title></rect>"
            )
    out.append("</g>")
    # category labels
    out.append('<g class="x-axis" fill="#333">')
    for ci, cat in enumerate(categories):
        if ci % every:
            continue
        x = round(LEFT + (ci + 0.5) * group_w, 2)
        ty = TOP + plot_h + 14
        if rotate:
            out.append(f'<text x="{x}" y="{ty}" text-anchor="end" transform="rotate(-60 {x} {ty})">{escape(str(cat))}</text>')
        else:
            out.append(f'<text x="{x}" y="{ty}" text-anchor="middle">{escape(str(cat))}</text>')
    out.append("</g>")
    if reference is not None:
        label, value = reference
        out.append(
            f'<g class="reference"><line x1="{LEFT}" x2="{width - RIGHT}" y1="{y(value)}" y2="{y(value)}" stroke="#d62728" '
            f'stroke-dasharray="6 4" data-value="{value}"/><text x="{width - RIGHT - 4}" y="{y(value) - 4}" text-anchor="end" '
            f'fill="#d62728">{escape(label)}</text></g>'
        )
    if x_label:
        out.append(f'<text x="{LEFT + plot_w / 2}" y="{height - 8}" text-anchor="middle" fill="#333">{escape(x_label)}</text>')
    if y_label:
        out.append(f'<text x="14" y="{TOP + plot_h / 2}" text-anchor="middle" fill="#333" transform="rotate(-90 14 {TOP + plot_h / 2})">{escape(y_label)}</text>')
    if len(series) > 1:
        out.append('<g class="legend">')
        for si, (name, _values) in enumerate(series):
            lx = LEFT + 8 + si * 210
            out.append(f'<rect x="{lx}" y="{TOP - 20}" width="10" height="10" fill="{SERIES_COLOURS[si % len(SERIES_COLOURS)]}"/>')
            out.append(f'<text x="{lx + 14}" y="{TOP - 11}">{escape(name)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- the simulator's summary --------------------------------------------------------------


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def _histogram_series(histogram: dict[str, int]) -> tuple[list[str], list[float]]:
    """Categories and counts of a histogram keyed by integers in text, gaps filled with 0."""
    if not histogram:
        return [], []
    keys = sorted(int(k) for k in histogram)
    cats = list(range(keys[0], keys[-1] + 1))
    return [str(k) for k in cats], [histogram.get(str(k), 0) for k in cats]


def summary_charts(summary: dict[str, Any]) -> dict[str, str]:
    """File name -> SVG for the aggregate ``summary`` (``summary.json``)."""
    p = summary["parameters"]
    games = summary["games"]
    players = p["players"]
    context = f"{games} games, {players} player{'s' if players != 1 else ''}, {p.get('bot', 'simple')} bots, " + (
        f"up to {p['rounds']} rounds" if p.get("rounds") else "no round limit"
    )
    charts: dict[str, str] = {}

    cats, counts = _histogram_series(summary["end_round"]["histogram"])
    charts["chart-game-length.svg"] = bar_chart(
        "Game length", cats, [("games", counts)], x_label="round the game ended", y_label="games", subtitle=context
    )
    cats, counts = _histogram_series(summary["wins"]["winning_ties_histogram"])
    charts["chart-winning-ties.svg"] = bar_chart(
        "Winning ties", cats, [("games", counts)], x_label="railroad ties of the winner (end-of-game bonuses included)", y_label="games",
        subtitle=context,
    )
    src = summary["ties"]["by_source"]
    sources = list(src["mean_per_player"])
    charts["chart-ties-by-source.svg"] = bar_chart(
        "Ties by source", sources,
        [("every player", [src["mean_per_player"][k] for k in sources]), ("winners", [src["mean_per_winner"].get(k, 0) for k in sources])],
        x_label="where the ties came from (end of game)", y_label="mean ties", subtitle=context,
    )
    by_type = summary["contracts"]["by_type"]
    values = sorted({int(v) for t in by_type.values() for v in t["value_histogram"]})
    kinds = sorted(by_type)
    charts["chart-contract-values.svg"] = bar_chart(
        "Contract values", [f"${v // 1000}k" for v in values],
        [(kind, [by_type[kind]["value_histogram"].get(str(v), 0) for v in values]) for kind in kinds],
        x_label="value of the contract", y_label="contracts dealt", subtitle=context,
    )
    wins = summary["wins"]
    charts["chart-win-share.svg"] = bar_chart(
        "Win share by seat and by turn order", [f"seat {i} / {_ordinal(i + 1)}" for i in range(players)],
        [("by seat", wins["share_by_seat"]), ("by place in round 1's turn order", wins["share_by_start_position"])],
        x_label="seat / place in the first round's turn order", y_label="share of wins", percent=True,
        reference=(f"fair share {1 / players:.0%}", 1 / players), subtitle=context,
    )
    rows = summary["independents"]["per_round"]
    charts["chart-independent-growth.svg"] = bar_chart(
        "Independent railroads per round", [str(r["round"]) for r in rows],
        [("routes (mean)", [r["mean_routes"] or 0 for r in rows]), ("independents (mean)", [r["mean_independents"] or 0 for r in rows]),
         ("largest (mean routes)", [r["mean_largest"] or 0 for r in rows])],
        x_label="end of round", y_label="mean over the games still running", subtitle=context,
    )
    features = summary["features"]["games_with"]
    names = sorted(features)
    charts["chart-features.svg"] = bar_chart(
        "What the bots did", names, [("share of games", [features[k] / games for k in names])],
        y_label="share of games where it happened", percent=True, subtitle=context,
    )
    return charts
