"""Every `parlour` command's help: a whole first sentence in the list, plain text, each option explained."""

from __future__ import annotations

from collections.abc import Iterator

import click
import pytest
from click.testing import CliRunner

from parlour.cli import main


def _commands(
    group: click.Command, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, group
    if isinstance(group, click.Group):
        for name, command in group.commands.items():
            yield from _commands(command, (*path, name))


COMMANDS = list(_commands(main))


@pytest.mark.parametrize(
    ("path", "command"), COMMANDS, ids=[" ".join(path) or "parlour" for path, _ in COMMANDS]
)
def test_help_is_plain_whole_and_explains_every_option(path: tuple[str, ...], command: click.Command) -> None:
    result = CliRunner().invoke(main, [*path, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert "``" not in result.output and ":func:" not in result.output, "reST markup in the help"
    short = command.get_short_help_str(limit=500)
    assert short and not short.endswith(("e.g.", "i.e.", "...")), f"cut summary: {short!r}"
    for parameter in command.params:
        if isinstance(parameter, click.Option) and parameter.name != "help":
            assert parameter.help, f"{parameter.opts[0]} has no help"
