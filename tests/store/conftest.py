"""Store fixtures: every store test runs on SQLite and on PostgreSQL, each in a fresh database.

PostgreSQL comes from ``PARLOUR_TEST_POSTGRES_URL``; each test gets its own schema (``search_path``),
so test runs and pytest-xdist workers never see each other's tables. Unreachable PostgreSQL skips the
PostgreSQL cases locally and fails them in CI (``CI=true``).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url

from parlour.store import Store

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgres", marks=pytest.mark.postgres),
]


def postgres_url() -> URL:
    """Return the PostgreSQL URL the tests use."""
    return make_url(os.environ.get("PARLOUR_TEST_POSTGRES_URL", DEFAULT_POSTGRES))


@cache
def postgres_problem() -> str | None:
    """Return why PostgreSQL cannot be used, None when it answers."""
    engine = create_engine(postgres_url(), connect_args={"connect_timeout": 3})
    try:
        with engine.connect() as connection:
            connection.execute(text("select 1"))
    except Exception as error:  # any failure to connect means: not available here
        return f"PostgreSQL at {postgres_url().render_as_string(hide_password=True)} unreachable: {error}"
    finally:
        engine.dispose()
    return None


def require_postgres() -> None:
    """Skip (fail in CI) when PostgreSQL is unreachable."""
    problem = postgres_problem()
    if problem is None:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(problem)
    pytest.skip(problem)


class FreshDatabases:
    """Makes empty databases (a file for SQLite, a schema for PostgreSQL) and drops them at the end."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.schemas: list[str] = []

    def url(self, backend: str) -> URL:
        """Return the URL of a new empty database of ``backend``."""
        if backend == "sqlite":
            return make_url(f"sqlite:///{self.tmp_path / f'{secrets.token_hex(4)}.sqlite3'}")
        require_postgres()
        schema = f"test_{os.getpid()}_{secrets.token_hex(6)}"
        engine = create_engine(postgres_url())
        with engine.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
        self.schemas.append(schema)
        return postgres_url().update_query_dict({"options": f"-csearch_path={schema}"})

    def drop(self) -> None:
        if not self.schemas:
            return
        engine = create_engine(postgres_url())
        with engine.begin() as connection:
            for schema in self.schemas:
                connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[FreshDatabases]:
    databases = FreshDatabases(tmp_path)
    yield databases
    databases.drop()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_store(fresh: FreshDatabases, backend: str) -> Iterator[Callable[[], Store]]:
    """Return a factory of stores on one fresh, migrated database of the test's backend."""
    url = fresh.url(backend)
    stores: list[Store] = []

    def make() -> Store:
        store = Store(url)
        if not stores:
            store.upgrade()
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.close()


@pytest.fixture
def store(make_store: Callable[[], Store]) -> Store:
    """A migrated store on a fresh database."""
    return make_store()
