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


def test_parlour_lang_before_the_command_sets_every_commands_language() -> None:
    runner = CliRunner()
    said = runner.invoke(main, ["--lang", "vi", "tripeaks", "show", "1"], env={"PARLOUR_LANG": None})
    assert said.exit_code == 0 and "Ván số 1: thắng được trong" in said.output
    own = runner.invoke(
        main, ["--lang", "vi", "tripeaks", "show", "1", "--lang", "hu"], env={"PARLOUR_LANG": None}
    )
    assert own.exit_code == 0 and "Ván số" not in own.output  # the command's own --lang wins
    plain = runner.invoke(main, ["tripeaks", "show", "1"], env={"PARLOUR_LANG": None})
    assert "Game #1: winnable" in plain.output
    refused = runner.invoke(main, ["--lang", "de", "tripeaks", "show", "1"])
    assert refused.exit_code == 2 and "'de'" in refused.output
