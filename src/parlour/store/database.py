"""Connecting to the database: where it is, how SQLite is tuned, and applying the migrations.

No URL means an SQLite file in the user's data directory, in WAL mode so that readers never wait for
the writer. ``PARLOUR_DATABASE_URL`` (or the command line's ``--database-url``) selects another
database, typically PostgreSQL (``postgresql://…`` is read as the psycopg 3 driver).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import platformdirs
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from parlour.errors import InvalidInput

ENV_URL = "PARLOUR_DATABASE_URL"
SUPPORTED_DRIVERS: Final = frozenset({"sqlite", "sqlite+pysqlite", "postgresql+psycopg"})


class BadDatabaseURL(InvalidInput):
    """A database URL Parlour cannot use: malformed, or of a database it does not support."""

    code = "bad_database_url"


MIGRATION_LOCK = 0x7061726C6F7572  # PostgreSQL advisory lock key taken while migrating ("parlour")
SQLITE_BUSY_MS = 30_000


def default_sqlite_path() -> Path:
    """Return the SQLite file used when no URL is given (created directories included)."""
    return platformdirs.user_data_path("parlour", appauthor=False, ensure_exists=True) / "parlour.sqlite3"


def resolve_url(url: str | None = None) -> URL:
    """Return the database URL to use: ``url``, else ``$PARLOUR_DATABASE_URL``, else the SQLite file.

    ``postgresql://`` and ``postgres://`` URLs get the psycopg 3 driver.
    """
    text = url or os.environ.get(ENV_URL) or f"sqlite:///{default_sqlite_path()}"
    if text.startswith("postgres://"):
        text = "postgresql://" + text.removeprefix("postgres://")
    try:
        parsed = make_url(text)
    except ArgumentError as error:
        raise BadDatabaseURL(
            f"{text[:80]!r} is not a database URL: use sqlite:///path/to/file.sqlite3 or "
            "postgresql://user@host/database"
        ) from error
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.drivername not in SUPPORTED_DRIVERS:
        raise BadDatabaseURL(
            f"Parlour keeps its data in SQLite or PostgreSQL (psycopg), not {parsed.drivername!r}"
        )
    return parsed


CONNECT_SECONDS: Final = 2
"""How long connecting to PostgreSQL may take (libpq's ``connect_timeout``; 2 is its shortest)."""
POSTGRES_OPTIONS: Final = (
    # The server's own limits: a statement, or a transaction left open by a client that went quiet,
    # never holds its locks for long (the server's calls have shorter deadlines of their own).
    "-c statement_timeout=15000 -c idle_in_transaction_session_timeout=20000"
)
POSTGRES_CONNECT_ARGS: Final = {
    "connect_timeout": CONNECT_SECONDS,
    # A peer that vanished (a host gone, a cable cut) is noticed in about 20 s even when idle.
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 3,
    "keepalives_count": 3,
    "tcp_user_timeout": 20_000,
}


def postgres_options(url: URL) -> str:
    """Return the server options of a PostgreSQL connection: the URL's own (``options=…``) and
    :data:`POSTGRES_OPTIONS`."""
    given = url.query.get("options") or ()
    return " ".join([*((given,) if isinstance(given, str) else given), POSTGRES_OPTIONS])


def libpq_conninfo(url: URL) -> tuple[str, dict[str, Any]]:
    """Return how psycopg itself connects to the PostgreSQL of ``url`` as the engine does: the
    connection URI (without SQLAlchemy's driver name and the options) and the connection arguments."""
    plain = url.set(drivername="postgresql").difference_update_query(["options"])
    return plain.render_as_string(hide_password=False), {
        **POSTGRES_CONNECT_ARGS,
        "options": postgres_options(url),
    }


def make_engine(url: URL) -> Engine:
    """Return an engine for ``url``; SQLite gets WAL, foreign keys and write-locking transactions,
    PostgreSQL connect and server-side timeouts and TCP keepalives (``parlour.store.deadline`` bounds
    each call besides)."""
    # hide_parameters: a failed statement's message (which reaches the logs) never shows its values,
    # among which are token hashes and recovery-code hashes.
    if url.get_backend_name() != "sqlite":
        return create_engine(
            url,
            pool_size=10,
            max_overflow=20,
            hide_parameters=True,
            connect_args={**POSTGRES_CONNECT_ARGS, "options": postgres_options(url)},
        )
    if url.database and url.database != ":memory:":
        folder = Path(url.database).parent
        if not folder.is_dir():  # only the default data folder is made (platformdirs makes it)
            raise FileNotFoundError(f"the folder {folder} does not exist")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_MS / 1000},
        hide_parameters=True,
    )
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # Let SQLAlchemy's "begin" event issue BEGIN itself, so writers can take the lock up front.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    # A write transaction takes SQLite's write lock at BEGIN: two writers never both read and then
    # fail to upgrade their lock (which SQLite reports as "database is locked" without waiting).
    write = connection.get_execution_options().get("parlour_write", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply the Alembic migrations packaged in ``parlour.store.migrations`` up to ``revision``.

    On PostgreSQL, server processes started together on a fresh database take turns: the first
    migrates while the others wait on a lock held until its transaction commits, and then find the
    schema up to date (PostgreSQL's DDL is transactional, so nothing half-made is ever seen).
    """
    from alembic import command

    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Another process may be migrating: wait for it however long it takes.
            connection.exec_driver_sql("SET LOCAL statement_timeout = 0")
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        command.upgrade(alembic_config(connection), revision)


def alembic_config(connection: Any = None) -> Any:
    """Return an Alembic ``Config`` for the packaged migrations, bound to ``connection`` if given."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "parlour.store:migrations")
    config.attributes["connection"] = connection
    return config
