"""The server's shared state, one per app: :class:`Parlour` holds the store, the games, the live games
and tables, the cluster, the limits and the metrics, and is the players' sessions
(``parlour.server.sessions``) and the persistence of live games and tables
(``parlour.server.persistence``). What routers use of a request is ``parlour.server.pages.requests``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Final

from fastapi.templating import Jinja2Templates

from parlour.games.registry import Registry
from parlour.server.cluster.node import Cluster
from parlour.server.edge.limits import RateLimits
from parlour.server.edge.metrics import Metrics
from parlour.server.owners.group_commit import GroupCommitter
from parlour.server.owners.live import LiveGames
from parlour.server.owners.review_pool import ReviewPool
from parlour.server.owners.tables import Tables
from parlour.server.sessions import Sessions
from parlour.store.async_appends import AsyncAppends
from parlour.store.interface import GameStore

WEB_DIR: Final = Path(__file__).resolve().parents[1] / "web"
TEMPLATES_DIR: Final = WEB_DIR / "templates"
STATIC_DIR: Final = WEB_DIR / "static"


@dataclass
class Parlour(Sessions):
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
    reviews: ReviewPool = field(default_factory=ReviewPool)
    """The worker processes that compute reviews of finished games."""
    draining: bool = False
    """Set when the process is stopping (SIGTERM): not ready, taking no table."""
    puzzle_pools: set[str] = field(default_factory=set)
    """The games whose puzzle pool this process found filled (``parlour.server.pages.puzzle_pages``)."""
    harvested: set[tuple[str, str, date]] = field(default_factory=set)
    """The (game, rules, day) daily deals this process has turned into puzzles already."""
    public_url: str | None = None
    """The site's address as players reach it (``--public-url``): passkeys are bound to its host, and
    link codes' QR images point at it. None: passkeys only on ``localhost`` (decision 0064)."""
    _restoring: asyncio.Lock = field(default_factory=asyncio.Lock)
    _starting: tuple[asyncio.Lock, ...] = field(
        default_factory=lambda: tuple(asyncio.Lock() for _ in range(64))
    )
    _writing: asyncio.Lock = field(default_factory=asyncio.Lock)
    committer: GroupCommitter = field(init=False)
    appends: AsyncAppends | None = field(init=False)

    def __post_init__(self) -> None:
        self.appends = self.store.async_appends()
        self.committer = GroupCommitter(self.store, self.write, self.append_at_once)
