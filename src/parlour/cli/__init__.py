"""The ``parlour`` command line: one group, with a sub-group or command per part of Parlour."""

from __future__ import annotations

import click

from parlour import __version__
from parlour.i18n import LANGUAGES
from parlour.terminal_widths import use_terminal_widths

use_terminal_widths()  # tables and screens are measured as the terminal draws them (Hindi's vowel signs)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="parlour")
@click.option(
    "--lang",
    type=click.Choice(LANGUAGES, case_sensitive=False),
    default=None,
    help="Language of every command's text (a command's own --lang, then PARLOUR_LANG, win over it).",
)
def main(lang: str | None) -> None:
    """Parlour: card games exactly as people know them."""
    # Read by every command's --lang as its default (parlour.cli.options).


from parlour.cli.serve import serve  # noqa: E402

main.add_command(serve)
from parlour.cli.db import db  # noqa: E402

main.add_command(db)
from parlour.cli.stats import stats  # noqa: E402

main.add_command(stats)
from parlour.cli.tui import tui  # noqa: E402

main.add_command(tui)
from parlour.cli.ratings import ratings  # noqa: E402

main.add_command(ratings)
from parlour.cli.players import players  # noqa: E402

main.add_command(players)


def _add_game_commands() -> None:
    """Add each registered game's command group (``parlour GAME …``), in the registry's order."""
    import importlib

    from parlour.games.registry import default_registry

    for definition in default_registry():
        if definition.commands is not None:
            module, _, name = definition.commands.partition(":")
            main.add_command(getattr(importlib.import_module(module), name))


_add_game_commands()
