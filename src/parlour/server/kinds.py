"""Game kinds: how the server creates, restores and explains one kind of live game.

Each game (TriPeaks, Thirteen) registers one :class:`GameKind` with ``create_app``. The generic HTTP and
WebSocket code only ever goes through it, so a new game plugs in without touching the server.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from parlour.server.live import Json, LiveGame


@dataclass(frozen=True)
class NewGame:
    """A freshly dealt game and what its record holds: rules (JSON), deal code, seats, numbered game."""

    game: LiveGame
    rules: Json
    code: str
    seats: Any
    numbered: int | None = None
    record: bool = True
    """False for a game that is not written to the records (a test's explicit layout)."""


class GameRecord(Protocol):
    """What a stored game record offers for restoring a live game (the store's record satisfies it)."""

    @property
    def rules(self) -> Any: ...

    @property
    def code(self) -> str: ...

    @property
    def seats(self) -> Any: ...

    @property
    def moves(self) -> Sequence[str]: ...


@dataclass(frozen=True)
class GameKind:
    """One kind of game the server hosts.

    ``new(options, lang)`` deals a game from the creation options sent by a page (raising
    ``ParlourError`` for bad options); ``restore(record)`` rebuilds a live game by replaying its record's
    moves; ``explain(code, lang)`` returns the translated reason for a refused action, or None to fall
    back on the generic texts; ``localize(view, lang)``, when given, returns texts derived from a view in
    the page's language (the spoken description, card names), which the socket adds to every message
    carrying a view; ``page`` is the URL path of the game's page.
    """

    name: str
    page: str
    new: Callable[[Json], NewGame]
    restore: Callable[[GameRecord], LiveGame]
    explain: Callable[[str, str], str | None]
    localize: Callable[[Json, str], Json] | None = None
