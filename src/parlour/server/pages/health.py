"""What an operator's load balancer and monitoring ask: ``/healthz`` and ``/readyz``.

Both are cheap, answer JSON, set no cookie, make no player and count against no rate limit, so a
health check every second from one address changes nothing.

- ``GET /healthz``: 200 while the process runs its event loop (nothing else is asked).
- ``GET /readyz``: 200 when this process can serve: it is not draining (stopping), its database
  answers (within a second) and, with ``--redis-url``, Redis answers; 503 otherwise, saying which part
  does not (``{"status": "draining"}`` while it stops).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from parlour.server.pages.requests import parlour_of

CHECK_SECONDS: Final = 1.0
"""How long a readiness check waits for the database or Redis."""

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz() -> Response:
    """The process is alive."""
    return JSONResponse({"status": "ok"}, headers={"Cache-Control": "no-store"})


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> Response:
    """The process can serve: ``{"status": "ready"|"not_ready", "database": …, "redis": …}``."""
    parlour = parlour_of(request)
    if parlour.draining:
        return JSONResponse({"status": "draining"}, status_code=503, headers={"Cache-Control": "no-store"})
    checks: dict[str, Any] = {"database": await _database(parlour.store)}
    if parlour.cluster is not None:
        checks["redis"] = await _redis(parlour.cluster.redis)
    ready = all(value == "ok" for value in checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not_ready", **checks},
        status_code=200 if ready else 503,
        headers={"Cache-Control": "no-store"},
    )


async def _database(store: Any) -> str:
    def ping() -> None:
        with store.within(CHECK_SECONDS):
            store.ping()

    try:
        await run_in_threadpool(ping)
    except Exception as error:  # whatever the failure, the answer is "not ready", with its reason
        return f"failed: {type(error).__name__}"
    return "ok"


async def _redis(client: Any) -> str:
    try:
        await asyncio.wait_for(client.ping(), CHECK_SECONDS)
    except Exception as error:
        return f"failed: {type(error).__name__}"
    return "ok"
