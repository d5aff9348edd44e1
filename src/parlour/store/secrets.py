"""Player secrets: browser tokens and recovery codes, and the hashes that are all the database keeps.

Both are long random strings (256 and 100 bits), so a plain SHA-256 is enough to make a stolen
database useless for logging in: there is nothing to guess, so no slow password hash is needed.
"""

from __future__ import annotations

import hashlib
import re
import secrets

TOKEN_BYTES = 32
RECOVERY_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ0123456789"  # Crockford-like: no I, L, O, U
RECOVERY_GROUPS = 4
RECOVERY_GROUP_LENGTH = 5
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
_CONFUSABLE = str.maketrans({"I": "1", "L": "1", "O": "0"})


def new_token() -> str:
    """Return a fresh browser token (43 URL-safe characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token_shaped(token: str) -> bool:
    """Return whether ``token`` has the shape of a token this module makes (cheap reject of junk)."""
    return bool(_TOKEN_SHAPE.fullmatch(token))


def new_recovery_code() -> str:
    """Return a fresh recovery code such as ``K7QX2-9MZTB-4HRWD-PE8NA`` (100 random bits)."""
    groups = (
        "".join(secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_GROUP_LENGTH))
        for _ in range(RECOVERY_GROUPS)
    )
    return "-".join(groups)


def normalize_recovery_code(code: str) -> str | None:
    """Return the canonical form of a typed recovery code, or None when it cannot be one.

    Case, spaces, dashes and the letters people confuse with digits (I, L, O) are forgiven.
    """
    compact = re.sub(r"[\s-]+", "", code).upper().translate(_CONFUSABLE)
    if len(compact) != RECOVERY_GROUPS * RECOVERY_GROUP_LENGTH:
        return None
    if any(char not in RECOVERY_ALPHABET for char in compact):
        return None
    size = RECOVERY_GROUP_LENGTH
    return "-".join(compact[i : i + size] for i in range(0, len(compact), size))


def digest(secret: str) -> str:
    """Return the SHA-256 hex digest under which a token or canonical recovery code is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()
