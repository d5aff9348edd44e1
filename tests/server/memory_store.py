"""An in-process stand-in for ``parlour.store.Store`` for the game-agnostic server tests.

It offers the same methods, with the same meaning, as the part of the store the server uses, for a test
game (``tally_game``) that the real store does not know; games of the real kinds are tested on the
real store.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.errors import InvalidInput


@dataclass
class MemoryPlayer:
    """A player known by a browser token."""

    id: int
    name: str | None = None
    preferences: dict[str, Any] = field(default_factory=dict)


@dataclass
class MemoryGame:
    """A game record: what was dealt and the moves made, in order."""

    id: str
    player_id: int
    game: str
    rules: Any
    code: str
    seats: Any
    numbered: int | None
    moves: list[str] = field(default_factory=list)
    status: str = "open"


@dataclass(frozen=True)
class NewPlayer:
    """What ``create_player`` returns: the id, the browser token and a recovery code."""

    player_id: int
    token: str
    recovery_code: str


class MemoryStore:
    """Players and game records kept in this process only (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._players: dict[int, MemoryPlayer] = {}
        self._tokens: dict[str, int] = {}
        self._games: dict[str, MemoryGame] = {}

    def upgrade(self) -> None:
        """Nothing to migrate in memory."""

    def create_player(self, name: str | None = None) -> NewPlayer:
        """Create a player and return its id and a fresh token."""
        with self._lock:
            player_id = len(self._players) + 1
            self._players[player_id] = MemoryPlayer(player_id, name)
            token = secrets.token_urlsafe(24)
            self._tokens[token] = player_id
            return NewPlayer(player_id, token, secrets.token_urlsafe(12))

    def player_by_token(self, token: str) -> MemoryPlayer | None:
        """Return the player of a token, or None for an unknown token."""
        with self._lock:
            player_id = self._tokens.get(token)
            return None if player_id is None else self._players[player_id]

    def preferences(self, player_id: int) -> dict[str, Any]:
        """Return a copy of a player's preferences."""
        with self._lock:
            return dict(self._players[player_id].preferences)

    def set_preferences(self, player_id: int, **changes: Any) -> None:
        """Update some of a player's preferences."""
        with self._lock:
            self._players[player_id].preferences.update(changes)

    def start_game(
        self, player_id: int, game: str, rules: Any, code: str, seats: Any, numbered: int | None = None
    ) -> str:
        """Record a new game and return its id."""
        with self._lock:
            game_id = secrets.token_hex(12)
            self._games[game_id] = MemoryGame(game_id, player_id, game, rules, code, seats, numbered)
            return game_id

    def append_moves(self, game_id: str, player_id: int, first_index: int, moves: Sequence[str]) -> None:
        """Append moves at ``first_index`` (which must be the number of moves already recorded).

        Raises:
            InvalidInput: unknown game, another player's game, or a gap or overlap in the moves.
        """
        with self._lock:
            record = self._owned(game_id, player_id)
            if first_index != len(record.moves):
                raise InvalidInput(f"move {first_index} does not follow the {len(record.moves)} recorded")
            record.moves.extend(moves)

    def finish_game(self, game_id: str, player_id: int) -> str:
        """Close a game record and return its status."""
        with self._lock:
            record = self._owned(game_id, player_id)
            record.status = "finished"
            return record.status

    def game_record(self, game_id: str, player_id: int) -> MemoryGame:
        """Return one of the player's game records."""
        with self._lock:
            return self._owned(game_id, player_id)

    def open_games(self, player_id: int, game: str | None = None) -> list[MemoryGame]:
        """Return the player's unfinished games (of one kind if given), oldest first."""
        with self._lock:
            return [
                record
                for record in self._games.values()
                if record.player_id == player_id
                and record.status == "open"
                and (game is None or record.game == game)
            ]

    def _owned(self, game_id: str, player_id: int) -> MemoryGame:
        record = self._games.get(game_id)
        if record is None or record.player_id != player_id:
            raise InvalidInput(f"no game {game_id!r} for this player")
        return record
