"""The review of a finished Thirteen match, for one seat: every round with the four hands as they were
dealt, and at each of the seat's decisions the expert's estimate of the points the move played and the
best candidate would bring, judged from that seat's view only, exactly as the expert plays.

At each decision with more than one legal move the candidates are the expert's own (its structure
keeper's move, the heuristic's, the pass when allowed, the lowest play of each unit of the hand), with
the move played among them; each is played out on the same sampled deals of the cards the seat has
not seen (``parlour.thirteen.bots.search.evaluate``), so the difference between two is sharper than
either. A decision is graded by the round points it lost against the best candidate (:data:`GRADES`),
as lichess grades chess moves by the winning chances they lose. The hands of the other seats are shown
only because the match is over; the estimates never look at them. The same code, moves, seat and seed
always give the same review.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from parlour.deal import SplitMix64
from parlour.errors import GameOver, IllegalMove, InvalidInput
from parlour.grades import BEST, names
from parlour.grades import grade as graded
from parlour.thirteen.bots.expert import DRAWS_PER_SAMPLE, OWN_PLAYOUTS, ExpertBot
from parlour.thirteen.bots.search import Position, choose_search_core, evaluate
from parlour.thirteen.game import Match
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.order import text_of
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.sets import slot

POINTS_RANGE: Final = 3
"""Round points between the first place (3) and the last (0)."""
GRADES: Final = ((0.45, "blunder"), (0.30, "mistake"), (0.15, "inaccuracy"))
"""A decision that lost at least this many expected round points (of the 3 between first and last
place) gets this grade, the largest first: 15, 10 and 5 per cent of that range, the shares lichess's
thresholds are of a chess game's winning chances. The expert's own choice is ``best``; one that lost
less than the smallest threshold is ``good``."""


def grade(played: float, best: float, *, matched: bool) -> str:
    """Return the grade of a decision whose move is worth ``played`` points where the best candidate
    is worth ``best`` (``matched``: the move played is the best candidate)."""
    return graded(best - played, GRADES, matched=matched)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat: the move's ``index`` among the moves given (1-based), its
    ``round``, the ``move`` played, and the expert's estimates (expected round points) of every
    candidate it compared, with the best one and the grade."""

    index: int
    round: int
    move: str
    estimates: dict[str, float]
    best_move: str
    grade: str

    @property
    def played(self) -> float:
        """Return the expected round points of the move played."""
        return self.estimates[self.move]

    @property
    def best(self) -> float:
        """Return the expected round points of the best candidate."""
        return self.estimates[self.best_move]

    def to_json(self) -> dict[str, Any]:
        """Return the decision as JSON."""
        return {
            "index": self.index,
            "round": self.round,
            "move": self.move,
            "played_points": self.played,
            "best_points": self.best,
            "best_move": self.best_move,
            "estimates": dict(self.estimates),
            "grade": self.grade,
        }


@dataclass(frozen=True, slots=True)
class RoundReview:
    """One round: its ``number``, the four ``hands`` as dealt (card texts), the moves in it (``first``
    and ``last`` index among the moves given) and the round ``points`` of each seat (None for a round
    the moves given do not finish). In a duplicate set, ``deal`` and ``rotation`` (both from 0) say
    which deal the round plays and how far its hands have passed round (``parlour.thirteen.sets``);
    None in an ordinary match."""

    number: int
    hands: tuple[tuple[str, ...], ...]
    first: int
    last: int
    points: tuple[int, ...] | None
    deal: int | None = None
    rotation: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the round as JSON (``deal`` and ``rotation`` only for a round of a duplicate set)."""
        data: dict[str, Any] = {
            "number": self.number,
            "hands": [list(hand) for hand in self.hands],
            "first_move": self.first,
            "last_move": self.last,
            "points": None if self.points is None else list(self.points),
        }
        if self.deal is not None:
            data["deal"] = self.deal
            data["rotation"] = self.rotation
        return data


@dataclass(frozen=True, slots=True)
class ReviewStep:
    """One move of the match as the review replays it: its ``index`` among the moves given (1-based),
    its ``round``, the ``seat`` that made it, the ``move`` (``pass`` or cards) and whether the table
    was ``cleared`` after it (everyone else had passed: the next play leads)."""

    index: int
    round: int
    seat: int
    move: str
    cleared: bool

    def to_json(self) -> dict[str, Any]:
        """Return the step as JSON."""
        return {
            "index": self.index,
            "round": self.round,
            "seat": self.seat,
            "move": self.move,
            "cleared": self.cleared,
        }


@dataclass(frozen=True, slots=True)
class ThirteenReview:
    """The review of one seat's play in a match (see the module docstring)."""

    code: str
    seat: int
    rounds: tuple[RoundReview, ...]
    decisions: tuple[Decision, ...]
    scores: tuple[int, ...]
    status: str
    seed: int
    steps: tuple[ReviewStep, ...] = ()

    @property
    def points_lost(self) -> float:
        """Return the expected round points lost over the match, against the best candidates."""
        return sum(max(0.0, decision.best - decision.played) for decision in self.decisions)

    def to_json(self) -> dict[str, Any]:
        """Return the review as JSON (``parlour thirteen review --json``)."""
        grades = names(GRADES)
        return {
            "code": self.code,
            "seat": self.seat,
            "status": self.status,
            "scores": list(self.scores),
            "rounds": [round_.to_json() for round_ in self.rounds],
            "decisions": [decision.to_json() for decision in self.decisions],
            "steps": [step.to_json() for step in self.steps],
            "summary": {
                "decisions": len(self.decisions),
                "matched": sum(1 for decision in self.decisions if decision.grade == BEST),
                "points_lost": self.points_lost,
                "grades": {name: sum(1 for d in self.decisions if d.grade == name) for name in grades},
            },
            "seed": self.seed,
        }


def _set_slot(rules: Rules, number: int) -> tuple[int | None, int | None]:
    """Return the deal and rotation of round ``number`` of a duplicate set, (None, None) otherwise."""
    if not rules.duplicate:
        return None, None
    where = slot(rules, number)
    return where.deal, where.rotation


def _candidates(expert: ExpertBot, match: Match, seat: int, played: Move) -> list[Move]:
    view = match.view(seat)
    plays = tuple(move.mask for move in match.legal_moves(seat) if move != PASS)
    may_pass = match.round.can_pass(seat)
    found = expert.candidates(view, plays, may_pass)
    return found if played in found else [*found, played]


def review_match(
    code: str,
    moves: Iterable[str],
    *,
    seat: int = 0,
    rules: Rules = STANDARD,
    seed: int = 0,
    core: str | None = None,
) -> ThirteenReview:
    """Return the review of ``seat``'s decisions in the match of ``code`` played with ``moves`` (every
    seat's, in turn order).

    Raises:
        InvalidCode: not a Thirteen code. InvalidInput / IllegalMove / GameOver: a move is refused (its
        number in the message).
    """
    if not 0 <= seat <= 3:
        raise InvalidInput(f"there is no seat {seat}: seats are 0 to 3", code="no_such_seat")
    core_name, _ = choose_search_core(core)
    expert = ExpertBot(seed, core_name)
    seeds = SplitMix64(seed)
    match = Match.from_code(code, rules)
    rounds: list[RoundReview] = []
    decisions: list[Decision] = []
    steps: list[ReviewStep] = []
    dealt = tuple(tuple(text_of(hand).split()) for hand in match.round.hands)
    first = 1
    index = 0
    for index, text in enumerate(moves, start=1):
        mover = match.turn
        if mover is None:
            raise GameOver(f"move {index} ({text}) comes after the end of the match")
        try:
            move = Move.parse(text)
            match.round.check(mover, move.mask)
        except (IllegalMove, InvalidInput) as error:
            raise type(error)(f"move {index}: {error}", code=error.code) from error
        number = match.round.number
        if mover == seat and len(match.legal_moves(seat)) > 1 and match.round.hands[seat] != move.mask:
            options = _candidates(expert, match, seat, move)
            view = match.view(seat)
            samples = ExpertBot.samples(view, len(options), core_name)
            totals = evaluate(
                Position.of_view(view),
                [option.mask for option in options],
                samples,
                samples * DRAWS_PER_SAMPLE[core_name],
                seeds.next(),
                core_name,
                own=OWN_PLAYOUTS[core_name],
            ).totals
            estimates = {str(option): total / samples for option, total in zip(options, totals, strict=True)}
            best = options[max(range(len(options)), key=lambda i: (totals[i], -i))]
            decisions.append(
                Decision(
                    index,
                    number,
                    str(move),
                    estimates,
                    str(best),
                    grade(estimates[str(move)], estimates[str(best)], matched=best == move),
                )
            )
        match.push(move)
        cleared = match.round.number == number and not match.over and match.round.table_shape is None
        steps.append(ReviewStep(index, number, mover, str(move), cleared))
        if match.round.number != number or match.over:  # the round just ended
            points = match.results[-1].points
            rounds.append(RoundReview(number, dealt, first, index, tuple(points), *_set_slot(rules, number)))
            dealt = tuple(tuple(text_of(hand).split()) for hand in match.round.hands)
            first = index + 1
    if not match.over and first <= index:
        number = match.round.number
        rounds.append(RoundReview(number, dealt, first, index, None, *_set_slot(rules, number)))
    return ThirteenReview(
        code=match.code,
        seat=seat,
        rounds=tuple(rounds),
        decisions=tuple(decisions),
        scores=tuple(match.scores),
        status=match.status,
        seed=seed,
        steps=tuple(steps),
    )
