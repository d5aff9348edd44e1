"""The players' own live games: dealing a new one (closing the player's other open game of that kind),
finding the live owner of a game, restoring one from its record after a restart, and abandoning one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from parlour.errors import InvalidInput
from parlour.games.base import GameDefinition, NewGame, Status
from parlour.server.edge.limits import RateLimits
from parlour.server.owners.live import LiveGames, Owner
from parlour.server.persistence import Persistence
from parlour.store.errors import StoreUnavailable
from parlour.store.types import Outcome, StoredGame

log = logging.getLogger("parlour.server")


class Sessions(Persistence):
    """The live games of the players (a part of :class:`~parlour.server.context.Parlour`)."""

    live: LiveGames
    limits: RateLimits
    _restoring: asyncio.Lock
    _starting: tuple[asyncio.Lock, ...]

    async def start(
        self,
        definition: GameDefinition,
        player_id: int,
        options: dict[str, Any],
        dealt: NewGame | None = None,
    ) -> tuple[Owner, list[Outcome]]:
        """Deal a new game for a player (from ``options``, or the game ``dealt`` already: an attempt at
        a daily deal), record it, and return its live owner.

        The player's other open games of that kind are closed first (a player has one table per game);
        the store's outcomes of those games come second in the returned pair (for their record news).

        Raises:
            ParlourError: the options are invalid.
        """
        new = dealt if dealt is not None else definition.new(options)
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

    def _restore(self, record: StoredGame, player_id: int) -> Owner | None:
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
