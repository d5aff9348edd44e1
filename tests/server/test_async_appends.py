"""The group commit's one statement sent from the event loop (PostgreSQL): it writes a planned batch,
writes nothing when the database disagrees (another process wrote, the table was taken over) so that
the long way tells each item's error as before, survives a connection lost since the last batch, and
a database that stops answering is given up on at the deadline, its connection cut, and used again
once it answers (decision 0054)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL

from conftest import helper
from parlour.errors import InvalidCard
from parlour.store import MoveConflict, Store
from parlour.store.errors import StoreUnavailable
from parlour.store.tables import TableMoved
from parlour.thirteen.definition import ThirteenDefinition

_processes = helper("cluster_processes")
_relay = helper("tcp_relay")
pytestmark = pytest.mark.postgres
T = TypeVar("T")
CODES = ("TP1-E-AAAAABA", "TP1-E-AAAAABB")


def run(body: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine on an event loop of its own thread (whatever else runs in this process)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, body()).result(timeout=60)  # type: ignore[arg-type]


@pytest.fixture
def url() -> Iterator[URL]:
    with _processes.postgres_schema() as made:
        store = Store(made)
        store.upgrade()
        store.close()
        yield made


def games(store: Store) -> tuple[int, list[str]]:
    player = store.create_player().player_id
    return player, [store.start_game(player, "tripeaks", None, code, [0]) for code in CODES]


def test_a_planned_batch_is_written_from_the_event_loop_and_its_states_kept(url: URL) -> None:
    store = Store(url)
    player, made = games(store)
    appends = store.async_appends()
    assert appends is not None

    async def body() -> list[list[int]]:
        written = []
        for index in range(3):
            plan = store.plan_appends([(game, player, index, ["draw"]) for game in made])
            assert plan is not None  # each batch finds the states the one before kept
            assert await appends.write(plan, 5)
            store.appended(plan)
            written.append(plan.results)
        await appends.close()
        return written

    assert run(body) == [[1, 1], [2, 2], [3, 3]]
    assert all(store.game_record(game, player).moves == ["draw"] * 3 for game in made)
    store.close()


def test_a_batch_the_database_disagrees_with_writes_nothing(url: URL) -> None:
    mine, other = Store(url), Store(url)
    player, made = games(mine)
    appends = mine.async_appends()
    assert appends is not None
    plan = mine.plan_appends([(made[0], player, 0, ["draw"]), (made[1], player, 0, ["draw"])])
    assert plan is not None
    assert other.append_moves(made[1], player, 0, ["draw", "draw"]) == 2  # another process wrote

    async def body() -> bool:
        try:
            return await appends.write(plan, 5)
        finally:
            await appends.close()

    assert run(body) is False
    assert mine.game_record(made[0], player).moves == []  # nothing of the batch, not even the agreeing game
    assert [mine.append_moves_many([(made[0], player, 0, ["draw"])])] == [[1]]  # the long way still works
    mine.close()
    other.close()


def test_a_connection_lost_since_the_last_batch_costs_no_move(url: URL) -> None:
    store = Store(url)
    player, made = games(store)
    appends = store.async_appends()
    assert appends is not None

    async def body() -> list[int]:
        first = store.plan_appends([(made[0], player, 0, ["draw"])])
        assert first is not None and await appends.write(first, 5)
        store.appended(first)
        connection = await appends._connected(5)
        killer = create_engine(url)
        try:
            with killer.begin() as sql:
                sql.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": connection.info.backend_pid})
        finally:
            killer.dispose()
        second = store.plan_appends([(made[0], player, 1, ["draw"])])
        assert second is not None and await appends.write(second, 5)
        await appends.close()
        return second.results

    assert run(body) == [2]
    assert store.game_record(made[0], player).moves == ["draw", "draw"]
    store.close()


def test_a_database_that_stops_answering_is_given_up_at_the_deadline_then_used_again(url: URL) -> None:
    direct = Store(url)
    player, made = games(direct)
    with _relay.relay_to(url.host or "127.0.0.1", url.port or 5432) as relay:
        relayed = Store(url.set(host="127.0.0.1", port=relay.port))
        appends = relayed.async_appends()
        assert appends is not None

        async def body() -> tuple[float, Any]:
            # The long way first (this store has not kept these games' states), then a batch from the
            # event loop, which makes its connection.
            for game in made:
                assert relayed.append_moves_many([(game, player, 0, ["draw"])]) == [1]
            first = relayed.plan_appends([(made[1], player, 1, ["draw"])])
            assert first is not None and await appends.write(first, 5)
            relayed.appended(first)
            relay.stall()
            stalled = relayed.plan_appends([(made[0], player, 1, ["draw"])])
            assert stalled is not None
            started = time.monotonic()
            with pytest.raises(StoreUnavailable, match="in time"):
                await appends.write(stalled, 1.0)
            waited = time.monotonic() - started
            relay.resume()
            # The refused batch's state was not kept. Its statement may still reach the database once
            # the stall ends (the relay passes on what waited): the long way then finds the move stored.
            assert relayed.plan_appends([(made[0], player, 1, ["draw"])]) is None
            assert relayed.append_moves_many([(made[0], player, 1, ["draw"])]) == [2]
            assert relayed.append_moves_many([(made[0], player, 2, ["draw"])]) == [3]
            again = relayed.plan_appends([(made[0], player, 3, ["draw"])])
            assert again is not None and await appends.write(again, 5)
            await appends.close()
            return waited, again.results

        waited, results = run(body)
        relayed.close()
    assert 1.0 <= waited < 5 and results == [4] and appends.cut == 1
    assert direct.game_record(made[0], player).moves == ["draw"] * 4
    direct.close()


def test_a_refused_move_or_a_count_moved_on_elsewhere_takes_the_long_way_and_writes_nothing_wrong(
    url: URL,
) -> None:
    mine, other = Store(url), Store(url)
    player, made = games(mine)
    appends = mine.async_appends()
    assert appends is not None
    game = made[0]

    async def body() -> None:
        plan = mine.plan_appends([(game, player, 0, ["draw"])])
        assert plan is not None and await appends.write(plan, 5)
        mine.appended(plan)
        # The engine refuses the move: no plan, nothing written, and the long way tells why.
        assert mine.plan_appends([(game, player, 1, ["QX"])]) is None
        [refused] = mine.append_moves_many([(game, player, 1, ["QX"])])
        assert isinstance(refused, InvalidCard)
        # The refused move's state was dropped: the long way replays the record once and keeps it.
        assert mine.plan_appends([(game, player, 1, ["draw"])]) is None
        assert mine.append_moves_many([(game, player, 1, ["draw"])]) == [2]
        # Another process stored a move meanwhile: the statement finds the count moved on.
        plan = mine.plan_appends([(game, player, 2, ["undo"])])
        assert plan is not None
        assert other.append_moves(game, player, 2, ["draw"]) == 3
        assert await appends.write(plan, 5) is False
        [conflict] = mine.append_moves_many([(game, player, 2, ["undo"])])
        assert isinstance(conflict, MoveConflict)
        assert mine.append_moves_many([(game, player, 2, ["draw"])]) == [3]  # a retry: no change
        # The long way replays the record once and keeps the state again: the next batch is one statement.
        assert mine.append_moves_many([(game, player, 3, ["draw"])]) == [4]
        plan = mine.plan_appends([(game, player, 4, ["draw"])])
        assert plan is not None and await appends.write(plan, 5)
        await appends.close()

    run(body)
    assert mine.game_record(game, player).moves == ["draw"] * 5
    mine.close()
    other.close()


def test_a_write_with_an_older_owner_epoch_writes_nothing_and_the_long_way_refuses_it(url: URL) -> None:
    store = Store(url)
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
    first = [str(move) for move in match.legal_moves(match.turn)][:1]
    appends = store.async_appends()
    assert appends is not None

    async def body() -> None:
        plan = store.plan_appends([(game_id, player.id, 0, first)], {game_id: old.epoch})
        assert plan is not None and await appends.write(plan, 5)
        store.appended(plan)
        new = store.claim_table(record.table_id)
        assert new.epoch == old.epoch + 1
        after = definition.restore(store.game_record(game_id, player.id)).match
        assert after.turn is not None
        following = [str(move) for move in after.legal_moves(after.turn)][:1]
        stale = store.plan_appends([(game_id, player.id, 1, following)], {game_id: old.epoch})
        assert stale is not None and await appends.write(stale, 5) is False
        [refused] = store.append_moves_many([(game_id, player.id, 1, following)], {game_id: old.epoch})
        assert isinstance(refused, TableMoved)
        assert len(store.game_record(game_id, player.id).moves) == 1
        assert store.append_moves_many([(game_id, player.id, 1, following)], {game_id: new.epoch}) == [2]
        await appends.close()

    run(body)
    store.close()
