"""The worker processes that compute reviews of finished games, off the event loop: a review takes a
fraction of a second to seconds of CPU (``parlour.server.pages.reviews`` serves them)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Final

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition, Json
from parlour.store.types import StoredGame

REVIEW_WORKERS: Final = 1
"""Worker processes that compute reviews (each takes one core while it works)."""
MAX_WAITING: Final = 8
"""Reviews computed or waiting at once; beyond, a request is asked to come back (503)."""

log = logging.getLogger("parlour.server")


class ReviewsBusy(ParlourError):
    """Too many reviews are being computed: try again in a moment."""

    code = "reviews_busy"


class ReviewPool:
    """The worker processes that compute reviews (started at the first review), and the reviews being
    computed by game id."""

    def __init__(self, workers: int = REVIEW_WORKERS, waiting: int = MAX_WAITING) -> None:
        self.workers = workers
        self.waiting = waiting
        self._executor: ProcessPoolExecutor | None = None
        self._running: dict[tuple[str, int], asyncio.Future[Json]] = {}

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # Spawned, not forked: a fork of a process running an event loop and threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    def _start(self, definition: GameDefinition, record: StoredGame, seat: int) -> asyncio.Future[Json]:
        """Return the review computed in a worker process (raises BrokenProcessPool at once when a
        worker died earlier)."""
        return asyncio.get_running_loop().run_in_executor(self._pool(), definition.review, record, seat)

    async def review(self, definition: GameDefinition, record: StoredGame, seat: int = 0) -> Json:
        """Return the review of a finished game's record from ``seat``, computed in a worker process
        (one computation per game and seat at a time: a second caller waits for the first's).

        Raises:
            ReviewsBusy: too many reviews are being computed already.
        """
        key = (record.id, seat)
        running = self._running.get(key)
        if running is None:
            if len(self._running) >= self.waiting:
                raise ReviewsBusy("too many reviews are being computed: try again in a moment")
            try:
                running = asyncio.ensure_future(self._start(definition, record, seat))
            except BrokenProcessPool:  # a worker died earlier (killed, out of memory): start afresh
                self.close()
                running = asyncio.ensure_future(self._start(definition, record, seat))
            self._running[key] = running
            running.add_done_callback(lambda _done: self._running.pop(key, None))
        try:
            return await asyncio.shield(running)
        except BrokenProcessPool as error:
            # The worker died while it worked: the next review starts a new pool, and this one is
            # asked again later (nothing was kept).
            log.warning("a review worker stopped abruptly: %s", error)
            self.close()
            raise ReviewsBusy("the review could not be made just now: try again in a moment") from error
        except Exception as error:  # a review that fails is the game's bug: said once, never a 500
            log.exception("the review of game %s failed", record.id)
            raise ReviewsBusy("the review could not be made just now: try again in a moment") from error

    def close(self) -> None:
        """Stop the worker processes (reviews being computed are dropped: they are made again when
        asked)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
