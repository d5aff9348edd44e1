"""Fixtures for the server tests: apps on real stores (SQLite files), a client with the player's cookie.

``store`` knows Parlour's games and the tally test game (``tally_game``), registered once: the server,
the store and the statistics take it from the registry like any other game.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tally_game as tally
from fastapi.testclient import TestClient

from parlour.games.registry import Registry, default_registry
from parlour.server.app import create_app
from parlour.store import Store
from parlour.tripeaks.definition import TriPeaksDefinition


def helper(name: str) -> Any:
    """Load the shared test helper ``tests/{name}.py`` by its path (``cluster_processes``, ``tcp_relay``):
    the test folders each have a conftest module, so the helpers are not imported by name."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"parlour_test_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def games_with_tally() -> Registry:
    """Parlour's games and the tally (one registration)."""
    return default_registry().with_games(tally.DEFINITION)


def new_store(path: Path, games: Registry | None = None) -> Store:
    made = Store(f"sqlite:///{path}", games=games or games_with_tally())
    made.upgrade()
    return made


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A real store of its own (an SQLite file) that knows the tally game too."""
    return new_store(tmp_path / "parlour.db")


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    """A client of an app serving only the tally game."""
    app = create_app(store, games=Registry([tally.DEFINITION]), routers=[])
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def site_client(store: Store) -> Iterator[TestClient]:
    """A client of the whole site (every game and the platform's pages); no player yet."""
    with TestClient(create_app(store, games=default_registry())) as test_client:
        yield test_client


@pytest.fixture
def thirteen_client(store: Store) -> Iterator[TestClient]:
    """A client of an app serving Thirteen and the platform's pages; a new player."""
    app = create_app(store, games=default_registry())
    with TestClient(app) as test_client:
        test_client.post("/api/player")
        yield test_client


@pytest.fixture(scope="module")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A real store on an SQLite file of its own (one per test module)."""
    return new_store(tmp_path_factory.mktemp("store") / "parlour.db")


def tripeaks_games() -> Registry:
    """TriPeaks with explicit layouts allowed (tests deal them; they are not recorded)."""
    return Registry([TriPeaksDefinition(explicit_deals=True)])


@pytest.fixture
def tripeaks_client(real_store: Any) -> Iterator[TestClient]:
    """A client of an app serving TriPeaks (explicit layouts allowed) on the real store; a new player."""
    app = create_app(real_store, games=tripeaks_games(), routers=[])
    with TestClient(app) as test_client:
        test_client.post("/api/player")
        yield test_client


def page_data(html: str, element: str) -> dict[str, Any]:
    """The JSON a page hands its script in ``<script type="application/json" id="{element}">``."""
    import json
    import re

    found = re.search(rf'<script type="application/json" id="{element}">(.*?)</script>', html, re.S)
    assert found, f"the page has no {element} data"
    data: dict[str, Any] = json.loads(found.group(1))
    return data
