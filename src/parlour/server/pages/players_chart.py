"""Small inline SVG charts for the statistics page (no script, no external asset): the shapes the games'
own charts are drawn with (each game's page module gives its statistics template its charts)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

WIDTH, HEIGHT = 320, 120
ROW = 24


@dataclass(frozen=True)
class Column:
    """One bar of a column chart: its height as a share of the chart (0–1), its colour and its
    tooltip."""

    share: float
    colour: str
    label: str


@dataclass(frozen=True)
class Row:
    """One bar of a row chart: its name, its count and its colour."""

    name: str
    count: int
    colour: str


def _svg(height: int, summary: str, body: str) -> Markup:
    return Markup(
        f'<svg class="stats-chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{escape(summary)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(summary)}</title>' + body + "</svg>"
    )


def column_chart(columns: Sequence[Column], summary: str) -> Markup:
    """Return an SVG of vertical bars, left to right, at least ten slots wide.

    Each bar has a tooltip (``<title>``) with its label; the whole chart has ``summary`` as its text for
    screen readers. No columns give an empty string.
    """
    if not columns:
        return Markup("")
    slot = WIDTH / max(len(columns), 10)
    bars = []
    for index, column in enumerate(columns):
        height = max(2.0, (HEIGHT - 10) * column.share)
        x, y = index * slot + slot * 0.15, HEIGHT - height
        bars.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{height:.1f}" rx="2" '
            f'fill="{escape(column.colour)}"><title>{escape(column.label)}</title></rect>'
        )
    axis = f'<line x1="0" y1="{HEIGHT - 0.5}" x2="{WIDTH}" y2="{HEIGHT - 0.5}" stroke="#ffffff55"/>'
    return _svg(HEIGHT, summary, axis + "".join(bars))


def row_chart(rows: Sequence[Row], summary: str) -> Markup:
    """Return an SVG of horizontal bars, top to bottom, each with its name and count; bars are as long
    as their count against the largest. Rows that all count 0 give an empty string."""
    largest = max((row.count for row in rows), default=0)
    if not largest:
        return Markup("")
    drawn = []
    for index, row in enumerate(rows):
        length = (WIDTH - 90) * row.count / largest
        y = index * ROW + 4
        drawn.append(
            f'<text x="0" y="{y + 13}" fill="currentColor" font-size="12">{escape(row.name)}</text>'
            f'<rect x="40" y="{y}" width="{max(length, 1):.1f}" height="16" rx="2" '
            f'fill="{escape(row.colour)}">'
            f"<title>{escape(row.name)}: {row.count}</title></rect>"
            f'<text x="{44 + length:.1f}" y="{y + 13}" fill="currentColor" font-size="12">{row.count}</text>'
        )
    return _svg(ROW * len(rows) + 8, summary, "".join(drawn))


def line_chart(points: Sequence[tuple[float, float]], summary: str) -> Markup:
    """Return an SVG line of values left to right, each with its band (``(value, spread)``: the value
    ± spread shaded), scaled to the band's lowest and highest; one point is drawn as a level line with its
    band. No points give an empty string."""
    if not points:
        return Markup("")
    if len(points) == 1:
        points = [points[0], points[0]]
    low = min(value - spread for value, spread in points)
    high = max(value + spread for value, spread in points)
    span = max(high - low, 1.0)

    def y(value: float) -> float:
        return 6 + (HEIGHT - 12) * (high - value) / span

    step = WIDTH / (len(points) - 1)
    upper = [f"{index * step:.1f},{y(value + spread):.1f}" for index, (value, spread) in enumerate(points)]
    lower = [f"{index * step:.1f},{y(value - spread):.1f}" for index, (value, spread) in enumerate(points)]
    line = [f"{index * step:.1f},{y(value):.1f}" for index, (value, _) in enumerate(points)]
    band = f'<polygon points="{" ".join(upper + lower[::-1])}" fill="#e7c35a33"/>'
    drawn = f'<polyline points="{" ".join(line)}" fill="none" stroke="#e7c35a" stroke-width="2"/>'
    last = points[-1][0]
    label = (
        f'<text x="{WIDTH - 2}" y="{max(14.0, y(last) - 6):.1f}" fill="currentColor" font-size="12" '
        f'text-anchor="end">{last:.0f}</text>'
    )
    return _svg(HEIGHT, summary, band + drawn + label)
