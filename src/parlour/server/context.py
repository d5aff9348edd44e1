"""The server's shared state (one per app) and the per-request helpers every router uses.

Routers reach it with :func:`parlour_of`; pages are rendered with :func:`render`, which gives every
template the language, the translation helpers and the current player.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol

from fastapi import Request
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response

from parlour import __version__
from parlour.errors import InvalidInput
from parlour.server.group_commit import GroupCommitter
from parlour.server.i18n import Texts, choose_language, language_choices
from parlour.server.kinds import GameKind, NewGame
from parlour.server.live import LiveGames, Owner

WEB_DIR: Final = Path(__file__).resolve().parents[1] / "web"
TEMPLATES_DIR: Final = WEB_DIR / "templates"
STATIC_DIR: Final = WEB_DIR / "static"
TOKEN_COOKIE: Final = "parlour_token"
COOKIE_AGE: Final = 400 * 24 * 3600

log = logging.getLogger("parlour.server")


class PlayerLike(Protocol):
    """A player as the store returns it."""

    @property
    def id(self) -> Any: ...


@dataclass
class Parlour:
    """Everything one server shares: the store, the live games, the game kinds, the templates."""

    store: Any
    templates: Jinja2Templates
    kinds: dict[str, GameKind] = field(default_factory=dict)
    live: LiveGames = field(default_factory=LiveGames)
    _restoring: asyncio.Lock = field(default_factory=asyncio.Lock)

    _writing: asyncio.Lock = field(default_factory=asyncio.Lock)
    committer: GroupCommitter | None = None

    def __post_init__(self) -> None:
        if hasattr(self.store, "append_moves_many"):
            self.committer = GroupCommitter(self.store, self.write)

    async def append(self, game_id: str, player_id: Any, first_index: int, moves: Sequence[str]) -> object:
        """Commit moves to a game's record (grouped with other games' moves when the store can)."""
        if self.committer is not None:
            return await self.committer.append(game_id, player_id, first_index, moves)
        return await self.write(self.store.append_moves, game_id, player_id, first_index, list(moves))

    async def finish(self, game_id: str, player_id: Any) -> object:
        """Finish a game's record (the store replays it) and return the outcome."""
        return await self.write(self.store.finish_game, game_id, player_id)

    async def call(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a (blocking) store call in a worker thread and return its result."""
        return await run_in_threadpool(function, *args, **kwargs)

    async def write(self, function: Any, *args: Any, **kwargs: Any) -> Any:
        """Run a store call that writes, in a worker thread, and return its result.

        SQLite has one writer at a time, and a writer that finds the database locked sleeps and polls
        with growing pauses (up to 100 ms); so on SQLite the server queues its writes itself, first
        come first served, and SQLite never has to make one wait.
        """
        if getattr(self.store, "backend", None) != "sqlite":
            return await self.call(function, *args, **kwargs)
        async with self._writing:
            return await self.call(function, *args, **kwargs)

    async def start(self, kind: GameKind, player_id: Any, options: dict[str, Any]) -> tuple[Owner, list[Any]]:
        """Deal a new game of ``kind`` for a player, record it, and return its live owner.

        The player's other open games of that kind are closed first (a player has one table per game);
        the store's outcomes of those games come second in the returned pair (for their record news).

        Raises:
            ParlourError: the options are invalid.
        """
        new: NewGame = kind.new(options)
        outcomes = []
        for owner in self.live.of_player(player_id, kind.name):
            self.live.drop(owner.game_id)
        for record in await self.call(self.store.open_games, player_id, kind.name):
            outcomes.append(await self.write(self.store.finish_game, record.id, player_id))
        if not new.record:
            owner = Owner(self.live.new_id(), new.game, player_id)
            return self.live.add(owner), outcomes
        game_id = await self.write(
            self.store.start_game, player_id, kind.name, new.rules, new.code, new.seats, new.numbered
        )
        owner = Owner(
            str(game_id),
            new.game,
            player_id,
            recorder=self,
            record_id=str(game_id),
        )
        return self.live.add(owner), outcomes

    async def abandon(self, owner: Owner) -> None:
        """Stop a live game and forget it (its record is left as it is, for the caller to finish)."""
        async with owner.lock:
            self.live.drop(owner.game_id)

    async def owner(self, game_id: str, player_id: Any) -> Owner | None:
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

    async def current(self, kind: GameKind, player_id: Any) -> Owner | None:
        """Return the player's open game of ``kind`` (live or restored from the records), or None."""
        mine = [o for o in self.live.of_player(player_id, kind.name) if not o.game.finished]
        if mine:
            return mine[-1]
        records = await self.call(self.store.open_games, player_id, kind.name)
        if not records:
            return None
        async with self._restoring:
            return self.live.get(str(records[-1].id)) or self._restore(records[-1], player_id)

    def _restore(self, record: Any, player_id: Any) -> Owner | None:
        kind = self.kinds.get(record.game)
        if kind is None or getattr(record, "status", "open") != "open":
            return None
        try:
            game = kind.restore(record)
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
        )
        return self.live.add(owner)


def parlour_of(request: Request) -> Parlour:
    """Return the server state of the app serving ``request``."""
    state: Parlour = request.app.state.parlour
    return state


async def current_player(request: Request) -> Any:
    """Return the player of the request's token cookie, creating one (and its cookie) on a first visit."""
    cached = getattr(request.state, "player", None)
    if cached is not None:
        return cached
    parlour = parlour_of(request)
    token = request.cookies.get(TOKEN_COOKIE)
    player = await parlour.call(parlour.store.player_by_token, token) if token else None
    if player is None:
        created = await parlour.write(parlour.store.create_player)
        request.state.new_token = created.token
        player = await parlour.call(parlour.store.player_by_token, created.token)
    request.state.player = player
    return player


async def request_language(request: Request) -> str:
    """Return the language of a page request (cookie, saved preference, then ``Accept-Language``)."""
    preference = None
    player = getattr(request.state, "player", None)
    if player is not None:
        preferences = getattr(player, "preferences", None) or {}
        preference = preferences.get("lang") if isinstance(preferences, dict) else None
    return choose_language(request.cookies, request.headers.get("accept-language"), preference)


def set_player_cookie(request: Request, response: Response) -> None:
    """Give the browser its token if this request created a player."""
    token = getattr(request.state, "new_token", None)
    if token:
        response.set_cookie(TOKEN_COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="lax", path="/")


async def render(request: Request, template: str, context: dict[str, Any] | None = None) -> Response:
    """Render a page template for the request's player, in the request's language.

    Every template gets ``lang``, ``_`` (``web`` translations), ``texts`` (a :class:`Texts`),
    ``languages`` (code, name) for the switcher, ``player`` and ``version``.
    """
    player = await current_player(request)
    lang = await request_language(request)
    texts = Texts(lang)
    full = {
        "lang": lang,
        "_": texts,
        "texts": texts,
        "languages": language_choices(),
        "player": player,
        "version": __version__,
        "path": request.url.path,
        "kinds": sorted(parlour_of(request).kinds),
    }
    full.update(context or {})
    response = parlour_of(request).templates.TemplateResponse(request, template, full)
    response.headers["Content-Language"] = lang
    set_player_cookie(request, response)
    return response
