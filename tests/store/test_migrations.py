"""Migrations: an empty database is brought to the newest schema, which is exactly the models'."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from parlour.store import Store
from parlour.store.database import alembic_config
from parlour.store.models import Base

from .conftest import BACKENDS, FreshDatabases


def test_an_empty_database_is_upgraded_to_the_newest_revision(store: Store) -> None:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with store.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == head
        tables = set(inspect(connection).get_table_names())
    assert set(Base.metadata.tables) <= tables


def test_the_models_match_the_migrations(store: Store) -> None:
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []


def test_upgrading_twice_changes_nothing_and_keeps_data(make_store: Callable[[], Store]) -> None:
    store = make_store()
    ada = store.create_player("Ada")
    again = make_store()
    again.upgrade()
    assert again.player(ada.player_id).name == "Ada"


def test_downgrade_to_empty_and_back(store: Store) -> None:
    with store.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    with store.engine.connect() as connection:
        assert not set(Base.metadata.tables) & set(inspect(connection).get_table_names())
    store.upgrade()
    assert store.create_player("Back").player_id >= 1


@pytest.mark.postgres
def test_server_processes_started_together_on_a_fresh_database_all_come_up(fresh: FreshDatabases) -> None:
    """Several ``parlour serve`` processes may start at once on one new PostgreSQL database: each
    upgrades it, one at a time, and none fails on the tables another one is creating."""
    url = fresh.url("postgresql")
    # Bounded: without the turn-taking, upgrades waiting on each other's tables fail instead of hanging.
    url = url.update_query_dict({"options": f"{url.query['options']} -clock_timeout=10s"})
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def come_up() -> None:
        store = Store(url)
        try:
            start.wait()
            store.upgrade()
        except BaseException as error:  # collected, and the test fails on it below
            failures.append(error)
        finally:
            store.engine.dispose()

    threads = [threading.Thread(target=come_up, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not any(thread.is_alive() for thread in threads), "an upgrade is stuck"
    assert failures == []
    store = Store(url)
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    with store.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == head
    store.engine.dispose()


@pytest.mark.parametrize("backend", BACKENDS)
def test_numbered_records_from_before_several_games_had_them_are_kept(
    fresh: FreshDatabases, backend: str
) -> None:
    """Revision 0007 keys records by game: every record and personal best made before it is TriPeaks'
    and keeps its best result (peak cards left, moves) as its standing, both ways."""
    store = Store(fresh.url(backend))
    try:
        with store.engine.begin() as connection:
            command.upgrade(alembic_config(connection), "0006")
            connection.execute(
                text(
                    "INSERT INTO players (id, name, recovery_hash, preferences, created_at)"
                    " VALUES (1, 'Ada', 'h', '{}', :at)"
                ),
                {"at": datetime(2026, 5, 1, tzinfo=UTC)},
            )
            connection.execute(
                text(
                    "INSERT INTO numbered_records (rules_key, number, best_left, best_moves, holder_id,"
                    " set_at, first_winner_id, first_won_at, plays)"
                    " VALUES ('easy', 7, 0, 31, 1, :at, 1, :at, 3)"
                ),
                {"at": datetime(2026, 5, 2, tzinfo=UTC)},
            )
            connection.execute(
                text(
                    "INSERT INTO personal_bests (player_id, rules_key, number, best_left, best_moves, set_at)"
                    " VALUES (1, 'easy', 7, 0, 31, :at)"
                ),
                {"at": datetime(2026, 5, 2, tzinfo=UTC)},
            )
        store.upgrade()
        record = store.numbered_record("tripeaks", "easy", 7)
        assert record is not None and record.standing == (0, 31) and record.won and record.plays == 3
        assert record.best == {"best_left": 0, "best_moves": 31} and record.first_winner is not None
        [entry] = store.numbered_page("tripeaks", "easy", 1, 6, 1)
        assert entry.mine is not None and entry.mine.standing == (0, 31)
        with store.engine.begin() as connection:
            keys = inspect(connection).get_pk_constraint("numbered_records")["constrained_columns"]
            assert sorted(keys) == ["game", "number", "rules_key"]
            command.downgrade(alembic_config(connection), "0006")
            kept = connection.execute(text("SELECT best_left, best_moves, plays FROM numbered_records")).all()
            assert [tuple(row) for row in kept] == [(0, 31, 3)]
            mine = connection.execute(text("SELECT best_left, best_moves FROM personal_bests")).all()
            assert [tuple(row) for row in mine] == [(0, 31)]
    finally:
        store.engine.dispose()
