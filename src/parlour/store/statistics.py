"""A player's statistics, folded by each game from the replayed results of their finished games."""

from __future__ import annotations

from sqlalchemy import select

from parlour.games.base import FinishedGame, Status
from parlour.store.models import GamePlayerRow, GameRow
from parlour.store.repository import Repository
from parlour.store.rows import as_utc, player_row
from parlour.store.types import Statistics


class StatisticsStore(Repository):
    """The statistics method of :class:`~parlour.store.Store`."""

    def statistics(self, player_id: int | None) -> Statistics:
        """Return the player's statistics, folded by each game from the replayed results of their
        finished games, in the order they ended.

        Computing them from the game records, rather than keeping counters, means they can never
        drift from the games themselves, and a new figure applies to old games too. A game left before
        its first move (``empty`` result) does not count at all; games no registered game knows are
        left out. A visitor who has no player yet (``None``) gets every game's figures of no game.

        Raises:
            UnknownPlayer: no such player.
        """
        if player_id is None:
            return Statistics({definition.name: definition.fold([]) for definition in self.games})
        with self._read() as session:
            player_row(session, player_id)
            own = select(
                GameRow.game,
                GameRow.rules_key,
                GameRow.result,
                GameRow.finished_at,
                GameRow.created_at,
                GameRow.id,
            ).where(GameRow.player_id == player_id, GameRow.status != Status.OPEN)
            # Matches played at another person's table count too, with this player's own result.
            shared = (
                select(
                    GameRow.game,
                    GameRow.rules_key,
                    GamePlayerRow.result,
                    GameRow.finished_at,
                    GameRow.created_at,
                    GameRow.id,
                )
                .join(GamePlayerRow, GamePlayerRow.game_id == GameRow.id)
                .where(GamePlayerRow.player_id == player_id, GameRow.status != Status.OPEN)
            )
            found = [*session.execute(own).all(), *session.execute(shared).all()]
        rows = [row[:5] for row in sorted(found, key=lambda row: (as_utc(row[3]), row[5]))]
        finished: dict[str, list[FinishedGame]] = {definition.name: [] for definition in self.games}
        for game, key, result, finished_at, created_at in rows:
            if game in finished and result and not result.get("empty"):
                finished[game].append(FinishedGame(key, result, as_utc(finished_at), as_utc(created_at)))
        return Statistics({game: self.games.get(game).fold(games) for game, games in finished.items()})
