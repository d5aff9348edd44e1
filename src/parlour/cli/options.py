"""Options every ``parlour`` command shares: one ``--lang`` (with ``PARLOUR_LANG``)."""

from __future__ import annotations

import click

from parlour.i18n import LANGUAGES


def _root_language() -> str:
    """The language given to ``parlour --lang`` itself (before the command's name), else English."""
    context = click.get_current_context(silent=True)
    given = context.find_root().params.get("lang") if context is not None else None
    return str(given).lower() if given else "en"


LANG_OPTION = click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    default=_root_language,
    envvar="PARLOUR_LANG",
    show_default="en",
    help="Language of the text (also PARLOUR_LANG, or parlour --lang before the command).",
)
"""``--lang en|hi|hu|fr|vi``, default English (or ``parlour --lang``), also read from ``PARLOUR_LANG``."""
