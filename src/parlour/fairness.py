"""Commitments anyone can check: a deal is fixed in advance by publishing the SHA-256 of its canonical
code and a secret salt (``CODE|SALT``), and revealed later with the salt. Used by every game's fair
deals (a Thirteen match, the daily TriPeaks deal); pure standard library.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Final

from parlour.errors import InvalidInput

SCHEME: Final = "sha256(CODE|SALT)"
"""How a commitment is made, as the pages and the docs describe it."""
SALT_BYTES: Final = 16
_SALT: Final = re.compile(r"[0-9a-f]{32}")
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """Return a fresh secret salt: 32 lowercase hexadecimal digits from the operating system's CSPRNG."""
    return secrets.token_hex(SALT_BYTES)


def commit(canonical: str, salt: str) -> str:
    """Return SHA-256 of ``CANONICAL|SALT`` as 64 hex digits (``canonical``: a game's canonical code).

    Raises:
        InvalidInput: ``salt`` is not 32 hex digits (``invalid_salt``).
    """
    clean = salt.strip().lower() if isinstance(salt, str) else ""
    if not _SALT.fullmatch(clean):
        raise InvalidInput(f"{salt!r} is not a salt: 32 hexadecimal digits", code="invalid_salt")
    return hashlib.sha256(f"{canonical}|{clean}".encode("ascii")).hexdigest()


def matches(made: str, committed: str) -> bool:
    """Return whether the commitment ``made`` is ``committed`` (compared in constant time).

    Raises:
        InvalidInput: ``committed`` is not 64 hex digits (``invalid_commitment``).
    """
    clean = committed.strip().lower() if isinstance(committed, str) else ""
    if not _DIGEST.fullmatch(clean):
        raise InvalidInput(
            f"{committed!r} is not a commitment: 64 hexadecimal digits", code="invalid_commitment"
        )
    return hmac.compare_digest(made, clean)
