"""Fair deals anyone can check: a match commits to its deal code before the first card is played.

At the start the server publishes ``commitment(code, salt)``: the SHA-256 of the canonical match code
and a secret random salt. The code alone would let a player compute every hand, so it stays secret
while the match is played; the salt stops anyone from trying codes against the commitment, and a
secret match's ``TH2`` code holds a 128-bit seed that no search of the cards can find (decision 0059).
When the match ends, the code and the salt are revealed: anyone recomputes the commitment (``verify``,
``parlour thirteen verify CODE SALT COMMITMENT``, or any SHA-256 tool on the text ``CODE|SALT``) and
replays the match from the code, so the cards cannot have been changed during play.
"""

from __future__ import annotations

from parlour.fairness import SCHEME, commit, matches, new_salt
from parlour.thirteen.codes import canonical

__all__ = ["SCHEME", "commitment", "new_salt", "verify"]


def commitment(code: str, salt: str) -> str:
    """Return the commitment to a match: SHA-256 of ``CODE|SALT`` (canonical code), 64 hex digits.

    Raises:
        InvalidCode: ``code`` is not a Thirteen code. InvalidInput: ``salt`` is not 32 hex digits.
    """
    return commit(canonical(code), salt)


def verify(code: str, salt: str, committed: str) -> bool:
    """Return whether ``committed`` is the commitment of ``code`` with ``salt``.

    Raises:
        InvalidCode, InvalidInput: a malformed code, salt or commitment (64 hex digits).
    """
    return matches(commitment(code, salt), committed)
