"""Fair deals anyone can check: a match commits to its deal code before the first card is played.

At the start the server publishes ``commitment(code, salt)``: the SHA-256 of the canonical match code
and a secret random salt. The code alone would let a player compute every hand, so it stays secret
while the match is played; the salt stops anyone from trying all 26^7 codes against the commitment.
When the match ends, the code and the salt are revealed: anyone recomputes the commitment (``verify``,
``parlour thirteen verify CODE SALT COMMITMENT``, or any SHA-256 tool on the text ``CODE|SALT``) and
replays the match from the code, so the cards cannot have been changed during play.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from typing import Final

from parlour.errors import InvalidInput
from parlour.thirteen.codes import format_code, parse_code

SCHEME: Final = "sha256(CODE|SALT)"
"""How the commitment is made, as the page and the docs describe it."""
SALT_BYTES: Final = 16
_SALT: Final = re.compile(r"[0-9a-f]{32}")
_DIGEST: Final = re.compile(r"[0-9a-f]{64}")


def new_salt() -> str:
    """Return a fresh secret salt: 32 lowercase hexadecimal digits from the operating system's CSPRNG."""
    return secrets.token_hex(SALT_BYTES)


def commitment(code: str, salt: str) -> str:
    """Return the commitment to a match: SHA-256 of ``CODE|SALT`` (canonical code), 64 hex digits.

    Raises:
        InvalidCode: ``code`` is not a Thirteen code. InvalidInput: ``salt`` is not 32 hex digits.
    """
    canonical = format_code(parse_code(code))
    clean = salt.strip().lower() if isinstance(salt, str) else ""
    if not _SALT.fullmatch(clean):
        raise InvalidInput(f"{salt!r} is not a salt: 32 hexadecimal digits", code="invalid_salt")
    return hashlib.sha256(f"{canonical}|{clean}".encode("ascii")).hexdigest()


def verify(code: str, salt: str, committed: str) -> bool:
    """Return whether ``committed`` is the commitment of ``code`` with ``salt``.

    Raises:
        InvalidCode, InvalidInput: a malformed code, salt or commitment (64 hex digits).
    """
    clean = committed.strip().lower() if isinstance(committed, str) else ""
    if not _DIGEST.fullmatch(clean):
        raise InvalidInput(
            f"{committed!r} is not a commitment: 64 hexadecimal digits", code="invalid_commitment"
        )
    return hmac.compare_digest(commitment(code, salt), clean)
