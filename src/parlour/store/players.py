"""The players and their browsers in the database: players, their browser tokens and recovery codes,
their display names and preferences. Secrets are kept as SHA-256 hashes only."""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from parlour.errors import InvalidInput
from parlour.store import preferences as prefs
from parlour.store import secrets
from parlour.store.errors import InvalidRecoveryCode, StoreUnavailable, conflict
from parlour.store.identity import new_token_row
from parlour.store.models import BlockedNameRow, NameReportRow, PlayerRow, TokenRow
from parlour.store.names import JOINERS, check_public, check_scripts, skeleton
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, player_of, player_row, utcnow
from parlour.store.types import NewPlayer, Player

NAME_LENGTH = 40
TOKEN_AGE: Final = timedelta(days=180)
"""A browser token not used for this long expires (the player comes back with the recovery code)."""
TOKEN_RENEWAL: Final = timedelta(days=1)
"""A token's last use is written at most this often."""
RENAME_EVERY: Final = timedelta(days=1)
"""How often a player may change a name they have (strangers see names at tables and on boards)."""


def clean_name(name: str) -> str:
    """Return a display name trimmed, in NFKC form, and checked.

    Raises:
        InvalidInput: empty, longer than 40 characters, holding control or invisible characters, or
            mixing alphabets (``parlour.store.names``).
    """
    cleaned = unicodedata.normalize("NFKC", " ".join(name.split()))
    if not cleaned:
        raise InvalidInput(f"a display name cannot be empty: {name!r}", code="invalid_name")
    if len(cleaned) > NAME_LENGTH:
        raise InvalidInput(
            f"a display name has at most {NAME_LENGTH} characters: {name!r}", code="invalid_name"
        )
    check_scripts(cleaned)  # first: an invisible character is said to be one
    if any(not char.isprintable() and char not in JOINERS for char in cleaned):
        raise InvalidInput(f"a display name cannot hold control characters: {name!r}", code="invalid_name")
    return cleaned


class PlayersStore(Repository):
    """The players' methods of :class:`~parlour.store.Store`."""

    def create_player(self, name: str | None = None, *, agent: str | None = None) -> NewPlayer:
        """Create a player with a browser token and a recovery code, both returned in clear only now;
        ``agent`` is the browser's rough name (its list of browsers shows it).

        Raises:
            InvalidInput: an unacceptable display name.
        """
        display = clean_name(name) if name is not None else None
        key = skeleton(display) if display is not None else None
        code, now = secrets.new_recovery_code(), utcnow()
        with self._write() as session:
            if key is not None:
                _refuse_unshowable(session, display or "", key)
                _refuse_taken(session, key, None, display or "")
            row = PlayerRow(
                name=display, name_key=key, recovery_hash=secrets.digest(code), preferences={}, created_at=now
            )
            session.add(row)
            session.flush()
            token = new_token_row(session, row.id, agent=agent, signed_in_by="new")
            return NewPlayer(row.id, token, code)

    def player_by_token(self, token: str | None) -> Player | None:
        """Return the player whose browser holds ``token``; None for a missing, malformed, unknown or
        expired one.

        A token expires after :data:`TOKEN_AGE` without use (and is then deleted); using it renews it,
        at most once a day (the only write a visit makes).
        """
        if not token or not secrets.is_token_shaped(token):
            return None
        digest = secrets.digest(token)
        with self._read() as session:
            found = session.execute(
                select(PlayerRow, TokenRow.used_at, TokenRow.created_at)
                .join(TokenRow, TokenRow.player_id == PlayerRow.id)
                .where(TokenRow.token_hash == digest)
            ).one_or_none()
            if found is None:
                return None
            row, used_at, created_at = found
            player = player_of(row, self.games)
        now = utcnow()
        last = as_utc(used_at or created_at)
        if now - last > TOKEN_AGE:
            self.forget_token(token)
            return None
        if now - last > TOKEN_RENEWAL:
            with self._write() as session:
                session.execute(update(TokenRow).where(TokenRow.token_hash == digest).values(used_at=now))
        return player

    def player(self, player_id: int) -> Player:
        """Return the player with this id.

        Raises:
            UnknownPlayer: no such player.
        """
        with self._read() as session:
            return player_of(player_row(session, player_id))

    def players_named(self, name: str) -> list[Player]:
        """Return the players whose display name is ``name`` (ignoring case), oldest first."""
        with self._read() as session:
            rows = session.scalars(
                select(PlayerRow)
                .where(func.lower(PlayerRow.name) == name.strip().lower())
                .order_by(PlayerRow.id)
            )
            return [player_of(row) for row in rows]

    def all_players(self) -> list[Player]:
        """Return every player, oldest first."""
        with self._read() as session:
            return [player_of(row) for row in session.scalars(select(PlayerRow).order_by(PlayerRow.id))]

    def rename(self, player_id: int, name: str, *, by_operator: bool = False) -> Player:
        """Set the player's display name and return the player. A player who has a name changes it at
        most once a day (:data:`RENAME_EVERY`); an operator (``by_operator``) may at any time, and
        their renaming settles the reports of the player's name.

        Raises:
            InvalidInput: an unacceptable name (``invalid_name``, ``mixed_scripts``, ``name_reserved``,
                ``name_blocked``). NameTaken: another player's name reads the same. NameTooSoon: the
                name was changed less than a day ago. UnknownPlayer: no such player.
        """
        display = clean_name(name)
        key = skeleton(display)
        try:
            with self._write() as session:
                row = player_row(session, player_id)
                if row.name == display:
                    return player_of(row)
                _refuse_unshowable(session, display, key)
                _refuse_taken(session, key, player_id, display)
                now = utcnow()
                changed = as_utc(row.name_changed_at) if row.name_changed_at is not None else None
                if (
                    row.name is not None
                    and not by_operator
                    and changed is not None
                    and now - changed < RENAME_EVERY
                ):
                    wait = changed + RENAME_EVERY - now
                    hours = max(1, round(wait.total_seconds() / 3600))
                    raise NameTooSoon(f"a name changes once a day: try again in about {hours} h")
                if row.name is not None:
                    row.name_changed_at = now
                row.name, row.name_key = display, key
                if by_operator:
                    settle_reports(session, player_id, now)
                return player_of(row)
        except StoreUnavailable as error:  # another player took a name of that skeleton at the same moment
            if not conflict(error):
                raise
            raise NameTaken(f"another player is called {display!r}, or a name read the same") from None

    def new_recovery_code(self, player_id: int) -> str:
        """Give the player a new recovery code (the old one stops working) and return it in clear.

        Raises:
            UnknownPlayer: no such player.
        """
        code = secrets.new_recovery_code()
        with self._write() as session:
            row = player_row(session, player_id)
            # The browsers that came in with the old code are signed out with it.
            session.execute(delete(TokenRow).where(TokenRow.recovery_hash == row.recovery_hash))
            row.recovery_hash = secrets.digest(code)
        return code

    def sign_out_elsewhere(self, player_id: int, keep_token: str | None) -> int:
        """Stop every browser token of the player but ``keep_token`` (this browser); return how many.

        Raises:
            UnknownPlayer: no such player.
        """
        kept = secrets.digest(keep_token) if keep_token else ""
        with self._write() as session:
            player_row(session, player_id)
            gone = session.execute(
                delete(TokenRow)
                .where(TokenRow.player_id == player_id, TokenRow.token_hash != kept)
                .returning(TokenRow.token_hash)
            ).all()
        return len(gone)

    def recover(self, recovery_code: str, agent: str | None = None) -> str:
        """Return a new browser token for the player whose recovery code this is (for the browser
        ``agent`` names).

        Raises:
            InvalidRecoveryCode: the code is malformed or belongs to nobody.
        """
        canonical = secrets.normalize_recovery_code(recovery_code)
        if canonical is None:
            raise InvalidRecoveryCode(f"not a recovery code: {recovery_code!r}")
        with self._write() as session:
            player_id = session.scalar(
                select(PlayerRow.id).where(PlayerRow.recovery_hash == secrets.digest(canonical))
            )
            if player_id is None:
                raise InvalidRecoveryCode(f"no player has the recovery code {recovery_code!r}")
            return new_token_row(
                session,
                player_id,
                agent=agent,
                signed_in_by="recovery",
                recovery_hash=secrets.digest(canonical),
            )

    def forget_token(self, token: str) -> None:
        """Stop accepting ``token`` (a browser signing out); unknown tokens are ignored."""
        with self._write() as session:
            row = session.get(TokenRow, secrets.digest(token))
            if row is not None:
                session.delete(row)

    def preferences(self, player_id: int | None) -> dict[str, Any]:
        """Return every preference of the player (defaults for those never set; only defaults for a
        visitor who has no player yet, ``None``).

        Raises:
            UnknownPlayer: no such player.
        """
        if player_id is None:
            return prefs.with_defaults({}, self.games)
        with self._read() as session:
            return prefs.with_defaults(player_row(session, player_id).preferences, self.games)

    def set_preferences(self, player_id: int, **changes: Any) -> dict[str, Any]:
        """Change some preferences and return them all.

        Raises:
            InvalidPreference: an unknown name or a value it cannot take (nothing is changed).
            UnknownPlayer: no such player.
        """
        clean = prefs.validated(changes, self.games)
        with self._write() as session:
            row = player_row(session, player_id)
            row.preferences = {**prefs.with_defaults(row.preferences, self.games), **clean}
            return dict(row.preferences)


class NameTooSoon(InvalidInput):
    """A display name changed again less than a day after the last change."""

    code = "name_too_soon"


def _refuse_unshowable(session: Session, display: str, key: str) -> None:
    """Refuse a name strangers should not be shown (``parlour.store.names.check_public``, and the
    names an operator blocked)."""
    blocked = session.get(BlockedNameRow, key) is not None
    check_public(display, frozenset({key}) if blocked else frozenset())


class NameTaken(InvalidInput):
    """Another player holds a name that people would read as this one (its skeleton is the same)."""

    code = "name_taken"


def _refuse_taken(session: Session, key: str, player_id: int | None, display: str) -> None:
    """Raise :class:`NameTaken` when another player's name has the skeleton ``key``."""
    holder = session.scalar(select(PlayerRow.id).where(PlayerRow.name_key == key))
    if holder is not None and holder != player_id:
        raise NameTaken(f"another player is called {display!r}, or a name read the same")


def settle_reports(session: Session, player_id: int, now: datetime) -> None:
    """Mark the open reports of a player's name settled (an operator renamed or blocked it)."""
    session.execute(
        update(NameReportRow)
        .where(NameReportRow.reported_id == player_id, NameReportRow.resolved_at.is_(None))
        .values(resolved_at=now)
    )
