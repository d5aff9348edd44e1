"""Options ``parlour`` commands share: one ``--lang`` (with ``PARLOUR_LANG``), one ``--hint-strength``."""

from __future__ import annotations

import click

from parlour.i18n import LANGUAGES
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH, PLAYERS

LANG_OPTION = click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    default="en",
    envvar="PARLOUR_LANG",
    show_default=True,
    help="Language of the text (also PARLOUR_LANG).",
)
"""``--lang en|hi|hu|fr``, default English, also read from ``PARLOUR_LANG``."""

HINT_STRENGTH_OPTION = click.option(
    "--hint-strength",
    type=click.Choice(PLAYERS, case_sensitive=False),
    default=DEFAULT_STRENGTH,
    show_default=True,
    help="TriPeaks hints: greedy (Simple: greedy play's move), quick (200 samples a move) or fair "
    "(Thorough: 3,200 samples a move).",
)
"""``--hint-strength greedy|quick|fair``: the strength of TriPeaks hints (see ``solver/players.py``)."""
