"""Seat claims at public tables (decision 0062): Play now, on any process, claims a computer-held seat
in the database, and the table's owner hands it over at the next round.

The claims table is the one source of who sits where across processes: its primary key is the person
(one seat per person, whatever the table), its unique pair the seat (one person per seat), and a
claim names one of the table's seats (never a fifth). Candidate tables are locked with ``FOR UPDATE
SKIP LOCKED`` on PostgreSQL, so that two people pressing Play now at once take different seats
without waiting on each other; SQLite serializes every write anyway.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from parlour.errors import IllegalMove
from parlour.games.tables import GATHERING, OVER, Claim
from parlour.store.errors import UnknownPlayer
from parlour.store.models import PlayerRow, SeatClaimRow, TableRow
from parlour.store.repository import Repository
from parlour.store.tables import UnknownTable, new_table_code

CANDIDATES: Final = 20
"""How many public tables Play now looks at (and locks) at once."""
FRESH: Final = timedelta(minutes=10)
"""A public table whose record has not changed for this long is not offered (nobody may be there)."""


class SeatUnavailable(IllegalMove):
    """A seat a person cannot claim now (taken, none free, or they sit elsewhere)."""

    code = "seat_taken"


@dataclass(frozen=True, slots=True)
class SeatClaim:
    """A person's claim: the ``table_id``, the ``seat``, whether the table's owner has handed it over
    (``seated``), and whether Play now made the table for it (``new_table``)."""

    table_id: str
    seat: int
    seated: bool
    new_table: bool = False


class SeatClaimsStore(Repository):
    """The seat-claim methods of :class:`~parlour.store.Store`."""

    def play_now(
        self,
        game: str,
        player_id: int,
        name: str,
        quick_key: str,
        settings: dict[str, Any],
        seats: list[Any],
        *,
        rated: bool,
    ) -> SeatClaim:
        """Seat a person at a public table of ``game`` whose options are ``quick_key``: their claim when
        they hold one already (at any table), else a computer-held seat nobody has claimed at the
        freshest such table, else a new table (``settings``, ``seats``: the person at seat 0 and
        computer players at the others) whose seat 0 is theirs at once.

        Raises:
            UnknownPlayer: no such player.
        """
        with self._write() as session:
            if session.get(PlayerRow, player_id) is None:
                raise UnknownPlayer(f"no player has the id {player_id!r}")
            now = datetime.now(UTC)
            held = session.get(SeatClaimRow, player_id, with_for_update=True)
            if held is not None:
                at = session.get(TableRow, held.table_id)
                if at is not None and at.phase != OVER and _aware(at.updated_at) >= now - FRESH:
                    return SeatClaim(held.table_id, held.seat, held.seated)
                session.delete(held)  # a table nobody has played at for long: the person goes elsewhere
                session.flush()
            found = self._free_seat(session, game, quick_key, now)
            if found is not None:
                table_id, seat = found
                session.add(
                    SeatClaimRow(
                        player_id=player_id, table_id=table_id, seat=seat, seated=False, name=name,
                        rated=rated, created_at=now,
                    )
                )  # fmt: skip
                return SeatClaim(table_id, seat, False)
            table = TableRow(
                id=secrets.token_urlsafe(16),
                game=game,
                code=new_table_code(),
                host_id=player_id,
                settings=settings,
                seats=seats,
                phase=GATHERING,
                listed=True,
                game_id=None,
                quick_key=quick_key,
                created_at=now,
                updated_at=now,
            )
            session.add(table)
            session.flush()
            session.add(
                SeatClaimRow(
                    player_id=player_id, table_id=table.id, seat=0, seated=True, name=name, rated=rated,
                    created_at=now,
                )
            )  # fmt: skip
            return SeatClaim(table.id, 0, True, new_table=True)

    def _free_seat(
        self, session: Session, game: str, quick_key: str, now: datetime
    ) -> tuple[str, int] | None:
        """Return a computer-held seat nobody has claimed at a fresh public table of these options,
        locking its table's row (None when there is none)."""
        query = (
            select(TableRow)
            .where(
                TableRow.game == game,
                TableRow.quick_key == quick_key,
                TableRow.listed.is_(True),
                TableRow.phase != OVER,
                TableRow.updated_at >= now - FRESH,
            )
            .order_by(TableRow.updated_at.desc())
            .limit(CANDIDATES)
            .with_for_update(skip_locked=True)
        )
        tables = list(session.scalars(query))
        if not tables:
            return None
        claimed: dict[str, set[int]] = {}
        for table_id, seat in session.execute(
            select(SeatClaimRow.table_id, SeatClaimRow.seat).where(
                SeatClaimRow.table_id.in_([table.id for table in tables])
            )
        ):
            claimed.setdefault(table_id, set()).add(seat)

        # Fill the tables with the most people first: strangers meet, and fewer tables run.
        def people(table: TableRow) -> int:
            return len(claimed.get(table.id, ()))

        for table in sorted(tables, key=people, reverse=True):
            taken = claimed.get(table.id, set())
            for seat, data in enumerate(table.seats or []):
                if isinstance(data, dict) and data.get("kind") == "bot" and seat not in taken:
                    return table.id, seat
        return None

    def claim_seat(self, table_id: str, player_id: int, name: str, seat: int | None = None) -> SeatClaim:
        """Claim a computer-held seat of one public table (``seat``, or the first free one) for a
        person watching it: theirs at the next round.

        Raises:
            UnknownTable: no such public table. SeatUnavailable: the person holds a seat already, or
                no computer-held seat is free there now.
        """
        now = datetime.now(UTC)
        with self._write() as session:
            table = (
                session.get(TableRow, table_id, with_for_update=True) if isinstance(table_id, str) else None
            )
            if table is None or table.quick_key is None or table.phase == OVER:
                raise UnknownTable("no such public table")
            held = session.get(SeatClaimRow, player_id)
            if held is not None:
                if held.table_id == table_id:
                    return SeatClaim(held.table_id, held.seat, held.seated)
                raise SeatUnavailable(
                    "you hold a seat at another table: leave it first", code="seated_elsewhere"
                )
            taken = set(session.scalars(select(SeatClaimRow.seat).where(SeatClaimRow.table_id == table_id)))
            free = [
                n for n, data in enumerate(table.seats or [])
                if isinstance(data, dict) and data.get("kind") == "bot" and n not in taken
            ]  # fmt: skip
            if seat is not None and seat not in free:
                raise SeatUnavailable(f"seat {seat} is not free", code="seat_taken")
            if not free:
                raise SeatUnavailable("no seat is free at this table now", code="table_full")
            chosen = free[0] if seat is None else seat
            rated = (table.quick_key or "").startswith("rated|")
            session.add(
                SeatClaimRow(
                    player_id=player_id, table_id=table_id, seat=chosen, seated=False, name=name, rated=rated,
                    created_at=now,
                )
            )  # fmt: skip
            return SeatClaim(table_id, chosen, False)

    def claim_of(self, player_id: int) -> SeatClaim | None:
        """Return the person's claim, None when they hold none."""
        with self._read() as session:
            row = session.get(SeatClaimRow, player_id)
            return None if row is None else SeatClaim(row.table_id, row.seat, row.seated)

    def pending_claims(self, table_id: str) -> list[Claim]:
        """Return the claims of a table its owner has not honoured yet, by seat."""
        with self._read() as session:
            rows = session.scalars(
                select(SeatClaimRow)
                .where(SeatClaimRow.table_id == table_id, SeatClaimRow.seated.is_(False))
                .order_by(SeatClaimRow.seat)
            )
            return [Claim(row.player_id, row.seat, row.name) for row in rows]

    def seat_count(self, table_id: str) -> int:
        """Return how many claims a table holds (honoured or not)."""
        with self._read() as session:
            return len(
                list(session.scalars(select(SeatClaimRow.player_id).where(SeatClaimRow.table_id == table_id)))
            )

    def leave_claim(self, player_id: int) -> None:
        """Give up a claim not yet honoured (the person went elsewhere before the next round); an
        honoured one is the table's to end, when it writes the person leaving."""
        with self._write() as session:
            session.execute(
                delete(SeatClaimRow).where(
                    SeatClaimRow.player_id == player_id, SeatClaimRow.seated.is_(False)
                )
            )


def _aware(moment: datetime) -> datetime:
    """Return ``moment`` with its time zone (SQLite gives it back without)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
