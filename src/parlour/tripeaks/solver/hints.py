"""Fair hints: the move with the best chance of winning for a player who cannot see the hidden cards.

Each legal move is judged by rollouts (``parlour.tripeaks.solver.rollout``): the unseen cards are
dealt at random into their places, consistently with everything seen, the move is made and the game is
played on by a base policy that sees only what a player sees. The hint is the move that won in the most
samples, and its chance is the share it won, with a 95% interval: a chance a player who sees no hidden
card really has (at least: playing on better than the base policy only raises it), never the share of
samples an all-seeing solver could win, which says "win" for nearly every move of nearly every deal.

Samples are drawn in batches until the best move is clearly ahead of every other (a sign test on the
samples where the two differ) or the budget is spent: easy choices are quick, close ones get more
samples. ``docs/decisions/0037-tripeaks-fair-rollouts.md`` says why rollouts. The same game, seed and
budget always give the same hint, and two deals that look the same to the player give the same hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from parlour.deal import SplitMix64
from parlour.errors import GameOver
from parlour.intervals import wilson
from parlour.tripeaks.game import Game
from parlour.tripeaks.layout import COVERED_BY, COVERS
from parlour.tripeaks.solver.rollout import Seen, rollouts

BATCH: Final = 200
"""Samples per batch: the stopping rule is checked after each."""
DEFAULT_SAMPLES: Final = 3200
"""The most samples a hint draws (the compiled core plays them in well under a second)."""
MIN_SAMPLES: Final = 400
"""The fewest samples a hint draws before it may stop early."""
CLEAR_LEAD: Final = 2.5
"""How many standard deviations of the sign test make a lead clear."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A fair hint: ``move`` (``KC`` or ``draw``), its estimated ``chance`` of winning with the 95%
    interval ``low`` – ``high``, the chance of every legal move (``chances``), the ``samples`` drawn
    and the ``seed``."""

    move: str
    chance: float
    low: float
    high: float
    chances: dict[str, float]
    samples: int
    seed: int

    @property
    def margin(self) -> float:
        """Half the width of the 95% interval."""
        return (self.high - self.low) / 2

    def to_json(self) -> dict[str, Any]:
        """The JSON answer of ``parlour tripeaks hint --json``."""
        return {
            "move": self.move,
            "chance": self.chance,
            "low": self.low,
            "high": self.high,
            "chances": dict(self.chances),
            "samples": self.samples,
            "seed": self.seed,
        }


def turns_up(game: Game, position: int) -> int:
    """How many face-down cards removing the card at ``position`` would turn up (visible information)."""
    count = 0
    for q in COVERS[position]:
        if not game.face_up(q) and all(c == position or game.removed(c) for c in COVERED_BY[q]):
            count += 1
    return count


def preference_order(game: Game) -> list[str]:
    """The legal moves, most natural first: cards that turn the most face-down cards up (then the
    rightmost lowest), then ``draw``. Ties between estimated chances go to the earlier move."""
    fitting = sorted(game.fitting_positions(), key=lambda p: (-turns_up(game, p), -p))
    order = [str(game.card_at(p)) for p in fitting]
    return [*order, *[move for move in game.legal_actions() if move not in order]]


def batch_seed(seed: int, batch: int) -> int:
    """The rollout seed of one batch of a hint: batches of one hint, and hints of nearby seeds, draw
    unrelated samples."""
    return SplitMix64(seed * 0x2545F4914F6CDD1D + batch).next()


def fair_hint(
    game: Game,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    min_samples: int = MIN_SAMPLES,
    policy: str = "greedy",
    core_name: str | None = None,
    judged: int | None = None,
) -> Hint:
    """The fair hint for a game in play (see the module docstring): at most ``samples`` samples (rounded
    up to whole batches), at least ``min_samples`` unless the budget is smaller.

    Ties go to the earlier move of ``preference_order`` (cards before ``draw``). ``judged`` limits the
    moves judged to the first ones of that order (1: greedy play's own move, with its chance); None
    judges every legal move.

    Raises:
        GameOver: the game is won or stuck: there is nothing to hint.
        ValueError: an unknown base policy or core.
    """
    moves = preference_order(game)
    if not moves:
        raise GameOver("the game is over: there is no move to hint", code="game_over")
    if judged is not None:
        if judged < 1:
            raise ValueError(f"judged must be at least 1, got {judged}")
        moves = moves[:judged]
    seen = Seen.of_game(game)
    codes = [seen.move_code(game, move) for move in moves]
    count = len(moves)
    wins = [0] * count
    beats = [0] * (count * count)
    drawn = batch = 0
    while drawn < samples:
        size = min(BATCH, samples - drawn)
        got, against = rollouts(
            seen, codes, samples=size, seed=batch_seed(seed, batch), policy=policy, core_name=core_name
        )
        wins = [a + b for a, b in zip(wins, got, strict=True)]
        beats = [a + b for a, b in zip(beats, against, strict=True)]
        drawn += size
        batch += 1
        if drawn >= min(min_samples, samples) and (count == 1 or _clear_lead(wins, beats, count)):
            break
    best = max(range(count), key=lambda m: (wins[m], -m))
    low, high = wilson(wins[best], drawn)
    chances = {move: wins[m] / drawn for m, move in enumerate(moves)}
    return Hint(moves[best], chances[moves[best]], low, high, chances, drawn, seed)


def _clear_lead(wins: list[int], beats: list[int], count: int) -> bool:
    """True when the leading move won clearly more often than each other one, counting only the samples
    where the two differ (a sign test): moves that never differ are as good as each other."""
    best = max(range(count), key=lambda m: (wins[m], -m))
    for other in range(count):
        if other == best:
            continue
        ahead, behind = beats[best * count + other], beats[other * count + best]
        lead = ahead - behind
        if lead * lead < CLEAR_LEAD * CLEAR_LEAD * (ahead + behind):
            return False
    return True
