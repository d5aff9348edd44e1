"""The base of the store's repositories: each one is a part of :class:`~parlour.store.Store` (players,
games and moves, numbered records, statistics, tables) written against the sessions and the games the
store supplies, so that callers keep using one ``Store``."""

from __future__ import annotations

from contextlib import AbstractContextManager

from sqlalchemy.orm import Session

from parlour.games.registry import Registry


class Repository:
    """One part of the store: the store supplies ``games`` and the sessions."""

    games: Registry

    def _read(self) -> AbstractContextManager[Session]:
        """Return a read transaction's session (the store's)."""
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[Session]:
        """Return a write transaction's session, its locks taken up front (the store's)."""
        raise NotImplementedError
