"""SVG snapshots of the terminal screens (pytest-textual-snapshot): the TriPeaks table and the Thirteen
table at 80×24 and 120×40, TriPeaks' New game window at 80×24 and both tables' "too small" message at
60×20, in English and Hindi. ``pytest --snapshot-update`` takes them again after a
deliberate change of the screens."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from parlour.thirteen.terminal.app import ThirteenApp
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.rules import EASY
from parlour.tripeaks.terminal.app import TriPeaksApp


def compare(snap_compare: Any, app: Any, size: tuple[int, int], press: tuple[str, ...] = ()) -> bool:
    """Compare the app's screen with its snapshot, from a thread of its own: the plugin calls
    ``asyncio.run``, which fails in a thread where another test's loop runs (Playwright's, whose
    browser lives as long as the test session)."""
    with ThreadPoolExecutor(1) as thread:
        same: bool = thread.submit(snap_compare, app, terminal_size=size, press=list(press)).result()
    return same


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("lang", ["en", "hi"])
def test_tripeaks_screen(snap_compare: Any, lang: str, size: tuple[int, int]) -> None:
    app = TriPeaksApp(Game.from_code(DealCode(123, EASY)), lang, None, 123)
    assert compare(snap_compare, app, size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("lang", ["en", "hi"])
def test_thirteen_screen(
    snap_compare: Any, lang: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fairness salt is random in play; a fixed one makes the commitment shown the same every run.
    monkeypatch.setattr("parlour.thirteen.definition.new_salt", lambda: "0123456789abcdef0123456789abcdef")
    app = ThirteenApp({"code": "TH1-AAAAAAC", "speed": "slow", "strength": "greedy"}, lang, None)
    assert compare(snap_compare, app, size)


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_tripeaks_new_game_window(snap_compare: Any, lang: str) -> None:
    app = TriPeaksApp(Game.from_code(DealCode(123, EASY)), lang, None, 123)
    assert compare(snap_compare, app, (80, 24), press=("n",))


@pytest.mark.parametrize("game", ["tripeaks", "thirteen"])
@pytest.mark.parametrize("lang", ["en", "hi"])
def test_a_window_too_small_says_so(snap_compare: Any, lang: str, game: str) -> None:
    app: Any
    if game == "tripeaks":
        app = TriPeaksApp(Game.from_code(DealCode(123, EASY)), lang, None, 123)
    else:
        app = ThirteenApp({"code": "TH1-AAAAAAC", "speed": "slow", "strength": "greedy"}, lang, None)
    assert compare(snap_compare, app, (60, 20))
