"""Per-player statistics computed from the results of their finished games (in the order they ended).

Computing them from the game records, rather than keeping counters, means they can never drift from
the games themselves, and a new figure applies to old games too.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from parlour.store.types import RecentGame, Statistics, ThirteenStatistics, TriPeaksStatistics

RECENT = 30


def compute(finished: Iterable[tuple[str, str, dict[str, Any], datetime]]) -> Statistics:
    """Return the statistics of finished games given as (game, rules_key, result, finished_at).

    A TriPeaks game left unfinished counts as played and not won (it ends a winning streak); a game
    left before its first move (``empty`` result) does not count at all.
    """
    tripeaks: dict[str, list[tuple[bool, int, int]]] = {}
    recent: list[RecentGame] = []
    games = rounds = points = won = 0
    places = [0, 0, 0, 0]
    for game, rules_key, result, finished_at in finished:
        if result.get("empty"):  # left before the first move: not a game played
            continue
        if game == "tripeaks":
            entry = (bool(result["won"]), int(result["score"]), int(result["moves"]))
            tripeaks.setdefault(rules_key, []).append(entry)
            tripeaks.setdefault("all", []).append(entry)
            recent.append(RecentGame(rules_key, entry[0], entry[1], int(result["left"]), finished_at))
        elif game == "thirteen":
            games += 1
            rounds += int(result["rounds"])
            points += int(result["points"])
            won += bool(result["won"])
            for place, count in enumerate(result["places"]):
                places[place] += int(count)
    per_rules = {key: _tripeaks(key, results) for key, results in tripeaks.items()}
    per_rules.setdefault("all", TriPeaksStatistics("all"))
    thirteen = ThirteenStatistics(games, rounds, (places[0], places[1], places[2], places[3]), points, won)
    return Statistics(per_rules, thirteen, recent[-RECENT:])


def _tripeaks(rules_key: str, results: list[tuple[bool, int, int]]) -> TriPeaksStatistics:
    streak = longest = 0
    for won, _score, _moves in results:
        streak = streak + 1 if won else 0
        longest = max(longest, streak)
    wins = [moves for won, _score, moves in results if won]
    return TriPeaksStatistics(
        rules_key=rules_key,
        played=len(results),
        won=len(wins),
        best_score=max(score for _won, score, _moves in results),
        current_streak=streak,
        longest_streak=longest,
        average_moves_of_wins=sum(wins) / len(wins) if wins else None,
    )
