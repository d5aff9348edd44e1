"""The terminal's games go into the same records as the web app's: one player for this terminal user.

The player is kept by a token file in the user's data directory (the terminal's "browser cookie"), so
statistics and numbered-game records made in the terminal are kept like any other. Every move is
recorded before the board moves on; a database that fails leaves the game as it was.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Final

import platformdirs

from parlour.games.base import GameDefinition, RecordSpec
from parlour.store import Outcome, Store, StoreUnavailable
from parlour.store.messages import record_messages

TOKEN_FILE: Final = "terminal-token"


def token_path() -> Path:
    """Return the file that keeps the terminal player's token."""
    return platformdirs.user_data_path("parlour", appauthor=False, ensure_exists=True) / TOKEN_FILE


class TerminalRecorder:
    """Records one terminal player's games in a store (``database_url`` as elsewhere)."""

    def __init__(self, database_url: str | None = None, token_file: Path | None = None) -> None:
        self.store = Store(database_url)
        self.store.upgrade()
        self.token_file = token_file or token_path()
        self.player_id = self._player()
        self.game_id: str | None = None
        self.moves = 0

    def _player(self) -> int:
        with contextlib.suppress(OSError):
            player = self.store.player_by_token(self.token_file.read_text().strip())
            if player is not None:
                return player.player_id
        made = self.store.create_player()
        self.token_file.write_text(made.token)
        with contextlib.suppress(OSError):
            os.chmod(self.token_file, 0o600)  # a secret, like a browser's cookie
        return made.player_id

    def preferences(self) -> dict[str, object]:
        """Return this player's preferences (the look they chose on the web: deck, theme …); the
        defaults when the database cannot be read."""
        try:
            return dict(self.store.preferences(self.player_id))
        except StoreUnavailable:
            return {}

    def start_record(self, definition: GameDefinition, spec: RecordSpec) -> list[str]:
        """Record a new game of any kind from its definition's record (closing the one in play); return
        the record news of the one closed."""
        news = self.finish(None)
        self.game_id = self.store.record_game(self.player_id, definition, spec)
        self.moves = 0
        return news

    def append(self, move: str) -> None:
        """Record the next move before the board shows it.

        Raises:
            StoreUnavailable: the database failed; nothing was stored.
        """
        self.append_many([move])

    def append_many(self, moves: list[str]) -> None:
        """Record the next moves (a computer player's and the person's alike).

        Raises:
            StoreUnavailable: the database failed; nothing was stored.
        """
        if self.game_id is None or not moves:
            return
        self.store.append_moves(self.game_id, self.player_id, self.moves, moves)
        self.moves += len(moves)

    def finish(self, lang: str | None) -> list[str]:
        """End the game in play in the records; return its record news in ``lang`` (English if None)."""
        if self.game_id is None:
            return []
        game_id, self.game_id = self.game_id, None
        try:
            outcome: Outcome = self.store.finish_game(game_id, self.player_id)
        except StoreUnavailable:
            return []
        return record_messages(outcome, lang or "en")

    def close(self) -> None:
        """Close the store's connections."""
        self.store.close()
