"""Group commit: moves of many games written in shared transactions, each still durable before its ack."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from parlour.errors import IllegalMove
from parlour.server.owners.group_commit import GroupCommitter
from parlour.store import MoveConflict


def new_games(store: Any, count: int) -> tuple[int, list[str]]:
    player = store.create_player().player_id
    codes = [f"TP1-E-AAAAAB{chr(65 + i)}" for i in range(count)]
    return player, [store.start_game(player, "tripeaks", None, code, [0]) for code in codes]


def test_a_batch_stores_every_good_item_and_refuses_only_the_bad_one(real_store: Any) -> None:
    player, games = new_games(real_store, 3)
    results = real_store.append_moves_many(
        [
            (games[0], player, 0, ["draw"]),
            (games[1], player, 5, ["draw"]),
            (games[2], player, 0, ["draw", "undo"]),
        ]
    )
    assert results[0] == 1 and isinstance(results[1], MoveConflict) and results[2] == 2
    assert real_store.game_record(games[0], player).moves == ["draw"]
    assert real_store.game_record(games[1], player).moves == []
    assert real_store.game_record(games[2], player).moves == ["draw", "undo"]
    refused = real_store.append_moves_many([(games[0], player, 1, ["undo", "undo"])])
    assert isinstance(refused[0], IllegalMove) and real_store.game_record(games[0], player).moves == ["draw"]


def test_concurrent_appends_share_transactions(real_store: Any) -> None:
    player, games = new_games(real_store, 12)

    async def run() -> GroupCommitter:
        committer = GroupCommitter(real_store, lambda call: asyncio.to_thread(call))
        for index in range(3):
            counts = await asyncio.gather(*(committer.append(g, player, index, ["draw"]) for g in games))
            assert counts == [index + 1] * len(games)
        with pytest.raises(MoveConflict):
            await committer.append(games[0], player, 9, ["draw"])
        return committer

    with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever else runs in this process
        committer = thread.submit(asyncio.run, run()).result()
    assert committer.appends == 37 and committer.transactions < 37 - 12
    assert all(real_store.game_record(g, player).moves == ["draw"] * 3 for g in games)
