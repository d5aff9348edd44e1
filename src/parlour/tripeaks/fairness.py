"""Deals fixed in advance: the commitment to a TriPeaks deal (the daily deal's) is SHA-256 of its
canonical code and a secret salt, ``CODE|SALT``; the code and the salt are revealed when the deal may
be known, and anyone recomputes it (``parlour tripeaks daily``, or any SHA-256 tool)."""

from __future__ import annotations

from parlour.fairness import SCHEME, commit, matches, new_salt
from parlour.tripeaks.codes import DealCode

__all__ = ["SCHEME", "commitment", "new_salt", "verify"]


def commitment(code: str, salt: str) -> str:
    """Return the commitment to a deal: SHA-256 of ``CODE|SALT`` (canonical code), 64 hex digits.

    Raises:
        InvalidCode: ``code`` is not a TriPeaks code. InvalidInput: ``salt`` is not 32 hex digits.
    """
    return commit(str(DealCode.parse(code)), salt)


def verify(code: str, salt: str, committed: str) -> bool:
    """Return whether ``committed`` is the commitment of ``code`` with ``salt``.

    Raises:
        InvalidCode, InvalidInput: a malformed code, salt or commitment (64 hex digits).
    """
    return matches(commitment(code, salt), committed)
