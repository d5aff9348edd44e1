"""Play now from the terminal (issue 50): ``parlour thirteen online`` presses Play now on a served Parlour,
plays its seat with the keys, shows the rating after a rated round, keeps its player's token (readable
by this user only) and leaves the table with L; a bad server address is refused clearly."""

from __future__ import annotations

import asyncio
import json
import stat
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from browsers import served
from parlour.cli import main
from parlour.games.registry import default_registry
from parlour.games.tables import TableSettings
from parlour.server.app import create_app
from parlour.store import Store
from parlour.thirteen.terminal.online import OnlineSeat, ServerError, ThirteenOnlineApp, tokens_file


def run(coroutine: Any) -> Any:
    """Run a Pilot session on a loop of its own (another test's loop may run in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Store]]:
    """A Parlour served on a free port, whose public tables' computer players move at once; this
    user's data folder in the test's own directory."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    made = TableSettings.for_quick_play

    def fast(cls: type[TableSettings], *args: Any, **kwargs: Any) -> TableSettings:
        return replace(made(*args, **kwargs), speed="instant")

    monkeypatch.setattr(TableSettings, "for_quick_play", classmethod(fast))
    store = Store(f"sqlite:///{tmp_path / 'parlour.db'}")
    with served(create_app(store, games=default_registry())) as (url, _, _thread):
        yield url, store


def screen_text(app: ThirteenOnlineApp) -> str:
    return "\n".join(str(widget.render()) for widget in app.query("Static"))


@pytest.mark.timeout(200)
def test_play_now_in_the_terminal(server: tuple[str, Store]) -> None:
    url, _ = server
    seat = OnlineSeat(url, "fr")
    app = ThirteenOnlineApp(seat, {"game": "thirteen", "rated": True, "target": 20, "strength": "random"})

    async def play() -> tuple[str, str, bool]:
        async with app.run_test(size=(100, 30)) as pilot:
            deadline = time.monotonic() + 150  # a loaded machine: the suite runs two at once
            while len(app.view.get("hand") or []) != 13:  # seated at once: the table deals as it opens
                assert time.monotonic() < deadline, screen_text(app)
                await pilot.pause(0.05)
            first = screen_text(app)
            while not app.view.get("between_rounds"):  # play the round: pass, or lead the lowest card
                assert time.monotonic() < deadline, screen_text(app)
                if app.view.get("my_turn"):
                    before = app.version
                    if app.view.get("can_pass"):
                        await pilot.press("p")
                    else:  # lead the lowest card, alone
                        app.raised.clear()
                        app.cursor = 0
                        await pilot.press("space", "enter")
                    while app.version == before and not app.note:  # the answer: the next event (or a refusal)
                        assert time.monotonic() < deadline, screen_text(app)
                        await pilot.pause(0.05)
                await pilot.pause(0.05)
            while not app.rating_text:
                assert time.monotonic() < deadline, screen_text(app)
                await pilot.pause(0.05)
            rated = screen_text(app)
            await pilot.press("l")
            await pilot.pause(0.2)
            return first, rated, app.is_running

    first, rated, running = run(play())
    assert "Table publique" in first or "Table classée" in first  # French throughout
    assert "Votre classement" in rated and "±" in rated
    assert not running  # L leaves the table and quits
    saved = json.loads(tokens_file().read_text())
    assert list(saved) == [url]
    assert stat.S_IMODE(tokens_file().stat().st_mode) == 0o600
    again = OnlineSeat(url, "en")
    assert again.token == saved[url]  # the same player next time
    rating = again.rating()
    assert rating is not None and rating["rounds"] == 1


def test_a_bad_server_is_refused_clearly(server: tuple[str, Store]) -> None:
    with pytest.raises(ServerError):
        OnlineSeat("ftp://example", "en")
    unreachable = OnlineSeat("http://127.0.0.1:9", "en")
    with pytest.raises(ServerError) as failed:
        unreachable.play_now({"game": "thirteen"})
    assert "cannot be reached" in str(failed.value)
    url, _ = server
    with pytest.raises(ServerError) as refused:
        OnlineSeat(url, "en").play_now({"game": "thirteen", "strength": "godlike"})
    assert "not available" in str(refused.value)
    answer = CliRunner().invoke(main, ["thirteen", "online", "--server", "nonsense"])
    assert answer.exit_code == 2 and "not a server address" in answer.output
