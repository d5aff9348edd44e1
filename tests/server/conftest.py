"""Fixtures for the server tests: an app on an in-memory store, a test client with the player's cookie."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import tally_game as tally
from fastapi.testclient import TestClient
from memory_store import MemoryStore

from parlour.server.app import create_app


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def client(store: MemoryStore) -> Iterator[TestClient]:
    app = create_app(store, kinds=[tally.KIND], routers=[])
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def thirteen_client(store: MemoryStore) -> Iterator[TestClient]:
    """A client of an app serving Thirteen and the rules pages on the in-memory store."""
    from parlour.server import rules_pages, thirteen_live

    app = create_app(store, kinds=[thirteen_live.KIND], routers=[thirteen_live.router, rules_pages.router])
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A real store on an SQLite file of its own (one per test module)."""
    from parlour.store import Store

    database = tmp_path_factory.mktemp("store") / "parlour.db"
    made = Store(f"sqlite:///{database}")
    made.upgrade()
    return made


@pytest.fixture
def tripeaks_client(real_store: Any) -> Iterator[TestClient]:
    """A client of an app serving TriPeaks (explicit layouts allowed) on the real store; a new player."""
    from parlour.server import tripeaks_live, tripeaks_page

    app = create_app(
        real_store, kinds=[tripeaks_live.kind(explicit_deals=True)], routers=[tripeaks_page.router]
    )
    with TestClient(app) as test_client:
        test_client.get("/")
        yield test_client
