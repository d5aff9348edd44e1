"""The error hierarchy shared by every part of Parlour.

Every error is a ``ValueError`` carrying a machine-readable ``code`` (a reason code such as
``not_adjacent``) so that adapters can translate it; the message itself is English and quotes the input.
"""

from __future__ import annotations


class ParlourError(ValueError):
    """Base class of every error Parlour raises on bad input or an illegal action."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class InvalidInput(ParlourError):
    """Text that cannot be read: a malformed card, deal code, move or message."""

    code = "invalid_input"


class InvalidCard(InvalidInput):
    """A string that is not a card."""

    code = "invalid_card"


class InvalidCode(InvalidInput):
    """A string that is not a deal code."""

    code = "invalid_code"


class IllegalMove(ParlourError):
    """A well-formed action that the rules do not allow in the current position."""

    code = "illegal_move"


class NotYourTurn(IllegalMove):
    """An action by a seat whose turn it is not."""

    code = "not_your_turn"


class GameOver(IllegalMove):
    """An action on a finished game."""

    code = "game_over"
