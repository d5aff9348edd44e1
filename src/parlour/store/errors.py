"""Errors of the store, all ``InvalidInput`` with a reason code the adapters translate."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from parlour.errors import InvalidInput, ParlourError

if TYPE_CHECKING:
    from sqlalchemy.engine import URL


class UnknownPlayer(InvalidInput):
    """No player has this id."""

    code = "unknown_player"


class UnknownGame(InvalidInput):
    """No game with this id belongs to this player (another player's game looks just the same)."""

    code = "unknown_game"


class MoveConflict(InvalidInput):
    """Moves sent for indices that already hold other moves, or leaving a gap after the last one."""

    code = "move_conflict"


class InvalidRecoveryCode(InvalidInput):
    """A recovery code that is malformed or belongs to nobody."""

    code = "invalid_recovery_code"


class Superseded(ParlourError):
    """A write by a process that is no longer the one allowed to write that record (another process has
    taken it over): nothing was written, and the writer must let the record go."""

    code = "superseded"


class StoreUnavailable(ParlourError):
    """The database could not be reached or written (an outage, a full disk, a read-only or deleted
    file). Nothing of the failed call was stored; the same call may be tried again later."""

    code = "not_saved"


class InvalidPreference(InvalidInput):
    """A preference that does not exist or a value it cannot take."""

    code = "invalid_preference"


class GameOpen(InvalidInput):
    """The game is still being played: what follows from its hidden cards (a review) is not told."""

    code = "game_open"


class RankedDealOpen(GameOpen):
    """A ranked game whose deal is still secret (today's daily deal until the day is over, a challenge
    until the player's answer counts): its review would tell the deal, so it waits (decision 0060)."""

    code = "ranked_open"


def unavailable(url: URL, cause: BaseException) -> StoreUnavailable:
    """Return the ``StoreUnavailable`` that reports a failure of the database at ``url``: its address
    without the password and the driver's first line (SQLAlchemy's statement, parameters and link to
    its documentation are for a developer's traceback, not a message)."""
    where = url.render_as_string(hide_password=True)
    first = (str(cause).strip().splitlines() or [""])[0]
    return StoreUnavailable(f"the database {where} failed: {type(cause).__name__}: {first}"[:500])


def conflict(error: BaseException) -> bool:
    """Return whether a store error is a broken constraint (a join code drawn twice, a name taken at
    the same moment, a seat claimed twice): a conflict its caller answers, not the database failing."""
    return isinstance(error, IntegrityError) or isinstance(error.__cause__, IntegrityError)
