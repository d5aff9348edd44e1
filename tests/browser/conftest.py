"""Shared fixtures of the browser tests: a live server on a free port and Debian's Chromium via Playwright.

One browser per test session; each test gets a fresh context (a new player) and a page whose requests
are recorded in ``page.requests_seen`` (URL, transferred bytes). Browser tests are skipped only outside
CI when Chromium is missing; in CI (``CI`` set) a missing browser fails them.

Game modules may use ``live_server`` as it is: the server runs every game kind present, TriPeaks with
explicit layouts allowed (``{"deal": Deal.parse text}`` in ``POST /api/games/tripeaks``).
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from browsers import CHROMIUM, served

# The scripted TriPeaks layouts live beside the server tests; browser tests deal them too.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``browser``; skip them only outside CI without Chromium."""
    here = Path(__file__).parent
    skip = None
    if not CHROMIUM.exists() and not os.environ.get("CI"):
        skip = pytest.mark.skip(reason="Debian's Chromium is not installed (/usr/bin/chromium)")
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
            if skip is not None:
                item.add_marker(skip)


@dataclass
class LiveServer:
    """A Parlour server running in a thread of the test process."""

    url: str
    store: Any
    app: Any
    server: Any = None
    thread: threading.Thread | None = None


def _test_games() -> Any:
    """Parlour's games, TriPeaks with explicit layouts allowed (tests deal them)."""
    from parlour.games.registry import default_registry
    from parlour.tripeaks.definition import TriPeaksDefinition

    return default_registry().with_games(TriPeaksDefinition(explicit_deals=True))


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Start Parlour on 127.0.0.1 on a free port, with its own database, for the whole session."""
    from parlour.server.app import create_app
    from parlour.server.edge.limits import RateLimits
    from parlour.store import Store

    database = tmp_path_factory.mktemp("browser") / "parlour.db"
    store = Store(f"sqlite:///{database}")
    # Every browser of the session opens table pages from 127.0.0.1: the per-address limit on table
    # lookups (against guessing codes) is raised for this one test server; test_tables.py checks it.
    app = create_app(
        store,
        games=_test_games(),
        limits=RateLimits({"find_table": "1000/minute", "daily_new_players": "1000/day"}),
    )
    with served(app) as (url, server, thread):
        yield LiveServer(url, store, app, server, thread)


@dataclass
class SeenRequest:
    """One request the page made and the bytes it transferred (headers and body)."""

    url: str
    transferred: int


@dataclass
class PageErrors:
    """Script errors raised in the page (a test fails if any appear)."""

    errors: list[str] = field(default_factory=list)


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A fresh context and page (a new player); ``page.requests_seen`` lists every finished request."""
    # The tests' own probes (wait_for_function with a string) are eval, which the pages' CSP forbids;
    # test_csp.py checks the pages under their real policy.
    context = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US", bypass_csp=True)
    context.set_default_timeout(10_000)
    opened = context.new_page()
    seen: list[SeenRequest] = []
    errors = PageErrors()

    def finished(request: Any) -> None:
        sizes = request.sizes()
        seen.append(SeenRequest(request.url, sizes["responseBodySize"] + sizes["responseHeadersSize"]))

    opened.on("requestfinished", finished)
    opened.on("pageerror", lambda error: errors.errors.append(str(error)))
    opened.requests_seen = seen
    opened.base_url = live_server.url
    yield opened
    context.close()
    assert errors.errors == [], f"script errors in the page: {errors.errors}"
