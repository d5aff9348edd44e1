"""How a person is the same player on every device (decision 0064): passkeys and the challenges they
answer, link codes, and the browsers signed in as a player.

Everything secret is kept as a SHA-256 hash (a challenge, a link code, a token); a passkey is kept as
its public key and sign counter.
"""

from __future__ import annotations

import hashlib
import re
import secrets as random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from parlour.errors import InvalidInput
from parlour.store import secrets
from parlour.store.errors import StoreUnavailable, conflict
from parlour.store.models import AuthChallengeRow, LinkCodeRow, PasskeyRow, PlayerRow, TokenRow
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, player_row, utcnow

CHALLENGE_AGE: Final = timedelta(minutes=5)
"""How long a passkey challenge may be answered."""
LINK_CODE_AGE: Final = timedelta(minutes=10)
"""How long a link code signs a browser in."""
LINK_ALPHABET: Final = secrets.RECOVERY_ALPHABET
LINK_LENGTH: Final = 8
"""A link code's letters and digits (40 bits), shown in two groups of four."""
PURPOSES: Final = frozenset({"register", "sign_in"})
SIGNED_IN_BY: Final = ("new", "recovery", "passkey", "link", "merge")
"""How a browser became its player (a token's ``signed_in_by``)."""
_CONFUSABLE: Final = str.maketrans({"I": "1", "L": "1", "O": "0", "U": "V"})


class InvalidLinkCode(InvalidInput):
    """A link code that is malformed, unknown, used already or expired."""

    code = "invalid_link_code"


class PasskeyRefused(InvalidInput):
    """A passkey answer that cannot sign anyone in or be added (the message says why)."""

    code = "passkey_refused"


@dataclass(frozen=True)
class Browser:
    """A browser signed in as a player: its public id (not its token), its rough name, how it signed
    in, when, when it was last seen, and whether it is the browser asking."""

    browser_id: str
    agent: str | None
    signed_in_by: str | None
    created_at: datetime
    used_at: datetime
    current: bool


@dataclass(frozen=True)
class Passkey:
    """A passkey as its player's page lists it: a short id, the browser it was made in, when it was made
    and last used, and whether it is synced to the person's other devices."""

    passkey_id: str
    agent: str | None
    created_at: datetime
    used_at: datetime | None
    backed_up: bool


@dataclass(frozen=True)
class StoredPasskey:
    """What verifying a passkey's answer needs: its public key and counter, and its player's handle."""

    credential_id: str
    player_id: int
    public_key: bytes
    sign_count: int
    handle: str | None


def browser_id(token_hash: str) -> str:
    """Return a browser's public id: a hash of its token's hash, which tells nothing of the token."""
    return hashlib.sha256(f"browser:{token_hash}".encode()).hexdigest()[:12]


def passkey_id(credential_id: str) -> str:
    """Return a passkey's short id for forms (a hash of its credential id)."""
    return hashlib.sha256(f"passkey:{credential_id}".encode()).hexdigest()[:12]


def normalize_link_code(code: str) -> str | None:
    """Return a typed link code in its canonical form (``ABCD-EFGH``), None when it cannot be one;
    case, spaces, dashes and the letters read as digits are forgiven."""
    compact = re.sub(r"[\s-]+", "", code).upper().translate(_CONFUSABLE)
    if len(compact) != LINK_LENGTH or any(char not in LINK_ALPHABET for char in compact):
        return None
    return f"{compact[:4]}-{compact[4:]}"


def new_token_row(
    session: Session,
    player_id: int,
    *,
    agent: str | None,
    signed_in_by: str,
    recovery_hash: str | None = None,
) -> str:
    """Add a browser token of ``player_id`` to ``session`` and return it in clear (only now)."""
    token = secrets.new_token()
    session.add(
        TokenRow(
            token_hash=secrets.digest(token),
            player_id=player_id,
            created_at=utcnow(),
            recovery_hash=recovery_hash,
            agent=agent[:60] if agent else None,
            signed_in_by=signed_in_by,
        )
    )
    return token


class IdentityStore(Repository):
    """The passkey, link-code and browser methods of :class:`~parlour.store.Store`."""

    # -- passkeys -------------------------------------------------------------------------------------

    def player_handle(self, player_id: int) -> str:
        """Return the player's WebAuthn user handle (hex of 16 random bytes), made at the first call.

        Raises:
            UnknownPlayer: no such player.
        """
        with self._write() as session:
            row = player_row(session, player_id)
            if row.handle is None:
                row.handle = random.token_hex(16)
            return row.handle

    def passkey_credentials(self, player_id: int) -> list[str]:
        """Return the credential ids (base64url) of the player's passkeys (not to be made twice)."""
        with self._read() as session:
            return list(session.scalars(select(PasskeyRow.id).where(PasskeyRow.player_id == player_id)))

    def new_challenge(self, challenge: bytes, purpose: str, player_id: int | None) -> None:
        """Keep a challenge just handed out (its hash), for ``purpose`` (``register``: adding a passkey
        to ``player_id``; ``sign_in``), until :data:`CHALLENGE_AGE` has passed; expired ones go."""
        if purpose not in PURPOSES:
            raise ValueError(f"no such challenge purpose: {purpose!r}")
        now = utcnow()
        with self._write() as session:
            session.execute(delete(AuthChallengeRow).where(AuthChallengeRow.expires_at < now))
            session.add(
                AuthChallengeRow(
                    challenge_hash=hashlib.sha256(challenge).hexdigest(),
                    purpose=purpose,
                    player_id=player_id,
                    expires_at=now + CHALLENGE_AGE,
                )
            )

    def take_challenge(self, challenge: bytes, purpose: str, player_id: int | None) -> None:
        """Use up a challenge an answer carries: it must have been handed out for ``purpose`` (and, to
        add a passkey, to ``player_id``) and not have expired. It is gone afterwards, whatever the
        answer's fate: a challenge is answered once.

        Raises:
            PasskeyRefused: no such challenge waits (never handed out, answered already, another
                purpose or player's, or expired).
        """
        digest = hashlib.sha256(challenge).hexdigest()
        with self._write() as session:
            found = session.execute(
                delete(AuthChallengeRow)
                .where(AuthChallengeRow.challenge_hash == digest)
                .returning(AuthChallengeRow.purpose, AuthChallengeRow.player_id, AuthChallengeRow.expires_at)
            ).one_or_none()
        if found is None:
            raise PasskeyRefused("this challenge was not handed out, or it was answered already")
        if found.purpose != purpose or found.player_id != player_id:
            raise PasskeyRefused("this challenge was handed out for something else")
        if as_utc(found.expires_at) < utcnow():
            raise PasskeyRefused("this challenge expired: ask again")

    def add_passkey(
        self,
        player_id: int,
        credential_id: str,
        public_key: bytes,
        sign_count: int,
        *,
        transports: list[str],
        backed_up: bool,
        agent: str | None,
    ) -> None:
        """Keep a passkey just made for the player.

        Raises:
            PasskeyRefused: this credential is kept already (for this player or another).
            UnknownPlayer: no such player.
        """
        try:
            with self._write() as session:
                player_row(session, player_id)
                if session.get(PasskeyRow, credential_id) is not None:
                    raise PasskeyRefused("this passkey was added already")
                session.add(
                    PasskeyRow(
                        id=credential_id,
                        player_id=player_id,
                        public_key=public_key,
                        sign_count=sign_count,
                        transports=transports,
                        backed_up=backed_up,
                        agent=agent[:60] if agent else None,
                        created_at=utcnow(),
                    )
                )
        except StoreUnavailable as error:  # the same passkey added twice at the same moment
            if not conflict(error):
                raise
            raise PasskeyRefused("this passkey was added already") from None

    def stored_passkey(self, credential_id: str) -> StoredPasskey | None:
        """Return the passkey of this credential id with its player's handle, None for an unknown one."""
        with self._read() as session:
            found = session.execute(
                select(PasskeyRow, PlayerRow.handle)
                .join(PlayerRow, PlayerRow.id == PasskeyRow.player_id)
                .where(PasskeyRow.id == credential_id)
            ).one_or_none()
            if found is None:
                return None
            row, handle = found
            return StoredPasskey(row.id, row.player_id, bytes(row.public_key), row.sign_count, handle)

    def sign_in_with_passkey(
        self, credential_id: str, seen_count: int, new_count: int, *, backed_up: bool, agent: str | None
    ) -> str:
        """Record a verified passkey answer (its new sign counter) and return a new browser token for
        its player. The counter is written only if it is still ``seen_count``: of two answers verified
        at once with one counter, one signs in.

        Raises:
            PasskeyRefused: the passkey is gone, or another answer used this counter first.
        """
        now = utcnow()
        with self._write() as session:
            player_id = session.scalar(
                update(PasskeyRow)
                .where(PasskeyRow.id == credential_id, PasskeyRow.sign_count == seen_count)
                .values(sign_count=new_count, backed_up=backed_up, used_at=now)
                .returning(PasskeyRow.player_id)
            )
            if player_id is None:
                raise PasskeyRefused("this passkey was removed, or this answer was used already")
            return new_token_row(session, player_id, agent=agent, signed_in_by="passkey")

    def passkeys(self, player_id: int) -> list[Passkey]:
        """Return the player's passkeys, oldest first."""
        with self._read() as session:
            rows = session.scalars(
                select(PasskeyRow).where(PasskeyRow.player_id == player_id).order_by(PasskeyRow.created_at)
            )
            return [
                Passkey(
                    passkey_id(row.id),
                    row.agent,
                    as_utc(row.created_at),
                    as_utc(row.used_at) if row.used_at else None,
                    row.backed_up,
                )
                for row in rows
            ]

    def remove_passkey(self, player_id: int, short_id: str) -> bool:
        """Remove one of the player's passkeys (by its short id); return whether there was one."""
        with self._write() as session:
            for credential in session.scalars(select(PasskeyRow).where(PasskeyRow.player_id == player_id)):
                if passkey_id(credential.id) == short_id:
                    session.delete(credential)
                    return True
        return False

    # -- link codes -----------------------------------------------------------------------------------

    def new_link_code(self, player_id: int) -> tuple[str, datetime]:
        """Make a link code for the player and return it (``ABCD-EFGH``) with when it expires. The
        player's earlier codes stop working: one code is shown at a time.

        Raises:
            UnknownPlayer: no such player.
        """
        compact = "".join(random.choice(LINK_ALPHABET) for _ in range(LINK_LENGTH))
        code = f"{compact[:4]}-{compact[4:]}"
        now = utcnow()
        with self._write() as session:
            player_row(session, player_id)
            session.execute(
                delete(LinkCodeRow).where(
                    (LinkCodeRow.player_id == player_id) | (LinkCodeRow.expires_at < now)
                )
            )
            session.add(
                LinkCodeRow(
                    code_hash=secrets.digest(code),
                    player_id=player_id,
                    created_at=now,
                    expires_at=now + LINK_CODE_AGE,
                )
            )
        return code, now + LINK_CODE_AGE

    def redeem_link_code(self, code: str, agent: str | None) -> str:
        """Use up a link code and return a new browser token for its player.

        Raises:
            InvalidLinkCode: malformed, unknown, used already or expired (it is gone either way).
        """
        canonical = normalize_link_code(code)
        if canonical is None:
            raise InvalidLinkCode("a link code is eight letters and digits, such as ABCD-EFGH")
        with self._write() as session:
            found = session.execute(
                delete(LinkCodeRow)
                .where(LinkCodeRow.code_hash == secrets.digest(canonical))
                .returning(LinkCodeRow.player_id, LinkCodeRow.expires_at)
            ).one_or_none()
            if found is None:
                raise InvalidLinkCode("this link code is not valid, or it was used already")
            if as_utc(found.expires_at) < utcnow():
                raise InvalidLinkCode("this link code expired: make a new one")
            return new_token_row(session, found.player_id, agent=agent, signed_in_by="link")

    # -- browsers -------------------------------------------------------------------------------------

    def browsers(self, player_id: int, current_token: str | None) -> list[Browser]:
        """Return the browsers signed in as the player, the last seen first; ``current_token`` (the
        asking browser's) marks its own."""
        current = secrets.digest(current_token) if current_token else ""
        with self._read() as session:
            rows = list(session.scalars(select(TokenRow).where(TokenRow.player_id == player_id)))
        found = [
            Browser(
                browser_id(row.token_hash),
                row.agent,
                row.signed_in_by,
                as_utc(row.created_at),
                as_utc(row.used_at or row.created_at),
                row.token_hash == current,
            )
            for row in rows
        ]
        return sorted(found, key=lambda browser: (not browser.current, -browser.used_at.timestamp()))

    def sign_out_browser(self, player_id: int, short_id: str) -> bool:
        """Sign one of the player's browsers out (by its public id); return whether there was one."""
        with self._write() as session:
            for row in session.scalars(select(TokenRow).where(TokenRow.player_id == player_id)):
                if browser_id(row.token_hash) == short_id:
                    session.delete(row)
                    return True
        return False
