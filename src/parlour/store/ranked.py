"""Whether a ranked game's deal may be shown yet (decision 0060).

A ranked game (an attempt at today's daily deal, a friend's attempt at a challenge) is dealt from a
secret. Its code, its cards and any line of moves found with them (a review) stay with the server:

- an attempt at a daily deal: until the day is over, for everybody, whatever happened to the attempt
  (left before a move, stuck, counted or not);
- an attempt at a challenge: until that player's answer to the challenge is counted (both have played
  then); an attempt left before its first move counts for nothing and shows nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from parlour.games.base import CHALLENGE_SECRET, daily_reveal
from parlour.store.models import ChallengeAttemptRow
from parlour.store.rows import utcnow


def ranked_open(
    session: Session, player_id: int, secret: dict[str, Any] | None, now: datetime | None = None
) -> bool:
    """Return whether the deal of a game with this record ``secret``, played by ``player_id``, must
    still be kept from them: a daily attempt before its day is over, a challenge attempt of a player
    with no counted answer to it. False for any other game."""
    reveal = daily_reveal(secret)
    if reveal is not None:
        return (now or utcnow()) < reveal
    challenge = (secret or {}).get(CHALLENGE_SECRET)
    if challenge is not None:
        return session.get(ChallengeAttemptRow, (str(challenge), player_id)) is None
    return False
