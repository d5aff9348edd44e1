"""Options the TriPeaks commands share: one ``--hint-strength``."""

from __future__ import annotations

import click

from parlour.tripeaks.solver.players import DEFAULT_STRENGTH, PLAYERS

HINT_STRENGTH_OPTION = click.option(
    "--hint-strength",
    type=click.Choice(PLAYERS, case_sensitive=False),
    default=DEFAULT_STRENGTH,
    show_default=True,
    help="TriPeaks hints: greedy (Simple: greedy play's move), quick (200 samples a move) or fair "
    "(Thorough: 3,200 samples a move).",
)
"""``--hint-strength greedy|quick|fair``: the strength of TriPeaks hints (see ``solver/players.py``)."""
