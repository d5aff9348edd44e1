"""TriPeaks puzzles (issue 53): positions of real deals where exactly one move keeps the deal winnable,
every other legal move being proved lost by the exact solver, and whose answer a player can find from
what they see.

The exact solver sees every card, so a unique winning move alone makes an unfair puzzle when it wins
only because of a face-down card the player cannot know. A candidate is kept only when the fair search
(``parlour.tripeaks.solver.hints``: rollouts over every way the unseen cards may lie) ranks the answer
first, clearly ahead of every other move: its chance is best by at least :data:`FAIR_GAP`. The
generator counts what it looked at and what it rejected (:class:`Census`).

A puzzle is its deal's ``code``, the ``moves`` that lead to its position from the deal's start and the
one ``answer``, all in the command line's words (``KC``, ``draw``); its ``line`` is the solver's win
from the position after the answer, shown once the puzzle is done.
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.game import Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver.hints import fair_hint, preference_order, turns_up
from parlour.tripeaks.solver.numbered import numbered_count
from parlour.tripeaks.solver.solve import solve

FAIR_GAP: Final = 0.05
"""How much better the answer's fair chance must be than every other move's."""
TEMPTATION: Final = 0.10
"""When the answer is the natural move, another move must look this good (its fair chance) for the
position to be a puzzle: otherwise nothing tempts a player away from the answer."""
FAIR_SAMPLES: Final = 1600
"""The fair search's budget for one candidate (it stops early once the answer is clearly ahead)."""
PEAK_TOPS: Final = frozenset({0, 1, 2})
ENDGAME_CARDS: Final = 6
"""A position with at most this many tableau cards left is an endgame."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: the deal's ``code``, the ``moves`` to its position, the one ``answer``; its
    ``themes``, ``difficulty`` (``easy``, ``medium``, ``hard``), the answer's fair ``chance`` and the
    best other move's (``runner_up``), the solver's winning ``line`` after the answer, and where it
    comes from (``source``: ``numbered 123``, ``daily 2026-12-01``, ``game …``)."""

    code: str
    moves: tuple[str, ...]
    answer: str
    themes: tuple[str, ...]
    difficulty: str
    chance: float
    runner_up: float
    line: tuple[str, ...]
    source: str

    def to_json(self) -> dict[str, Any]:
        """Return the puzzle as ``parlour tripeaks puzzles --json`` prints it."""
        return {
            "code": self.code,
            "moves": list(self.moves),
            "answer": self.answer,
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "chance": round(self.chance, 4),
            "runner_up": round(self.runner_up, 4),
            "line": list(self.line),
            "source": self.source,
        }


@dataclass
class Census:
    """What a generator run looked at: positions with a choice, those with exactly one winning move,
    those rejected as unfair (the answer not clearly best to a player who cannot see the hidden
    cards) or as obvious (the natural move, and nothing else tempting), the puzzles kept and the
    seconds spent."""

    deals: int = 0
    candidates: int = 0
    unique: int = 0
    unfair: int = 0
    obvious: int = 0
    kept: int = 0
    seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Return the figures (``per_minute``: puzzles kept a minute)."""
        seconds = self.seconds or (time.perf_counter() - self.started)
        return {
            "deals": self.deals,
            "candidates": self.candidates,
            "unique": self.unique,
            "unfair": self.unfair,
            "obvious": self.obvious,
            "kept": self.kept,
            "seconds": round(seconds, 3),
            "per_minute": round(self.kept * 60 / seconds, 1) if seconds > 0 else None,
        }


def winning_moves(game: Game) -> list[str] | None:
    """Return the legal moves after which the deal can still be won (proved by the exact solver), in
    the game's order; None when a search was cut short (nothing is proved then)."""
    winners = []
    for move in game.legal_actions():
        after = game.copy()
        after.apply(move)
        answer = solve(after, winnable_only=True, any_win=True)
        if answer.winnable:
            winners.append(move)
        elif not answer.proved:
            return None
    return winners


def themes_of(game: Game, answer: str, natural: str) -> tuple[str, ...]:
    """Return the themes of a puzzle whose position is ``game``: ``draw`` (the answer is to draw while a
    card could be played), ``hold`` (the answer is not the ``natural`` move: the card that turns the
    most up), ``reveal`` (the answer turns a card up), ``peak`` (it takes a peak's top card),
    ``last_stock`` (one card or none left to draw), ``endgame`` (a few cards left in the peaks)."""
    found = []
    if answer == "draw":
        found.append("draw")
    elif answer != natural:
        found.append("hold")
    if answer != "draw":
        place = next(p for p in game.fitting_positions() if str(game.card_at(p)) == answer)
        if turns_up(game, place):
            found.append("reveal")
        if place in PEAK_TOPS:
            found.append("peak")
    if game.stock_count <= 1:
        found.append("last_stock")
    if game.cards_left <= ENDGAME_CARDS:
        found.append("endgame")
    return tuple(found)


def difficulty_of(answer: str, natural: str, chance: float, runner_up: float) -> str:
    """Return how hard the answer is to see: ``hard`` when it is not the ``natural`` move or only just
    ahead (by less than 15 points of fair chance), ``medium`` when it is ahead by less than 35,
    ``easy`` otherwise. (Each puzzle's rating, from its attempts, then says how hard it really is.)"""
    gap = chance - runner_up
    if natural != answer or gap < 0.15:
        return "hard"
    return "medium" if gap < 0.35 else "easy"


def candidate(
    game: Game, code: str, moves: tuple[str, ...], source: str, census: Census, *, seed: int = 0
) -> Puzzle | None:
    """Return the puzzle at ``game``'s position (reached from ``code`` by ``moves``), or None when it is
    none: fewer than two legal moves, not exactly one winning move, an unfair answer, or an obvious one
    (the natural move, with no other move at :data:`TEMPTATION`)."""
    legal = game.legal_actions()
    if len(legal) < 2:
        return None
    census.candidates += 1
    winners = winning_moves(game)
    if winners is None or len(winners) != 1:
        return None
    census.unique += 1
    [answer] = winners
    hint = fair_hint(game, samples=FAIR_SAMPLES, seed=seed)
    others = [chance for move, chance in hint.chances.items() if move != answer]
    runner_up = max(others, default=0.0)
    chance = hint.chances.get(answer, 0.0)
    if hint.move != answer or chance - runner_up < FAIR_GAP:
        census.unfair += 1
        return None
    natural = preference_order(game)[0]
    if natural == answer and runner_up < TEMPTATION:
        census.obvious += 1
        return None
    after = game.copy()
    after.apply(answer)
    line = solve(after).line
    return Puzzle(
        code, moves, answer, themes_of(game, answer, natural),
        difficulty_of(answer, natural, chance, runner_up), chance, runner_up, tuple(line), source,
    )  # fmt: skip


def puzzles_of_line(code: str, line: Iterable[str], source: str, census: Census) -> Iterator[Puzzle]:
    """Yield every puzzle along ``line`` (moves from the deal's start), in order."""
    game = Game.from_code(code)
    made: list[str] = []
    for move in line:
        found = candidate(game, code, tuple(made), source, census, seed=len(made))
        if found is not None:
            yield found
        game.apply(move)
        made.append(move)


def interest(puzzle: Puzzle) -> tuple[int, int, int]:
    """How interesting a puzzle is, to choose one of a deal's: a surprising answer first, then a hard
    one, then the later position (more of the game to read)."""
    return (
        "hold" in puzzle.themes or "draw" in puzzle.themes,
        puzzle.difficulty == "hard",
        len(puzzle.moves),
    )


def puzzle_of_deal(code: str, source: str, census: Census) -> Puzzle | None:
    """Return the most interesting puzzle along the solver's win of a deal (None for a deal that cannot
    be won, or without a fair one-move position)."""
    census.deals += 1
    solution = solve(Game.from_code(code))
    if not solution.winnable:
        return None
    found = list(puzzles_of_line(code, solution.line, source, census))
    return max(found, key=interest) if found else None


def numbered_puzzles(
    rules: Rules | str, count: int, start: int = 1, census: Census | None = None
) -> list[Puzzle]:
    """Return ``count`` puzzles, one from each numbered game from ``start`` on that has one (numbered
    deals are public: no deal still ranked is used). Stops at the last numbered game.

    Raises:
        ValueError: a count below 1, or the numbered games ran out before ``count`` puzzles.
    """
    chosen = Rules.named(rules) if isinstance(rules, str) else rules
    if count < 1:
        raise ValueError("the count of puzzles is at least 1")
    census = census if census is not None else Census()
    found: list[Puzzle] = []
    number = start
    last = numbered_count(chosen)
    while len(found) < count:
        if number > last:
            raise ValueError(
                f"the numbered games end at #{last}: games #{start}-#{last} hold {len(found)} puzzles, "
                f"not {count}"
            )
        code = str(DealCode(number, chosen))
        puzzle = puzzle_of_deal(code, f"numbered {number}", census)
        if puzzle is not None:
            found.append(puzzle)
            census.kept += 1
        number += 1
    census.seconds = time.perf_counter() - census.started
    return found


PACKAGED: Final = Path(__file__).with_name("puzzles.json.gz")
"""Puzzles from the numbered games, made by ``parlour tripeaks puzzles`` (600 Easy, 400 Classic): the
site's pool starts from them."""


def packaged_puzzles() -> list[dict[str, Any]]:
    """Return the packaged puzzles, as ``parlour tripeaks puzzles --json`` printed them."""
    with gzip.open(PACKAGED, "rt", encoding="utf-8") as handle:
        found: list[dict[str, Any]] = json.load(handle)["puzzles"]
    return found
