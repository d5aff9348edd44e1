"""Leases after Redis restarts empty: the owner takes its leases back with its heartbeat, so no other
process may take its tables over in the moment between (the race behind a relayed page sent away
twice after a Redis outage)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from conftest import helper
from parlour.server.cluster.keys import STEAL_SCRIPT, alive_key, lease_key
from parlour.server.cluster.node import Cluster

_processes = helper("cluster_processes")


@pytest.fixture
def redis() -> Iterator[Any]:
    with _processes.private_redis() as server:
        yield server


@pytest.mark.timeout(60)
def test_a_lease_taken_back_after_a_restart_is_never_free_for_another_process(redis: Any) -> None:
    async def run() -> tuple[int, int, int]:
        owner, other = Cluster(redis.url), Cluster(redis.url)
        table = "t" * 16
        owner._remote[table] = {}  # the owner holds this table (its pages are its own)
        try:
            await owner.renew_once()
            assert await owner.redis.get(lease_key(table)) == owner.node
            redis.stop()
            redis.start()  # empty: no lease, no heartbeat
            await owner.redis.connection_pool.disconnect()
            await other.redis.connection_pool.disconnect()
            assert not await owner.redis.exists(lease_key(table), alive_key(owner.node))
            await owner.renew_once()  # its next renewal takes the lease back
            taken = int(await other.redis.eval(STEAL_SCRIPT, 1, lease_key(table), other.node, 10_000))
            holder = await other.redis.get(lease_key(table))
            alive = int(await other.redis.exists(alive_key(owner.node)))
            return taken, holder == owner.node, alive
        finally:
            await owner.redis.aclose()
            await other.redis.aclose()

    # A thread of its own: another test of the same worker may leave an event loop running here.
    with ThreadPoolExecutor(1) as pool:
        taken, held_by_owner, alive = pool.submit(lambda: asyncio.run(run())).result(timeout=50)
    assert (taken, held_by_owner, alive) == (0, True, 1)
