"""The group commit's common case on PostgreSQL: a batch of games whose state the store keeps is
written by one statement, which confirms under the rows' locks what the writer assumed and otherwise
writes nothing, so that the long way tells each item's error exactly as before (decision 0054)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from parlour.errors import InvalidCard
from parlour.games.thirteen import ThirteenDefinition
from parlour.store import MoveConflict, Store, append_statements, game_records
from parlour.store.tables import TableMoved

from .conftest import postgres_url
from .lines import code_of, winning_line

pytestmark = pytest.mark.postgres


@pytest.fixture
def backend() -> str:
    """These tests are PostgreSQL's: the one statement is its (``make_store`` makes stores on it)."""
    return "postgresql"


@pytest.fixture
def statements(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Counts of the one-statement appends and of the long way's batches."""
    counts = {"at_once": 0, "long_way": 0}
    at_once, long_way = append_statements.append_at_once, game_records.GameRecordsStore._append_batch

    def counted_at_once(*args: Any) -> bool:
        counts["at_once"] += 1
        return at_once(*args)

    def counted_long_way(self: Any, *args: Any) -> Any:
        counts["long_way"] += 1
        return long_way(self, *args)

    monkeypatch.setattr(game_records, "append_at_once", counted_at_once)
    monkeypatch.setattr(game_records.GameRecordsStore, "_append_batch", counted_long_way)
    return counts


def test_a_batch_of_games_the_store_keeps_is_one_statement(
    make_store: Callable[[], Store], statements: dict[str, int]
) -> None:
    store = make_store()
    ada, eve = store.create_player("Ada"), store.create_player("Eve")
    line = winning_line(code_of(2))
    assert line is not None
    first = store.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    second = store.start_game(eve.player_id, "tripeaks", None, code_of(2), ["human"])
    assert store.append_moves_many(
        [(first, ada.player_id, 0, line[:1]), (second, eve.player_id, 0, ["draw"])]
    ) == [1, 1]
    before = dict(statements)
    results = store.append_moves_many(
        [
            (first, ada.player_id, 1, [line[1]]),
            (second, eve.player_id, 1, ["draw"]),
            (first, ada.player_id, 2, [line[2].lower()]),  # stored in canonical form
        ]
    )
    assert results == [2, 2, 3]
    assert statements["at_once"] == before["at_once"] + 1 and statements["long_way"] == before["long_way"]
    assert store.game_record(first, ada.player_id).moves == list(line[:3])
    assert store.game_record(second, eve.player_id).moves == ["draw", "draw"]


def test_a_refused_move_or_a_count_moved_on_elsewhere_takes_the_long_way_and_writes_nothing_wrong(
    make_store: Callable[[], Store], statements: dict[str, int]
) -> None:
    mine, other = make_store(), make_store()
    ada = mine.create_player("Ada")
    line = winning_line(code_of(2))
    assert line is not None
    game = mine.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    assert mine.append_moves_many([(game, ada.player_id, 0, line[:1])]) == [1]

    # The engine refuses the move: nothing is written, and the long way tells why.
    [refused] = mine.append_moves_many([(game, ada.player_id, 1, ["QX"])])
    assert isinstance(refused, InvalidCard)
    assert mine.game_record(game, ada.player_id).moves == [line[0]]

    # Another process stored a move meanwhile: the database disagrees with what this store assumed.
    assert other.append_moves(game, ada.player_id, 1, ["draw"]) == 2
    assert mine.append_moves_many([(game, ada.player_id, 1, ["draw"])]) == [2]  # a retry: no change
    [conflict] = mine.append_moves_many([(game, ada.player_id, 1, [line[1]])])
    assert isinstance(conflict, MoveConflict)
    assert mine.game_record(game, ada.player_id).moves == [line[0], "draw"]
    # The long way replays the record once and keeps the state again: the next batch is one statement.
    assert mine.append_moves_many([(game, ada.player_id, 2, ["draw"])]) == [3]
    before = dict(statements)
    assert mine.append_moves_many([(game, ada.player_id, 3, ["draw"])]) == [4]
    assert statements["at_once"] == before["at_once"] + 1 and statements["long_way"] == before["long_way"]


def test_a_write_with_an_older_owner_epoch_is_refused_in_one_statement_too(
    make_store: Callable[[], Store],
) -> None:
    store = make_store()
    host = store.create_player()
    player = store.player_by_token(host.token)
    assert player is not None
    record = store.create_table("thirteen", player.id, {}, [])
    old = store.claim_table(record.table_id)
    definition = ThirteenDefinition()
    spec = definition.new({}).spec
    assert spec is not None
    table_spec = type(spec)(**{**spec.__dict__, "table": record.table_id})
    game_id = store.record_game(player.id, definition, table_spec, old.epoch)
    match = definition.restore(store.game_record(game_id, player.id)).match
    assert match.turn is not None
    legal = [str(move) for move in match.legal_moves(match.turn)]
    assert store.append_moves_many([(game_id, player.id, 0, legal[:1])], {game_id: old.epoch}) == [1]
    new = store.claim_table(record.table_id)
    assert new.epoch == old.epoch + 1
    after = definition.restore(store.game_record(game_id, player.id)).match
    assert after.turn is not None
    following = [str(move) for move in after.legal_moves(after.turn)][:1]
    [refused] = store.append_moves_many([(game_id, player.id, 1, following)], {game_id: old.epoch})
    assert isinstance(refused, TableMoved)
    assert len(store.game_record(game_id, player.id).moves) == 1
    assert store.append_moves_many([(game_id, player.id, 1, following)], {game_id: new.epoch}) == [2]


def test_a_pooled_connection_lost_since_its_last_use_costs_no_move(
    make_store: Callable[[], Store],
) -> None:
    """A PostgreSQL that dropped the pool's connection (restarted, or the connection killed) is found
    by the statement itself, which runs again on a new connection: the move is stored once."""
    store = make_store()
    ada = store.create_player("Ada")
    line = winning_line(code_of(2))
    assert line is not None
    game = store.start_game(ada.player_id, "tripeaks", None, code_of(2), ["human"])
    assert store.append_moves_many([(game, ada.player_id, 0, line[:1])]) == [1]
    pid = store._autocommitted(lambda driver: driver.info.backend_pid)
    killer = create_engine(postgres_url())
    try:
        with killer.begin() as connection:
            assert connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
    finally:
        killer.dispose()
    with store.within(10):
        assert store.append_moves_many([(game, ada.player_id, 1, [line[1]])]) == [2]
    assert store.game_record(game, ada.player_id).moves == list(line[:2])
