"""The tables of Parlour's database (SQLAlchemy 2 declarative models).

The Alembic migrations under ``parlour/store/migrations`` create exactly these tables; a test compares
the two (autogenerate finds no difference). Secrets are never stored: a player's browser tokens and
recovery code are kept as SHA-256 hashes only.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base with a naming convention, so migrations name constraints predictably."""

    metadata = MetaData(naming_convention=NAMING)


class PlayerRow(Base):
    """A person, known by the tokens of their browsers; no sign-up, no password."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40))
    name_key: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    """The name's skeleton (``parlour.store.names``): no two players hold names read as the same."""
    recovery_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name_changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the player last changed a name they had (a name changes at most once a day)."""
    preferences: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    handle: Mapped[str | None] = mapped_column(String(32), unique=True, index=True)
    """The player's WebAuthn user handle (16 random bytes in hex), made with their first passkey: a
    passkey names the player by it, never by the id (decision 0064)."""
    erased_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Set on the nameless row that keeps the results of a player who deleted themselves (the
    boards and other people's records), None for every real player."""


class TokenRow(Base):
    """One browser's secret token (hashed); a player has one per browser they play on."""

    __tablename__ = "player_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the token was last seen (renewed at most once a day); it expires after an idle age."""
    recovery_hash: Mapped[str | None] = mapped_column(String(64))
    """The recovery code this token was obtained with (None for a browser's first token): a new
    recovery code revokes the tokens of the old one."""
    agent: Mapped[str | None] = mapped_column(String(60))
    """The browser's rough name read from its User-Agent ("Firefox on Android"), never its address."""
    signed_in_by: Mapped[str | None] = mapped_column(String(16))
    """How the browser became this player: ``new``, ``recovery``, ``passkey``, ``link`` or ``merge``."""


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of a player: its public key and sign counter (decision 0064)."""

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    """The credential id, base64url (at most 1,023 bytes)."""
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """The credential's public key, COSE-encoded as the authenticator gave it."""
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    transports: Mapped[list[str]] = mapped_column(JSON, default=list)
    backed_up: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the passkey is synced to the person's other devices (its backup state flag)."""
    agent: Mapped[str | None] = mapped_column(String(60))
    """The browser it was made in, by name (the player page names the passkey so)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AuthChallengeRow(Base):
    """A WebAuthn challenge handed out and not yet answered: single-use (deleted as it is read) and
    valid until ``expires_at``."""

    __tablename__ = "auth_challenges"

    challenge_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    """``register`` (adding a passkey to ``player_id``) or ``sign_in``."""
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class LinkCodeRow(Base):
    """A short code that signs another browser in as the player: hashed, valid for minutes and once."""

    __tablename__ = "link_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """A game as a record: game, rules, deal code, seats; the moves live in ``game_moves``.

    ``result`` is written only by the server's own replay of the stored moves when the game ends.
    """

    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_player_status", "player_id", "status"),
        Index("ix_games_numbered", "rules_key", "numbered"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_key: Mapped[str] = mapped_column(String(16))
    code: Mapped[str] = mapped_column(String(64))
    seats: Mapped[list[Any]] = mapped_column(JSON)
    numbered: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    secret: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """What only the server knows of the game while it is played (a fairness salt, the computer
    players' seed); never sent to a page before the game ends."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    table_id: Mapped[str | None] = mapped_column(String(32), index=True)
    """The friends' table the match was played at (None for a player's own game)."""
    deal_drawn: Mapped[bool | None] = mapped_column(Boolean)
    """The server drew the deal from a secret seed for this game (a random deal, not a code typed in nor
    a numbered game): a challenge of it is ranked (decision 0060). None for a record made before."""


class GamePlayerRow(Base):
    """Another person who played a game with its owner (a friends' table's match): their seat and,
    once the game has ended, their own result (their statistics read it as the owner's read ``games``).
    """

    __tablename__ = "game_players"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class MoveRow(Base):
    """One move of a game, in the game's own text form (a card such as ``KC``, ``draw``, ``pass`` …)."""

    __tablename__ = "game_moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    move: Mapped[str] = mapped_column(Text)


class GameReviewRow(Base):
    """The review of a finished game from one seat (its definition's JSON), computed once and shown
    again at once: each person who played a match at a table has their own."""

    __tablename__ = "game_reviews"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False, server_default="0")
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NumberedRecordRow(Base):
    """The best result of one numbered game of one game under one rule set, and its first winner.

    ``standing`` is the best result as the game's records compare it (a JSON list of numbers, lower is
    better, compared in order: :data:`parlour.games.base.Standing`).
    """

    __tablename__ = "numbered_records"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules_key: Mapped[str] = mapped_column(String(16), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    standing: Mapped[list[int]] = mapped_column(JSON)
    holder_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    first_winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    first_won_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    plays: Mapped[int] = mapped_column(BigInteger, default=0)


class PersonalBestRow(Base):
    """A player's own best result (``standing``) of one numbered game."""

    __tablename__ = "personal_bests"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules_key: Mapped[str] = mapped_column(String(16), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    standing: Mapped[list[int]] = mapped_column(JSON)
    set_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TableRow(Base):
    """A friends' table: its join code, host, settings, seats and current match.

    ``seats`` holds each seat's kind, name, player and the SHA-256 of its seat token (never the token).
    ``listed`` tables that are still ``gathering`` appear in the public lobby.
    """

    __tablename__ = "tables"
    __table_args__ = (Index("ix_tables_game_listed_phase", "game", "listed", "phase"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    """The name of the game played at the table (its definition's)."""
    code: Mapped[str] = mapped_column(String(12), unique=True)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[Any]] = mapped_column(JSON)
    phase: Mapped[str] = mapped_column(String(16))
    listed: Mapped[bool] = mapped_column(Boolean, default=False)
    game_id: Mapped[str | None] = mapped_column(String(32))
    owner_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Raised by each process that takes the table over: a write from an earlier owner is refused."""
    watchers: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """How many pages watched a public table when it was last saved (its lobby shows it)."""
    quick_key: Mapped[str | None] = mapped_column(String(64), index=True)
    """For a public table Play now seats strangers at: the options a person's Play now must match
    (rated or casual, the points target, the computer players' strength); None for friends' tables."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyDealRow(Base):
    """The deal of one day (UTC) of one game under one rule set: drawn once at random, committed to
    from the start of the day (``commitment``: SHA-256 of ``CODE|SALT``), revealed once it is over."""

    __tablename__ = "daily_deals"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules_key: Mapped[str] = mapped_column(String(16), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    code: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(32))
    commitment: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyResultRow(Base):
    """A player's counted attempt at a day's deal: the first of their attempts to end (decision 0050),
    with its result replayed from the stored moves and its place as the game compares them."""

    __tablename__ = "daily_results"
    __table_args__ = (Index("ix_daily_results_day", "game", "rules_key", "day"),)

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules_key: Mapped[str] = mapped_column(String(16), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    standing: Mapped[list[int]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyPlayerRow(Base):
    """A player new on the day who started a ranked attempt at a game's daily deal, and the address
    (hashed) it came from: how many new players one address ranks a day is capped (decision 0060)."""

    __tablename__ = "daily_players"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    address: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    """A challenge: a player's finished game offered to friends by link, to play the same deal. The
    link holds only the challenge's id; the code stays in the database."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeAttemptRow(Base):
    """A friend's answer to a challenge: the first of their attempts at its deal to end, with its
    result replayed from the stored moves."""

    __tablename__ = "challenge_attempts"

    challenge_id: Mapped[str] = mapped_column(
        ForeignKey("challenges.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatClaimRow(Base):
    """Who sits where at a public table (decision 0062): one claim per person across every table and
    process (the primary key), one per seat (the unique pair). A claim is made by Play now on any
    process; the table's owner honours it at the next round (``seated``) and deletes it in the same
    transaction that writes the person leaving."""

    __tablename__ = "seat_claims"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_seat_claims_table_seat"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    seated: Mapped[bool] = mapped_column(Boolean, default=False)
    """False until the table's owner has handed the seat to the person (at the next round)."""
    name: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatedRoundRow(Base):
    """One rated round of a seated game: its finishing order, each seat a person (``player``) or a
    computer player (``computer``, its strength) with the rating it played at, in the order the ratings
    were updated (``id``), so that anyone can recompute them."""

    __tablename__ = "rated_rounds"
    __table_args__ = (UniqueConstraint("game_id", "round", name="uq_rated_rounds_game_round"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str] = mapped_column(String(32))
    """The match's record id."""
    round: Mapped[int] = mapped_column(Integer)
    order: Mapped[list[Any]] = mapped_column(JSON)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class RatingChangeRow(Base):
    """A person's rating before and after one rated round (their history, and the leaderboards of a
    week)."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_player_round", "player_id", "round_id"),)

    round_id: Mapped[int] = mapped_column(ForeignKey("rated_rounds.id", ondelete="CASCADE"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    place: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    played_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """A person's current rating at one game (OpenSkill's μ and σ) and the rated rounds behind it."""

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NameReportRow(Base):
    """A display name a person reported (issue 50): hidden for the reporter at once, queued for an
    operator (``parlour players reported``) until they rename or block it (``resolved_at``)."""

    __tablename__ = "name_reports"
    __table_args__ = (
        UniqueConstraint("reporter_id", "reported_id", "name", name="uq_name_reports_reporter"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    reported_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    """The name as it was reported (the player may have changed it since)."""
    table_id: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class BlockedNameRow(Base):
    """A name an operator blocked: no player may take a name of this skeleton."""

    __tablename__ = "blocked_names"

    name_key: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRow(Base):
    """A puzzle of a game (decision 0065): a deal's code, the moves to its position and the one answer,
    with its themes, difficulty, the solver's line after the answer, where it came from, and its
    Glicko-2 rating, moved by every rated attempt."""

    __tablename__ = "puzzles"
    __table_args__ = (Index("ix_puzzles_game_rating", "game", "rating"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    """A hash of the game, the code and the moves: the same position is one puzzle."""
    game: Mapped[str] = mapped_column(String(32))
    code: Mapped[str] = mapped_column(String(64))
    moves: Mapped[list[str]] = mapped_column(JSON)
    answer: Mapped[str] = mapped_column(String(32))
    themes: Mapped[list[str]] = mapped_column(JSON)
    difficulty: Mapped[str] = mapped_column(String(8))
    line: Mapped[list[str]] = mapped_column(JSON)
    source: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleAttemptRow(Base):
    """A player's attempt at a puzzle: the move they made, whether it was the answer, and, for a rated
    attempt (their first at that puzzle), both ratings before it, so that anyone can recompute them."""

    __tablename__ = "puzzle_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)
    move: Mapped[str] = mapped_column(String(32))
    solved: Mapped[bool] = mapped_column(Boolean)
    mode: Mapped[str] = mapped_column(String(8))
    """``rated`` (the next puzzle near one's rating), ``daily`` or ``streak``."""
    rated: Mapped[bool] = mapped_column(Boolean)
    player_rating: Mapped[float | None] = mapped_column(Float)
    player_rd: Mapped[float | None] = mapped_column(Float)
    player_volatility: Mapped[float | None] = mapped_column(Float)
    puzzle_rating: Mapped[float | None] = mapped_column(Float)
    puzzle_rd: Mapped[float | None] = mapped_column(Float)
    puzzle_volatility: Mapped[float | None] = mapped_column(Float)
    made_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRatingRow(Base):
    """A player's puzzle rating at one game (Glicko-2) and their rated attempts and best streak."""

    __tablename__ = "puzzle_ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyPuzzleRow(Base):
    """The puzzle of one day (UTC) of a game: chosen once, the same for everybody."""

    __tablename__ = "daily_puzzles"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(ForeignKey("puzzles.id", ondelete="CASCADE"))
