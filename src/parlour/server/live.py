"""Live games: one serialized owner per game, versioned events, views only.

A game-specific class implements :class:`LiveGame` (TriPeaks in ``tripeaks_live``, Thirteen in its own
module); everything here is game-agnostic. The :class:`Owner` of a live game is the only code that
touches it: actions are applied one at a time under the owner's lock, each accepted action becomes one
numbered event, and every event is sent to each connected seat as that seat's *view*. A seat that may
not see an event still receives a stub carrying its version, so a gap in versions always means lost
messages. The owner keeps the last :data:`LOG_SIZE` events so that a reconnecting page can be sent the
events it missed; older gaps get a full resynchronisation (``state``).

Moves are written to the records (the store) *before* the event is sent, so an acknowledged move is
durable.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final, Protocol

from parlour.errors import GameOver

LOG_SIZE: Final = 64
"""How many recent events each live game keeps for reconnecting pages."""

log = logging.getLogger("parlour.server")

Json = dict[str, Any]


@dataclass(frozen=True)
class Change:
    """What one accepted action (or automatic step) did, as the game reports it to its owner.

    ``name`` is the event name (``remove``, ``draw``, ``play`` …); ``public`` is the data every seat may
    see; ``private`` adds data per seat; ``visible_to`` (None = all seats) names the seats that see the
    event at all — the others get a version stub. ``moves`` are the move texts to append to the game's
    record, in order; ``finished`` says the game has ended with this change.
    """

    name: str
    public: Json = field(default_factory=dict)
    private: Mapping[int, Json] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None
    moves: Sequence[str] = ()
    finished: bool = False


class LiveGame(ABC):
    """One game in play, as the server holds it. Subclasses wrap an engine and speak views only.

    Implementations must never put hidden information (a face-down card, the stock order, another
    seat's hand) into :meth:`view` or into a :class:`Change` a seat can see.
    """

    kind: ClassVar[str]
    """The game's name in URLs and records: ``tripeaks``, ``thirteen``."""

    @property
    @abstractmethod
    def seats(self) -> Sequence[int]:
        """Return the seats that people may watch the game from (TriPeaks: ``(0,)``)."""

    @abstractmethod
    def view(self, seat: int) -> Json:
        """Return everything ``seat`` may see now, as JSON-ready data."""

    @abstractmethod
    def act(self, seat: int, action: Json) -> Change:
        """Apply one action sent by ``seat`` and return what changed.

        Raises:
            ParlourError: the action is malformed (``InvalidInput``) or illegal now (``IllegalMove``);
                the game must be left unchanged.
        """

    @property
    @abstractmethod
    def finished(self) -> bool:
        """Return whether the game has ended (no more actions are accepted)."""

    def next_auto(self) -> float | None:
        """Return in how many seconds :meth:`auto` should run (computer players), or None for never."""
        return None

    def auto(self) -> Change | None:
        """Make one automatic step (a computer player's move) and return it, or None if none is due."""
        return None

    def hint_task(self, seat: int) -> Callable[[], Json] | None:
        """Return a call that computes a hint for ``seat`` from a snapshot of the game (it runs in a
        worker thread while play goes on), or None when this game gives no hints.

        Raises:
            ParlourError: no hint can be given now (the game is over).
        """
        return None


class Recorder(Protocol):
    """Where the owner writes its game's record (the server's store, through its write queue)."""

    async def append(self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str]) -> object:
        """Commit ``moves`` as the game's moves ``first_index`` onwards before returning."""

    async def finish(self, game_id: str, player_id: Any) -> object:
        """Replay the stored moves, record the outcome and return it."""


Sender = Callable[[Json], Awaitable[None]]
"""Sends one JSON message to one connected page."""


@dataclass
class _Subscriber:
    seat: int
    send: Sender


class Owner:
    """The single owner of one live game: serializes actions, numbers events, fans views out.

    ``version`` counts accepted events from 0 (the initial state). ``record_id`` is the game's id in
    the records (None when the game is not recorded), ``recorder`` writes them; ``player_id`` is the
    player who owns the game.
    """

    def __init__(
        self,
        game_id: str,
        game: LiveGame,
        player_id: Any,
        *,
        recorder: Recorder | None = None,
        record_id: str | None = None,
        moves_recorded: int = 0,
    ) -> None:
        self.game_id = game_id
        self.game = game
        self.player_id = player_id
        self.recorder = recorder
        self.record_id = record_id
        self.moves_recorded = moves_recorded
        self.outcome: object = None
        self.version = 0
        # Views in the log are kept as JSON text: hundreds of games' logs as dicts would be millions of
        # small objects for the garbage collector to walk through (pauses of a few hundred ms).
        self._log: deque[tuple[int, Change, dict[int, str]]] = deque(maxlen=LOG_SIZE)
        self.lock = asyncio.Lock()
        self._subscribers: list[_Subscriber] = []
        self._auto_task: asyncio.Task[None] | None = None

    # --- connections -------------------------------------------------------------------------------

    async def join(self, seat: int, send: Sender, last_version: int | None) -> None:
        """Connect a page watching from ``seat`` and bring it up to date.

        A page that knows nothing (``last_version`` None) or is too far behind gets a ``state``
        message; a page a few events behind gets exactly the events it missed.
        """
        async with self.lock:
            self._subscribers.append(_Subscriber(seat, send))
            missed = self._missed(last_version)
            if missed is None:
                await send(self.state_message(seat))
            else:
                for version, change, texts in missed:
                    views = {seat: json.loads(texts[seat])} if seat in texts else {}
                    await send(_event_message(version, change, seat, views))
        self._schedule_auto()

    def leave(self, send: Sender) -> None:
        """Disconnect a page (the game stays alive for a reconnect)."""
        self._subscribers = [sub for sub in self._subscribers if sub.send is not send]

    @property
    def connections(self) -> int:
        """Return the number of connected pages."""
        return len(self._subscribers)

    def state_message(self, seat: int) -> Json:
        """Return the full-resynchronisation message for ``seat``."""
        return {"type": "state", "v": self.version, "game": self.game_id, "view": self.game.view(seat)}

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
            if self.game.finished:
                raise GameOver("the game is over", code="game_over")
            change = self.game.act(seat, action)
            version = await self._publish(change)
        self._schedule_auto()
        return version

    async def _publish(self, change: Change) -> int:
        """Record, number and broadcast one change (the caller holds the lock)."""
        change = await self._record(change)
        self.version += 1
        views = {seat: self.game.view(seat) for seat in self.game.seats}
        self._log.append((self.version, change, {seat: json.dumps(view) for seat, view in views.items()}))
        for sub in list(self._subscribers):
            try:
                await sub.send(_event_message(self.version, change, sub.seat, views))
            except Exception:  # a page that went away must not stop the game
                log.debug("dropping a connection of game %s", self.game_id, exc_info=True)
                self.leave(sub.send)
        return self.version

    async def _record(self, change: Change) -> Change:
        recorder, record_id = self.recorder, self.record_id
        if recorder is None or record_id is None:
            return change
        if change.moves:
            await recorder.append(record_id, self.player_id, self.moves_recorded, list(change.moves))
            self.moves_recorded += len(change.moves)
        if change.finished:
            self.outcome = await recorder.finish(record_id, self.player_id)
            news = outcome_flags(self.outcome)
            if news:
                change = replace(change, public={**change.public, "outcome": news})
        return change

    # --- computer players --------------------------------------------------------------------------

    def _schedule_auto(self) -> None:
        if self._auto_task is not None and not self._auto_task.done():
            return
        delay = self.game.next_auto()
        if delay is None:
            return
        self._auto_task = asyncio.get_running_loop().create_task(self._run_auto(delay))

    async def _run_auto(self, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock:
            change = None if self.game.finished else self.game.auto()
            if change is not None:
                await self._publish(change)
        self._auto_task = None
        if change is not None:
            self._schedule_auto()

    def close(self) -> None:
        """Stop any pending automatic step (the game is being dropped from memory)."""
        if self._auto_task is not None:
            self._auto_task.cancel()


def _event_message(version: int, change: Change, seat: int, views: Mapping[int, Json]) -> Json:
    if change.visible_to is not None and seat not in change.visible_to:
        return {"type": "event", "v": version, "name": None}
    data = dict(change.public)
    data.update(change.private.get(seat, {}))
    return {"type": "event", "v": version, "name": change.name, "data": data, "view": views.get(seat)}


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

    def of_player(self, player_id: str, kind: str) -> list[Owner]:
        """Return the live games of one kind that a player owns, newest last."""
        return [o for o in self._owners.values() if o.player_id == player_id and o.game.kind == kind]

    def __len__(self) -> int:
        return len(self._owners)

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
    """Return what a page may tell about a finished game's records (numbered games), or an empty dict."""
    if getattr(outcome, "numbered", None) is None:
        return {}
    return {name: getattr(outcome, name, False) for name in OUTCOME_FLAGS}
