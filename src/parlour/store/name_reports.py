"""Reported display names (issue 50): a person reports a name they saw at a public table, which hides
it for them at once (the page keeps it hidden) and queues it for an operator, who renames the player,
clears the name or blocks it (``parlour players reported``, ``rename``, ``block``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from parlour.errors import InvalidInput
from parlour.store.models import BlockedNameRow, NameReportRow, PlayerRow, TableRow
from parlour.store.names import skeleton
from parlour.store.players import settle_reports
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, player_row, utcnow
from parlour.store.tables import UnknownTable, refuse_bad_table_id


class NothingToReport(InvalidInput):
    """A report of a seat with no person's name in it (a computer player, an empty seat, oneself)."""

    code = "nothing_to_report"


@dataclass(frozen=True, slots=True)
class Reported:
    """A name in the operator's queue: the ``player`` holding it, the ``name`` reported (and the one
    they hold now), how many people reported it and when first."""

    player: int
    name: str
    current: str | None
    reports: int
    first: datetime

    def to_json(self) -> dict[str, Any]:
        """Return the entry as ``parlour players reported --json`` prints it."""
        return {
            "player": self.player,
            "name": self.name,
            "current": self.current,
            "reports": self.reports,
            "first": self.first.isoformat(),
        }


class NameReportsStore(Repository):
    """The reported-names methods of :class:`~parlour.store.Store`."""

    def report_name(self, reporter_id: int, table_id: Any, seat: Any) -> str:
        """Report the name of the person at ``seat`` of a table (as its record holds it) and return it.
        Reporting a name twice counts once.

        Raises:
            UnknownTable: no such table. NothingToReport: no other person's name at that seat.
        """
        refuse_bad_table_id(table_id)
        with self._write() as session:
            table = session.get(TableRow, table_id)
            if table is None:
                raise UnknownTable("no such table")
            seats = table.seats or []
            data = (
                seats[seat]
                if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats)
                else None
            )
            if not isinstance(data, dict) or data.get("kind") != "person":
                raise NothingToReport(f"seat {seat!r} holds no person's name")
            player = data.get("player")
            if not isinstance(player, int) or player == reporter_id:
                raise NothingToReport(f"seat {seat!r} holds no other person's name")
            reported = session.get(PlayerRow, player)
            name = (reported.name if reported is not None else None) or str(data.get("name") or "")
            known = session.scalar(
                select(NameReportRow.id).where(
                    NameReportRow.reporter_id == reporter_id,
                    NameReportRow.reported_id == player,
                    NameReportRow.name == name,
                )
            )
            if known is None:
                session.add(
                    NameReportRow(
                        reporter_id=reporter_id, reported_id=player, name=name[:40], table_id=table_id,
                        created_at=utcnow(),
                    )
                )  # fmt: skip
            return name

    def reported_names(self) -> list[Reported]:
        """Return the names waiting for an operator, the most reported first."""
        with self._read() as session:
            rows = session.execute(
                select(
                    NameReportRow.reported_id,
                    NameReportRow.name,
                    func.count(),
                    func.min(NameReportRow.created_at),
                    PlayerRow.name,
                )
                .join(PlayerRow, PlayerRow.id == NameReportRow.reported_id)
                .where(NameReportRow.resolved_at.is_(None))
                .group_by(NameReportRow.reported_id, NameReportRow.name, PlayerRow.name)
                .order_by(func.count().desc(), func.min(NameReportRow.created_at))
            ).all()
            return [
                Reported(player, name, current, count, as_utc(first))
                for player, name, count, first, current in rows
            ]

    def clear_name(self, player_id: int) -> None:
        """Take a player's name away (an operator's answer to a report): they are shown by seat again.

        Raises:
            UnknownPlayer: no such player.
        """
        with self._write() as session:
            row = player_row(session, player_id)
            row.name, row.name_key = None, None
            settle_reports(session, player_id, utcnow())

    def block_name(self, player_id: int) -> str | None:
        """Block a player's name for everyone (no player may take a name of its skeleton again), take
        it away from them, and return it (None when they had none).

        Raises:
            UnknownPlayer: no such player.
        """
        now = utcnow()
        with self._write() as session:
            row = player_row(session, player_id)
            name = row.name
            if name is not None:
                key = skeleton(name)
                if session.get(BlockedNameRow, key) is None:
                    session.add(BlockedNameRow(name_key=key, name=name, created_at=now))
            row.name, row.name_key = None, None
            settle_reports(session, player_id, now)
            return name
