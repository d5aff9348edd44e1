"""Fixtures for the server tests: an app on an in-memory store, a test client with the player's cookie."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import tally_game as tally
from fastapi.testclient import TestClient

from parlour.server.app import create_app
from parlour.server.memory import MemoryStore


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def client(store: MemoryStore) -> Iterator[TestClient]:
    app = create_app(store, kinds=[tally.KIND], routers=[])
    with TestClient(app) as test_client:
        yield test_client
