"""Shared rate limits under parallel requests spread over two ``parlour serve`` processes: 64 requests at
once never get more than a limit lets through, whichever process they reach."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from conftest import helper
from parlour.store import Store

_processes = helper("cluster_processes")
pytestmark = [pytest.mark.slow, pytest.mark.postgres]
PARALLEL = 64
LIMITS = "new_table=10/minute;60/hour,new_player=20/minute,find_table=30/minute"


@pytest.fixture
def servers() -> Iterator[tuple[Any, Any]]:
    # A Redis of the test's own: the counters of other tests (all from 127.0.0.1) never mix in.
    with (
        _processes.private_redis() as redis,
        _processes.two_servers({"PARLOUR_RATE_LIMITS": LIMITS}, redis=redis.url) as both,
    ):
        yield both


def at_once(calls: list[Any]) -> list[int]:
    """Run every call at the same moment, one thread each; return the status codes."""
    with ThreadPoolExecutor(len(calls)) as pool:
        return [answer.status_code for answer in pool.map(lambda call: call(), calls)]


def test_parallel_requests_over_two_processes_never_pass_a_shared_limit(servers: tuple[Any, Any]) -> None:
    first, second = servers
    clients = [httpx.Client(base_url=server.url, timeout=30) for server in (first, second)]
    try:
        made = clients[0].post("/api/player")  # one player, whose cookie both processes see
        cookie = {"cookie": f"parlour_token={made.cookies['parlour_token']}"}
        body = {"name": "Ana", "settings": {}}
        tables = at_once(
            [
                (lambda c=clients[n % 2]: c.post("/api/tables", json=body, headers=cookie))
                for n in range(PARALLEL)
            ]
        )
        assert tables.count(201) == 10 and tables.count(429) == PARALLEL - 10, tables
        # New players from one address (no cookie): 20 a minute, the host's among them.
        urls = [server.url for server in (first, second)]
        players = at_once(
            [(lambda url=urls[n % 2]: httpx.post(f"{url}/api/player", timeout=30)) for n in range(PARALLEL)]
        )
        assert players.count(201) == 19 and players.count(429) == PARALLEL - 19, players
        # Table codes tried from one address: 30 a minute.
        codes = at_once(
            [(lambda c=clients[n % 2]: c.get("/thirteen/t/ZZZZZZ", headers=cookie)) for n in range(PARALLEL)]
        )
        assert codes.count(404) == 30 and codes.count(429) == PARALLEL - 30, codes
    finally:
        for client in clients:
            client.close()
    args = first.process.args
    store = Store(args[args.index("--database-url") + 1])
    try:
        assert len(store.all_players()) == 20
    finally:
        store.close()
