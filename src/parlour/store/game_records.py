"""The games as records in the database: a game's row and its moves, appended (one at a time or in
batches across games) only once the engine has replayed them, finished by replaying the whole record
(whose result alone reaches statistics and numbered records), and read back.

Every method that reads or changes a game takes the player's id and refuses another player's game
exactly as it refuses a game that does not exist.
"""

from __future__ import annotations

import re
import secrets as _random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from parlour.errors import GameOver, InvalidInput, ParlourError
from parlour.games.base import (
    CHALLENGE_SECRET,
    DAILY_SECRET,
    GameDefinition,
    RecordSpec,
    Replay,
    SeatedReplay,
    Standing,
    Status,
)
from parlour.store.append_statements import Expected, at_once_parameters, statements_for
from parlour.store.challenges import challenge_partner, count_answer
from parlour.store.daily import count_attempt
from parlour.store.errors import GameOpen, MoveConflict, RankedDealOpen, UnknownGame
from parlour.store.models import GamePlayerRow, GameReviewRow, GameRow, MoveRow
from parlour.store.numbered import NumberedStore
from parlour.store.ranked import ranked_open
from parlour.store.records import NumberedEntry, apply_result
from parlour.store.replays import CorruptRecord, ReplayCache
from parlour.store.rows import as_utc, player_row, utcnow
from parlour.store.tables import refuse_older_epoch
from parlour.store.types import FinishedRecord, Outcome, PlayedGame, StoredGame

GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""The shape of a game id (``secrets.token_urlsafe(16)`` makes them)."""


class GameRecordsStore(NumberedStore):
    """The games' methods of :class:`~parlour.store.Store` (a game that ends enters its numbered
    records).

    The replayed state of open games is kept in memory (``_replays``, the store's), so appending a move
    checks only that move, whatever the length of the game; after a restart, or when another process
    wrote the game, the state is rebuilt from the record once.
    """

    _replays: ReplayCache

    def start_game(
        self,
        player_id: int,
        game: str,
        rules: Any,
        code: str,
        seats: Sequence[Any],
        numbered: int | None = None,
    ) -> str:
        """Store a new game and return its id.

        ``game`` is a registered game's name; ``rules`` the engine's rules (dataclass, mapping, preset
        name, or None to take them from the deal code, which must agree); ``code`` the deal code;
        ``seats`` a JSON list describing the seats (where a game has several, the player's own seat is
        the entry ``"human"`` or ``{"kind": "human", …}``); ``numbered`` the number of a numbered game.
        The game's definition checks all of it (:meth:`GameDefinition.prepare`) and deals it.

        Raises:
            InvalidInput: unknown game, rules that are not the game's, a bad code, a numbered game
            outside its range or under other rules. UnknownPlayer: no such player.
        """
        definition = self.games.get(game)
        return self.record_game(player_id, definition, definition.prepare(rules, code, seats, numbered))

    def record_game(
        self, player_id: int, definition: GameDefinition, spec: RecordSpec, epoch: int | None = None
    ) -> str:
        """Store a new game from its normalized record (a definition's ``new`` made it) and return its id.

        ``epoch`` is the owner epoch of the process dealing a friends' table's match (``spec.table``).

        Raises:
            InvalidInput: the deal does not start (a bad code). UnknownPlayer: no such player.
            TableMoved: another process has taken the table over since ``epoch``.
        """
        dealt = definition.replay(spec)  # a bad code fails here, before anything is stored
        now = utcnow()
        game_id = _random.token_urlsafe(16)
        with self._write() as session:
            if spec.table is not None and epoch is not None:
                _check_epochs(session, {spec.table: epoch})
            player_row(session, player_id)
            session.add(
                GameRow(
                    id=game_id,
                    player_id=player_id,
                    game=definition.name,
                    rules=spec.rules,
                    rules_key=spec.rules_key,
                    code=spec.code,
                    seats=spec.seats,
                    numbered=spec.numbered,
                    secret=spec.secret or None,
                    status=Status.OPEN,
                    move_count=0,
                    result=None,
                    created_at=now,
                    updated_at=now,
                    finished_at=None,
                    table_id=spec.table,
                    deal_drawn=spec.deal_drawn,
                )
            )
            session.flush()  # the game's row first: its other people's rows refer to it
            for seat, other in _other_people(spec.seats, player_id):
                session.add(GamePlayerRow(game_id=game_id, player_id=other, seat=seat, result=None))
        self._replays.keep({game_id: dealt})  # its first moves are checked against it, not a replay
        return game_id

    def append_moves(
        self,
        game_id: str,
        player_id: int,
        first_index: int,
        moves: Iterable[str],
        epoch: int | None = None,
    ) -> int:
        """Store ``moves`` as moves ``first_index``, ``first_index + 1``, … of the game; return the count.

        The moves are checked by replaying the game with the engine and are committed before this
        returns. Sending again moves already stored (a retry) changes nothing. ``epoch`` is the owner
        epoch of the process writing a friends' table's match.

        Raises:
            UnknownGame: no such game of this player. GameOver: the game is finished.
            MoveConflict: other moves are stored at those indices, or ``first_index`` leaves a gap.
            InvalidInput / IllegalMove: a move the engine rejects (its index is in the message);
            nothing is stored then.
            TableMoved: another process has taken the game's table over since ``epoch``.
        """
        taken: dict[str, Replay] = {}
        try:
            with self._write() as session:
                count = self._append(session, taken, game_id, player_id, first_index, list(moves), epoch)
        except BaseException:
            taken.clear()  # their state may hold moves that were not stored
            raise
        self._replays.keep(taken)
        return count

    def append_moves_many(
        self, batch: Sequence[tuple[str, int, int, Sequence[str]]], epochs: Mapping[str, int] | None = None
    ) -> list[int | ParlourError]:
        """Append moves to several games in one committed transaction: one disk flush for all of them.

        Each item is ``(game_id, player_id, first_index, moves)`` as for :meth:`append_moves`, with the
        writer's owner epoch in ``epochs`` (by game id) for a friends' table's match; the result at the
        same place is the game's new move count, or the error that ``append_moves`` would have raised
        for it. When an item is refused, the batch is written again item by item, so that the refused
        one stores nothing and the others stand. The web server gathers the moves of many live games
        this way (group commit).
        """
        epochs = epochs or {}
        taken: dict[str, Replay] = {}
        try:
            with self._write() as session:
                counts = self._append_batch(session, taken, batch, epochs)
        except ParlourError:
            taken.clear()
        else:
            self._replays.keep(taken)
            return counts
        results: list[int | ParlourError] = []
        for game_id, player_id, first_index, moves in batch:
            try:
                results.append(self.append_moves(game_id, player_id, first_index, moves, epochs.get(game_id)))
            except ParlourError as error:
                results.append(error)
        return results

    def game_record(self, game_id: str, player_id: int) -> StoredGame:
        """Return the stored game with all its moves.

        Raises:
            UnknownGame: no such game of this player (another player's game included).
        """
        with self._read() as session:
            row = _game_row(session, game_id, player_id)
            return _record(row, _moves(session, game_id), session)

    def open_games(self, player_id: int, game: str | None = None) -> list[StoredGame]:
        """Return the player's games still being played (of one game kind if given), oldest first."""
        with self._read() as session:
            # A friends' table's match is the table's, not one of the host's own games.
            query = select(GameRow).where(
                GameRow.player_id == player_id, GameRow.status == Status.OPEN, GameRow.table_id.is_(None)
            )
            if game is not None:
                query = query.where(GameRow.game == game)
            rows = list(session.scalars(query.order_by(GameRow.created_at, GameRow.id)))
            return [_record(row, _moves(session, row.id), session) for row in rows]

    def finish_game(self, game_id: str, player_id: int) -> Outcome:
        """End the game (finished, or left unfinished) and return what it produced.

        The result comes only from replaying the stored moves with the engine; records and statistics
        are updated in the same transaction. A game left before any move counts for neither (its
        result says ``empty``). Finishing a finished game returns its outcome again.

        Raises:
            UnknownGame: no such game of this player.
        """
        taken: dict[str, Replay] = {}
        with self._write() as session:
            row = _game_row(session, game_id, player_id, lock=True)
            if row.status != Status.OPEN:
                return self._with_record(_outcome_from(row))
            # The result comes from the whole stored record, read again: what reaches the records is
            # never the kept state, nor a move count, but the moves in the database replayed.
            self._replays.forget(game_id)
            stored = _moves(session, game_id)
            replayed = self._replay_of(session, taken, row, stored)
            ended = replayed.result(ended=True)
            result = dict(ended.data)
            # A game left before its first move is no result: it neither sets a record nor counts
            # as played (a player who deals twice has not lost a game).
            result["empty"] = not stored or not ended.played
            now = utcnow()
            outcome: dict[str, Any] = {"game_id": row.id, "game": row.game, "status": ended.status}
            standing = self._standing(row.game, ended.data) if row.numbered is not None else None
            if row.numbered is not None and not result["empty"] and standing is not None:
                wins = self.numbered_games(row.game).wins(standing)
                entered = NumberedEntry(row.game, row.rules_key, row.numbered, standing, wins)
                change = apply_result(session, entered, player_id, now)
                outcome.update(
                    numbered=row.numbered,
                    rules_key=row.rules_key,
                    first_win=change.first_win,
                    record_broken=change.record_broken,
                    holds_record=change.holds_record,
                    personal_best=change.personal_best,
                )
            definition = self.games.find(row.game)
            flags: dict[str, Any] = {key: outcome.get(key, False) for key in _FLAGS}
            daily = definition.daily if definition is not None else None
            if daily is not None and (row.secret or {}).get(DAILY_SECRET):
                # An attempt at a daily deal: the player's first of the day to end is the one counted.
                counted = not result["empty"] and count_attempt(session, daily, row, result, now)
                flags["daily"] = "counted" if counted else "practice"
            if (row.secret or {}).get(CHALLENGE_SECRET) and not result["empty"]:
                count_answer(session, row, result, now)  # a friend's answer to a challenge
            row.status = ended.status
            row.result = {**result, "outcome": flags}
            row.finished_at = row.updated_at = now
            if isinstance(replayed, SeatedReplay):  # every other person's own result, from the replay
                others = session.scalars(select(GamePlayerRow).where(GamePlayerRow.game_id == game_id))
                for other in others:
                    theirs = replayed.result_for(other.seat, ended=True)
                    other.result = {**theirs.data, "empty": not stored or not theirs.played}
        self._replays.forget(game_id)
        return self._with_record(_outcome_from(row))

    def _with_record(self, outcome: Outcome) -> Outcome:
        if outcome.numbered is None:
            return outcome
        record = self.numbered_record(outcome.game, outcome.rules_key or "", outcome.numbered)
        return replace(outcome, record=record, standing=self._standing(outcome.game, outcome.result))

    def _standing(self, game: str, data: Mapping[str, Any]) -> Standing | None:
        """Return the standing of a numbered game's result ``data`` (None: it has none)."""
        return self.numbered_games(game).standing_of(dict(data))

    def finished_games(self, player_id: int | None, limit: int = 20) -> list[PlayedGame]:
        """Return the player's last ``limit`` finished games, the newest first: their own and the
        matches they played at friends' tables (none for no player)."""
        if player_id is None:
            return []
        with self._read() as session:
            seated = select(GamePlayerRow.game_id).where(GamePlayerRow.player_id == player_id)
            query = (
                select(GameRow)
                .where(
                    (GameRow.player_id == player_id) | GameRow.id.in_(seated),
                    GameRow.status != Status.OPEN,
                    GameRow.finished_at.is_not(None),
                )
                .order_by(GameRow.finished_at.desc(), GameRow.created_at.desc(), GameRow.id)
                .limit(max(0, limit))
            )
            return [
                PlayedGame(
                    game_id=row.id,
                    game=row.game,
                    rules_key=row.rules_key,
                    status=row.status,
                    numbered=row.numbered,
                    finished_at=as_utc(row.finished_at),
                )
                for row in session.scalars(query)
                if row.finished_at is not None
            ]

    def game_outcome(self, game_id: str, player_id: int) -> Outcome | None:
        """Return the outcome of a finished game (None while it is open), with the game's record now.

        Raises:
            UnknownGame: no such game of this player.
        """
        with self._read() as session:
            row = _game_row(session, game_id, player_id)
            if row.status == Status.OPEN:
                return None
            outcome = _outcome_from(row)
        return self._with_record(outcome)

    def latest_numbered_outcome(self, player_id: int | None, game: str) -> Outcome | None:
        """Return the outcome of the player's most recently ended numbered game of ``game``, None if
        there is none (or no player, ``None``)."""
        if player_id is None:
            return None
        with self._read() as session:
            row = session.scalars(
                select(GameRow)
                .where(
                    GameRow.player_id == player_id,
                    GameRow.game == game,
                    GameRow.status != Status.OPEN,
                    GameRow.numbered.is_not(None),
                )
                .order_by(GameRow.finished_at.desc(), GameRow.created_at.desc(), GameRow.id)
                .limit(1)
            ).first()
            outcome = _outcome_from(row) if row is not None else None
        return self._with_record(outcome) if outcome is not None else None

    def finished_record(self, game_id: str, player_id: int) -> FinishedRecord:
        """Return a finished game of the player (the owner's, or one they played at a friends' table),
        the seat they played it from, and the review of that seat kept (None when none is kept yet).

        Raises:
            UnknownGame: no such game of this player. GameOpen: the game is still being played (a
            review would tell its hidden cards).
        """
        with self._read() as session:
            row = _played_row(session, game_id, player_id)
            if row.status == Status.OPEN:
                raise GameOpen(f"game {game_id!r} is still being played")
            if ranked_open(session, row.player_id, row.secret):
                raise RankedDealOpen(f"game {game_id!r} is ranked: its deal is not told yet")
            seat = _seat_of(session, row, player_id)
            kept = session.get(GameReviewRow, (game_id, seat))
            record = _record(row, _moves(session, game_id), session)
            return FinishedRecord(record, seat, dict(kept.review) if kept else None)

    def stored_match(self, game_id: str) -> FinishedRecord:
        """Return any stored game by its id, whoever played it (the operator's command line), with its
        owner's seat and that seat's kept review.

        Raises:
            UnknownGame: no game has this id.
        """
        with self._read() as session:
            row = session.get(GameRow, game_id) if GAME_ID.fullmatch(game_id) else None
            if row is None:
                raise UnknownGame(f"there is no game {game_id!r}")
            seat = _seat_of(session, row, row.player_id)
            kept = session.get(GameReviewRow, (game_id, seat))
            return FinishedRecord(
                _record(row, _moves(session, game_id), session), seat, dict(kept.review) if kept else None
            )

    def keep_review(self, game_id: str, player_id: int, review: dict[str, Any]) -> None:
        """Keep the review of a finished game from the player's seat (a review kept already stays as
        it is).

        Raises:
            UnknownGame: no such game of this player. GameOpen: the game is still being played.
        """
        with self._write() as session:
            row = _played_row(session, game_id, player_id)
            if row.status == Status.OPEN:
                raise GameOpen(f"game {game_id!r} is still being played")
            seat = _seat_of(session, row, player_id)
            if session.get(GameReviewRow, (game_id, seat)) is None:
                session.add(GameReviewRow(game_id=game_id, seat=seat, review=review, made_at=utcnow()))

    # --- replays --------------------------------------------------------------------------------------

    def _replay_of(
        self, session: Session, taken: dict[str, Replay], row: GameRow, stored: list[str] | None = None
    ) -> Replay:
        """Return the replayed state of an open game after its stored moves: kept from the last append
        when it is up to date, else replayed from the record (after a restart, or when another process
        wrote to the game). It is taken out of the cache; the caller keeps it again after its commit.
        ``stored`` are the game's moves when the caller has read them already.

        Raises:
            CorruptRecord: a stored move is rejected. UnknownGameKind: the game is not registered.
        """
        found = taken.get(row.id)
        if found is not None:
            return found
        definition = self.games.get(row.game)
        replayed = self._replays.take(row.id, row.move_count)
        if replayed is None:
            replayed = definition.replay(_spec(row))
            for index, move in enumerate(_moves(session, row.id) if stored is None else stored):
                try:
                    replayed.apply(move)
                except ParlourError as error:
                    raise CorruptRecord(
                        f"stored move {index} {move!r} of this game is rejected: {error}"
                    ) from error
        taken[row.id] = replayed
        return replayed

    def _append(
        self,
        session: Session,
        taken: dict[str, Replay],
        game_id: str,
        player_id: int,
        first_index: int,
        moves: list[str],
        epoch: int | None = None,
    ) -> int:
        """The body of ``append_moves`` inside an open write transaction (see there)."""
        row = _game_row(session, game_id, player_id, lock=True)
        if epoch is not None and row.table_id is not None:
            _check_epochs(session, {row.table_id: epoch})
        new = _moves_past(session, row, first_index, moves)
        if not new:
            return row.move_count
        new = _check(self._replay_of(session, taken, row), row.move_count, new)
        session.add_all(
            MoveRow(game_id=game_id, index=row.move_count + offset, move=move)
            for offset, move in enumerate(new)
        )
        row.move_count += len(new)
        row.updated_at = utcnow()
        return row.move_count

    def _append_batch(
        self,
        session: Session,
        taken: dict[str, Replay],
        batch: Sequence[tuple[str, int, int, Sequence[str]]],
        epochs: Mapping[str, int],
    ) -> list[int | ParlourError]:
        """``_append`` for every item with a handful of statements in all (see ``append_moves_many``).

        Raises:
            ParlourError: the first item refused (the caller then writes the batch item by item).
        """
        ids = sorted({game_id for game_id, *_ in batch})
        # Locked like ``_append`` does, so that batches from several servers on one PostgreSQL queue up.
        # Plain statements reading only what an append needs (``append_statements``): the ORM's
        # machinery, and then SQLAlchemy's execution itself, cost as much as the database at a few
        # hundred moves a second (a game whose replayed state is not kept is loaded whole, by
        # ``_replay_for``).
        statements = statements_for(session.connection())
        rows = statements.lock_games(ids)
        fenced = {
            rows[game_id].table_id: epoch
            for game_id, epoch in epochs.items()
            if game_id in rows and rows[game_id].table_id is not None
        }
        if fenced:
            held = statements.table_epochs(sorted(key for key in fenced if key is not None))
            for table_id, epoch in held.items():
                refuse_older_epoch(table_id, epoch, fenced[table_id])
        counts_now = {game_id: row.move_count for game_id, row in rows.items()}
        inserts: list[dict[str, Any]] = []
        counts: list[int | ParlourError] = []
        for game_id, player_id, first_index, moves in batch:
            row = rows.get(game_id)
            if row is None or row.player_id != player_id:
                raise UnknownGame(f"you have no game {game_id!r}")
            known = counts_now[game_id]
            new = _moves_past(session, row, first_index, list(moves), known=known, pending=inserts)
            if new:
                new = _check(self._replay_for(session, taken, game_id, row.move_count), known, new)
            inserts.extend(
                {"game_id": game_id, "index": known + i, "move": move} for i, move in enumerate(new)
            )
            counts_now[game_id] = known + len(new)
            counts.append(counts_now[game_id])
        if inserts:
            statements.insert_moves(inserts)
            changed = {item["game_id"] for item in inserts}
            statements.set_counts({game_id: counts_now[game_id] for game_id in changed}, utcnow())
        return counts

    def plan_appends(
        self, batch: Sequence[tuple[str, int, int, Sequence[str]]], epochs: Mapping[str, int] | None = None
    ) -> AppendPlan | None:
        """Prepare ``append_moves_many`` as one statement, for the common case: every game's replayed
        state is kept at the move its first item starts from, each item follows the one before of its
        game, and the engine accepts every move (checked here, against those states, which the plan
        holds until :meth:`appended`). Return None when the batch is not of that case (nothing is
        taken then, but a state whose move was refused is dropped: the long way replays the record).

        The statement confirms under the rows' locks what the plan assumes (each game open, of its
        player, with that many moves stored, its table at the writer's epoch) and writes everything,
        or nothing. Run twice (a first run committed without its answer arriving), the second finds
        the counts moved on and writes nothing; the long way then finds the moves stored.
        """
        epochs = epochs or {}
        expected: dict[str, Expected] = {}
        counts_now: dict[str, int] = {}
        for game_id, player_id, first_index, moves in batch:
            if game_id not in expected:
                expected[game_id] = Expected(player_id, first_index, epochs.get(game_id))
            elif counts_now[game_id] != first_index or expected[game_id].player_id != player_id:
                return None
            counts_now[game_id] = first_index + len(moves)
        taken: dict[str, Replay] = {}
        for game_id, assumed in expected.items():
            replay = self._replays.take(game_id, assumed.move_count)
            if replay is None:
                self._replays.keep(taken)  # untouched: kept as they were
                return None
            taken[game_id] = replay
        inserts: list[tuple[str, int, str]] = []
        results: list[int] = []
        try:
            for game_id, _, first_index, moves in batch:
                new = _check(taken[game_id], first_index, list(moves))
                inserts.extend((game_id, first_index + i, move) for i, move in enumerate(new))
                results.append(first_index + len(new))
        except ParlourError:
            return None  # the states taken have moved on: the long way replays the records
        changed = {game_id: counts_now[game_id] for game_id, _, _ in inserts}
        parameters = at_once_parameters(expected, inserts, changed, Status.OPEN, utcnow())
        return AppendPlan(parameters, results, taken)

    def appended(self, plan: AppendPlan) -> None:
        """Keep the replayed states of a plan whose statement committed."""
        self._replays.keep(plan.taken)

    def _replay_for(self, session: Session, taken: dict[str, Replay], game_id: str, stored: int) -> Replay:
        """``_replay_of`` by the game's id and stored move count: the game's row is loaded only when its
        replayed state is not kept."""
        found = taken.get(game_id)
        if found is None:
            found = self._replays.take(game_id, stored)
            if found is not None:
                taken[game_id] = found
        if found is not None:
            return found
        row = session.get(GameRow, game_id)
        if row is None:
            raise UnknownGame(f"you have no game {game_id!r}")
        return self._replay_of(session, taken, row)


@dataclass(frozen=True)
class AppendPlan:
    """A batch of moves ready to be written by one statement (``GameRecordsStore.plan_appends``).

    Attributes:
        parameters: the statement's (``append_statements.APPEND_AT_ONCE``).
        results: each item's new move count, once written.
        taken: the games' replayed states, the moves applied, held until the statement committed.
    """

    parameters: Mapping[str, Any]
    results: list[int]
    taken: dict[str, Replay]


def _check_epochs(session: Session, epochs: Mapping[str, int]) -> None:
    """Refuse, under the tables' rows' locks, a write to a table taken over since its epoch (table id →
    the writer's epoch): the lock makes a takeover wait for the write, or the write see the takeover.

    Raises:
        TableMoved: one of the tables has another owner now.
    """
    held = statements_for(session.connection()).table_epochs(sorted(epochs))
    for table_id, epoch in held.items():
        refuse_older_epoch(table_id, epoch, epochs[table_id])


def _other_people(seats: Sequence[Any], owner: int) -> list[tuple[int, int]]:
    """Return ``(seat, player id)`` of the people in a record's seats other than its owner (a
    friends' table's match: ``{"kind": "human", "player": id}``), each player once."""
    found: dict[int, int] = {}
    for seat, entry in enumerate(seats):
        if not isinstance(entry, dict) or entry.get("kind") != "human":
            continue
        player = entry.get("player")
        if isinstance(player, int) and not isinstance(player, bool) and player != owner:
            found.setdefault(player, seat)
    return [(seat, player) for player, seat in found.items()]


_FLAGS = ("first_win", "record_broken", "holds_record", "personal_best")


def _check(replayed: Replay, stored: int, new: Sequence[str]) -> list[str]:
    """Apply ``new`` moves to the replayed state of a game with ``stored`` moves; return them canonical.

    Raises:
        InvalidInput / IllegalMove: the first rejected move, its index and text in the message and the
            engine's reason code kept (the caller then drops the replayed state).
    """
    canonical = []
    for offset, move in enumerate(new):
        if not isinstance(move, str):
            raise InvalidInput(f"move {stored + offset}: a move is text, not {move!r}")
        try:
            canonical.append(replayed.apply(move))
        except ParlourError as error:
            raise type(error)(f"move {stored + offset} {move!r}: {error}", code=error.code) from error
    return canonical


class _GameState(Protocol):
    """What an append reads of a game: its row, or the few columns the batched append selects."""

    @property
    def id(self) -> str: ...
    @property
    def move_count(self) -> int: ...
    @property
    def status(self) -> str: ...


def _moves_past(
    session: Session,
    row: _GameState,
    first_index: int,
    moves: list[str],
    *,
    known: int | None = None,
    pending: Sequence[dict[str, Any]] = (),
) -> list[str]:
    """The moves not stored yet, when ``moves`` from ``first_index`` on agree with the stored ones.

    Only the stored moves the new ones overlap are read (none for a plain append), so the cost does not
    grow with the game. ``known`` is the game's move count when it differs from the row's (moves of the
    same game earlier in a batch, given in ``pending``).

    Raises:
        GameOver: the game is not open.
        MoveConflict: the moves start past the stored ones, or differ from them where they overlap.
    """
    count = row.move_count if known is None else known
    if row.status != Status.OPEN:
        raise GameOver(f"game {row.id!r} is over ({row.status}): no more moves")
    if first_index < 0 or first_index > count:
        raise MoveConflict(f"moves cannot start at index {first_index}: the game has {count} moves")
    end = min(count, first_index + len(moves))
    overlap: list[str] = []
    if first_index < end:
        queued = {item["index"]: item["move"] for item in pending if item["game_id"] == row.id}
        found = session.execute(
            select(MoveRow.index, MoveRow.move).where(
                MoveRow.game_id == row.id, MoveRow.index >= first_index, MoveRow.index < end
            )
        )
        stored = {index: move for index, move in found}
        stored.update(queued)
        overlap = [stored[index] for index in range(first_index, end)]
    if moves[: len(overlap)] != overlap:
        raise MoveConflict(
            f"moves from index {first_index} differ from the stored ones: {moves!r} vs {overlap!r}"
        )
    return moves[len(overlap) :]


def _game_row(session: Session, game_id: str, player_id: int, *, lock: bool = False) -> GameRow:
    # An id that no game can have (a NUL byte, 10,000 characters) is no game, and never reaches the SQL.
    if not isinstance(game_id, str) or GAME_ID.fullmatch(game_id) is None:
        raise UnknownGame(f"you have no game {game_id[:50]!r}" if isinstance(game_id, str) else "no game")
    query = select(GameRow).where(GameRow.id == game_id, GameRow.player_id == player_id)
    if lock:
        query = query.with_for_update()
    row = session.execute(query).scalar_one_or_none()
    if row is None:
        raise UnknownGame(f"you have no game {game_id!r}")
    return row


def _played_row(session: Session, game_id: str, player_id: int) -> GameRow:
    """Return a game the player owns or played at a friends' table (a seat of theirs in
    ``game_players``).

    Raises:
        UnknownGame: no such game, or nobody's game this player played.
    """
    if not isinstance(game_id, str) or GAME_ID.fullmatch(game_id) is None:
        raise UnknownGame("no game")
    row = session.get(GameRow, game_id)
    if row is not None and row.player_id != player_id:
        seated = session.get(GamePlayerRow, (game_id, player_id))
        # A challenge's two sides may see each other's game once the friend's answer has ended.
        row = row if seated is not None or challenge_partner(session, game_id, player_id) else None
    if row is None:
        raise UnknownGame(f"you have no game {game_id!r}")
    return row


def _seat_of(session: Session, row: GameRow, player_id: int) -> int:
    """Return the seat the player played a game from: another person's seat at a friends' table is
    in ``game_players``; the owner's is the seat that names them, else (a game played alone) the
    first person's seat, else 0."""
    if row.player_id != player_id:
        seated = session.get(GamePlayerRow, (row.id, player_id))
        return seated.seat if seated is not None else 0
    people = [
        (seat, entry)
        for seat, entry in enumerate(row.seats or ())
        if (isinstance(entry, dict) and entry.get("kind") == "human") or entry == "human"
    ]
    named = (seat for seat, entry in people if isinstance(entry, dict) and entry.get("player") == player_id)
    return next(named, people[0][0] if people else 0)


def _moves(session: Session, game_id: str) -> list[str]:
    return list(
        session.scalars(select(MoveRow.move).where(MoveRow.game_id == game_id).order_by(MoveRow.index))
    )


def _spec(row: GameRow) -> RecordSpec:
    return RecordSpec(row.rules, row.rules_key, row.code, list(row.seats), row.numbered, row.secret or {})


def _record(row: GameRow, moves: list[str], session: Session) -> StoredGame:
    return StoredGame(
        game_id=row.id,
        player_id=row.player_id,
        game=row.game,
        rules=row.rules,
        rules_key=row.rules_key,
        code=row.code,
        seats=row.seats,
        numbered=row.numbered,
        status=row.status,
        moves=moves,
        result=row.result,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
        finished_at=as_utc(row.finished_at) if row.finished_at else None,
        secret=row.secret,
        ranked_open=ranked_open(session, row.player_id, row.secret),
    )


def _outcome_from(row: GameRow) -> Outcome:
    result = dict(row.result or {})
    flags = result.pop("outcome", {})
    return Outcome(
        game_id=row.id,
        game=row.game,
        status=row.status,
        result=result,
        numbered=row.numbered,
        rules_key=row.rules_key if row.numbered is not None else None,
        first_win=bool(flags.get("first_win")),
        record_broken=bool(flags.get("record_broken")),
        holds_record=bool(flags.get("holds_record")),
        personal_best=bool(flags.get("personal_best")),
        daily=flags.get("daily") if flags.get("daily") in ("counted", "practice") else None,
    )
