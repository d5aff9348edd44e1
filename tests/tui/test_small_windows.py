"""The terminal apps in small windows: New game fits 80×24 and answers its keys, the statistics screen
keeps every heading whole at 80 columns, and below the smallest size the table is replaced by a message
that says so (and no key plays blind)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from parlour.thirteen.terminal.app import ThirteenApp
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.rules import EASY
from parlour.tripeaks.terminal.app import RECORDS, NewGameScreen, TriPeaksApp
from parlour.tui.records import TerminalRecorder
from parlour.tui.screens import statistics_renderable


def run(coroutine: Any) -> Any:
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def tripeaks(lang: str = "en") -> TriPeaksApp:
    return TriPeaksApp(Game.from_code(DealCode(123, EASY)), lang, None, 123)


@pytest.mark.parametrize("lang", ["en", "hi", "hu", "fr", "vi"])
def test_new_game_fits_80_by_24_and_answers_escape_and_enter(lang: str) -> None:
    app = tripeaks(lang)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n")
            await pilot.pause()
            box = app.screen.query_one("#new-game").region
            assert box.y >= 0 and box.bottom <= 23 and box.right <= 80, box  # above the footer
            for control in ("#deal", "#cancel", "#variant-traditional_scoring", "#new-game-keys"):
                assert box.contains_region(app.screen.query_one(control).region), control
            await pilot.press("escape")  # cancels: the same game goes on
            await pilot.pause()
            assert not isinstance(app.screen, NewGameScreen) and app.game.code == DealCode(123, EASY)
            await pilot.press("n", "tab", "tab", "down")  # to the variants, a box focused
            await pilot.press("space")  # ticks it
            await pilot.press("enter")  # deals from wherever the focus is, not a second tick
            await pilot.pause()
            assert not isinstance(app.screen, NewGameScreen)
            assert app.numbered is None and app.game.code != DealCode(123, EASY) and app.game.rules.variants
            await pilot.press("n")
            await pilot.pause()
            app.screen.query_one("#cancel").focus()
            await pilot.press("enter")  # Enter on Cancel cancels
            await pilot.pause()
            assert not isinstance(app.screen, NewGameScreen)

    run(play())


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_statistics_headings_stay_whole_at_80_columns(tmp_path: Path, lang: str) -> None:
    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    recorder.start_record(RECORDS, RECORDS.prepare(None, str(DealCode(123, EASY)), [0], 123))
    recorder.finish(lang)
    for width in (76, 120):  # the statistics box inside an 80-column window, and a wide one
        console = Console(record=True, width=width)
        console.print(statistics_renderable(recorder, lang))
        text = console.export_text()
        assert "…" not in text, text
    recorder.close()


@pytest.mark.parametrize("lang", ["en", "hi"])
@pytest.mark.parametrize("game", ["tripeaks", "thirteen"])
def test_below_the_smallest_size_the_window_says_it_is_too_small(game: str, lang: str) -> None:
    app: TriPeaksApp | ThirteenApp
    app = (
        tripeaks(lang) if game == "tripeaks" else ThirteenApp({"code": "TH1-AAAAAAC", "speed": "slow"}, lang)
    )
    smallest = app.SMALLEST

    async def play() -> None:
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            notice = app.screen.query_one("#too-small")
            assert notice.display and not app.screen.query_one("#table").display
            assert "60×20" in str(notice.render()) and f"{smallest[0]}×{smallest[1]}" in str(notice.render())
            if isinstance(app, TriPeaksApp):
                await pilot.press("d")  # no move is made on a table nobody can see
                await pilot.pause()
                assert app.game.moves == 0
            await pilot.resize_terminal(*smallest)
            await pilot.pause()
            assert app.screen.query_one("#table").display and not notice.display
            if game == "tripeaks":
                await pilot.press("d")
                await pilot.pause()
                assert app.game.moves == 1

    run(play())


def test_new_game_refuses_a_wrong_code_in_the_players_language() -> None:
    app = tripeaks("hu")

    async def play() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("n", *"XYZ", "enter")
            await pilot.pause()
            await pilot.press("n", *"99999", "enter")
            await pilot.pause()
            return app.message

    assert run(play()) == "A számozott játszmák 1-től 50 000-ig tartanak"
    assert app.game.code == DealCode(123, EASY)


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_thirteen_shows_the_rounds_history_on_h(lang: str) -> None:
    from parlour.thirteen.terminal.app import HistoryScreen, ThirteenApp

    app = ThirteenApp({"code": "TH1-AAAAAAC", "speed": "slow", "strength": "greedy"}, lang, None)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("h")
            await pilot.pause()
            assert isinstance(app.screen, HistoryScreen) and len(app.screen.lines) == 1  # no trick yet
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("space", "enter")  # the person leads 3♠
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            assert isinstance(app.screen, HistoryScreen)
            assert "3♠" in app.screen.lines[0] and app.screen.lines[0].startswith(app.history_lines()[0][:4])
            await pilot.press("h")
            await pilot.pause()
            assert not isinstance(app.screen, HistoryScreen)

    run(play())
