"""The ``parlour`` command line: one group, with a sub-group or command per part of Parlour."""

from __future__ import annotations

import click

from parlour import __version__
from parlour.terminal_widths import use_terminal_widths

use_terminal_widths()  # tables and screens are measured as the terminal draws them (Hindi's vowel signs)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="parlour")
def main() -> None:
    """Parlour: TriPeaks and Thirteen, exactly as people know them."""


from parlour.cli.serve import serve  # noqa: E402

main.add_command(serve)
from parlour.cli.db import db  # noqa: E402

main.add_command(db)
from parlour.cli.stats import stats  # noqa: E402

main.add_command(stats)
from parlour.cli.tripeaks import tripeaks  # noqa: E402

main.add_command(tripeaks)
from parlour.cli.thirteen import thirteen  # noqa: E402

main.add_command(thirteen)
from parlour.cli.tui import tui  # noqa: E402

main.add_command(tui)
