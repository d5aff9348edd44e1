"""The replayed state of open games, kept between appends so that a move is checked once.

Without it every append would replay the whole stored game (quadratic in the length of a long
game). An entry is taken out while a transaction uses it and kept again only after that transaction
committed, so a failed write (a refused move, a database error) never leaves a state ahead of the
record; the next append then replays the record once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Final

from parlour.errors import InvalidInput
from parlour.games.base import Replay

CACHE_SIZE: Final = 4096
"""Open games whose state is kept (the least recently used are dropped; they replay when needed)."""


class CorruptRecord(InvalidInput):
    """A stored move list that the engine rejects (the database was changed behind the store's back)."""

    code = "corrupt_record"


class ReplayCache:
    """Replayed states of open games by game id (thread-safe)."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._lock = threading.Lock()
        self._states: OrderedDict[str, Replay] = OrderedDict()

    def take(self, game_id: str, moves: int) -> Replay | None:
        """Remove and return the state of a game if it holds exactly ``moves`` moves, else None."""
        with self._lock:
            found = self._states.pop(game_id, None)
        return found if found is not None and found.moves == moves else None

    def keep(self, states: Mapping[str, Replay]) -> None:
        """Keep states after the transaction that used them committed."""
        with self._lock:
            for game_id, state in states.items():
                self._states[game_id] = state
                self._states.move_to_end(game_id)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def forget(self, game_id: str) -> None:
        """Drop a game's state (it has ended)."""
        with self._lock:
            self._states.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._states)
