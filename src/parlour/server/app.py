"""The Parlour web app: ``create_app(...)`` builds the ASGI application.

Pages are Jinja templates under ``parlour/web/templates`` (all extend ``base.html``), static files are
served from ``parlour/web/static`` at ``/static``, every live game has a WebSocket at ``/ws/{game_id}``
(see ``docs/protocol.md``). Games plug in as :class:`~parlour.server.kinds.GameKind` objects plus a
router for their page; other parts of Parlour add routers too.
"""

from __future__ import annotations

import gc
import importlib
import importlib.util
import logging
import os
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from types import ModuleType
from typing import Any, Final

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from parlour import __version__
from parlour.server import pages, socket
from parlour.server.context import STATIC_DIR, TEMPLATES_DIR, Parlour
from parlour.server.kinds import GameKind

log = logging.getLogger("parlour.server")


GAME_MODULES: Final = ("tripeaks_live", "thirteen_live")
"""Modules of ``parlour.server`` that host a game: each has ``KIND`` (a GameKind) and may have ``router``."""
PAGE_MODULES: Final = ("tripeaks_page", "rules_pages", "players")
"""Modules of ``parlour.server`` that add pages: each has ``router``."""


def _present(names: Iterable[str]) -> list[ModuleType]:
    modules = []
    for name in names:
        if importlib.util.find_spec(f"parlour.server.{name}") is not None:
            modules.append(importlib.import_module(f"parlour.server.{name}"))
    return modules


def default_kinds() -> list[GameKind]:
    """Return the game kinds of the game modules present."""
    return [module.KIND for module in _present(GAME_MODULES)]


def default_routers() -> list[APIRouter]:
    """Return the routers of the game and page modules present (games, rules, players)."""
    return [module.router for module in _present(GAME_MODULES + PAGE_MODULES) if hasattr(module, "router")]


def open_store(database_url: str | None = None) -> Any:
    """Return the store for ``database_url`` (or ``PARLOUR_DATABASE_URL``, or the default SQLite file)."""
    from parlour.store import Store

    return Store(database_url or os.environ.get("PARLOUR_DATABASE_URL") or None)


def create_app(
    store: Any = None,
    *,
    database_url: str | None = None,
    kinds: Iterable[GameKind] | None = None,
    routers: Sequence[APIRouter] | None = None,
) -> FastAPI:
    """Build the web app.

    ``store`` is a ``parlour.store.Store`` (or anything with its methods); without one the store of
    ``database_url`` is opened. ``kinds`` are the game kinds served (default: every game present);
    ``routers`` are added after the built-in pages (default: every page module present). The store's
    migrations are applied at start.
    """
    the_store = store if store is not None else open_store(database_url)
    templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    templates.env.globals["static_version"] = __version__
    parlour = Parlour(store=the_store, templates=templates)
    for kind in default_kinds() if kinds is None else kinds:
        parlour.kinds[kind.name] = kind

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await parlour.call(the_store.upgrade)
        # Everything loaded so far lives as long as the server: keep it out of the collector's walks.
        gc.freeze()
        yield
        parlour.live.close()

    app = FastAPI(title="Parlour", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.parlour = parlour
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    app.include_router(pages.router)
    app.include_router(socket.router)
    for router in default_routers() if routers is None else routers:
        app.include_router(router)
    return app
