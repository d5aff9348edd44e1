"""The server's shared state (one per app) and the per-request helpers every router uses.

Routers reach it with :func:`parlour_of`; pages are rendered with :func:`render`, which gives every
template the language, the translation helpers and the current player.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar

from fastapi import Request
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.responses import Response

from parlour import __version__
from parlour.errors import InvalidInput, ParlourError
from parlour.games.base import GameDefinition, LiveGame, RecordSpec, Status
from parlour.games.registry import Registry
from parlour.games.tables import FriendsTable, TableRecord
from parlour.server.cluster import Cluster
from parlour.server.group_commit import GroupCommitter
from parlour.server.i18n import Texts, choose_language, language_choices
from parlour.server.limits import RateLimited, RateLimits
from parlour.server.live import LiveGames, Owner
from parlour.server.metrics import Metrics
from parlour.server.player_cookie import NEW_TOKEN, TOKEN_COOKIE
from parlour.server.security import CrossSite, check_csrf, csrf_token, set_csrf_cookie
from parlour.server.tables import Tables
from parlour.store.errors import StoreUnavailable
from parlour.store.interface import GameStore
from parlour.store.types import GameRecord, Outcome, Player

WEB_DIR: Final = Path(__file__).resolve().parents[1] / "web"
TEMPLATES_DIR: Final = WEB_DIR / "templates"
STATIC_DIR: Final = WEB_DIR / "static"
EDGE_ERRORS: Final = (RateLimited, StoreUnavailable, CrossSite)
"""Refusals a page handler passes on for the app to answer (429, 503, 403) instead of showing them."""
RETRY_PAUSES: Final = (0.1, 0.3, 0.6, 1.0)
"""Pauses between the tries of a write the database failed (2 s in all before the page is told)."""
STORE_SECONDS: Final = 2.5
"""The longest one store call may wait for a database that does not answer (a stalled PostgreSQL):
then it fails, and the page is told, instead of waiting for the stall to end."""
RETRY_SECONDS: Final = 2.0
"""A failed write is tried again only while this much time has not passed since its first try."""

log = logging.getLogger("parlour.server")

T = TypeVar("T")


@dataclass
class Parlour:
    """Everything one server shares: the store, the games, the live games, the templates."""

    store: GameStore
    templates: Jinja2Templates
    games: Registry
    live: LiveGames = field(default_factory=LiveGames)
    tables: Tables = field(default_factory=Tables)
    cluster: Cluster | None = None
    """The other processes serving the same tables (``--redis-url``), None for a process on its own."""
    limits: RateLimits = field(default_factory=RateLimits)
    metrics: Metrics = field(default_factory=Metrics)
    draining: bool = False
    """Set when the process is stopping (SIGTERM): not ready, taking no table."""
    _restoring: asyncio.Lock = field(default_factory=asyncio.Lock)
    _starting: tuple[asyncio.Lock, ...] = field(
        default_factory=lambda: tuple(asyncio.Lock() for _ in range(64))
    )
    _writing: asyncio.Lock = field(default_factory=asyncio.Lock)
    committer: GroupCommitter = field(init=False)

    def __post_init__(self) -> None:
        self.committer = GroupCommitter(self.store, self.write)

    async def _retried(self, write: Callable[[], Awaitable[T]]) -> T:
        """Run a write, retrying a database failure with growing pauses (:data:`RETRY_PAUSES`, about
        2 s in all), so a short outage only delays it; a longer one raises.

        Raises:
            StoreUnavailable: the database still failed after the retries (nothing was stored).
        """
        started = time.monotonic()
        for pause in (*RETRY_PAUSES, None):
            try:
                return await write()
            except StoreUnavailable:
                # A database that failed at once may be back in a moment; one that made the call wait
                # out its deadline is stalled, and the page is better told now.
                if pause is None or time.monotonic() - started + pause > RETRY_SECONDS:
                    raise
                await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def append(
        self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str], epoch: int | None = None
    ) -> object:
        """Commit moves to a game's record, grouped with other games' moves in shared transactions
        (retried as :meth:`_retried` says); ``epoch`` fences a friends' table's match to its owner.

        Raises:
            StoreUnavailable: the database still failed after the retries (nothing was stored).
            ParlourError: the store refused the moves (``TableMoved``: another process owns the table).
        """
        return await self._retried(
            lambda: self.committer.append(game_id, player_id, first_index, moves, epoch)
        )

    async def finish(self, game_id: str, player_id: Any) -> object:
        """Finish a game's record (the store replays it) and return the outcome (retried like appends).

        Raises:
            StoreUnavailable: the database still failed after the retries.
        """
        return await self._retried(lambda: self.write(self.store.finish_game, game_id, player_id))

    # --- friends' tables (``parlour.server.tables``) --------------------------------------------------

    async def record_match(self, host: int, definition: GameDefinition, spec: RecordSpec, epoch: int) -> str:
        """Store the record of a match dealt at a friends' table by its owner of ``epoch`` and return
        its id (retried).

        Raises:
            StoreUnavailable: the database still failed after the retries.
            TableMoved: another process owns the table now.
        """
        return await self._retried(lambda: self.write(self.store.record_game, host, definition, spec, epoch))

    async def save_table(self, record: TableRecord) -> None:
        """Keep a table's seats, settings, phase and current match (retried).

        Raises:
            StoreUnavailable: the database still failed after the retries.
        """
        await self._retried(lambda: self.write(self.store.save_table, record))

    async def load_table(self, table_id: str) -> FriendsTable | None:
        """Take a friends' table over for this process and rebuild it from the store: its row (its
        owner epoch raised, so that an earlier owner's writes are refused from now on), and its match
        by replay (None for no such table, or one whose match does not replay).

        Raises:
            StoreUnavailable: the database failed.
        """
        try:
            record = await self.write(self.store.claim_table, table_id)
        except StoreUnavailable:
            raise
        except ParlourError:
            return None
        definition = self.games.find(record.game)
        if definition is None or definition.seated is None:
            log.warning("table %s: its game %r is not played at tables here", table_id, record.game)
            return None
        try:
            match = None
            if record.game_id is not None:
                match = await self.call(self.store.game_record, record.game_id, record.host)
            return FriendsTable.restore(definition, record, match)
        except StoreUnavailable:
            raise
        except ParlourError:
            log.warning("table %s: it could not be restored", table_id, exc_info=True)
            return None

    async def let_go(self, table_id: str) -> None:
        """Stop owning a table another process has taken over: its pages here close and reconnect, and
        those relayed from other processes are told it moved."""
        if self.cluster is not None:
            await self.cluster.let_go(table_id)
            return
        owner = self.tables.drop(table_id)
        if owner is not None:
            owner.close_pages()

    async def reload(self, game_id: str, player_id: Any) -> tuple[LiveGame, int] | None:
        """Rebuild a live game from its record; return it and its stored move count, None when the
        record cannot be read or replayed now."""
        try:
            record = await self.call(self.store.game_record, game_id, player_id)
        except ParlourError:
            return None
        definition = self.games.find(record.game)
        if definition is None:
            return None
        try:
            return definition.restore(record), len(record.moves)
        except ValueError:
            log.warning("game %s could not be rebuilt from its record", game_id, exc_info=True)
            return None

    async def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a (blocking) store call in a worker thread, within :data:`STORE_SECONDS`, and return its
        result.

        Raises:
            StoreUnavailable: the database failed, or did not answer in time.
        """

        def bounded() -> T:
            with self.store.within(STORE_SECONDS):
                return function(*args, **kwargs)

        return await run_in_threadpool(bounded)

    async def write(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call that writes, in a worker thread, and return its result.

        SQLite has one writer at a time, and a writer that finds the database locked sleeps and polls
        with growing pauses (up to 100 ms); so on SQLite the server queues its writes itself, first
        come first served, and SQLite never has to make one wait.
        """
        started = time.perf_counter()
        try:
            if self.store.backend != "sqlite":
                return await self.call(function, *args, **kwargs)
            async with self._writing:
                return await self.call(function, *args, **kwargs)
        except StoreUnavailable:
            self.metrics.write_failures.inc()
            raise
        finally:
            self.metrics.write_seconds.observe(time.perf_counter() - started)

    async def start(
        self, definition: GameDefinition, player_id: int, options: dict[str, Any]
    ) -> tuple[Owner, list[Outcome]]:
        """Deal a new game for a player, record it, and return its live owner.

        The player's other open games of that kind are closed first (a player has one table per game);
        the store's outcomes of those games come second in the returned pair (for their record news).

        Raises:
            ParlourError: the options are invalid.
        """
        new = definition.new(options)
        await self.limits.hit("new_game", str(player_id))
        # One player's starts one at a time: parallel requests still leave one open game per kind.
        async with self._starting[hash(player_id) % len(self._starting)]:
            outcomes = []
            replaced = self.live.of_player(player_id, definition.name)
            for owner in replaced:
                self.live.drop(owner.game_id)
            try:
                for record in await self.call(self.store.open_games, player_id, definition.name):
                    outcomes.append(await self.write(self.store.finish_game, record.id, player_id))
            except StoreUnavailable:
                for owner in replaced:  # nothing was replaced: the old game plays on
                    self.live.add(owner)
                raise
            for owner in replaced:  # their pages are told that the game has ended
                async with owner.lock:
                    owner.end_elsewhere()
            if new.spec is None:
                owner = Owner(self.live.new_id(), new.game, player_id)
                return self.live.add(owner), outcomes
            game_id = await self.write(self.store.record_game, player_id, definition, new.spec)
            owner = Owner(game_id, new.game, player_id, recorder=self, record_id=game_id)
            return self.live.add(owner), outcomes

    async def abandon(self, owner: Owner) -> None:
        """Stop a live game and forget it; its pages are told that it has ended (its record is left as
        it is, for the caller to finish)."""
        async with owner.lock:
            self.live.drop(owner.game_id)
            owner.end_elsewhere()

    async def owner(self, game_id: str, player_id: int) -> Owner | None:
        """Return the live owner of a game, restoring it from its record after a restart.

        Returns None for an unknown game; a game of another player is returned (the caller refuses it).
        """
        found = self.live.get(game_id)
        if found is not None:
            return found
        async with self._restoring:
            found = self.live.get(game_id)
            if found is not None:
                return found
            try:
                record = await self.call(self.store.game_record, game_id, player_id)
            except (InvalidInput, LookupError, PermissionError):
                return None
            return self._restore(record, player_id)

    async def current(self, definition: GameDefinition, player_id: int) -> Owner | None:
        """Return the player's open game of a kind (live or restored from the records), or None."""
        mine = [
            o for o in self.live.of_player(player_id, definition.name) if not (o.game.finished or o.closed)
        ]
        if mine:
            return mine[-1]
        records = await self.call(self.store.open_games, player_id, definition.name)
        if not records:
            return None
        async with self._restoring:
            found = self.live.get(str(records[-1].id)) or self._restore(records[-1], player_id)
            return found if found is not None and not found.closed else None

    def _restore(self, record: GameRecord, player_id: int) -> Owner | None:
        """Make the owner of a stored game. An ended game is shown in its final state and accepts no
        action (so a page whose winning move's event was lost still gets the end of its game)."""
        definition = self.games.find(record.game)
        if definition is None:
            return None
        try:
            game = definition.restore(record)
        except ValueError:
            log.warning("game %s could not be restored from its record", record.id, exc_info=True)
            return None
        owner = Owner(
            str(record.id),
            game,
            player_id,
            recorder=self,
            record_id=str(record.id),
            moves_recorded=len(record.moves),
            closed=record.status != Status.OPEN,
        )
        # A game left unfinished (a newer one was dealt) is shown as it was left, and its page told so.
        owner.ended_elsewhere = record.status == Status.LEFT
        return self.live.add(owner)


async def checked_form(request: Request) -> FormData:
    """Return a posted form after checking its CSRF token (see ``parlour.server.security``).

    Raises:
        CrossSite: the form's token is missing or wrong (the app answers 403 ``cross_site``).
    """
    form = await request.form()
    check_csrf(request, form)
    return form


async def json_body(request: Request) -> Any:
    """Return a request's body read as JSON, or None when it is not JSON (the caller says what it wants)."""
    try:
        return await request.json()
    except (ValueError, RecursionError):  # not JSON, or nested deeper than the parser goes
        return None


def parlour_of(request: Request) -> Parlour:
    """Return the server state of the app serving ``request``."""
    state: Parlour = request.app.state.parlour
    return state


async def known_player(request: Request) -> Player | None:
    """Return the player of the request's token cookie, None for a visitor who has none yet (or whose
    token no longer works). Nothing is created: a page view, a crawler or a health check makes no player
    (decision 0042)."""
    # Looked up once a request, found or not (a page asks for the player and then for its language).
    if hasattr(request.state, "player"):
        cached: Player | None = request.state.player
        return cached
    parlour = parlour_of(request)
    token = request.cookies.get(TOKEN_COOKIE)
    player = await parlour.call(parlour.store.player_by_token, token) if token else None
    request.state.player = player
    return player


async def current_player(request: Request) -> Player:
    """Return the player of the request's token cookie, creating one (and its cookie) for a visitor who
    has none: only an action that needs a player calls this (a new game, a seat, a preference).

    Raises:
        RateLimited: this address made too many players in the last minute.
    """
    player = await known_player(request)
    if player is None:
        parlour = parlour_of(request)
        await parlour.limits.hit("new_player", request.client.host if request.client else "unknown")
        created = await parlour.write(parlour.store.create_player)
        setattr(request.state, NEW_TOKEN, created.token)  # PlayerCookie gives it with the answer
        player = await parlour.call(parlour.store.player_by_token, created.token)
        if player is None:  # the store lost the player it just made: nothing sensible to show
            raise RuntimeError("a new player could not be read back from the store")
    request.state.player = player
    return player


async def request_language(request: Request) -> str:
    """Return the language of a page request (cookie, saved preference, then ``Accept-Language``)."""
    preference = None
    player = await known_player(request)
    if player is not None:
        preference = player.preferences.get("lang")
    return choose_language(request.cookies, request.headers.get("accept-language"), preference)


async def render_error_page(request: Request, status: int, lang: str, message: str) -> Response:
    """Render the page a browser gets for an address Parlour has no page at (``status``, ``message``
    in ``lang``), for the player of the request's cookie if it has one: no player is made for it."""
    parlour = parlour_of(request)
    player = None
    with contextlib.suppress(ParlourError):
        player = await known_player(request)
    context = {**_page_context(request, lang, player), "message": message}
    response = parlour.templates.TemplateResponse(request, "error.html", context, status_code=status)
    response.headers["Content-Language"] = lang
    return response


def _page_context(request: Request, lang: str, player: Player | None) -> dict[str, Any]:
    """What every page template gets (see :func:`render`)."""
    texts = Texts(lang)
    return {
        "lang": lang,
        "_": texts,
        "texts": texts,
        "languages": language_choices(),
        "player": player,
        "version": __version__,
        "path": request.url.path,
        "games": list(parlour_of(request).games),
    }


async def render(request: Request, template: str, context: dict[str, Any] | None = None) -> Response:
    """Render a page template for the request's player (None for a visitor who has none yet: a page
    view makes no player), in the request's language.

    Every template gets ``lang``, ``_`` (``web`` translations), ``texts`` (a :class:`Texts`),
    ``languages`` (code, name) for the switcher, ``player`` and ``version``.
    """
    player = await known_player(request)
    lang = await request_language(request)
    full = {"csrf": csrf_token(request), **_page_context(request, lang, player), **(context or {})}
    response = parlour_of(request).templates.TemplateResponse(request, template, full)
    response.headers["Content-Language"] = lang
    set_csrf_cookie(request, response)
    return response
