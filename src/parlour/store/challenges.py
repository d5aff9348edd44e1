"""Challenges in the database: a player's finished game offered to friends by a link that holds only
the challenge's id, and each friend's answer, the first of their attempts at the same deal to end
(counted by :func:`count_answer` inside the transaction that ends it). The challenger and a friend
who has answered may open each other's review; nobody else sees either game."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from parlour.games.base import CHALLENGE_SECRET, Status, daily_reveal
from parlour.store.errors import GameOpen, UnknownGame
from parlour.store.models import ChallengeAttemptRow, ChallengeRow, GameRow, PlayerRow
from parlour.store.records import insert_ignoring_conflict
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, utcnow


class UnknownChallenge(UnknownGame):
    """No challenge has this id."""

    code = "no_such_challenge"


class NotChallengeable(UnknownGame):
    """A game that cannot be offered as a challenge (its game has none, or it was never played)."""

    code = "not_challengeable"


@dataclass(frozen=True)
class Challenge:
    """A challenge: its id, the challenger's finished game (its id, game, rule set, code and replayed
    result) and when it was made. The code is for the server: pages never show it."""

    id: str
    game: str
    rules_key: str
    code: str
    challenger_id: int
    challenger_name: str | None
    game_id: str
    result: dict[str, Any]
    created_at: datetime
    ranked: bool = False
    """The challenger's deal was drawn from a secret seed for their game: nobody can look it up, so the
    results are ranked. A numbered game or a code typed in is public: an open challenge, not ranked
    (decision 0060)."""


@dataclass(frozen=True)
class ChallengeAnswer:
    """A friend's counted attempt at a challenge: who, their game and its replayed result."""

    player_id: int
    name: str | None
    game_id: str
    result: dict[str, Any]
    made_at: datetime


class ChallengesStore(Repository):
    """The challenge methods of :class:`~parlour.store.Store`."""

    def make_challenge(self, game_id: str, player_id: int) -> Challenge:
        """Offer the player's own finished game as a challenge; return it (the same challenge again
        for a game offered already).

        Raises:
            UnknownGame: no such game of this player. GameOpen: it is still being played.
            NotChallengeable: its game has no challenges, or it was left before its first move.
        """
        with self._write() as session:
            row = session.get(GameRow, game_id) if isinstance(game_id, str) else None
            if row is None or row.player_id != player_id or row.table_id is not None:
                raise UnknownGame(f"you have no game {game_id!r}")
            if row.status == Status.OPEN:
                raise GameOpen(f"game {game_id!r} is still being played")
            definition = self.games.find(row.game)
            if definition is None or not definition.challenges or (row.result or {}).get("empty", True):
                raise NotChallengeable(f"game {game_id!r} cannot be offered as a challenge")
            reveal = daily_reveal(row.secret)
            if reveal is not None and utcnow() < reveal:
                # Today's daily deal must stay unknown to whoever has not played it yet.
                raise NotChallengeable(f"game {game_id!r} is today's daily deal: challenge it tomorrow")
            found = session.scalar(select(ChallengeRow).where(ChallengeRow.game_id == game_id))
            if found is None:
                found = ChallengeRow(
                    id=secrets.token_urlsafe(9), game_id=game_id, challenger_id=player_id, created_at=utcnow()
                )
                session.add(found)
                session.flush()
            return _challenge(session, found)

    def challenge(self, challenge_id: str) -> Challenge:
        """Return a challenge.

        Raises:
            UnknownChallenge: no challenge has this id.
        """
        with self._read() as session:
            row = session.get(ChallengeRow, challenge_id) if isinstance(challenge_id, str) else None
            if row is None:
                raise UnknownChallenge(f"there is no challenge {str(challenge_id)[:40]!r}")
            return _challenge(session, row)

    def challenge_answers(self, challenge_id: str) -> list[ChallengeAnswer]:
        """Return the friends' counted answers to a challenge, the earliest first."""
        with self._read() as session:
            rows = session.execute(
                select(ChallengeAttemptRow, PlayerRow.name)
                .join(PlayerRow, PlayerRow.id == ChallengeAttemptRow.player_id)
                .where(ChallengeAttemptRow.challenge_id == challenge_id)
                .order_by(ChallengeAttemptRow.made_at, ChallengeAttemptRow.player_id)
            ).all()
        return [
            ChallengeAnswer(row.player_id, name, row.game_id, dict(row.result), as_utc(row.made_at))
            for row, name in rows
        ]


def _challenge(session: Session, row: ChallengeRow) -> Challenge:
    game = session.get(GameRow, row.game_id)
    challenger = session.get(PlayerRow, row.challenger_id)
    assert game is not None
    result = {key: value for key, value in (game.result or {}).items() if key != "outcome"}
    return Challenge(
        id=row.id,
        game=game.game,
        rules_key=game.rules_key,
        code=game.code,
        challenger_id=row.challenger_id,
        challenger_name=challenger.name if challenger is not None else None,
        game_id=row.game_id,
        result=result,
        created_at=as_utc(row.created_at),
        ranked=bool(game.deal_drawn),
    )


def count_answer(session: Session, row: GameRow, data: dict[str, Any], now: datetime) -> bool:
    """Count an attempt at a challenge whose record ends now: the player's first to end, when the
    challenge is there, is of the same deal and is not their own. Return whether it was counted."""
    challenge_id = (row.secret or {}).get(CHALLENGE_SECRET)
    found = session.get(ChallengeRow, challenge_id) if isinstance(challenge_id, str) else None
    if found is None or found.challenger_id == row.player_id:
        return False
    offered = session.get(GameRow, found.game_id)
    if offered is None or offered.code != row.code:
        return False
    values = {
        "challenge_id": found.id,
        "player_id": row.player_id,
        "game_id": row.id,
        "result": dict(data),
        "made_at": now,
    }
    return insert_ignoring_conflict(session, ChallengeAttemptRow.__table__, values)


def challenge_partner(session: Session, game_id: str, player_id: int) -> bool:
    """Return whether the player may see a game through a challenge: it is the game they answered (as
    a friend whose answer has ended), or an answer to their own challenge."""
    found = session.scalar(
        select(ChallengeRow.id)
        .join(ChallengeAttemptRow, ChallengeAttemptRow.challenge_id == ChallengeRow.id)
        .where(
            or_(
                (ChallengeRow.game_id == game_id) & (ChallengeAttemptRow.player_id == player_id),
                (ChallengeAttemptRow.game_id == game_id) & (ChallengeRow.challenger_id == player_id),
            )
        )
        .limit(1)
    )
    return found is not None
