"""TriPeaks' part of the statistics page: the chart of the player's recent games and the clock its
best times are written with (given to the templates by TriPeaks' page module)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup

from parlour.server.pages.players_chart import Column, column_chart
from parlour.tripeaks.definition import RecentGame
from parlour.tripeaks.layout import TABLEAU_SIZE

WON, PLAYED = "#e7c35a", "#9fb8aa"


def results_chart(recent: Sequence[RecentGame], s: Callable[..., str]) -> Markup:
    """Return an SVG bar chart of recent TriPeaks games: bar height = peak cards cleared, gold = won.

    Each bar's tooltip says the game's result (``s``: the ``store`` domain's translation); an empty
    list gives an empty string.
    """
    columns = [
        Column(
            (TABLEAU_SIZE - game.left) / TABLEAU_SIZE,
            WON if game.won else PLAYED,
            s("Won, score: {score}", score=game.score)
            if game.won
            else s("Cards left: {left}, score: {score}", left=game.left, score=game.score),
        )
        for game in recent
    ]
    won = sum(game.won for game in recent)
    return column_chart(columns, s("Your last {count} TriPeaks games: {won} won", count=len(recent), won=won))
