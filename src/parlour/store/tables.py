"""Friends' tables in the database: create one with its join code, find it by code or id, keep its seats
and settings, and list the public ones that want players.

The live table (``parlour.games.tables``) is the only writer of a table's seats and
settings; the server saves them through :meth:`TablesStore.save_table` before it acknowledges the
action that changed them. Seat tokens are kept as SHA-256 hashes only, as players' tokens are.
"""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from parlour.errors import InvalidInput
from parlour.games.tables import GATHERING, TableRecord
from parlour.store.errors import StoreUnavailable, Superseded, UnknownPlayer, conflict
from parlour.store.models import PlayerRow, SeatClaimRow, TableRow
from parlour.store.repository import Repository

CODE_ALPHABET: Final = "ABCDEFGHJKMNPQRSTVWXYZ23456789"
"""The letters of a table code: no I, L, O, U, 0 or 1, which people mistake for each other."""
CODE_LENGTH: Final = 6
_CONFUSABLE: Final = str.maketrans({"I": "J", "L": "J", "O": "Q", "0": "Q", "1": "J", "U": "V"})
TABLE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
LOBBY_SIZE: Final = 50


class UnknownTable(InvalidInput):
    """No table has this code or id."""

    code = "no_such_table"


class TableMoved(Superseded):
    """A write of a table's owner that another process has taken the table from since (its owner
    epoch is older than the table's): nothing was written, and this process must let the table go."""

    code = "table_moved"


def new_table_code() -> str:
    """Return a fresh table code such as ``K7QX2M`` (30^6, about 729 million codes)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_table_code(text: Any) -> str | None:
    """Return the canonical form of a typed table code, or None when it cannot be one.

    Case, spaces and dashes are forgiven; so are letters that look like the code's own (O for Q …),
    which the alphabet leaves out so that no two codes differ only by such a letter.
    """
    if not isinstance(text, str) or len(text) > 40:
        return None
    compact = re.sub(r"[\s-]+", "", text).upper()
    if len(compact) != CODE_LENGTH or not compact.isascii():
        return None
    compact = compact.translate(_CONFUSABLE)
    return compact if all(char in CODE_ALPHABET for char in compact) else None


def _table_record(row: TableRow) -> TableRecord:
    return TableRecord(
        game=row.game,
        table_id=row.id,
        code=row.code,
        host=row.host_id,
        settings=dict(row.settings or {}),
        seats=list(row.seats or []),
        phase=row.phase,
        game_id=row.game_id,
        epoch=row.owner_epoch,
        watchers=row.watchers or 0,
    )


def refuse_bad_table_id(table_id: Any) -> None:
    """Refuse what cannot be a table's id (before any query).

    Raises:
        UnknownTable: not an id of the tables' form.
    """
    if not isinstance(table_id, str) or TABLE_ID.fullmatch(table_id) is None:
        raise UnknownTable("no such table")


def _check_epoch(row: TableRow, epoch: int) -> None:
    """Refuse a write of an owner older than the table's (the caller holds the row's lock)."""
    refuse_older_epoch(row.id, row.owner_epoch, epoch)


def refuse_older_epoch(table_id: str, held: int, epoch: int) -> None:
    """Refuse a write with owner epoch ``epoch`` to a table whose row (locked by the caller) holds
    ``held``.

    Raises:
        TableMoved: the table has another owner now.
    """
    if held != epoch:
        raise TableMoved(f"table {table_id}: another process owns it now (epoch {held}, not {epoch})")


class TablesStore(Repository):
    """The table methods of :class:`~parlour.store.Store` (it supplies the sessions)."""

    def create_table(
        self, game: str, host_id: int, settings: dict[str, Any], seats: list[Any]
    ) -> TableRecord:
        """Store a new table of ``game`` gathering players, with a fresh id and join code, and return it.

        Raises:
            UnknownPlayer: no such host.
        """
        for _ in range(20):  # a code already taken (rare: 729 million codes) is drawn again
            now = datetime.now(UTC)
            row = TableRow(
                id=secrets.token_urlsafe(16),
                game=game,
                code=new_table_code(),
                host_id=host_id,
                settings=settings,
                seats=seats,
                phase=GATHERING,
                listed=bool(settings.get("public")),
                game_id=None,
                created_at=now,
                updated_at=now,
            )
            try:
                with self._write() as session:
                    if session.get(PlayerRow, host_id) is None:
                        raise UnknownPlayer(f"no player has the id {host_id!r}")
                    session.add(row)
            except StoreUnavailable as error:
                if not conflict(error):
                    raise
                continue
            return _table_record(row)
        raise RuntimeError("no free table code was found in 20 draws")

    def table_by_code(self, code: Any) -> TableRecord:
        """Return the table of a join code (typed by a person: see :func:`normalize_table_code`).

        Raises:
            UnknownTable: no table has this code.
        """
        canonical = normalize_table_code(code)
        if canonical is None:
            raise UnknownTable(f"{str(code)[:20]!r} is not a table code (six letters and digits)")
        with self._read() as session:
            row = session.execute(select(TableRow).where(TableRow.code == canonical)).scalar_one_or_none()
            if row is None:
                raise UnknownTable(f"no table has the code {canonical}")
            return _table_record(row)

    def table(self, table_id: Any) -> TableRecord:
        """Return a table by its id.

        Raises:
            UnknownTable: no table has this id.
        """
        if not isinstance(table_id, str) or TABLE_ID.fullmatch(table_id) is None:
            raise UnknownTable("no such table")
        with self._read() as session:
            row = session.get(TableRow, table_id)
            if row is None:
                raise UnknownTable("no such table")
            return _table_record(row)

    def claim_table(self, table_id: Any) -> TableRecord:
        """Take a table over for a process that is to own it: raise its owner epoch and return it with
        the new epoch. From now on the writes of any earlier owner are refused (:class:`TableMoved`),
        and everything they wrote before is in what the new owner reads.

        Raises:
            UnknownTable: no table has this id.
        """
        if not isinstance(table_id, str) or TABLE_ID.fullmatch(table_id) is None:
            raise UnknownTable("no such table")
        with self._write() as session:
            row = session.get(TableRow, table_id, with_for_update=True)
            if row is None:
                raise UnknownTable("no such table")
            row.owner_epoch += 1
            session.flush()
            return _table_record(row)

    def save_table(self, record: TableRecord) -> None:
        """Keep a table's seats, settings, phase and current match (committed before this returns).

        Raises:
            UnknownTable: the table is gone.
            TableMoved: another process has taken the table over since ``record.epoch``.
        """
        with self._write() as session:
            row = session.get(TableRow, record.table_id, with_for_update=True)
            if row is None:
                raise UnknownTable("no such table")
            _check_epoch(row, record.epoch)
            row.settings = record.settings
            row.seats = record.seats
            row.phase = record.phase
            # A public table nobody sits at any more leaves the lists (its computer players stop).
            people = any(isinstance(seat, dict) and seat.get("kind") == "person" for seat in record.seats)
            row.listed = bool(record.settings.get("public")) and (row.quick_key is None or people)
            row.game_id = record.game_id
            row.watchers = record.watchers
            row.updated_at = datetime.now(UTC)
            settle_claims(session, record.table_id, list(record.honoured), list(record.released))

    def tables_in_play(self, game: str, limit: int = LOBBY_SIZE) -> list[TableRecord]:
        """Return the public tables of ``game`` Play now seats people at that are in play (saved in the
        last ten minutes), the most watched first, then the most recently active."""
        fresh = datetime.now(UTC) - timedelta(minutes=10)
        with self._read() as session:
            query = (
                select(TableRow)
                .where(
                    TableRow.game == game,
                    TableRow.listed.is_(True),
                    TableRow.quick_key.is_not(None),
                    TableRow.updated_at >= fresh,
                )
                .order_by(TableRow.watchers.desc(), TableRow.updated_at.desc())
                .limit(limit)
            )
            return [_table_record(row) for row in session.scalars(query)]

    def public_tables(self, game: str, limit: int = LOBBY_SIZE) -> list[TableRecord]:
        """Return the friends' tables of ``game`` listed in the lobby and still gathering players, the
        most recently active first."""
        with self._read() as session:
            query = (
                select(TableRow)
                .where(
                    TableRow.game == game,
                    TableRow.listed.is_(True),
                    TableRow.phase == GATHERING,
                    TableRow.quick_key.is_(None),
                )
                .order_by(TableRow.updated_at.desc())
                .limit(limit)
            )
            return [_table_record(row) for row in session.scalars(query)]


def settle_claims(session: Session, table_id: str, honoured: list[int], released: list[int]) -> None:
    """In the transaction that saves a table: mark the ``honoured`` claims seated and delete the
    ``released`` ones (people who left, or whose claim the table could not honour)."""
    if honoured:
        session.execute(
            update(SeatClaimRow)
            .where(SeatClaimRow.table_id == table_id, SeatClaimRow.player_id.in_(honoured))
            .values(seated=True)
        )
    if released:
        session.execute(
            delete(SeatClaimRow).where(
                SeatClaimRow.table_id == table_id, SeatClaimRow.player_id.in_(released)
            )
        )
