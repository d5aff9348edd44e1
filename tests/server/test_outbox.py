"""A page's outbox: messages in order, a last message then the close, and no sending task ever left
waiting forever (a task nobody holds is destroyed pending, which asyncio logs at shutdown)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from parlour.server.wire.outbox import Outbox

T = TypeVar("T")


def run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a scenario on an event loop of its own thread (a browser test's Playwright may have left a
    loop running in this one), within 10 seconds."""

    async def bounded() -> T:
        return await asyncio.wait_for(scenario(), 10)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(bounded())).result()


def test_a_last_message_is_sent_then_the_connection_closes_and_the_pump_ends() -> None:
    async def scenario() -> tuple[list[Any], list[int | None], bool]:
        sent: list[Any] = []
        closed: list[int | None] = []

        async def send(item: Any) -> None:
            sent.append(item)

        async def close(code: int | None) -> None:
            closed.append(code)

        outbox = Outbox(send, close)
        outbox.push({"n": 1})
        outbox.end({"n": 2}, 4410)
        assert not outbox.push({"n": 3})  # nothing after the last message
        task = outbox._task
        assert task is not None
        await asyncio.wait_for(task, 5)
        return sent, closed, task.done()

    sent, closed, done = run(scenario)
    assert sent == [{"n": 1}, {"n": 2}] and closed == [4410] and done


def test_a_page_too_far_behind_is_closed_and_its_pump_does_not_linger() -> None:
    async def scenario() -> tuple[bool, list[int | None]]:
        closed: list[int | None] = []
        stuck = asyncio.Event()

        async def send(item: Any) -> None:
            await stuck.wait()  # a page that never reads

        async def close(code: int | None) -> None:
            closed.append(code)

        outbox = Outbox(send, close, size=3)
        for n in range(5):
            outbox.push({"n": n})
        await asyncio.sleep(0.05)
        task = outbox._task
        assert task is not None and outbox.closed
        await asyncio.sleep(0.05)
        return task.done(), closed

    done, closed = run(scenario)
    assert done and closed == [None]  # closed as too slow (the page reconnects)
