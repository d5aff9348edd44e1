"""Draining a server process before it stops (SIGTERM): nothing acknowledged is lost and no table
waits for a lease to run out.

``parlour serve`` runs :class:`DrainingServer`, uvicorn's server with one step added before its own
shutdown: it stops accepting connections (the load balancer's new ones go to the other processes at
once), then :func:`drain` marks the process not ready, hands each friends' table it owns over
(:meth:`~parlour.server.cluster.node.Cluster.hand_over`: the action in progress and its write finish, the
lease is given up, the pages reconnect and the first process they reach takes the table), and waits for
every single-player game's action in progress. uvicorn then closes the remaining sockets (code 1012,
"service restart": the pages reconnect through the load balancer, and the process they reach restores
their game from its record) and stops.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import time
from typing import Final

import uvicorn

from parlour.server.context import Parlour

DRAIN_SECONDS: Final = 6.0
"""The longest the hand-over may take; uvicorn's own shutdown then has the rest of ten seconds."""
CLOSE_SECONDS: Final = 3
"""How long uvicorn waits for connections to end after telling them to (then they are cut)."""

log = logging.getLogger("parlour.server")


async def drain(parlour: Parlour) -> None:
    """Make the process not ready, hand its tables over and let its games' actions in progress
    finish, within :data:`DRAIN_SECONDS` (what is left then is cut by the shutdown; every action
    acknowledged is already in the database)."""
    started = time.monotonic()
    parlour.draining = True
    parlour.metrics.draining.set(1)
    log.info("draining: handing tables over and finishing the writes in progress")
    handed = 0

    async def hand_over() -> None:
        nonlocal handed
        if parlour.cluster is not None:
            handed = await parlour.cluster.hand_over()
        for owner in parlour.live.owners():
            async with owner.lock:  # the action in progress, and its write, are done
                pass

    try:
        await asyncio.wait_for(hand_over(), DRAIN_SECONDS)
    except TimeoutError:
        log.warning("draining took more than %.0f s: stopping anyway", DRAIN_SECONDS)
    log.info("drained in %.2f s: %d tables handed over", time.monotonic() - started, handed)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, draining Parlour (:func:`drain`) between closing its listeners and closing
    its connections."""

    def __init__(self, config: uvicorn.Config, parlour: Parlour) -> None:
        super().__init__(config)
        self.parlour = parlour

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        # A stop asked for with SIGTERM and drained is a clean exit (status 0): uvicorn would raise the
        # signal again once stopped, and the process would end as killed by it.
        self._captured_signals = [sig for sig in self._captured_signals if sig != signal.SIGTERM]
        for server in self.servers:
            server.close()  # no new connection: the load balancer sends it to another process
        for listener in sockets or []:
            listener.close()
        await drain(self.parlour)
        await super().shutdown(sockets)
