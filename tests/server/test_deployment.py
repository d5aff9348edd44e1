"""The shipped deployment, on three hosts made of network namespaces: a data host (PostgreSQL, Redis and
HAProxy with ``deploy/haproxy.cfg``) and two Parlour hosts. Friends' tables are played through the load
balancer while every Parlour process is restarted in turn (SIGTERM), then while a Parlour host is
killed: every page comes back, and every acknowledged move is in the records."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
pytestmark = [pytest.mark.slow, pytest.mark.alone, pytest.mark.timeout(600)]
T = TypeVar("T")


@pytest.fixture(scope="module")
def lab() -> Iterator[tuple[Any, Any]]:
    """The hosts module and the failover benchmark, loaded as the benchmark runs them."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import failover
        import hosts

        problem = hosts.missing()
        if problem:
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(problem)
            pytest.skip(problem)
        yield hosts, failover
    finally:
        sys.path.remove(str(BENCHMARKS))


def on_own_loop(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine on an event loop of its own thread (a browser test of the same worker may have
    left one running in this thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


async def seat_tables(url: str, count: int) -> int:
    """Make ``count`` tables through the load balancer, four people seated at each (their pages open),
    then close the pages; return how many tables started."""
    import tables

    made = [await tables.make_table([url], index, tables.Figures()) for index in range(count)]
    for people in made:
        for person in people:
            person.stopping = True
            if person.socket is not None:
                await person.socket.close()
    return sum(1 for people in made if people[0].view.get("tables", {}).get("phase") == "playing")


def test_tables_survive_a_rolling_restart_and_a_dead_host_behind_the_load_balancer(
    lab: tuple[Any, Any],
) -> None:
    hosts, failover = lab
    with hosts.Deployment(2) as deployment:
        # A visitor through the load balancer: pages, no player, and the visitor's own address.
        with httpx.Client(base_url=deployment.url, timeout=10) as visitor:
            for path in ("/", "/tripeaks", "/thirteen/tables", "/healthz", "/readyz"):
                assert visitor.get(path).status_code == 200, path
            assert "parlour_token" not in visitor.cookies
            assert visitor.get("/metrics").status_code == 404  # the operator's port only
        logs = deployment.log("parlour1") + deployment.log("parlour2")
        assert re.search(rf"GET /tripeaks 200 [\d.]+ ms {re.escape(deployment.subnet)}\.254\b", logs), logs

        # The balancer sends every socket of a table to one process, which owns the table: nothing of
        # it is relayed through Redis while the processes stay up.
        assert on_own_loop(lambda: seat_tables(deployment.url, 6)) == 6
        assert sum(deployment.tables_owned(n) for n in range(2)) == 6
        assert [deployment.metric(n, "parlour_relay_lag_seconds_count") for n in range(2)] == [0, 0]

        restarted = on_own_loop(lambda: failover.measure(deployment, 4, "term", 3.0, 8.0))
        assert restarted.outages and restarted.acknowledged > 0, restarted.line()
        assert restarted.lost == 0 and restarted.stranded == 0, restarted.line()

        killed = on_own_loop(lambda: failover.measure(deployment, 4, "kill", 3.0, 15.0))
        assert killed.outages and killed.acknowledged > 0, killed.line()
        assert killed.lost == 0 and killed.stranded == 0, killed.line()
        for name in ("parlour1", "parlour2"):
            assert "Traceback" not in deployment.log(name), deployment.log(name)[-3000:]
    assert not [line for line in subprocess.run(
        ["ip", "netns", "list"], capture_output=True, text=True, check=True
    ).stdout.splitlines() if deployment.tag in line]  # fmt: skip


def test_the_shipped_configurations_agree_with_parlour() -> None:
    """HAProxy accepts its configuration; the compose file and the image start `parlour serve` with
    options and environment variables it has, and check the endpoints it serves."""
    if shutil.which("haproxy") is not None:
        checked = subprocess.run(
            ["haproxy", "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
            capture_output=True, text=True, timeout=30,
            env={**os.environ, "PARLOUR_LISTEN": ":8080", "PARLOUR_BACKEND_1": "127.0.0.1:8000",
                 "PARLOUR_BACKEND_2": "127.0.0.1:8001"},
        )  # fmt: skip
        assert checked.returncode == 0, checked.stdout + checked.stderr
    config = (ROOT / "deploy" / "haproxy.cfg").read_text()
    assert "uri /readyz" in config and "balance" in config and "cookie" not in config  # no stickiness
    helped = subprocess.run(
        [str(Path(sys.executable).with_name("parlour")), "serve", "--help"], capture_output=True, text=True
    ).stdout
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "haproxy", "parlour1", "parlour2"} <= set(services)
    for name in ("parlour1", "parlour2"):
        for variable in services[name]["environment"]:
            assert variable in helped, variable
    balancer = services["haproxy"]["environment"]
    assert {"PARLOUR_LISTEN", "PARLOUR_BACKEND_1", "PARLOUR_BACKEND_2"} <= set(balancer)
    image = (ROOT / "deploy" / "Containerfile").read_text()
    assert "requirements/main.lock" in image and "--require-hashes" in image
    command = re.search(r'^CMD \["parlour", "serve", (.*)\]$', image, re.M)
    assert command
    for option in re.findall(r'"(--[a-z-]+)"', command.group(1)):
        assert option in helped, option
    for variable in re.findall(r"(PARLOUR_[A-Z_]+)=", image):
        assert variable in helped, variable
