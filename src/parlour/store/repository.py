"""The base of the store's repositories: each one is a part of :class:`~parlour.store.Store` (players,
games and moves, numbered records, statistics, tables) written against the sessions and the games the
store supplies, so that callers keep using one ``Store``."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from parlour.games.registry import Registry

T = TypeVar("T")


class Repository:
    """One part of the store: the store supplies ``games`` and the sessions."""

    games: Registry

    def _read(self) -> AbstractContextManager[Session]:
        """Return a read transaction's session (the store's)."""
        raise NotImplementedError

    def _write(self) -> AbstractContextManager[Session]:
        """Return a write transaction's session, its locks taken up front (the store's)."""
        raise NotImplementedError

    @property
    def _autocommits(self) -> bool:
        """Whether :meth:`_autocommitted` can run statements on this database."""
        return False

    def _autocommitted(self, statement: Callable[[Any], T]) -> T:
        """Run ``statement`` on a driver connection in autocommit mode and return its result (the
        store's; only where :attr:`_autocommits`)."""
        raise NotImplementedError
