"""Live games: one serialized owner per game, versioned events, views only.

A game's definition (``parlour.games``) makes its :class:`~parlour.games.base.LiveGame`; everything
here is game-agnostic. The :class:`Owner` of a live game is the only code that
touches it: actions are applied one at a time under the owner's lock, each accepted action becomes one
numbered event, and every event is sent to each connected seat as that seat's *view*. A seat that may
not see an event still receives a stub carrying its version, so a gap in versions always means lost
messages. The owner keeps the last :data:`LOG_SIZE` events so that a reconnecting page can be sent the
events it missed; older gaps get a full resynchronisation (``state``).

Moves are written to the records (the store) *before* the event is sent, so an acknowledged move is
durable. Every change to a live game goes through its owner: actions, computer players' steps and
settings. Pages are sent their messages through their own :class:`~parlour.server.wire.outbox.Outbox`, so
a slow or dead socket never holds the game's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final, Protocol

from parlour.errors import GameOver, ParlourError
from parlour.games.base import Change, Json, LiveGame, SeatView, view_json
from parlour.server.wire.outbox import Outbox, Prepared
from parlour.server.wire.protocol import CLOSE_ENDED, CLOSE_MOVED, EndedMessage, EventMessage, StateMessage
from parlour.store.errors import StoreUnavailable, Superseded

LOG_SIZE: Final = 64
"""How many recent events each live game keeps for reconnecting pages."""
IDLE_SECONDS: Final = 15 * 60
"""A live game nobody has touched for this long leaves memory (it is restored from its record)."""
MAX_LIVE: Final = 5000
"""Live games kept at most; beyond, the least recently active idle ones leave memory first."""
AUTO_RETRY: Final = 2.0
"""Seconds before a computer player's move that could not be saved is tried again."""

log = logging.getLogger("parlour.server")


class Recorder(Protocol):
    """Where the owner writes its game's record (the server's store, through its write queue)."""

    async def append(
        self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str], epoch: int | None = None
    ) -> object:
        """Commit ``moves`` as the game's moves ``first_index`` onwards before returning (``epoch``: the
        owner epoch of a friends' table's match).

        Raises:
            Superseded: another process owns the record now; nothing was stored.
            StoreUnavailable: the database failed (after retries); nothing was stored.
            ParlourError: the store refused the moves (its record disagrees with the live game).
        """

    async def finish(self, game_id: str, player_id: Any) -> object:
        """Replay the stored moves, record the outcome and return it."""

    async def reload(self, game_id: str, player_id: Any) -> tuple[LiveGame[SeatView], int] | None:
        """Rebuild the live game from its record; return it with its stored move count (None if the
        record cannot be read now)."""


class NotSaved(ParlourError):
    """A move could not be made durable: the game is as it was before it, and the page may try again."""

    code = "not_saved"


class GameEnded(GameOver):
    """The game's record was ended elsewhere (the player dealt a new game in another tab or window, or
    on another server process): the live game accepts nothing more."""

    code = "game_ended"


class _Subscriber:
    """One connected page: the seat it watches and its outbox."""

    def __init__(self, seat: int, outbox: Outbox) -> None:
        self.seat = seat
        self.outbox = outbox


class Owner:
    """The single owner of one live game: serializes actions, numbers events, fans views out.

    ``version`` counts accepted events from 0 (the initial state). ``record_id`` is the game's id in
    the records (None when the game is not recorded), ``recorder`` writes them; ``player_id`` is the
    player who owns the game.
    """

    def __init__(
        self,
        game_id: str,
        game: LiveGame[SeatView],
        player_id: Any,
        *,
        recorder: Recorder | None = None,
        record_id: str | None = None,
        moves_recorded: int = 0,
        closed: bool = False,
    ) -> None:
        self.game_id = game_id
        self.game = game
        self.player_id = player_id
        self.recorder = recorder
        self.record_id = record_id
        self.moves_recorded = moves_recorded
        self.closed = closed
        """A game whose record has ended (shown in its final state, no action accepted)."""
        self.ended_elsewhere = False
        """The record was ended while this owner held the game live (a newer game replaced it)."""
        self.outcome: object = None
        self.version = 0
        # The log keeps each seat's event message as the JSON text its pages were sent: hundreds of
        # games' logs as dicts would be millions of small objects for the garbage collector to walk
        # through (pauses of a few hundred ms).
        self._log: deque[tuple[int, Change, dict[int, str]]] = deque(maxlen=LOG_SIZE)
        self.lock = asyncio.Lock()
        self._subscribers: list[_Subscriber] = []
        self._auto_task: asyncio.Task[None] | None = None
        self._auto_sleeping = False
        self.last_active = time.monotonic()
        """When a page last joined, acted or left, or a computer player moved (for idle eviction)."""

    # --- connections -------------------------------------------------------------------------------

    async def join(self, seat: int, outbox: Outbox, last_version: int | None) -> None:
        """Connect a page watching from ``seat`` and bring it up to date.

        A page that knows nothing (``last_version`` None) or is too far behind gets a ``state``
        message; a page a few events behind gets exactly the events it missed.
        """
        async with self.lock:
            self.leave(outbox)
            self._subscribers.append(_Subscriber(seat, outbox))
            self.last_active = time.monotonic()
            if self.ended_elsewhere:
                self._subscribers.pop()
                outbox.push(self.state_message(seat))
                outbox.end(self.ended_message(), CLOSE_ENDED)
                return
            missed = self._missed(last_version)
            if missed is None:
                outbox.push(self.state_message(seat))
            else:
                for version, change, texts in missed:
                    text = texts.get(seat)
                    outbox.push(
                        Prepared.of_text(text)
                        if text is not None
                        else _event_message(version, change, seat, None)
                    )
        self._schedule_auto()

    def leave(self, outbox: Outbox) -> None:
        """Disconnect a page (the game stays alive for a reconnect)."""
        self._subscribers = [sub for sub in self._subscribers if sub.outbox is not outbox]
        self.last_active = time.monotonic()

    def disconnect(self, outbox: Outbox) -> None:
        """A page's connection ended: it leaves (a table also tells the others the person is away)."""
        self.leave(outbox)

    def seat_of(self, outbox: Outbox) -> int | None:
        """Return the seat a connected page watches from, None when it has not joined."""
        return next((sub.seat for sub in self._subscribers if sub.outbox is outbox), None)

    @property
    def idle(self) -> bool:
        """True when nothing is connected or running: the game can leave memory (its record stays)."""
        busy = self._auto_task is not None and not self._auto_task.done()
        return not self._subscribers and not busy and not self.lock.locked()

    @property
    def connections(self) -> int:
        """Return the number of connected pages."""
        return len(self._subscribers)

    def state_message(self, seat: int) -> StateMessage:
        """Return the full-resynchronisation message for ``seat``."""
        view = view_json(self.game.view(seat))
        return StateMessage(type="state", v=self.version, game=self.game_id, view=view or {})

    def ended_message(self) -> EndedMessage:
        """Return what a page of a game ended elsewhere is told before its socket closes."""
        return EndedMessage(type="ended", code=GameEnded.code, v=self.version)

    def end_elsewhere(self) -> None:
        """The game's record has been ended by something else than this owner (a new game was dealt):
        accept nothing more, and tell every page, whose socket then closes (the caller holds the lock,
        or the owner is being replaced).

        The pages are told once the current step of the event loop is over, so that the page whose
        action found the record ended is sent its ``error`` first."""
        self.closed = self.ended_elsewhere = True
        self.close()
        self._close_pages_soon(self.ended_message(), CLOSE_ENDED)

    def _close_pages_soon(self, last: EndedMessage | None, code: int) -> None:
        """Send every page ``last`` (if any) and close it with ``code``, once the current step of the
        event loop is over: the page whose action found out is sent its ``error`` first."""
        pages, self._subscribers = self._subscribers, []

        def close_pages() -> None:
            for sub in pages:
                sub.outbox.end(last, code)

        asyncio.get_running_loop().call_soon(close_pages)

    def _missed(self, last_version: int | None) -> list[tuple[int, Change, dict[int, str]]] | None:
        if last_version is None or last_version > self.version or last_version < 0:
            return None
        if last_version == self.version:
            return []
        oldest = self._log[0][0] if self._log else self.version + 1
        if last_version + 1 < oldest:
            return None
        return [entry for entry in self._log if entry[0] > last_version]

    # --- actions -----------------------------------------------------------------------------------

    async def act(self, seat: int, action: Json) -> int:
        """Apply one action from ``seat``; send the event to every page; return its version.

        Raises:
            ParlourError: the action was refused; nothing changed and nothing was sent.
        """
        async with self.lock:
            if self.ended_elsewhere:
                raise GameEnded("this game was ended: a newer one was dealt")
            if self.game.finished or self.closed:
                raise GameOver("the game is over", code="game_over")
            await self._before_step()
            before = self._restore_point()
            change = self.game.act(seat, action)
            version = await self._publish(change, before)
        self._schedule_auto()
        return version

    async def configure(self, seat: int, settings: Json) -> int:
        """Change settings of the live game (a computer player's speed …); return the version after.

        A change the game reports is an event like a move (it records no move).

        Raises:
            ParlourError: a setting the game refuses; nothing changed.
        """
        async with self.lock:
            change = self.game.configure(seat, settings)
            version = self.version if change is None else await self._publish(change, self.game)
        if self._auto_task is not None and self._auto_sleeping:
            self._auto_task.cancel()  # the next computer move is due at the new pace
            self._auto_task = None
        self._schedule_auto()
        return version

    async def _before_step(self) -> None:
        """Fetch what the game needs before its next step (the caller holds the lock); nothing for a
        player's own game."""

    def _restore_point(self) -> LiveGame[SeatView]:
        """Return what a failed record puts back: a snapshot of the game when moves are recorded (a
        write can fail), the game itself when nothing is (no write, so nothing to undo)."""
        return self.game.snapshot() if self.recorder is not None else self.game

    async def _publish(self, change: Change, before: LiveGame[SeatView]) -> int:
        """Record, number and broadcast one change (the caller holds the lock).

        The change is already applied to the live game; ``before`` is the game as it was. When the
        record cannot be written the game goes back to ``before`` (so memory never runs ahead of the
        record) and :class:`NotSaved` is raised; when the store refuses the moves because its record
        disagrees with memory (a write that committed although it reported a failure), the game is
        rebuilt from the record and every page gets the new state.

        Raises:
            NotSaved: nothing was recorded or sent; the game is as it was.
        """
        try:
            change = await self._record(change)
        except StoreUnavailable as error:
            self.game = before
            log.warning("game %s: a move could not be saved: %s", self.game_id, error)
            raise NotSaved(f"the move could not be saved: {error}"[:300]) from error
        except Superseded:
            # Another process has taken the record over (a friends' table moved while this process
            # could not tell): this one lets it go at once, and its pages reconnect to the new owner.
            self.game = before
            self.closed = True
            self.close()
            log.warning("game %s: another process owns it now: letting it go", self.game_id)
            await self._superseded()
            raise
        except GameOver as error:
            # The record is no longer open, though this owner did not end it: a newer game replaced
            # it (dealt in another tab, perhaps on another server process). Reloading would not help.
            self.game = before
            log.info("game %s: its record was ended elsewhere: telling its pages", self.game_id)
            self.end_elsewhere()
            raise GameEnded("this game was ended: a newer one was dealt") from error
        except ParlourError as error:
            log.warning("game %s: the record refused a move (%s): reloading it", self.game_id, error)
            self.game = before
            await self._reload()
            raise NotSaved(
                f"the move was refused by the record and the game reloaded: {error}"[:300]
            ) from error
        self.version += 1
        self.last_active = time.monotonic()
        # One message per seat, its text made once for the log and every page watching from the seat.
        messages = {
            seat: Prepared(_event_message(self.version, change, seat, view))
            for seat, view in self.game.views(self.game.seats).items()
        }
        self._log.append((self.version, change, {seat: message.text for seat, message in messages.items()}))
        for sub in list(self._subscribers):
            message = messages.get(sub.seat)
            if message is None:  # a seat with no view of its own (none watches from it)
                message = Prepared(_event_message(self.version, change, sub.seat, None))
            if not sub.outbox.push(message):
                log.debug("dropping a connection of game %s", self.game_id)
                self.leave(sub.outbox)
        return self.version

    async def _superseded(self) -> None:
        """Let the game go after another process took its record over (the caller holds the lock):
        every page is closed (code 4409) and reconnects, once the page whose action found out has been
        sent its ``error``."""
        self._close_pages_soon(None, CLOSE_MOVED)

    @property
    def epoch(self) -> int | None:
        """The owner epoch this owner writes with (None: a player's own game, which needs none)."""
        return None

    async def _record(self, change: Change) -> Change:
        recorder, record_id = self.recorder, self.record_id
        if recorder is None or record_id is None:
            return change
        if change.moves:
            await recorder.append(
                record_id, self.player_id, self.moves_recorded, list(change.moves), self.epoch
            )
            self.moves_recorded += len(change.moves)
        if change.finished:
            try:
                self.outcome = await recorder.finish(record_id, self.player_id)
            except StoreUnavailable:
                # The winning move is durable; the record is finished later (the next game closes it).
                log.warning("game %s: its end could not be recorded yet", self.game_id, exc_info=True)
                return change
            news = outcome_flags(self.outcome)
            if news:
                change = replace(change, public={**change.public, "outcome": news})
        return change

    async def _reload(self) -> None:
        """Rebuild the game from its record and send every page the new state (the caller holds the lock)."""
        if self.recorder is None or self.record_id is None:
            return
        try:
            reloaded = await self.recorder.reload(self.record_id, self.player_id)
        except ParlourError:
            reloaded = None
        if reloaded is None:
            return
        self.game, self.moves_recorded = reloaded
        self._resend_state()

    def _resend_state(self) -> None:
        """After the game was rebuilt: a new version, and every page sent the whole state (the caller
        holds the lock)."""
        self.version += 1
        self._log.clear()  # events from before cannot be replayed onto the reloaded game
        for sub in list(self._subscribers):
            sub.outbox.push(self.state_message(sub.seat))

    # --- computer players --------------------------------------------------------------------------

    def _schedule_auto(self) -> None:
        if self._auto_task is not None and not self._auto_task.done():
            return
        delay = self.game.next_auto()
        if delay is None:
            return
        self._auto_task = asyncio.get_running_loop().create_task(self._run_auto(delay))

    async def _run_auto(self, delay: float) -> None:
        self._auto_sleeping = True
        try:
            await asyncio.sleep(delay)
        finally:
            self._auto_sleeping = False
        failed = False
        async with self.lock:
            change = None
            if not (self.game.finished or self.closed):
                await self._before_step()
                before = self._restore_point()
                # A computer player may think for a few hundred milliseconds (the expert searches):
                # off the event loop, so that every other page of this process is served meanwhile.
                # The lock keeps the game to this thread until it returns.
                change = await asyncio.to_thread(self.game.auto)
                if change is not None:
                    try:
                        await self._publish(change, before)
                    except NotSaved:
                        failed = True
                    except ParlourError:
                        # A newer game replaced this one, or another process owns it now: nothing
                        # more is played here.
                        self._auto_task = None
                        return
        self._auto_task = None
        if failed:  # the computer player tries again once the database is back
            self._auto_task = asyncio.get_running_loop().create_task(self._run_auto(AUTO_RETRY))
        elif change is not None or self.game.next_auto() is not None:
            # Another step is due (a timer that was not quite due yet is waited for again).
            self._schedule_auto()

    def close(self) -> None:
        """Stop any pending automatic step (the game is being dropped from memory)."""
        if self._auto_task is not None:
            self._auto_task.cancel()


def _event_message(version: int, change: Change, seat: int, view: SeatView | None) -> EventMessage:
    """Return the event ``seat`` is sent for ``change``: its data and the seat's view after it as JSON,
    or only the version for a seat that may not see the event."""
    if change.visible_to is not None and seat not in change.visible_to:
        return EventMessage(type="event", v=version, name=None)
    data = dict(change.public)
    data.update(change.private.get(seat, {}))
    return EventMessage(type="event", v=version, name=change.name, data=data, view=view_json(view))


class LiveGames:
    """Every live game of this server process, by id, with the player who owns each."""

    def __init__(self) -> None:
        self._owners: dict[str, Owner] = {}

    def add(self, owner: Owner) -> Owner:
        """Register an owner under its game id and return it."""
        self._owners[owner.game_id] = owner
        return owner

    def get(self, game_id: str) -> Owner | None:
        """Return the owner of a live game, or None."""
        return self._owners.get(game_id)

    def drop(self, game_id: str) -> None:
        """Forget a live game (finished or replaced)."""
        owner = self._owners.pop(game_id, None)
        if owner is not None:
            owner.close()

    def of_player(self, player_id: Any, kind: str) -> list[Owner]:
        """Return the live games of one kind that a player owns, newest last."""
        return [o for o in self._owners.values() if o.player_id == player_id and o.game.kind == kind]

    def owners(self) -> list[Owner]:
        """Return every live game's owner."""
        return list(self._owners.values())

    def __len__(self) -> int:
        return len(self._owners)

    def evict_idle(self, older_than: float, keep: int = MAX_LIVE) -> int:
        """Drop games idle for ``older_than`` seconds, and the least recently active idle ones beyond
        ``keep`` games; return how many were dropped. Their records stay: a page that comes back gets
        the game restored from its record."""
        now = time.monotonic()
        idle = sorted((o for o in self._owners.values() if o.idle), key=lambda owner: owner.last_active)
        excess = max(0, len(self._owners) - keep)
        dropped = 0
        for position, owner in enumerate(idle):
            if position < excess or now - owner.last_active >= older_than:
                self.drop(owner.game_id)
                dropped += 1
        return dropped

    @staticmethod
    def new_id() -> str:
        """Return a fresh, unguessable game id."""
        return secrets.token_urlsafe(12)

    def close(self) -> None:
        """Stop every owner's pending work (server shutdown)."""
        for owner in self._owners.values():
            with contextlib.suppress(Exception):
                owner.close()


OUTCOME_FLAGS: Final = ("numbered", "first_win", "record_broken", "holds_record", "personal_best")


def outcome_flags(outcome: object) -> Json:
    """Return what a page may tell about a finished game's records (numbered games) or its daily deal
    (``daily``: counted or practice), or an empty dict."""
    daily = getattr(outcome, "daily", None)
    if daily is not None:
        return {"daily": daily}
    if getattr(outcome, "numbered", None) is None:
        return {}
    return {name: getattr(outcome, name, False) for name in OUTCOME_FLAGS}
