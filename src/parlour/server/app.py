"""The Parlour web app: ``create_app(...)`` builds the ASGI application.

Pages are Jinja templates under ``parlour/web/templates`` (all extend ``base.html``), static files are
served from ``parlour/web/static`` at ``/static``, every live game has a WebSocket at ``/ws/{game_id}``
(see ``docs/protocol.md``). The games come from a :class:`~parlour.games.registry.Registry`: each
definition names the module of its page (``page_module``), whose ``router`` is added here.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import importlib
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect
from starlette.responses import Response
from starlette.staticfiles import PathLike

from parlour import __version__
from parlour.errors import ParlourError
from parlour.games.registry import Registry
from parlour.server.cluster.node import Cluster
from parlour.server.context import STATIC_DIR, TEMPLATES_DIR, Parlour
from parlour.server.edge.head import HeadAsGet
from parlour.server.edge.limits import RateLimited, RateLimits
from parlour.server.edge.logs import AccessLog, route_of
from parlour.server.edge.player_cookie import PlayerCookie
from parlour.server.edge.security import CrossSite, Guard
from parlour.server.i18n import Texts, choose_language, supported, wait_reason
from parlour.server.owners.live import IDLE_SECONDS
from parlour.server.pages import (
    challenge_pages,
    daily_pages,
    devices,
    health,
    home,
    numbered_pages,
    passkeys,
    players,
    puzzle_pages,
    quick_play,
    reviews,
    rules_pages,
    table_pages,
)
from parlour.server.pages.requests import INVALID_REQUEST, render_error_page
from parlour.server.persistence import RequestBudget
from parlour.server.sockets import page_socket, rooms
from parlour.store import Store
from parlour.store.errors import StoreUnavailable
from parlour.store.interface import GameStore

log = logging.getLogger("parlour.server")

SWEEP_SECONDS: Final = 60.0
PLATFORM_ROUTERS: Final = (rules_pages.router, players.router, devices.router, passkeys.router)
"""The pages every Parlour has besides the games' own: rules, statistics, player (the numbered games'
pages and the tables' come with the games that have them)."""


async def _sweep(parlour: Parlour) -> None:
    """Every minute, let idle live games and tables leave memory (bounded memory for abandoned ones)."""
    while True:
        await asyncio.sleep(SWEEP_SECONDS)
        dropped = parlour.live.evict_idle(IDLE_SECONDS)
        if parlour.cluster is not None:
            dropped += await parlour.cluster.evict_idle(IDLE_SECONDS)
        else:
            dropped += parlour.tables.evict_idle(IDLE_SECONDS)
        if dropped:
            log.debug("%d idle games and tables left memory", dropped)
        try:  # the days that ended give their daily deals to the puzzles (once a process)
            harvested = await puzzle_pages.harvest(parlour)
        except StoreUnavailable:
            harvested = 0  # the database is away: the next sweep tries again
        except Exception:
            log.exception("puzzles from past daily deals failed")
            harvested = 0
        if harvested:
            log.info("%d puzzles from past daily deals", harvested)


def game_folders(games: Registry, kind: str) -> list[Path]:
    """Return the games' own folders of ``kind`` (``templates``, ``static``), in the registry's order.

    Raises:
        ValueError: two games ship a file of the same path there (one of them would never be served).
    """
    folders = [folder for definition in games if (folder := definition.assets(kind)) is not None]
    seen: dict[str, Path] = {}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file():
                name = path.relative_to(folder).as_posix()
                if name in seen:
                    raise ValueError(f"{kind}/{name} is shipped by two games: {seen[name]} and {folder}")
                seen[name] = folder
    return folders


class GameStaticFiles(StaticFiles):
    """``/static``: the platform's files, then each game's own ``static/`` folder, at the same addresses
    (``/static/js/tripeaks.js`` is TriPeaks' own file)."""

    def __init__(self, directory: Path, games: Sequence[Path]) -> None:
        self.games = [str(folder) for folder in games]
        super().__init__(directory=str(directory))

    def get_directories(
        self, directory: PathLike | None = None, packages: list[str | tuple[str, str]] | None = None
    ) -> list[PathLike]:
        return [*super().get_directories(directory, packages), *self.games]


def game_routers(games: Registry, templates: Jinja2Templates) -> list[APIRouter]:
    """Return the routers of the games' pages (each definition's ``page_module``), and give
    ``templates`` what each module's ``TEMPLATE_HELPERS`` holds (a game's charts …).

    Raises:
        ValueError: two games give their templates a helper of the same name.
    """
    routers = []
    for definition in games:
        if definition.page_module is None:
            continue
        module = importlib.import_module(definition.page_module)
        router: APIRouter = module.router
        routers.append(router)
        helpers: Mapping[str, Any] = getattr(module, "TEMPLATE_HELPERS", {})
        taken = set(helpers) & set(templates.env.globals)
        if taken:
            raise ValueError(f"{definition.name}'s template helpers {sorted(taken)} are taken already")
        templates.env.globals.update(helpers)
    return routers


def _error(status: int, error: Exception) -> JSONResponse:
    code = error.code if isinstance(error, ParlourError) else "error"
    return JSONResponse({"code": code, "message": str(error)[:300]}, status_code=status)


async def _refused(request: Request, error: Exception) -> Response:
    """A request from another site: 403 ``cross_site``."""
    return _error(403, error)


async def _too_many(request: Request, error: Exception) -> Response:
    """Too many requests: 429 with ``Retry-After``, a page in the visitor's language for a browser
    asking for a page, else ``{"code": "rate_limited", "message", "retry_after"}`` (message translated)."""
    lang = _language(request)
    wait = error.retry_after if isinstance(error, RateLimited) else 60
    message = wait_reason(wait, lang)
    if _wants_page(request):
        response = await render_error_page(request, 429, lang, message)
    else:
        response = JSONResponse({"code": "rate_limited", "message": message, "retry_after": wait}, 429)
    if isinstance(error, RateLimited):
        response.headers["Retry-After"] = str(error.retry_after)
    return response


async def _unavailable(request: Request, error: Exception) -> Response:
    """The database failed: 503 ``not_saved`` (nothing was changed), logged for the operator."""
    # The route's template, not the path: a path can hold a table's code.
    log.error("the database failed during %s %s: %s", request.method, route_of(request.scope), error)
    return _error(503, error)


async def _bad_request(request: Request, error: Exception) -> Response:
    """Any other refusal that reached the app's edge: 400 with its reason code."""
    return _error(400, error)


HTTP_REASONS: Final = {
    400: ("bad_request", "This request could not be read."),
    404: ("not_found", "There is no such page."),
    405: ("method_not_allowed", "This address does not take that kind of request."),
}
"""Parlour's reason code and text for the HTTP errors the framework raises itself."""
OTHER_HTTP_REASON: Final = ("bad_request", "This request cannot be served.")


def _language(request: Request) -> str:
    """The language of an error answer: the ``lang`` query, the cookie, then ``Accept-Language``."""
    asked = supported(request.query_params.get("lang"))
    return asked or choose_language(request.cookies, request.headers.get("accept-language"))


def _wants_page(request: Request) -> bool:
    """True for a browser asking for a page (not a script asking the API)."""
    accept = request.headers.get("accept", "")
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith("/api/")
        and "text/html" in accept
    )


async def _invalid_request(request: Request, error: Exception) -> Response:
    """A path or query parameter of the wrong shape: 400 ``invalid_input``, in the caller's language,
    naming the parts that were wrong (and never echoing what was sent)."""
    problems = error.errors() if isinstance(error, RequestValidationError) else []
    detail = "; ".join(
        f"{'.'.join(str(part) for part in problem.get('loc', ()))}: {problem.get('msg', '')}"
        for problem in problems[:5]
    )
    message = Texts(_language(request))(INVALID_REQUEST)
    return JSONResponse({"code": "invalid_input", "message": message, "detail": detail[:300]}, 400)


async def _http_error(request: Request, error: Exception) -> Response:
    """The framework's own refusals (no such page, a method an address does not take): Parlour's
    ``{code, message}`` in the caller's language, or a page saying so for a browser."""
    status = error.status_code if isinstance(error, HTTPException) else 500
    code, text = HTTP_REASONS.get(status, OTHER_HTTP_REASON)
    lang = _language(request)
    headers = getattr(error, "headers", None)
    if _wants_page(request):
        return await render_error_page(request, status, lang, Texts(lang)(text))
    return JSONResponse({"code": code, "message": Texts(lang)(text)}, status_code=status, headers=headers)


async def _hung_up(request: Request, error: Exception) -> Response:
    """The client went away before its request's body arrived: nothing was done, nobody reads the
    answer, and it is no error of the server's."""
    log.debug("a client hung up during %s %s", request.method, route_of(request.scope))
    return Response(status_code=400)


def create_app(
    store: GameStore | None = None,
    *,
    database_url: str | None = None,
    games: Registry | None = None,
    routers: Sequence[APIRouter] | None = None,
    limits: RateLimits | None = None,
    redis_url: str | None = None,
    api_docs: bool = False,
    public_url: str | None = None,
) -> FastAPI:
    """Build the web app.

    ``store`` is a ``parlour.store.Store`` (or another :class:`GameStore`); without one the store of
    ``database_url`` is opened (``PARLOUR_DATABASE_URL``, else the default SQLite file) for ``games``.
    ``games`` are the games served (default: the store's); their pages are added, then ``routers``
    (default: the rules, statistics and player pages); ``limits`` the rate limits (default: the
    defaults of ``parlour.server.edge.limits``). The store's migrations are applied at start. With
    ``redis_url`` the process serves friends' tables together with every other process using the same
    Redis and database (``parlour.server.cluster.node``). With ``api_docs`` the framework's description of
    the API is served (``/openapi.json``); by default it is not public. ``public_url`` is the site's
    address as players reach it (passkeys are bound to its host: decision 0064).
    """
    the_store: GameStore = store if store is not None else Store(database_url, games=games)
    served = games if games is not None else the_store.games
    # The platform's templates, then each game's own (decision 0061): a game's page extends base.html.
    templates = Jinja2Templates(directory=[TEMPLATES_DIR, *game_folders(served, "templates")])
    templates.env.globals["static_version"] = __version__
    parlour = Parlour(
        store=the_store,
        templates=templates,
        games=served,
        limits=limits or RateLimits(redis_url=redis_url),
        public_url=public_url.rstrip("/") if public_url else None,
    )
    if redis_url is not None:
        parlour.cluster = Cluster(redis_url)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        parlour.metrics.watch(lambda: len(parlour.live), lambda: len(parlour.tables))
        await parlour.call(the_store.upgrade)
        # Everything loaded so far lives as long as the server: keep it out of the collector's walks.
        gc.freeze()
        if parlour.cluster is not None:
            # The pages relayed here are answered as those connected here are (the table socket's rooms).
            await parlour.cluster.start(parlour, functools.partial(rooms.handle, parlour, rooms.TABLE))
        sweeper = asyncio.get_running_loop().create_task(_sweep(parlour))
        yield
        sweeper.cancel()
        if parlour.cluster is not None:
            await parlour.cluster.stop()
        await parlour.limits.close()
        if parlour.appends is not None:
            await parlour.appends.close()
        parlour.reviews.close()
        parlour.live.close()
        parlour.tables.close()

    # A malformed form is the client's mistake, answered 400: not worth the operator's warning log.
    logging.getLogger("python_multipart").setLevel(logging.ERROR)
    app = FastAPI(
        title="Parlour",
        version=__version__,
        lifespan=lifespan,
        openapi_url="/openapi.json" if api_docs else None,
        docs_url=None,  # the framework's docs pages load their script from the internet: never served
        redoc_url=None,
    )
    app.state.parlour = parlour
    app.add_middleware(RequestBudget)  # innermost: a request's store calls share one time budget
    app.add_middleware(HeadAsGet)  # the others see HEAD, the routes GET
    app.add_middleware(PlayerCookie)
    app.add_middleware(Guard)
    app.add_middleware(AccessLog, metrics=parlour.metrics)  # outermost: it sees every answer
    app.add_exception_handler(CrossSite, _refused)
    app.add_exception_handler(RateLimited, _too_many)
    app.add_exception_handler(StoreUnavailable, _unavailable)
    app.add_exception_handler(ParlourError, _bad_request)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(ClientDisconnect, _hung_up)
    # Scripts and styles go compressed to a browser that takes gzip (under a third of their size, which a
    # phone on a slow network feels). Pages are not compressed: they carry the CSRF token beside what a
    # player typed, and a compressed answer's length would say how alike the two are (BREACH).
    files = GameStaticFiles(directory=STATIC_DIR, games=game_folders(served, "static"))
    static = GZipMiddleware(files, minimum_size=1024)
    app.mount("/static", static, name="static")
    app.include_router(health.router)
    app.include_router(home.router)
    app.include_router(page_socket.router)  # the sockets of pages: a player's own games, tables
    app.include_router(table_pages.router)  # friends' tables of every game played at tables
    app.include_router(quick_play.router)  # Play now and people's ratings, for every game played at tables
    app.include_router(numbered_pages.router)  # numbered deals of every game that has them
    app.include_router(daily_pages.router)  # the daily deals of every game that has them
    app.include_router(challenge_pages.router)  # challenges of every game that has them
    app.include_router(reviews.router)  # reviews of finished games, for the games that make them
    app.include_router(puzzle_pages.router)  # puzzles, for the games that have them
    for router in game_routers(served, templates):
        app.include_router(router)
    for router in PLATFORM_ROUTERS if routers is None else routers:
        app.include_router(router)
    return app
