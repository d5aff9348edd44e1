"""Small inline SVG charts for the statistics page (no script, no external asset)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup, escape

from parlour.games.tripeaks import RecentGame

PEAK_CARDS = 28
WIDTH, HEIGHT = 320, 120
PLACE_COLOURS = ("#e7c35a", "#c9d6cf", "#b08d57", "#7c8a83")


def results_chart(recent: Sequence[RecentGame], s: Callable[..., str]) -> Markup:
    """Return an SVG bar chart of recent TriPeaks games: bar height = peak cards cleared, gold = won.

    Each bar has a tooltip (``<title>``) with the game's result; the whole chart has a text label for
    screen readers. An empty list gives an empty string.
    """
    if not recent:
        return Markup("")
    slot = WIDTH / max(len(recent), 10)
    bars = []
    for index, game in enumerate(recent):
        cleared = PEAK_CARDS - game.left
        height = max(2.0, (HEIGHT - 10) * cleared / PEAK_CARDS)
        x, y = index * slot + slot * 0.15, HEIGHT - height
        label = (
            s("Won, score: {score}", score=game.score)
            if game.won
            else s("Cards left: {left}, score: {score}", left=game.left, score=game.score)
        )
        colour = "#e7c35a" if game.won else "#9fb8aa"
        bars.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{height:.1f}" rx="2" '
            f'fill="{colour}"><title>{escape(label)}</title></rect>'
        )
    won = sum(game.won for game in recent)
    summary = s("Your last {count} TriPeaks games: {won} won", count=len(recent), won=won)
    return Markup(
        f'<svg class="stats-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(summary)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(summary)}</title>'
        f'<line x1="0" y1="{HEIGHT - 0.5}" x2="{WIDTH}" y2="{HEIGHT - 0.5}" stroke="#ffffff55"/>'
        + "".join(bars)
        + "</svg>"
    )


def places_chart(places: Sequence[int], s: Callable[..., str]) -> Markup:
    """Return an SVG of horizontal bars: how many Thirteen rounds ended in 1st, 2nd, 3rd and 4th place."""
    total = sum(places)
    if not total:
        return Markup("")
    names = (s("1st"), s("2nd"), s("3rd"), s("4th"))
    row = 24
    rows = []
    for index, (name, count) in enumerate(zip(names, places, strict=True)):
        length = (WIDTH - 90) * count / max(places)
        y = index * row + 4
        rows.append(
            f'<text x="0" y="{y + 13}" fill="currentColor" font-size="12">{escape(name)}</text>'
            f'<rect x="40" y="{y}" width="{max(length, 1):.1f}" height="16" rx="2" '
            f'fill="{PLACE_COLOURS[index]}">'
            f"<title>{escape(name)}: {count}</title></rect>"
            f'<text x="{44 + length:.1f}" y="{y + 13}" fill="currentColor" font-size="12">{count}</text>'
        )
    summary = (
        s("Thirteen rounds by place")
        + ": "
        + ", ".join(f"{name} {count}" for name, count in zip(names, places, strict=True))
    )
    return Markup(
        f'<svg class="stats-chart" viewBox="0 0 {WIDTH} {row * 4 + 8}" role="img" '
        f'aria-label="{escape(summary)}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(summary)}</title>' + "".join(rows) + "</svg>"
    )
