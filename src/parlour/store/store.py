"""The store: the one object the server and the command line use to reach the database.

Every method opens its own session and commits before returning, so a ``Store`` can be shared by
threads. Writes run in transactions that take their locks up front (``BEGIN IMMEDIATE`` on SQLite,
row locks on PostgreSQL). Every method that reads or changes a game takes the player's id and refuses
another player's game exactly as it refuses a game that does not exist.
"""

from __future__ import annotations

import os
import re
import secrets as _random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any, Final, Protocol

from sqlalchemy import Engine, delete, func, select, text, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from parlour.errors import GameOver, InvalidInput, ParlourError
from parlour.games.base import (
    FinishedGame,
    GameDefinition,
    RecordSpec,
    Replay,
    SeatedReplay,
    Standing,
    Status,
)
from parlour.games.registry import Registry, default_registry
from parlour.store import preferences as prefs
from parlour.store import secrets
from parlour.store.append_statements import statements_for
from parlour.store.database import make_engine, resolve_url
from parlour.store.database import upgrade as upgrade_database
from parlour.store.deadline import Deadlines
from parlour.store.errors import (
    InvalidRecoveryCode,
    MoveConflict,
    StoreUnavailable,
    UnknownGame,
)
from parlour.store.models import (
    GamePlayerRow,
    GameRow,
    MoveRow,
    PlayerRow,
    TokenRow,
)
from parlour.store.numbered import NumberedStore
from parlour.store.records import NumberedResult, apply_result
from parlour.store.replays import CorruptRecord, ReplayCache
from parlour.store.rows import as_utc, player_of, player_row, utcnow
from parlour.store.tables import TablesStore, refuse_older_epoch
from parlour.store.types import (
    GameRecord,
    NewPlayer,
    Outcome,
    Player,
    Statistics,
)

NAME_LENGTH = 40
TOKEN_AGE: Final = timedelta(days=180)
"""A browser token not used for this long expires (the player comes back with the recovery code)."""
TOKEN_RENEWAL: Final = timedelta(days=1)
"""A token's last use is written at most this often."""
GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""The shape of a game id (``secrets.token_urlsafe(16)`` makes them)."""


@contextmanager
def _unavailable_as_error(url: URL) -> Iterator[None]:
    """Turn a database failure (connection lost, disk full, read-only file) into ``StoreUnavailable``."""
    try:
        yield
    except SQLAlchemyError as error:
        where = url.render_as_string(hide_password=True)
        # The driver's own first line says what happened; SQLAlchemy's statement, parameters and link
        # to its documentation are for a developer's traceback, not a message.
        cause = getattr(error, "orig", None) or error
        first = (str(cause).strip().splitlines() or [""])[0]
        raise StoreUnavailable(
            f"the database {where} failed: {type(cause).__name__}: {first}"[:500]
        ) from error


def clean_name(name: str) -> str:
    """Return a display name trimmed and checked.

    Raises:
        InvalidInput: empty, longer than 40 characters, or holding control characters.
    """
    cleaned = " ".join(name.split())
    if not cleaned:
        raise InvalidInput(f"a display name cannot be empty: {name!r}", code="invalid_name")
    if len(cleaned) > NAME_LENGTH:
        raise InvalidInput(
            f"a display name has at most {NAME_LENGTH} characters: {name!r}", code="invalid_name"
        )
    if any(not char.isprintable() for char in cleaned):
        raise InvalidInput(f"a display name cannot hold control characters: {name!r}", code="invalid_name")
    return cleaned


class Store(NumberedStore, TablesStore):
    """Players, games as records, numbered-game records and statistics in one database.

    ``url`` is an SQLAlchemy URL; None means ``$PARLOUR_DATABASE_URL`` or the SQLite file in the
    user's data directory. ``games`` are the games it records (default: Parlour's registry); every
    record is checked and replayed by its game's definition. Call :meth:`upgrade` once before use (the
    server does it at start).

    The replayed state of open games is kept in memory (:class:`ReplayCache`), so appending a move
    checks only that move, whatever the length of the game; after a restart, or when another process
    wrote the game, the state is rebuilt from the record once.
    """

    def __init__(self, url: str | URL | None = None, *, games: Registry | None = None) -> None:
        self.url: URL = resolve_url(url) if not isinstance(url, URL) else url
        try:
            self.engine: Engine = make_engine(self.url)
        except OSError as error:  # the SQLite file's directory cannot be made
            raise StoreUnavailable(f"the database {self.url.database} cannot be created: {error}") from error
        self.deadlines = Deadlines()
        """The deadlines of calls made :meth:`within` a time limit (PostgreSQL's connections are
        followed, and pinged when taken from the pool)."""
        if self.backend != "sqlite":
            self.deadlines.watch(self.engine)
        self._writer = self.engine.execution_options(parlour_write=True)
        self.games: Registry = games if games is not None else default_registry()
        self._replays = ReplayCache()
        database = self.url.database if self.backend == "sqlite" else None
        # The SQLite file and its identity (device, inode), taken at the first write.
        self._file: tuple[Path, tuple[int, int] | None] | None = (
            (Path(database), None) if database and database != ":memory:" else None
        )

    def upgrade(self) -> None:
        """Apply the database migrations up to the newest (creating the tables in an empty database).

        Raises:
            StoreUnavailable: the database cannot be reached or changed.
        """
        with _unavailable_as_error(self.url):
            try:
                upgrade_database(self.engine)
            except OSError as error:  # an SQLite directory that cannot be made or written
                raise StoreUnavailable(
                    f"the database {self.url.database} cannot be opened: {error}"
                ) from error

    def within(self, seconds: float) -> AbstractContextManager[None]:
        """Return a context in which this thread's calls to a PostgreSQL that stops answering fail with
        ``StoreUnavailable`` after ``seconds`` instead of waiting for it (see ``parlour.store.deadline``;
        SQLite, a local file, needs none)."""
        return self.deadlines.within(seconds)

    def ping(self) -> None:
        """Ask the database the smallest question (a readiness check).

        Raises:
            StoreUnavailable: it does not answer, or its file cannot be used.
        """
        with _unavailable_as_error(self.url):
            self._check_file()  # an SQLite file deleted or replaced is no database to serve from
        with self._read() as session:
            session.execute(text("SELECT 1"))

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    @property
    def backend(self) -> str:
        """Return the database's kind: ``sqlite`` or ``postgresql``."""
        return self.url.get_backend_name()

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with _unavailable_as_error(self.url):
            self._check_writable()  # a WAL reader writes too: its read marks, in the -shm file
            session = Session(self.engine, expire_on_commit=False)
            with session, session.begin():
                yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with _unavailable_as_error(self.url):
            self._check_file()
            with Session(self._writer, expire_on_commit=False) as session, session.begin():
                yield session

    def _check_file(self) -> None:
        """Refuse to write when the SQLite file was deleted or replaced since the store opened it: SQLite
        would go on writing to the deleted file, and every move would be acknowledged into the void.

        Raises:
            StoreUnavailable: the file is gone or is another file now.
        """
        if self._file is None:
            return
        path, identity = self._file
        try:
            found = path.stat()
        except OSError as error:
            raise StoreUnavailable(f"the database file {path} is gone: {error}") from error
        if identity is None:
            self._file = (path, (found.st_dev, found.st_ino))
        elif (found.st_dev, found.st_ino) != identity:
            raise StoreUnavailable(f"the database file {path} was replaced while the server ran")
        self._check_writable()

    def _check_writable(self) -> None:
        """Refuse to touch an SQLite database whose files cannot be written any more (made read-only
        or immutable under a running server): SQLite maps its ``-shm`` file into memory, and a write
        to a mapped page the file system refuses kills the process with SIGBUS, which cannot be
        caught. Checked before every call; a file changed during a call is not (``docs/storage.md``).

        Raises:
            StoreUnavailable: one of the database's files is not writable.
        """
        if self._file is None:
            return
        path = self._file[0]
        for suffix in ("", "-wal", "-shm"):
            part = path.with_name(path.name + suffix)
            if not os.access(part, os.W_OK) and part.exists():
                raise StoreUnavailable(f"the database file {part} cannot be written")

    # Players -----------------------------------------------------------------------------------

    def create_player(self, name: str | None = None) -> NewPlayer:
        """Create a player with a browser token and a recovery code, both returned in clear only now.

        Raises:
            InvalidInput: an unacceptable display name.
        """
        display = clean_name(name) if name is not None else None
        token, code, now = secrets.new_token(), secrets.new_recovery_code(), utcnow()
        with self._write() as session:
            row = PlayerRow(name=display, recovery_hash=secrets.digest(code), preferences={}, created_at=now)
            session.add(row)
            session.flush()
            session.add(TokenRow(token_hash=secrets.digest(token), player_id=row.id, created_at=now))
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

    def rename(self, player_id: int, name: str) -> Player:
        """Set the player's display name and return the player.

        Raises:
            InvalidInput: an unacceptable name. UnknownPlayer: no such player.
        """
        display = clean_name(name)
        with self._write() as session:
            row = player_row(session, player_id)
            row.name = display
            return player_of(row)

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

    def recover(self, recovery_code: str) -> str:
        """Return a new browser token for the player whose recovery code this is.

        Raises:
            InvalidRecoveryCode: the code is malformed or belongs to nobody.
        """
        canonical = secrets.normalize_recovery_code(recovery_code)
        if canonical is None:
            raise InvalidRecoveryCode(f"not a recovery code: {recovery_code!r}")
        token = secrets.new_token()
        with self._write() as session:
            player_id = session.scalar(
                select(PlayerRow.id).where(PlayerRow.recovery_hash == secrets.digest(canonical))
            )
            if player_id is None:
                raise InvalidRecoveryCode(f"no player has the recovery code {recovery_code!r}")
            session.add(
                TokenRow(
                    token_hash=secrets.digest(token),
                    player_id=player_id,
                    created_at=utcnow(),
                    recovery_hash=secrets.digest(canonical),
                )
            )
        return token

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

    # Games ---------------------------------------------------------------------------------------

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
        definition.replay(spec)  # deals it: a bad code fails here, before anything is stored
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
                )
            )
            session.flush()  # the game's row first: its other people's rows refer to it
            for seat, other in _other_people(spec.seats, player_id):
                session.add(GamePlayerRow(game_id=game_id, player_id=other, seat=seat, result=None))
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

    def game_record(self, game_id: str, player_id: int) -> GameRecord:
        """Return the stored game with all its moves.

        Raises:
            UnknownGame: no such game of this player (another player's game included).
        """
        with self._read() as session:
            row = _game_row(session, game_id, player_id)
            return _record(row, _moves(session, game_id))

    def open_games(self, player_id: int, game: str | None = None) -> list[GameRecord]:
        """Return the player's games still being played (of one game kind if given), oldest first."""
        with self._read() as session:
            # A friends' table's match is the table's, not one of the host's own games.
            query = select(GameRow).where(
                GameRow.player_id == player_id, GameRow.status == Status.OPEN, GameRow.table_id.is_(None)
            )
            if game is not None:
                query = query.where(GameRow.game == game)
            rows = list(session.scalars(query.order_by(GameRow.created_at, GameRow.id)))
            return [_record(row, _moves(session, row.id)) for row in rows]

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
                entered = NumberedResult(row.game, row.rules_key, row.numbered, standing, wins)
                change = apply_result(session, entered, player_id, now)
                outcome.update(
                    numbered=row.numbered,
                    rules_key=row.rules_key,
                    first_win=change.first_win,
                    record_broken=change.record_broken,
                    holds_record=change.holds_record,
                    personal_best=change.personal_best,
                )
            row.status = ended.status
            row.result = {**result, "outcome": {key: outcome.get(key, False) for key in _FLAGS}}
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
                .order_by(GameRow.finished_at.desc(), GameRow.id)
                .limit(1)
            ).first()
            outcome = _outcome_from(row) if row is not None else None
        return self._with_record(outcome) if outcome is not None else None

    # Numbered games and statistics ------------------------------------------------------------------

    def statistics(self, player_id: int | None) -> Statistics:
        """Return the player's statistics, folded by each game from the replayed results of their
        finished games, in the order they ended.

        Computing them from the game records, rather than keeping counters, means they can never
        drift from the games themselves, and a new figure applies to old games too. A game left before
        its first move (``empty`` result) does not count at all; games no registered game knows are
        left out. A visitor who has no player yet (``None``) gets every game's figures of no game.

        Raises:
            UnknownPlayer: no such player.
        """
        if player_id is None:
            return Statistics({definition.name: definition.fold([]) for definition in self.games})
        with self._read() as session:
            player_row(session, player_id)
            own = select(
                GameRow.game,
                GameRow.rules_key,
                GameRow.result,
                GameRow.finished_at,
                GameRow.created_at,
                GameRow.id,
            ).where(GameRow.player_id == player_id, GameRow.status != Status.OPEN)
            # Matches played at another person's table count too, with this player's own result.
            shared = (
                select(
                    GameRow.game,
                    GameRow.rules_key,
                    GamePlayerRow.result,
                    GameRow.finished_at,
                    GameRow.created_at,
                    GameRow.id,
                )
                .join(GamePlayerRow, GamePlayerRow.game_id == GameRow.id)
                .where(GamePlayerRow.player_id == player_id, GameRow.status != Status.OPEN)
            )
            found = [*session.execute(own).all(), *session.execute(shared).all()]
        rows = [row[:5] for row in sorted(found, key=lambda row: (as_utc(row[3]), row[5]))]
        finished: dict[str, list[FinishedGame]] = {definition.name: [] for definition in self.games}
        for game, key, result, finished_at, created_at in rows:
            if game in finished and result and not result.get("empty"):
                finished[game].append(FinishedGame(key, result, as_utc(finished_at), as_utc(created_at)))
        return Statistics({game: self.games.get(game).fold(games) for game, games in finished.items()})

    # Replays ----------------------------------------------------------------------------------------

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


def _moves(session: Session, game_id: str) -> list[str]:
    return list(
        session.scalars(select(MoveRow.move).where(MoveRow.game_id == game_id).order_by(MoveRow.index))
    )


def _spec(row: GameRow) -> RecordSpec:
    return RecordSpec(row.rules, row.rules_key, row.code, list(row.seats), row.numbered, row.secret or {})


def _record(row: GameRow, moves: list[str]) -> GameRecord:
    return GameRecord(
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
    )
