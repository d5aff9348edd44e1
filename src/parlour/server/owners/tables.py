"""Friends' tables on the server: one :class:`TableOwner` per live table, and the process's tables.

A table's owner is a game :class:`~parlour.server.owners.live.Owner` whose game is a
:class:`~parlour.games.tables.FriendsTable` (of any game played at tables): actions are serialized, events
numbered and every connected page sent its own seat's view, exactly as for a player's own game. What a table
adds is kept before the event leaves, as moves are: the seats and settings (the ``tables`` row) on every
change to them, and each match's record when it is dealt. Who is connected is the owner's to know (its
subscribers), and it tells the table, which marks people away and, after the grace period, lets a computer
player take their seat.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any, Protocol

from parlour.errors import ParlourError
from parlour.games.base import Change, GameDefinition, LiveGame, RecordSpec, SeatView
from parlour.games.ratings import Skill
from parlour.games.tables import SEATING_CHANGES, Claim, FriendsTable, RatedRound, TableRecord
from parlour.server.owners.live import Owner, Recorder
from parlour.server.wire.outbox import Outbox
from parlour.server.wire.protocol import CLOSE_MOVED
from parlour.store.errors import StoreUnavailable

log = logging.getLogger("parlour.server")


class TableKeeper(Recorder, Protocol):
    """Where a table's owner keeps the table: the server's store, through its write queue."""

    async def record_match(self, host: int, definition: GameDefinition, spec: RecordSpec, epoch: int) -> str:
        """Store a new match's record (dealt by the owner of ``epoch``) and return its id."""

    async def save_table(self, record: TableRecord) -> None:
        """Keep the table's seats, settings, phase and current match."""

    async def load_table(self, table_id: str) -> FriendsTable | None:
        """Take a table over and rebuild it from the store (None when it cannot be read now)."""

    async def let_go(self, table_id: str) -> None:
        """Stop owning a table that another process has taken over."""

    async def pending_claims(self, table_id: str) -> list[Claim]:
        """Return the seat claims of a public table not honoured yet."""

    async def record_round(
        self, definition: GameDefinition, game_id: str, rated: RatedRound
    ) -> dict[int, Skill]:
        """Rate one round of a rated table and keep it; return each person's rating after it."""


class TableOwner(Owner):
    """The owner of one live friends' table (its id is the table's id)."""

    game: FriendsTable

    def __init__(self, table: FriendsTable, keeper: TableKeeper, *, moves_recorded: int = 0) -> None:
        super().__init__(
            table.table_id,
            table,
            table.host,
            recorder=keeper,
            record_id=table.game_id,
            moves_recorded=moves_recorded,
        )
        self.keeper = keeper
        self._presence_tasks: set[asyncio.Task[None]] = set()

    # --- who is connected ---------------------------------------------------------------------------

    async def join(self, seat: int, outbox: Outbox, last_version: int | None) -> None:
        """Connect a page watching from ``seat`` (the lobby for a page that has not sat down).

        The others are told first that the seat is connected, so the page's own state already says so.
        """
        async with self.lock:
            others = {
                sub.seat for sub in self._subscribers if sub.outbox is not outbox and not sub.outbox.closed
            }
            await self._tell_presence(others | {seat})
        await super().join(seat, outbox, last_version)
        self.reschedule()

    def disconnect(self, outbox: Outbox) -> None:
        """Disconnect a page; when it was its seat's last, the others see that person away.

        The page leaves at once; telling the others runs as a task of its own, so that a socket
        handler being cancelled as its connection drops cannot lose it.
        """
        self.leave(outbox)
        task = asyncio.get_running_loop().create_task(self.sync_presence())
        self._presence_tasks.add(task)
        task.add_done_callback(self._presence_tasks.discard)

    def close_pages(self) -> None:
        """Close every page's connection to this table, after what it was already sent (it is moving
        to another process: code 4409, and the page reconnects). The owner does nothing more."""
        self.close()
        self.closed = True
        for sub in list(self._subscribers):
            sub.outbox.end(None, CLOSE_MOVED)
        self._subscribers.clear()

    async def sync_presence(self) -> None:
        """Tell the table which seats have a page now, and send the event when that changed (nothing
        once the table has moved to another process)."""
        if self.closed:
            return
        async with self.lock:
            if self.closed:
                return
            await self._tell_presence({sub.seat for sub in self._subscribers if not sub.outbox.closed})
        self.reschedule()

    async def _tell_presence(self, seats: set[int]) -> None:
        """Tell the table that ``seats`` have a page connected (the caller holds the lock)."""
        before = self.game.snapshot()
        change = self.game.set_connected(seats)
        if change is not None:
            try:
                await self._publish(change, before)
            except ParlourError:
                log.warning("table %s: a presence change could not be sent", self.game_id)

    def reschedule(self) -> None:
        """Plan the table's next timed step again (an earlier deadline may have appeared)."""
        if self._auto_task is not None and self._auto_sleeping:
            self._auto_task.cancel()
            self._auto_task = None
        self._schedule_auto()

    async def act(self, seat: int, action: dict[str, Any]) -> int:
        """Apply one action, then plan the table's timers again (a turn ended, a round began …)."""
        version = await super().act(seat, action)
        self.reschedule()
        return version

    # --- keeping the table --------------------------------------------------------------------------

    async def _publish(self, change: Change, before: LiveGame[SeatView]) -> int:
        if change.name == "swapped":  # the pages of the two seats follow their people
            first, second = int(change.public["a"]), int(change.public["b"])
            self._swap_subscribers(first, second)
            try:
                return await super()._publish(change, before)
            except ParlourError:
                self._swap_subscribers(first, second)
                raise
        return await super()._publish(change, before)

    def _swap_subscribers(self, first: int, second: int) -> None:
        for sub in self._subscribers:
            if sub.seat in (first, second):
                sub.seat = second if sub.seat == first else first

    async def _record(self, change: Change) -> Change:
        """Keep what the change altered before its event leaves: a new match's record, then the
        table's row, then the match's moves (and its end)."""
        table = self.game
        if change.name == "started" and table.pending is not None:
            self.record_id = await self.keeper.record_match(
                table.host, table.definition, table.pending, table.epoch
            )
            self.moves_recorded = 0
            table.game_id = self.record_id
            table.pending = None
        if (
            change.name in SEATING_CHANGES
            or change.finished
            or table.honoured
            or table.released
            or table.dirty
        ):
            table.watchers = sum(1 for sub in self._subscribers if sub.seat == table.lobby)
            await self.keeper.save_table(table.record())
            table.saved()
        change = await super()._record(change)
        if table.rated_rounds and table.game_id is not None:
            ratings: dict[str, int] = {}
            for rated in table.rated_rounds:
                after = await self.keeper.record_round(table.definition, table.game_id, rated)
                for player, skill in after.items():
                    # By the seat each rated person holds now; one who has left the table has no seat
                    # to show it at (their player page shows it).
                    at = table.seat_of_player(player)
                    if at is not None:
                        ratings[str(at)] = skill.shown
            table.rated_rounds = []
            if ratings:
                change = replace(change, public={**change.public, "ratings": ratings})
        return change

    async def _before_step(self) -> None:
        """Between rounds at a public table: read the seat claims to honour at the next deal (a claim
        made on any process reaches the table's owner through the database)."""
        if self.game.wants_claims():
            try:
                self.game.offer_claims(await self.keeper.pending_claims(self.game_id))
            except StoreUnavailable:
                log.warning("table %s: its seat claims could not be read now", self.game_id)

    @property
    def epoch(self) -> int | None:
        """The owner epoch the table was taken over at: every write of the table carries it."""
        return self.game.epoch

    async def _superseded(self) -> None:
        """Another process owns the table now: this one lets it go (its pages reconnect)."""
        await super()._superseded()
        task = asyncio.get_running_loop().create_task(self.keeper.let_go(self.game_id))
        # Not awaited under the owner's lock: letting go talks to Redis, which may be what is failing.
        self._presence_tasks.add(task)
        task.add_done_callback(self._presence_tasks.discard)

    async def _reload(self) -> None:
        """Rebuild the table from the store (its record disagreed with memory) and resend the state."""
        table = await self.keeper.load_table(self.game_id)
        if table is None:
            return
        live = {sub.seat for sub in self._subscribers}
        table.set_connected(live)
        self.game = table
        self.record_id = table.game_id
        self.moves_recorded = table.moves_played
        self._resend_state()


class Tables:
    """This process's live tables, by table id (a table is restored from the store on first use)."""

    def __init__(self) -> None:
        self._owners: dict[str, TableOwner] = {}
        self._opening = asyncio.Lock()

    def get(self, table_id: str) -> TableOwner | None:
        """Return a live table's owner, or None."""
        return self._owners.get(table_id)

    def add(self, owner: TableOwner) -> TableOwner:
        """Register a table's owner and return it."""
        self._owners[owner.game_id] = owner
        return owner

    async def open(self, table_id: str, keeper: TableKeeper) -> TableOwner | None:
        """Return the owner of a table, restoring it from the store when it is not live here."""
        found = self._owners.get(table_id)
        if found is not None:
            return found
        async with self._opening:
            found = self._owners.get(table_id)
            if found is not None:
                return found
            table = await keeper.load_table(table_id)
            if table is None:
                return None
            return self.add(TableOwner(table, keeper, moves_recorded=table.moves_played))

    def drop(self, table_id: str) -> TableOwner | None:
        """Forget a live table and return its owner (None when it was not live here)."""
        owner = self._owners.pop(table_id, None)
        if owner is not None:
            owner.close()
        return owner

    def idle(self, older_than: float) -> list[str]:
        """Return the tables nobody has been connected to, and nothing has run at, for ``older_than``
        seconds."""
        now = time.monotonic()
        return [
            table_id
            for table_id, owner in self._owners.items()
            if owner.idle and now - owner.last_active >= older_than
        ]

    def evict_idle(self, older_than: float) -> int:
        """Drop the tables idle for ``older_than`` seconds; return how many (their rows stay, and a page
        that comes back restores the table)."""
        idle = self.idle(older_than)
        for table_id in idle:
            self.drop(table_id)
        return len(idle)

    def __len__(self) -> int:
        return len(self._owners)

    def close(self) -> None:
        """Stop every table's pending work (server shutdown)."""
        for owner in self._owners.values():
            owner.close()
