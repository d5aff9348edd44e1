"""The review of a finished TriPeaks game: what the all-seeing solver says of every position, and what
a player who sees no hidden card could have known at every choice.

Two verdicts sit side by side, so that a review separates bad luck from bad play:

* the **exact** one (``solve``, which sees every card): whether the game could still be won before and
  after each move, and in how few moves; the move that turned a winnable game into a lost one, with the
  winning line from just before it; for a win, how many moves longer than the fewest it was;
* the **honest** one (the Thorough hint, ``hint_at(…, "fair")``, which sees what the player saw): at each
  of the player's choices, the estimated chance of winning of the move played and of the best move, and
  a grade by the chance lost, as lichess grades chess moves (:data:`GRADES`).

A review reveals every hidden card of the deal (the exact verdicts follow from them): it is made only
of a game that is over. The same code, moves and seed always give the same review.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.errors import IllegalMove, InvalidInput
from parlour.grades import BEST, names
from parlour.grades import grade as graded
from parlour.tripeaks.game import PLAYING, UNDO, WON, Game
from parlour.tripeaks.solver.hints import DEFAULT_SAMPLES
from parlour.tripeaks.solver.players import hint_at
from parlour.tripeaks.solver.position import Position
from parlour.tripeaks.solver.solve import DEFAULT_NODE_LIMIT, Solution, solve_position

GRADES: Final = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
"""A move that lost at least this much chance of winning (as the Thorough hint estimates it, 0–1) gets
this grade, the largest first: lichess's thresholds (0.3, 0.2, 0.1 on its −1…1 winning-chances scale)
taken to a chance of winning (0–1). A move the hint would have played is ``best``; one that lost less
than the smallest threshold is ``good``."""


def grade(played: float, best: float, *, matched: bool) -> str:
    """Return the grade of a move whose estimated chance is ``played`` where the best move's is ``best``
    (``matched``: the move played is the best move)."""
    return graded(best - played, GRADES, matched=matched)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The exact answer for one position: ``winnable`` (None when the search was cut short) and, when
    it is winnable, the fewest moves left (``fewest``) and that shortest winning ``line``."""

    winnable: bool | None
    fewest: int | None
    line: tuple[str, ...]

    @classmethod
    def of(cls, solution: Solution, moves_made: int) -> Verdict:
        """Return the verdict of a solution of a position after ``moves_made`` moves."""
        if solution.winnable and solution.moves is not None:
            return cls(True, solution.moves - moves_made, solution.line)
        return cls(False if solution.proved else None, None, ())


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One move of the game (``index``: 1-based, among the moves given) and what both verdicts say of
    it. ``played_chance``, ``best_chance``, ``best_move`` and ``grade`` are None where the player had no
    choice (one legal move, or an undo)."""

    index: int
    move: str
    before: Verdict
    after: Verdict
    played_chance: float | None = None
    best_chance: float | None = None
    best_move: str | None = None
    grade: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the move's review as JSON (``parlour tripeaks review --json``)."""
        return {
            "index": self.index,
            "move": self.move,
            "winnable_before": self.before.winnable,
            "winnable_after": self.after.winnable,
            "fewest_left_after": self.after.fewest,
            "played_chance": self.played_chance,
            "best_chance": self.best_chance,
            "best_move": self.best_move,
            "grade": self.grade,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """The review of one game (see the module docstring).

    ``start`` is the exact verdict of the deal; ``first_losing_move`` the index of the move after which
    the game could no longer be won (None when it never became lost, or was lost from the start), and
    ``winning_line`` the shortest win from just before it; ``extra_moves`` how many moves longer than
    the fewest a win was (None for a game not won). ``rejected`` are the moves refused, as ``replay``
    reports them (index, move, reason code): they change nothing.
    """

    code: str
    start: Verdict
    moves: tuple[MoveReview, ...]
    status: str
    cards_left: int
    moves_made: int
    first_losing_move: int | None
    winning_line: tuple[str, ...]
    extra_moves: int | None
    seed: int
    samples: int
    rejected: tuple[dict[str, Any], ...] = field(default=())

    @property
    def choices(self) -> list[MoveReview]:
        """Return the moves where the player had a choice (graded)."""
        return [move for move in self.moves if move.grade is not None]

    @property
    def matched(self) -> int:
        """Return how many of the player's choices were the Thorough hint's own move."""
        return sum(1 for move in self.choices if move.grade == BEST)

    @property
    def chance_lost(self) -> float:
        """Return the chance of winning lost over the game: the sum, over the choices, of the best
        move's estimate less the move played's (never below 0 for a move)."""
        return sum(max(0.0, (move.best_chance or 0.0) - (move.played_chance or 0.0)) for move in self.choices)

    def to_json(self) -> dict[str, Any]:
        """Return the review as JSON (``parlour tripeaks review --json``)."""
        return {
            "code": self.code,
            "winnable_at_start": self.start.winnable,
            "fewest_at_start": self.start.fewest,
            "first_losing_move": self.first_losing_move,
            "winning_line": list(self.winning_line),
            "status": self.status,
            "cards_left": self.cards_left,
            "moves_made": self.moves_made,
            "extra_moves": self.extra_moves,
            "moves": [move.to_json() for move in self.moves],
            "summary": {
                "choices": len(self.choices),
                "matched": self.matched,
                "chance_lost": self.chance_lost,
                "grades": {name: sum(1 for m in self.choices if m.grade == name) for name in _GRADE_NAMES},
            },
            "seed": self.seed,
            "samples": self.samples,
            "rejected": list(self.rejected),
        }


_GRADE_NAMES: Final = names(GRADES)


class _Verdicts:
    """The exact verdicts of positions, each position solved once (an undo comes back to one)."""

    def __init__(self, node_limit: int, core_name: str | None) -> None:
        self.node_limit = node_limit
        self.core_name = core_name
        self.known: dict[Any, Verdict] = {}

    def of(self, game: Game) -> Verdict:
        position = Position.of_game(game)
        key = (position.codes(), position.moves_made)
        found = self.known.get(key)
        if found is None:
            solution = solve_position(
                position, node_limit=self.node_limit, winnable_only=True, core_name=self.core_name
            )
            found = self.known[key] = Verdict.of(solution, position.moves_made)
        return found


def review_game(
    game: Game,
    moves: Iterable[str],
    *,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    node_limit: int = DEFAULT_NODE_LIMIT,
    core_name: str | None = None,
    honest: bool = True,
) -> Review:
    """Return the review of ``moves`` played from ``game`` (a game at its deal's start, which is left
    unchanged). At each choice the Thorough hint is asked with ``seed`` and ``samples`` exactly as
    ``parlour tripeaks hint … --seed SEED --samples SAMPLES`` asks it, so that its estimates are the
    same; ``honest`` False leaves the honest verdicts out (the exact ones alone are much faster).

    Raises:
        InvalidInput: the game was played from already (a review starts at the deal).
    """
    if game.moves or game.live_moves():
        raise InvalidInput("a review starts from the deal: this game was played from already")
    game = game.copy()
    verdicts = _Verdicts(node_limit, core_name)
    start = verdicts.of(game)
    reviewed: list[MoveReview] = []
    rejected: list[dict[str, Any]] = []
    for index, move in enumerate(moves, start=1):
        before = verdicts.of(game)
        choice = honest and game.status == PLAYING and move.strip().lower() != UNDO
        legal = game.legal_actions() if choice else []
        hint = hint_at(game, "fair", seed=seed, samples=samples, spend_all=False) if len(legal) > 1 else None
        try:
            canonical = game.apply(move)
        except (IllegalMove, InvalidInput) as error:
            rejected.append({"index": index, "move": move, "reason": error.code})
            continue
        after = verdicts.of(game)
        if hint is None or canonical not in hint.chances:
            reviewed.append(MoveReview(index, canonical, before, after))
            continue
        played, best = hint.chances[canonical], hint.chances[hint.move]
        matched = canonical == hint.move
        reviewed.append(
            MoveReview(
                index, canonical, before, after, played, best, hint.move, grade(played, best, matched=matched)
            )
        )
    losing = next(
        (move for move in reviewed if move.before.winnable is True and move.after.winnable is False), None
    )
    extra = None
    if game.status == WON and start.fewest is not None:
        extra = game.moves - start.fewest
    return Review(
        code=str(game.code),
        start=start,
        moves=tuple(reviewed),
        status=game.status,
        cards_left=game.cards_left,
        moves_made=game.moves,
        first_losing_move=losing.index if losing is not None else None,
        winning_line=losing.before.line if losing is not None else (),
        extra_moves=extra,
        seed=seed,
        samples=samples,
        rejected=tuple(rejected),
    )
