"""The four statements of a batch of moves (group commit), in the database's own terms.

Appending a batch locks the games' rows, checks the tables' owner epochs under their rows' locks,
inserts the moves and sets the games' move counts. At a few hundred moves a second on PostgreSQL,
SQLAlchemy's execution of these statements (building, compiling from its cache, the execution context,
the results) cost more than psycopg and the database together (decision 0046). So on PostgreSQL they
are sent through the connection's own psycopg cursor, as fixed SQL with arrays for the many rows; any
other database (SQLite) gets the same statements through SQLAlchemy Core.

Both run inside the caller's transaction, on the session's connection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol

from sqlalchemy import Connection, bindparam, insert, select, update

from parlour.store.models import Base, GameRow, MoveRow, TableRow

GAMES = Base.metadata.tables[GameRow.__tablename__]
MOVES = Base.metadata.tables[MoveRow.__tablename__]
TABLES = Base.metadata.tables[TableRow.__tablename__]


class Locked(NamedTuple):
    """What an append reads of a game's row, locked."""

    id: str
    player_id: int
    move_count: int
    status: str
    table_id: str | None


class AppendStatements(Protocol):
    """The statements of :meth:`parlour.store.Store.append_moves_many`, on one connection."""

    def lock_games(self, ids: Sequence[str]) -> dict[str, Locked]:
        """Lock the games' rows (in id order) and return them by id (a missing game is left out)."""

    def table_epochs(self, table_ids: Sequence[str]) -> dict[str, int]:
        """Lock the tables' rows (in id order) and return their owner epochs by id."""

    def insert_moves(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert moves: ``{"game_id", "index", "move"}`` each."""

    def set_counts(self, counts: Mapping[str, int], now: datetime) -> None:
        """Set each game's move count and the time it changed."""


def statements_for(connection: Connection) -> AppendStatements:
    """Return the statements for the connection's database: psycopg's own for PostgreSQL, SQLAlchemy
    Core's for any other."""
    if connection.dialect.name == "postgresql" and connection.dialect.driver == "psycopg":
        return _Psycopg(connection)
    return _Core(connection)


class _Core:
    """The statements through SQLAlchemy Core (any database)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def lock_games(self, ids: Sequence[str]) -> dict[str, Locked]:
        query = (
            select(GAMES.c.id, GAMES.c.player_id, GAMES.c.move_count, GAMES.c.status, GAMES.c.table_id)
            .where(GAMES.c.id.in_(sorted(ids)))
            .order_by(GAMES.c.id)
            .with_for_update()
        )
        return {row.id: Locked(*row) for row in self.connection.execute(query)}

    def table_epochs(self, table_ids: Sequence[str]) -> dict[str, int]:
        query = (
            select(TABLES.c.id, TABLES.c.owner_epoch)
            .where(TABLES.c.id.in_(sorted(table_ids)))
            .order_by(TABLES.c.id)
            .with_for_update()
        )
        return {row.id: row.owner_epoch for row in self.connection.execute(query)}

    def insert_moves(self, rows: Sequence[Mapping[str, Any]]) -> None:
        self.connection.execute(insert(MOVES), list(rows))

    def set_counts(self, counts: Mapping[str, int], now: datetime) -> None:
        self.connection.execute(
            update(GAMES)
            .where(GAMES.c.id == bindparam("changed_id"))
            .values(move_count=bindparam("new_count"), updated_at=bindparam("changed_at")),
            [
                {"changed_id": key, "new_count": count, "changed_at": now}
                for key, count in sorted(counts.items())
            ],
        )


# Fixed SQL for PostgreSQL: one statement per step whatever the batch's size, its rows as arrays.
LOCK_GAMES = (
    "SELECT id, player_id, move_count, status, table_id FROM games WHERE id = ANY(%s) ORDER BY id FOR UPDATE"
)
TABLE_EPOCHS = "SELECT id, owner_epoch FROM tables WHERE id = ANY(%s) ORDER BY id FOR UPDATE"
INSERT_MOVES = (
    'INSERT INTO game_moves (game_id, "index", move) '
    "SELECT * FROM unnest(%s::varchar[], %s::integer[], %s::text[])"
)
SET_COUNTS = (
    "UPDATE games SET move_count = changed.count, updated_at = %s "
    "FROM unnest(%s::varchar[], %s::integer[]) AS changed(id, count) WHERE games.id = changed.id"
)


class _Psycopg:
    """The statements through the connection's psycopg cursor (PostgreSQL)."""

    def __init__(self, connection: Connection) -> None:
        # The DBAPI connection under the session's: the same transaction.
        self.raw: Any = connection.connection.driver_connection

    def _rows(self, sql: str, parameters: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self.raw.cursor() as cursor:
            cursor.execute(sql, parameters, prepare=True)
            return list(cursor.fetchall())

    def _run(self, sql: str, parameters: Sequence[Any]) -> None:
        with self.raw.cursor() as cursor:
            cursor.execute(sql, parameters, prepare=True)

    def lock_games(self, ids: Sequence[str]) -> dict[str, Locked]:
        return {row[0]: Locked(*row) for row in self._rows(LOCK_GAMES, [sorted(ids)])}

    def table_epochs(self, table_ids: Sequence[str]) -> dict[str, int]:
        return {key: epoch for key, epoch in self._rows(TABLE_EPOCHS, [sorted(table_ids)])}

    def insert_moves(self, rows: Sequence[Mapping[str, Any]]) -> None:
        game_ids = [row["game_id"] for row in rows]
        indexes = [row["index"] for row in rows]
        moves = [row["move"] for row in rows]
        self._run(INSERT_MOVES, [game_ids, indexes, moves])

    def set_counts(self, counts: Mapping[str, int], now: datetime) -> None:
        ordered = sorted(counts.items())
        self._run(SET_COUNTS, [now, [key for key, _ in ordered], [count for _, count in ordered]])


# The whole append as one statement, for the common case (decision 0054): the writer knows each game's
# stored move count and has checked the moves against the game's kept state, so the database need only
# lock the rows, confirm what the writer assumed and write. The rows are locked in the order the
# statements above take them (games, then their tables, each in id order); the moves and the counts are
# written only when every game agrees, else nothing is and the statement answers false.
APPEND_AT_ONCE = """
WITH expected AS MATERIALIZED (
    SELECT * FROM unnest(%(ids)s::varchar[], %(players)s::integer[], %(counts)s::integer[],
                         %(epochs)s::integer[]) AS e(id, player_id, move_count, epoch)
),
locked AS MATERIALIZED (
    SELECT id, player_id, move_count, status, table_id FROM games
    WHERE id = ANY(%(ids)s::varchar[]) ORDER BY id FOR UPDATE
),
fenced AS MATERIALIZED (
    SELECT id, owner_epoch FROM tables
    WHERE id IN (SELECT table_id FROM locked) ORDER BY id FOR UPDATE
),
agreed AS MATERIALIZED (
    SELECT count(*) = cardinality(%(ids)s::varchar[]) AS ok
    FROM expected e JOIN locked g ON g.id = e.id LEFT JOIN fenced t ON t.id = g.table_id
    WHERE g.player_id = e.player_id AND g.move_count = e.move_count AND g.status = %(open)s
      AND (e.epoch IS NULL OR g.table_id IS NULL OR t.owner_epoch = e.epoch)
),
inserted AS (
    INSERT INTO game_moves (game_id, "index", move)
    SELECT * FROM unnest(%(move_games)s::varchar[], %(move_indexes)s::integer[], %(moves)s::text[])
    WHERE (SELECT ok FROM agreed)
),
counted AS (
    UPDATE games SET move_count = changed.count, updated_at = %(now)s
    FROM unnest(%(changed)s::varchar[], %(new_counts)s::integer[]) AS changed(id, count)
    WHERE games.id = changed.id AND (SELECT ok FROM agreed)
)
SELECT ok FROM agreed
"""


class Expected(NamedTuple):
    """What the writer of a batch assumes of one game's row: its player, its stored move count and the
    owner epoch of its table (None: not a table's match, or no fence)."""

    player_id: int
    move_count: int
    epoch: int | None


def at_once_parameters(
    expected: Mapping[str, Expected],
    moves: Sequence[tuple[str, int, str]],
    counts: Mapping[str, int],
    open_status: str,
    now: datetime,
) -> dict[str, Any]:
    """Return the parameters of :data:`APPEND_AT_ONCE`: ``moves`` are ``(game id, index, move)``,
    ``counts`` the new move counts of the games they change."""
    ids = sorted(expected)
    changed = sorted(counts)
    return {
        "ids": ids,
        "players": [expected[key].player_id for key in ids],
        "counts": [expected[key].move_count for key in ids],
        "epochs": [expected[key].epoch for key in ids],
        "open": open_status,
        "move_games": [game_id for game_id, _, _ in moves],
        "move_indexes": [index for _, index, _ in moves],
        "moves": [move for _, _, move in moves],
        "changed": changed,
        "new_counts": [counts[key] for key in changed],
        "now": now,
    }


async def append_at_once(connection: Any, parameters: Mapping[str, Any]) -> bool:
    """Run :data:`APPEND_AT_ONCE` on an asynchronous psycopg connection in autocommit mode.

    Returns True when every game was as expected (open, of that player, with that many moves, its
    table at that epoch) and the moves are committed; False when one was not, and nothing was written.
    """
    async with connection.cursor() as cursor:
        await cursor.execute(APPEND_AT_ONCE, parameters, prepare=True)
        row = await cursor.fetchone()
    return bool(row and row[0])
