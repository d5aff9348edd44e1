"""The store: the one object the server and the command line use to reach the database.

Every method opens its own session and commits before returning, so a ``Store`` can be shared by
threads. Writes run in transactions that take their locks up front (``BEGIN IMMEDIATE`` on SQLite,
row locks on PostgreSQL). Every method that reads or changes a game takes the player's id and refuses
another player's game exactly as it refuses a game that does not exist.

``Store`` is a facade: its methods are those of its repositories, one module each (players and their
browsers in ``players``, games and moves in ``game_records``, numbered records in ``numbered``,
statistics in ``statistics``, friends' tables in ``tables``), written against the sessions and the games
this class supplies (``repository.Repository``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from sqlalchemy import Engine, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from parlour.games.registry import Registry, default_registry
from parlour.store.async_appends import AsyncAppends
from parlour.store.challenges import ChallengesStore
from parlour.store.daily import DailyStore
from parlour.store.database import make_engine, resolve_url
from parlour.store.database import upgrade as upgrade_database
from parlour.store.deadline import Deadlines
from parlour.store.errors import StoreUnavailable, unavailable
from parlour.store.game_records import GameRecordsStore
from parlour.store.identity import IdentityStore
from parlour.store.name_reports import NameReportsStore
from parlour.store.player_data import PlayerDataStore
from parlour.store.players import PlayersStore
from parlour.store.puzzles import PuzzlesStore
from parlour.store.ratings import RatingsStore
from parlour.store.replays import ReplayCache
from parlour.store.seat_claims import SeatClaimsStore
from parlour.store.statistics import StatisticsStore
from parlour.store.tables import TablesStore


@contextmanager
def _unavailable_as_error(url: URL) -> Iterator[None]:
    """Turn a database failure (connection lost, disk full, read-only file) into ``StoreUnavailable``
    (a broken constraint too: :func:`~parlour.store.errors.conflict` tells it from an outage)."""
    try:
        yield
    except SQLAlchemyError as error:
        raise unavailable(url, getattr(error, "orig", None) or error) from error


class Store(
    PlayersStore,
    GameRecordsStore,
    StatisticsStore,
    TablesStore,
    SeatClaimsStore,
    RatingsStore,
    NameReportsStore,
    DailyStore,
    ChallengesStore,
    IdentityStore,
    PlayerDataStore,
    PuzzlesStore,
):
    """Players, games as records, numbered-game records and statistics in one database.

    ``url`` is an SQLAlchemy URL; None means ``$PARLOUR_DATABASE_URL`` or the SQLite file in the
    user's data directory. ``games`` are the games it records (default: Parlour's registry); every
    record is checked and replayed by its game's definition. Call :meth:`upgrade` once before use (the
    server does it at start).

    The replayed state of open games is kept in memory (:class:`ReplayCache`), so appending a move
    checks only that move, whatever the length of the game; after a restart, or when another process
    wrote the game, the state is rebuilt from the record once.
    """

    def __init__(self, url: str | URL | None = None, *, games: Registry | None = None) -> None:
        self.url: URL = resolve_url(url) if not isinstance(url, URL) else url
        try:
            self.engine: Engine = make_engine(self.url)
        except OSError as error:  # the SQLite file's directory cannot be made
            raise StoreUnavailable(f"the database {self.url.database} cannot be created: {error}") from error
        self.deadlines = Deadlines()
        """The deadlines of calls made :meth:`within` a time limit (PostgreSQL's connections are
        followed, and pinged when taken from the pool)."""
        if self.backend != "sqlite":
            self.deadlines.watch(self.engine)
        self._writer = self.engine.execution_options(parlour_write=True)
        self.games: Registry = games if games is not None else default_registry()
        self._replays = ReplayCache()
        database = self.url.database if self.backend == "sqlite" else None
        # The SQLite file and its identity (device, inode), taken at the first write.
        self._file: tuple[Path, tuple[int, int] | None] | None = (
            (Path(database), None) if database and database != ":memory:" else None
        )

    def upgrade(self) -> None:
        """Apply the database migrations up to the newest (creating the tables in an empty database).

        Raises:
            StoreUnavailable: the database cannot be reached or changed.
        """
        with _unavailable_as_error(self.url):
            try:
                upgrade_database(self.engine)
            except OSError as error:  # an SQLite directory that cannot be made or written
                raise StoreUnavailable(
                    f"the database {self.url.database} cannot be opened: {error}"
                ) from error

    def within(self, seconds: float) -> AbstractContextManager[None]:
        """Return a context in which this thread's calls to a PostgreSQL that stops answering fail with
        ``StoreUnavailable`` after ``seconds`` instead of waiting for it (see ``parlour.store.deadline``;
        SQLite, a local file, needs none)."""
        return self.deadlines.within(seconds)

    def ping(self) -> None:
        """Ask the database the smallest question (a readiness check).

        Raises:
            StoreUnavailable: it does not answer, or its file cannot be used.
        """
        with _unavailable_as_error(self.url):
            self._check_file()  # an SQLite file deleted or replaced is no database to serve from
        with self._read() as session:
            session.execute(text("SELECT 1"))

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    @property
    def backend(self) -> str:
        """Return the database's kind: ``sqlite`` or ``postgresql``."""
        return self.url.get_backend_name()

    def async_appends(self) -> AsyncAppends | None:
        """Return a sender of planned batches of moves (:meth:`plan_appends`) from an event loop, on a
        connection of its own (PostgreSQL through psycopg); None where batches are written in a
        thread only (SQLite)."""
        dialect = self.engine.dialect
        return AsyncAppends(self.url) if (dialect.name, dialect.driver) == ("postgresql", "psycopg") else None

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with _unavailable_as_error(self.url):
            self._check_writable()  # a WAL reader writes too: its read marks, in the -shm file
            session = Session(self.engine, expire_on_commit=False)
            with session, session.begin():
                yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with _unavailable_as_error(self.url):
            self._check_file()
            with Session(self._writer, expire_on_commit=False) as session, session.begin():
                yield session

    def _check_file(self) -> None:
        """Refuse to write when the SQLite file was deleted or replaced since the store opened it: SQLite
        would go on writing to the deleted file, and every move would be acknowledged into the void.

        Raises:
            StoreUnavailable: the file is gone or is another file now.
        """
        if self._file is None:
            return
        path, identity = self._file
        try:
            found = path.stat()
        except OSError as error:
            raise StoreUnavailable(f"the database file {path} is gone: {error}") from error
        if identity is None:
            self._file = (path, (found.st_dev, found.st_ino))
        elif (found.st_dev, found.st_ino) != identity:
            raise StoreUnavailable(f"the database file {path} was replaced while the server ran")
        self._check_writable()

    def _check_writable(self) -> None:
        """Refuse to touch an SQLite database whose files cannot be written any more (made read-only
        or immutable under a running server): SQLite maps its ``-shm`` file into memory, and a write
        to a mapped page the file system refuses kills the process with SIGBUS, which cannot be
        caught. Checked before every call; a file changed during a call is not (``docs/storage.md``).

        Raises:
            StoreUnavailable: one of the database's files is not writable.
        """
        if self._file is None:
            return
        path = self._file[0]
        for suffix in ("", "-wal", "-shm"):
            part = path.with_name(path.name + suffix)
            if not os.access(part, os.W_OK) and part.exists():
                raise StoreUnavailable(f"the database file {part} cannot be written")
