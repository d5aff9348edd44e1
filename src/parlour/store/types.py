"""What the store hands out: plain frozen values, never database rows (rows stay inside sessions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from parlour.games.base import GameStatistics, Standing


@dataclass(frozen=True)
class Player:
    """A player: id, display name (None until they choose one) and, for the player themself, their
    preferences (every preference, defaults included; empty when the player is somebody else).
    """

    player_id: int
    name: str | None
    created_at: datetime
    preferences: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def id(self) -> int:
        """The player's id (the same as ``player_id``)."""
        return self.player_id


@dataclass(frozen=True)
class NewPlayer:
    """A freshly created player with the two secrets that exist in clear only now.

    ``token`` goes into the browser's cookie; ``recovery_code`` is shown to the player to copy.
    """

    player_id: int
    token: str
    recovery_code: str


@dataclass(frozen=True)
class StoredGame:
    """A stored game: what is needed to replay it exactly, plus its state in the database (the store's
    :class:`parlour.games.base.GameRecord`, the shape a game's definition reads).

    ``status`` is ``open`` while it is played, then how it ended (``Status.ENDED``: won, stuck, finished,
    as the game says) or ``left`` (the player left it unfinished).
    """

    game_id: str
    player_id: int
    game: str
    rules: dict[str, Any]
    rules_key: str
    code: str
    seats: list[Any]
    numbered: int | None
    status: str
    moves: list[str]
    result: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    secret: dict[str, Any] | None = field(default=None, repr=False)
    """What only the server knows while the game is played (see ``RecordSpec.secret``); left out of
    ``to_json``."""
    ranked_open: bool = False
    """A ranked game whose deal must still be kept from its player, ended or not (decision 0060:
    today's daily deal until the day is over, a challenge until the player's answer counts)."""

    @property
    def id(self) -> str:
        """The game's id (the same as ``game_id``)."""
        return self.game_id

    def to_json(self) -> dict[str, Any]:
        """Return the record as JSON-ready data (times in ISO 8601)."""
        return {
            "game_id": self.game_id,
            "game": self.game,
            "rules": self.rules,
            "rules_key": self.rules_key,
            "code": self.code,
            "seats": self.seats,
            "numbered": self.numbered,
            "status": self.status,
            "moves": self.moves,
            "result": self.result,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
        }


@dataclass(frozen=True)
class PlayedGame:
    """One finished game in a player's history: its id, game, rule set, how it ended, its number (a
    numbered game's) and when it ended."""

    game_id: str
    game: str
    rules_key: str
    status: str
    numbered: int | None
    finished_at: datetime


class FinishedRecord(NamedTuple):
    """A finished game a player played (:meth:`~parlour.store.Store.finished_record`): its record, the
    seat the player played it from, and the review of that seat kept (None when none is kept yet)."""

    record: StoredGame
    seat: int
    review: dict[str, Any] | None


@dataclass(frozen=True)
class NumberedRecord:
    """The best result of a numbered game: its ``standing`` (the game's own, lower is better), that
    standing as JSON (``best``: ``{"best_<field>": number}``) and whether it is a win (``won``).

    ``holder`` set it first at ``set_at``; ``first_winner`` was the first to win the game.
    """

    game: str
    rules_key: str
    number: int
    standing: Standing
    best: dict[str, Any]
    won: bool
    holder: Player
    set_at: datetime
    first_winner: Player | None
    first_won_at: datetime | None
    plays: int

    def to_json(self) -> dict[str, Any]:
        """Return the record as JSON-ready data (the best result, who holds it, its first winner)."""
        return {
            **self.best,
            "standing": list(self.standing),
            "won": self.won,
            "holder": self.holder.name,
            "set_at": self.set_at.isoformat(),
            "first_winner": self.first_winner.name if self.first_winner else None,
            "plays": self.plays,
        }


@dataclass(frozen=True)
class PersonalBest:
    """A player's own best result of one numbered game (as :class:`NumberedRecord`'s)."""

    standing: Standing
    best: dict[str, Any]
    won: bool
    set_at: datetime

    def to_json(self) -> dict[str, Any]:
        """Return the best result as JSON-ready data."""
        return {**self.best, "standing": list(self.standing), "won": self.won}


@dataclass(frozen=True)
class NumberedEntry:
    """One line of the numbered-games picker.

    ``winnable`` is the game's solver's answer, None when it does not know.
    """

    game: str
    rules_key: str
    number: int
    record: NumberedRecord | None
    mine: PersonalBest | None
    winnable: bool | None


@dataclass(frozen=True)
class Outcome:
    """What finishing (or leaving) a game produced, from the server's own replay of its moves.

    For numbered games, the flags say what the page tells the player: ``first_win`` (first
    to win this game), ``record_broken`` (better than the previous best result), ``holds_record`` (the
    best result is theirs), ``personal_best`` (better than their own earlier results).
    """

    game_id: str
    game: str
    status: str
    result: dict[str, Any]
    numbered: int | None = None
    rules_key: str | None = None
    first_win: bool = False
    record_broken: bool = False
    holds_record: bool = False
    personal_best: bool = False
    record: NumberedRecord | None = None
    standing: Standing | None = None
    """The result as the numbered game's records compare it (None for a game that is not numbered)."""
    daily: str | None = None
    """For an attempt at a daily deal: ``counted`` (the player's first attempt of the day to end) or
    ``practice``; None for any other game."""

    def to_json(self) -> dict[str, Any]:
        """Return the outcome as JSON-ready data."""
        record = self.record.to_json() if self.record is not None else None
        return {
            "game_id": self.game_id,
            "game": self.game,
            "status": self.status,
            "result": self.result,
            "numbered": self.numbered,
            "rules_key": self.rules_key,
            "first_win": self.first_win,
            "record_broken": self.record_broken,
            "holds_record": self.holds_record,
            "personal_best": self.personal_best,
            "standing": list(self.standing) if self.standing is not None else None,
            "record": record,
            "daily": self.daily,
        }


Figures = TypeVar("Figures")
"""A game's own statistics type."""


@dataclass(frozen=True)
class Statistics:
    """A player's statistics: each registered game's figures, by game name (``stats[game.name]``)."""

    games: dict[str, GameStatistics] = field(default_factory=dict)

    def __getitem__(self, game: str) -> GameStatistics:
        return self.games[game]

    def of(self, game: str, kind: type[Figures]) -> Figures:
        """Return the figures of ``game`` as its definition's own type ``kind``.

        Raises:
            KeyError: no such game; TypeError: its figures are not a ``kind``.
        """
        figures = self.games[game]
        if not isinstance(figures, kind):
            raise TypeError(f"{game}'s figures are a {type(figures).__name__}, not a {kind.__name__}")
        return figures

    def to_json(self) -> dict[str, Any]:
        """Return ``{game: figures}`` as JSON (``GET /api/stats``)."""
        return {game: figures.to_json() for game, figures in self.games.items()}
