"""Thirteen's part of the statistics page: how the player's rounds ended, by place (given to the
templates by Thirteen's page module)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup

from parlour.server.pages.players_chart import Row, row_chart

PLACE_COLOURS = ("#e7c35a", "#c9d6cf", "#b08d57", "#7c8a83")


def places_chart(places: Sequence[int], s: Callable[..., str]) -> Markup:
    """Return an SVG of horizontal bars: how many Thirteen rounds ended in 1st, 2nd, 3rd and 4th place
    (``s``: the ``store`` domain's translation); no round gives an empty string."""
    names = (s("1st"), s("2nd"), s("3rd"), s("4th"))
    rows = [
        Row(name, count, colour) for name, count, colour in zip(names, places, PLACE_COLOURS, strict=True)
    ]
    summary = (
        s("Thirteen rounds by place")
        + ": "
        + ", ".join(f"{name} {count}" for name, count in zip(names, places, strict=True))
    )
    return row_chart(rows, summary)
