"""Migrations: an empty database is brought to the newest schema, which is exactly the models'."""

from __future__ import annotations

from collections.abc import Callable

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect

from parlour.store import Store
from parlour.store.database import alembic_config
from parlour.store.models import Base


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
