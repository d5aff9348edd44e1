"""The store as the server sees it: a typed interface, so every call is checked and every write is known.

``parlour.store.Store`` satisfies :class:`GameStore`; the server holds nothing else. Every method here
blocks (the server runs them in worker threads, writes through its one write queue).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import date, datetime
from typing import Any, Protocol

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition, RecordSpec
from parlour.games.puzzle_ratings import Glicko
from parlour.games.ratings import Skill
from parlour.games.registry import Registry
from parlour.games.tables import Claim, TableRecord
from parlour.store.async_appends import AsyncAppends
from parlour.store.challenges import Challenge, ChallengeAnswer
from parlour.store.daily import DailyBoard, DailyDeal, DailyEntry, DailyStreaks
from parlour.store.game_records import AppendPlan
from parlour.store.identity import Browser, Passkey, StoredPasskey
from parlour.store.numbered import Leader
from parlour.store.player_data import MergeSummary
from parlour.store.puzzles import AttemptResult, PuzzleRecord
from parlour.store.ratings import RoundSeat, Standing
from parlour.store.seat_claims import SeatClaim
from parlour.store.types import (
    FinishedRecord,
    NewPlayer,
    NumberedEntry,
    Outcome,
    PlayedGame,
    Player,
    Statistics,
    StoredGame,
)


class GameStore(Protocol):
    """Players, game records, numbered-game records and statistics (see ``Store`` for each method)."""

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""

    @property
    def games(self) -> Registry:
        """The games this store records."""

    def upgrade(self) -> None:
        """Apply the migrations."""

    def ping(self) -> None:
        """Ask the database the smallest question (raises ``StoreUnavailable`` when it fails)."""

    def within(self, seconds: float) -> AbstractContextManager[None]:
        """Bound this thread's database calls: past ``seconds`` they fail with ``StoreUnavailable``."""

    # players
    def create_player(self, name: str | None = None, *, agent: str | None = None) -> NewPlayer:
        """Create a player with a browser token and a recovery code."""

    def player_by_token(self, token: str | None) -> Player | None:
        """Return the player of a browser token."""

    def rename(self, player_id: int, name: str) -> Player:
        """Set a display name."""

    def new_recovery_code(self, player_id: int) -> str:
        """Replace the recovery code."""

    def recover(self, recovery_code: str, agent: str | None = None) -> str:
        """Return a new browser token for a recovery code."""

    # one player on every device (decision 0064)
    def player_handle(self, player_id: int) -> str:
        """Return the player's WebAuthn user handle (made at the first call)."""

    def passkey_credentials(self, player_id: int) -> list[str]:
        """Return the credential ids of the player's passkeys."""

    def new_challenge(self, challenge: bytes, purpose: str, player_id: int | None) -> None:
        """Keep a passkey challenge just handed out."""

    def take_challenge(self, challenge: bytes, purpose: str, player_id: int | None) -> None:
        """Use up a challenge an answer carries (``PasskeyRefused`` when none waits)."""

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
        """Keep a passkey just made for the player."""

    def stored_passkey(self, credential_id: str) -> StoredPasskey | None:
        """Return a passkey by its credential id."""

    def sign_in_with_passkey(
        self, credential_id: str, seen_count: int, new_count: int, *, backed_up: bool, agent: str | None
    ) -> str:
        """Record a verified passkey answer and return a new browser token."""

    def passkeys(self, player_id: int) -> list[Passkey]:
        """Return the player's passkeys."""

    def remove_passkey(self, player_id: int, short_id: str) -> bool:
        """Remove one of the player's passkeys."""

    def new_link_code(self, player_id: int) -> tuple[str, datetime]:
        """Make a link code and return it with its expiry."""

    def redeem_link_code(self, code: str, agent: str | None) -> str:
        """Use up a link code and return a new browser token for its player."""

    def browsers(self, player_id: int, current_token: str | None) -> list[Browser]:
        """Return the browsers signed in as the player."""

    def sign_out_browser(self, player_id: int, short_id: str) -> bool:
        """Sign one of the player's browsers out."""

    def player_data(self, player_id: int) -> dict[str, Any]:
        """Return everything stored about the player."""

    def erase_player(self, player_id: int) -> int:
        """Delete the player and their personal data (results kept under an erased row)."""

    def merge_players(self, source_id: int, target_id: int) -> MergeSummary:
        """Bring one player's history into another's and delete the first."""

    # puzzles (decision 0065)
    def add_puzzles(self, game: str, puzzles: Iterable[Mapping[str, Any]]) -> int:
        """Add puzzles not kept yet; return how many."""

    def puzzle_count(self, game: str) -> int:
        """Return how many puzzles a game has."""

    def puzzle(self, game: str, puzzle_id: str) -> PuzzleRecord:
        """Return a puzzle (``UnknownPuzzle`` for none)."""

    def puzzle_rating(self, game: str, player_id: int | None) -> Glicko | None:
        """Return the player's puzzle rating."""

    def best_streak(self, game: str, player_id: int | None) -> int:
        """Return the player's best puzzle streak."""

    def next_puzzle(self, game: str, player_id: int | None, *, seed: int | None = None) -> PuzzleRecord:
        """Return an untried puzzle near the player's rating."""

    def streak_puzzle(
        self, game: str, player_id: int | None, solved: int, *, seed: int | None = None
    ) -> PuzzleRecord:
        """Return the next puzzle of a streak."""

    def daily_puzzle(self, game: str, day: date) -> PuzzleRecord:
        """Return the day's puzzle."""

    def attempt_puzzle(
        self, game: str, puzzle_id: str, player_id: int, move: str, mode: str
    ) -> AttemptResult:
        """Keep an attempt and return what it did."""

    def streak_attempts(self, game: str, player_id: int, limit: int = 500) -> list[bool]:
        """Return the player's last streak attempts, oldest first."""

    def end_streak(self, game: str, player_id: int, solved: int) -> int:
        """Keep an ended streak; return the best."""

    def forget_token(self, token: str) -> None:
        """Stop accepting a browser token."""

    def sign_out_elsewhere(self, player_id: int, keep_token: str | None) -> int:
        """Stop every browser token of the player but this browser's."""

    def preferences(self, player_id: int | None) -> dict[str, Any]:
        """Return every preference."""

    def set_preferences(self, player_id: int, **changes: Any) -> dict[str, Any]:
        """Change some preferences."""

    # games
    def record_game(
        self, player_id: int, definition: GameDefinition, spec: RecordSpec, epoch: int | None = None
    ) -> str:
        """Store a new game and return its id (a table's match: fenced by its owner ``epoch``)."""

    def append_moves(
        self, game_id: str, player_id: int, first_index: int, moves: Iterable[str], epoch: int | None = None
    ) -> int:
        """Append moves (checked by replay) and return the move count."""

    def append_moves_many(
        self, batch: Sequence[tuple[str, int, int, Sequence[str]]], epochs: Mapping[str, int] | None = None
    ) -> list[int | ParlourError]:
        """Append moves to several games in one transaction (tables' matches fenced by ``epochs``)."""

    def plan_appends(
        self, batch: Sequence[tuple[str, int, int, Sequence[str]]], epochs: Mapping[str, int] | None = None
    ) -> AppendPlan | None:
        """Prepare a batch of the common case to be written by one statement (None: not of it)."""

    def appended(self, plan: AppendPlan) -> None:
        """Keep what a plan whose statement committed has checked."""

    def async_appends(self) -> AsyncAppends | None:
        """Return a sender of planned batches from an event loop (None: batches go to a thread)."""

    def game_record(self, game_id: str, player_id: int) -> StoredGame:
        """Return a stored game with its moves."""

    def open_games(self, player_id: int, game: str | None = None) -> list[StoredGame]:
        """Return the player's open games."""

    def finish_game(self, game_id: str, player_id: int) -> Outcome:
        """End a game and return its outcome."""

    def game_outcome(self, game_id: str, player_id: int) -> Outcome | None:
        """Return a finished game's outcome."""

    def finished_record(self, game_id: str, player_id: int) -> FinishedRecord:
        """Return a finished game of the player, their seat and that seat's kept review."""

    def finished_games(self, player_id: int | None, limit: int = 20) -> list[PlayedGame]:
        """Return the player's last finished games, the newest first."""

    def numbered_leaders(
        self, game: str, rules: str, *, since: datetime | None = None, limit: int = 20
    ) -> dict[str, list[Leader]]:
        """Return the numbered games' leaderboards: most first wins and most records held."""

    def make_challenge(self, game_id: str, player_id: int) -> Challenge:
        """Offer the player's own finished game as a challenge."""

    def challenge(self, challenge_id: str) -> Challenge:
        """Return a challenge."""

    def challenge_answers(self, challenge_id: str) -> list[ChallengeAnswer]:
        """Return the friends' counted answers to a challenge."""

    def daily_deal(self, game: str, rules_key: str, day: date) -> DailyDeal:
        """Return a day's deal of a game under a rule set (drawn now when nobody has)."""

    def daily_board(
        self, game: str, rules_key: str, day: date, limit: int = 100, player_id: int | None = None
    ) -> DailyBoard:
        """Return a day's leaderboard: its first entries, how many it has, and the player's own."""

    def daily_entry(self, game: str, rules_key: str, day: date, player_id: int | None) -> DailyEntry | None:
        """Return the player's counted attempt at a day's deal, None without one."""

    def daily_streaks(self, game: str, player_id: int | None, now: date | None = None) -> DailyStreaks:
        """Return the player's streaks at a game's daily deals."""

    def admit_daily_player(self, game: str, day: date, address: str, player_id: int, cap: int = 3) -> bool:
        """Return whether the player's attempt at a day's deal may be ranked, as far as its address
        goes (the cap on new players a day), remembering an admitted new player."""

    def address_full(self, game: str, day: date, address: str, cap: int = 3) -> bool:
        """Return whether the address has ranked its new players of the day at the game's deal."""

    def stored_match(self, game_id: str) -> FinishedRecord:
        """Return any stored game, its owner's seat and that seat's kept review."""

    def keep_review(self, game_id: str, player_id: int, review: dict[str, Any]) -> None:
        """Keep the review of a finished game."""

    # numbered games and statistics
    def latest_numbered_outcome(self, player_id: int | None, game: str) -> Outcome | None:
        """Return the outcome of the player's last numbered game of ``game``."""

    def numbered_page(
        self, game: str, rules: str, player_id: int | None, offset: int, limit: int
    ) -> list[NumberedEntry]:
        """Return lines of the numbered-games picker."""

    def statistics(self, player_id: int | None) -> Statistics:
        """Return the player's statistics."""

    # friends' tables
    def create_table(
        self, game: str, host_id: int, settings: dict[str, Any], seats: list[Any]
    ) -> TableRecord:
        """Store a new table and return it (with its id and join code)."""

    def table_by_code(self, code: Any) -> TableRecord:
        """Return the table of a join code."""

    def table(self, table_id: Any) -> TableRecord:
        """Return a table by id."""

    def claim_table(self, table_id: Any) -> TableRecord:
        """Take a table over for this process: raise its owner epoch and return it."""

    def save_table(self, record: TableRecord) -> None:
        """Keep a table's seats, settings, phase and match."""

    def public_tables(self, game: str, limit: int = ...) -> list[TableRecord]:
        """Return the public tables gathering players."""

    def tables_in_play(self, game: str, limit: int = ...) -> list[TableRecord]:
        """Return the public tables Play now seats people at, in play."""

    def play_now(
        self,
        game: str,
        player_id: int,
        name: str,
        quick_key: str,
        settings: dict[str, Any],
        seats: list[Any],
        *,
        rated: bool,
    ) -> SeatClaim:
        """Seat a person at a public table (their claim, a free computer-held seat, or a new table)."""

    def claim_seat(self, table_id: str, player_id: int, name: str, seat: int | None = ...) -> SeatClaim:
        """Claim a computer-held seat of one public table (a watcher taking a seat)."""

    def claim_of(self, player_id: int) -> SeatClaim | None:
        """Return the person's seat claim, if any."""

    def pending_claims(self, table_id: str) -> list[Claim]:
        """Return a table's claims not yet honoured."""

    def leave_claim(self, player_id: int) -> None:
        """Give up a claim not yet honoured."""

    def report_name(self, reporter_id: int, table_id: Any, seat: Any) -> str:
        """Report the name at a seat of a table; return it."""

    def record_round(
        self, game: str, game_id: str, number: int, order: Sequence[RoundSeat], computers: Mapping[str, Skill]
    ) -> dict[int, Skill]:
        """Rate one round and keep it; return the people's ratings after it."""

    def rating(self, game: str, player_id: int) -> Skill | None:
        """Return a person's rating at a game."""

    def rating_history(self, game: str, player_id: int, limit: int = ...) -> list[tuple[datetime, Skill]]:
        """Return a person's rating after each rated round, oldest first."""

    def leaderboard(
        self, game: str, *, week: bool = ..., limit: int = ..., min_rounds: int = ...
    ) -> list[Standing]:
        """Return the people's leaderboard of a game."""
