"""Options every ``parlour`` command shares: one ``--lang`` (with ``PARLOUR_LANG``)."""

from __future__ import annotations

import click

from parlour.i18n import LANGUAGES

LANG_OPTION = click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    default="en",
    envvar="PARLOUR_LANG",
    show_default=True,
    help="Language of the text (also PARLOUR_LANG).",
)
"""``--lang en|hi|hu|fr|vi``, default English, also read from ``PARLOUR_LANG``."""
