"""The expert's search: sampled deals, weighed against how the others played, and played out.

For one choice of the expert, :func:`evaluate` answers how many round points (3, 2, 1, 0 for the
places) each candidate move earns in total over sampled deals:

1. **Draw** ``draws`` deals of the cards the expert has not seen (every card neither in its hand nor
   played this round) into the other hands, each as large as the table shows it.
2. **Weigh them** when ``draws`` exceeds ``samples``: replay the round so far on each drawn deal and
   count, for each other seat and each model of a player (:data:`MODELS`: the heuristic player, the
   structure keeper, greedy play, the Strong player and the eager keeper), the moves that
   model holding those cards would not have made. Each seat's model is judged by its ``samples`` best
   deals, the misses summed over them: a model the seat really plays by explains everything on the
   deals near the real one. The heuristic stays unless the other model with the fewest misses (the
   earliest of equals) misses at least half a move a deal fewer: early in a round the models mostly
   agree, and a wrong switch costs much.
   The ``samples`` deals whose misses under those models are fewest are kept, the earliest drawn first
   on equal misses. A player who passed on a single seldom holds a spare single above it; deals that
   say otherwise are the least likely ones, and are dropped first.
3. **Play out** each candidate on every kept deal (the same deals for every candidate): the searcher
   on as its own policy plays (``own``: the structure keeper, or the Strong player for the expert),
   each other seat as its model does, to the searcher's place. Without
   inference every other seat is the heuristic player.

Nothing here reads a hidden card: the inputs are what the expert's :class:`PlayerView` shows, and a
sampled deal is never read outside its own playouts. The random numbers are SplitMix64's
(:class:`parlour.deal.SplitMix64`), so the compiled core (``_search.c``) and this module's twin
(:func:`twin_evaluate`, on the engine's own ``Round`` and computer players) give the same totals and
models; tests compare them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from parlour.cores import choose_core
from parlour.deal import SplitMix64
from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.heuristic import HeuristicBot
from parlour.thirteen.bots.keeper import EagerKeeperBot, KeeperBot
from parlour.thirteen.bots.simple import GreedyBot
from parlour.thirteen.bots.strong import StrongBot
from parlour.thirteen.combos import shape_of
from parlour.thirteen.order import FULL_MASK, THREE_OF_SPADES_BIT
from parlour.thirteen.round import POINTS, SEATS, Round, Step
from parlour.thirteen.rules import Rules
from parlour.thirteen.views import PlayerView

PLAYOUT_MOVES: Final = 400
"""A played-out round longer than this stops (it cannot happen: every move is a pass or spends cards)."""
MODELS: Final[tuple[type[Bot], ...]] = (
    HeuristicBot,
    KeeperBot,
    GreedyBot,
    StrongBot,
    EagerKeeperBot,
)
"""How another seat may play, in the compiled core's order: the first is the model without inference
and wins ties; the others are a family of styles, from greedy play to the Strong player's. (The patient
keeper is left out: it passes where the heuristic does, and on the deals that fit it best it would
explain a heuristic player's moves better than the heuristic.)"""
OWN_POLICIES: Final[dict[str, tuple[type[Bot], int]]] = {"keeper": (KeeperBot, 1), "strong": (StrongBot, 3)}
"""How the searcher itself plays in its playouts, by name: the player and the compiled core's code."""
MAX_CANDIDATES: Final = 16
MAX_DRAWS: Final = 4096
"""The most candidates and drawn deals one call takes (the compiled core's limits)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """What :func:`evaluate` answers: each candidate's ``totals`` of points, and each seat's ``models``
    (a name of :data:`MODELS`' players; None for the expert's own seat)."""

    totals: list[int]
    models: tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """What the expert knows at a choice, in the cores' form (and nothing it cannot see).

    Attributes:
        me: the expert's seat, which is to move.
        hand: its cards.
        counts: how many cards each seat holds.
        table_mask / owner / passed / finished / must_include: the round's public state (``owner`` -1
            when the table is empty; ``passed`` a bit per seat).
        rules: the house rules.
        history: the round's moves so far, ``(seat, mask)``.
        opening: the round's first play had to hold 3♠ (a game's first round, under the rules).
    """

    me: int
    hand: int
    counts: tuple[int, ...]
    table_mask: int
    owner: int
    passed: int
    finished: tuple[int, ...]
    must_include: int
    rules: Rules
    history: tuple[tuple[int, int], ...]
    opening: bool

    @classmethod
    def of_view(cls, view: PlayerView) -> Position:
        """Return the position of ``view``, whose seat must be to move.

        Raises:
            ValueError: it is not the view's seat's turn.
        """
        if not view.my_turn:
            raise ValueError(f"seat {view.seat} is not to move")
        return cls(
            me=view.seat,
            hand=view.hand_mask,
            counts=view.hand_counts,
            table_mask=view.table_mask,
            owner=-1 if view.table_owner is None else view.table_owner,
            passed=sum(1 << seat for seat, passed in enumerate(view.passed) if passed),
            finished=view.finished,
            must_include=THREE_OF_SPADES_BIT if view.must_include_three_of_spades else 0,
            rules=view.rules,
            history=tuple((step.seat, step.mask) for step in view.history),
            opening=view.rules.opens(view.round) and view.rules.three_of_spades_opens,
        )

    @property
    def rule_bits(self) -> int:
        """The house rules that change play, as the compiled core takes them."""
        rules = self.rules
        return (
            int(rules.quad_beats_pair_of_twos)
            | int(rules.double_sequence_beats_quad) << 1
            | int(rules.bomb_after_pass) << 2
        )

    @property
    def unseen(self) -> int:
        """The cards the expert has not seen: neither in its hand nor played this round."""
        played = 0
        for _, mask in self.history:
            played |= mask
        return FULL_MASK & ~self.hand & ~played


def sample_hands(position: Position, rng: SplitMix64) -> list[int]:
    """Deal the unseen cards at random into the other hands, each as large as the position shows it
    (a Fisher–Yates shuffle of the unseen cards, lowest first, then dealt in seat order)."""
    unseen = position.unseen
    cards = [bit for bit in range(52) if unseen >> bit & 1]
    for i in range(len(cards) - 1, 0, -1):
        j = rng.uniform(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands = [0] * SEATS
    at = 0
    for seat in range(SEATS):
        if seat == position.me:
            hands[seat] = position.hand
            continue
        for bit in cards[at : at + position.counts[seat]]:
            hands[seat] |= 1 << bit
        at += position.counts[seat]
    return hands


def _round(
    rules: Rules,
    hands: Sequence[int],
    turn: int,
    must_include: int,
    table_mask: int = 0,
    owner: int | None = None,
    passed: int = 0,
    finished: Sequence[int] = (),
    history: Sequence[tuple[int, int]] = (),
) -> Round:
    """A round in a given state (a sampled one has no deal of its own to start from)."""
    state = Round.__new__(Round)
    state.number = 1
    state.rules = rules
    state.dealt = tuple(hands)
    state.hands = list(hands)
    state.turn = turn
    state.must_include = must_include
    state.table_mask = table_mask
    state.table_shape = shape_of(table_mask) if table_mask else None
    state.owner = owner
    state.passed = passed
    state.finished = list(finished)
    state.steps = [Step(seat, mask) for seat, mask in history]
    return state


def round_of(position: Position, hands: Sequence[int]) -> Round:
    """Return a round in the state of the position, with ``hands`` as every seat's cards."""
    owner = None if position.owner < 0 else position.owner
    return _round(
        position.rules,
        hands,
        position.me,
        position.must_include,
        position.table_mask,
        owner,
        position.passed,
        position.finished,
        position.history,
    )


def view_in(state: Round, seat: int) -> PlayerView:
    """Return ``seat``'s view of a sampled round."""
    return PlayerView.of_round(state, seat, (0,) * SEATS, (), ())


def misses(position: Position, hands: Sequence[int]) -> list[list[int]]:
    """Return, for each seat and each model of :data:`MODELS`, how many of that seat's moves this round
    the model would not have made, had the seat held ``hands`` (now) and the cards it played (all 0 for
    the expert's own seat)."""
    found = [[0] * len(MODELS) for _ in range(SEATS)]
    history = position.history
    if not history:
        return found
    models = [model() for model in MODELS]
    start = list(hands)
    for seat, mask in history:
        start[seat] |= mask
    opening = THREE_OF_SPADES_BIT if position.opening else 0
    state = _round(position.rules, start, history[0][0], opening)  # the round as it was dealt
    for seat, mask in history:
        if mask.bit_count() == 13:  # a hand shown for an instant win: nobody chose anything
            state.show_instant_win(seat)
            continue
        state.turn = seat
        if seat != position.me:
            view = view_in(state, seat)
            for at, model in enumerate(models):
                found[seat][at] += model.choose(view).mask != mask
        state.push(mask)
    return found


def play_out(
    position: Position, hands: Sequence[int], move: int, models: Sequence[int], own: str = "keeper"
) -> int:
    """Make ``move`` on a sampled deal, play the round on (the searcher as ``own`` of
    :data:`OWN_POLICIES` plays, each other seat as its model, an index of :data:`MODELS`) and return
    the searcher's points."""
    own_player = OWN_POLICIES[own][0]()
    players = [MODELS[model]() for model in models]
    me = position.me
    state = round_of(position, hands)
    state.push(move)
    for _ in range(PLAYOUT_MOVES):
        seat = state.turn
        if seat is None or me in state.finished:
            break
        player = own_player if seat == me else players[seat]
        state.push(player.choose(view_in(state, seat)).mask)
    return POINTS[state.finished.index(me)] if me in state.finished else 0


def twin_evaluate(
    position: Position, candidates: Sequence[int], samples: int, draws: int, seed: int, own: str = "keeper"
) -> Judgement:
    """The pure-Python twin of the compiled core: the same judgement from the same arguments."""
    rng = SplitMix64(seed)
    drawn = [sample_hands(position, rng) for _ in range(draws)]
    models = [0] * SEATS
    order = list(range(draws))
    if draws > samples:
        found = [misses(position, hands) for hands in drawn]
        for seat in range(SEATS):
            columns = [sorted(each[seat][model] for each in found) for model in range(len(MODELS))]
            sums = [sum(column[:samples]) for column in columns]
            other = min(range(1, len(MODELS)), key=lambda model: (sums[model], model))
            if 2 * sums[other] + samples <= 2 * sums[0]:  # half a move a deal fewer than the heuristic
                models[seat] = other
        order.sort(key=lambda index: (sum(found[index][seat][models[seat]] for seat in range(SEATS)), index))
    points = [0] * len(candidates)
    for index in order[:samples]:
        for at, move in enumerate(candidates):
            points[at] += play_out(position, drawn[index], move, models, own)
    return Judgement(points, _model_names(position.me, models))


def _model_names(me: int, models: Sequence[int]) -> tuple[str | None, ...]:
    return tuple(None if seat == me else MODELS[model].name for seat, model in enumerate(models))


def _compiled_evaluate(
    position: Position, candidates: Sequence[int], samples: int, draws: int, seed: int, own: str = "keeper"
) -> Judgement:
    evaluate_core = COMPILED_SEARCH
    assert evaluate_core is not None
    seats = [seat for seat, _ in position.history]
    masks = [mask for _, mask in position.history]
    result: list[int] = evaluate_core(
        position.me,
        position.hand,
        list(position.counts),
        position.me,
        position.table_mask,
        position.owner,
        position.passed,
        list(position.finished),
        position.must_include,
        position.rule_bits,
        seats,
        masks,
        position.opening,
        list(candidates),
        samples,
        draws,
        seed,
        OWN_POLICIES[own][1],
    )
    models = [max(model, 0) for model in result[len(candidates) :]]
    return Judgement(result[: len(candidates)], _model_names(position.me, models))


def _compiled_core() -> Callable[..., list[int]] | None:
    try:
        module = importlib.import_module("parlour.thirteen.bots._search")
    except ImportError:
        return None
    core: Callable[..., list[int]] = module.evaluate
    return core


COMPILED_SEARCH: Final = _compiled_core()
"""The compiled core's ``evaluate``, or None when the extension was not built."""
Evaluate = Callable[[Position, Sequence[int], int, int, int, str], Judgement]


def choose_search_core(name: str | None = None) -> tuple[str, Evaluate]:
    """Return ``(name, evaluate)`` of the core that runs: ``"c"`` when the compiled one was built, else
    ``"python"`` (see :func:`parlour.cores.choose_core`; ``PARLOUR_SOLVER_CORE=python``
    forces the twin).

    Raises:
        ValueError: an unknown name, or ``"c"`` asked for and not built.
    """
    compiled: Evaluate | None = _compiled_evaluate if COMPILED_SEARCH is not None else None
    return choose_core(name, compiled, twin_evaluate, "Thirteen search")


def evaluate(
    position: Position,
    candidates: Sequence[int],
    samples: int,
    draws: int,
    seed: int,
    core: str | None = None,
    own: str = "keeper",
) -> Judgement:
    """Return each candidate's total points over ``samples`` deals, the most likely of ``draws`` drawn,
    and the model each other seat was played by (see the module docstring).

    Args:
        position: what the expert knows (:meth:`Position.of_view`).
        candidates: legal moves of the expert, as masks (0 for the pass).
        samples: deals each candidate is played out on.
        draws: deals drawn, at least ``samples``; when more, the likeliest ``samples`` are kept.
        seed: the seed of the draws (64 bits).
        core: ``"c"``, ``"python"`` or None for the compiled core when it was built.
        own: how the searcher plays in its playouts, a name of :data:`OWN_POLICIES`.

    Raises:
        ValueError: an argument out of range (no candidate, too many, ``draws`` below ``samples``, an
            unknown policy).
    """
    if own not in OWN_POLICIES:
        raise ValueError(f"evaluate plays itself out as one of {', '.join(OWN_POLICIES)}, not {own!r}")
    if not 1 <= len(candidates) <= MAX_CANDIDATES:
        raise ValueError(f"evaluate needs 1 to {MAX_CANDIDATES} candidates, got {len(candidates)}")
    if not 0 <= samples <= draws <= MAX_DRAWS:
        raise ValueError(f"evaluate needs 0 <= samples <= draws <= {MAX_DRAWS}, got {samples} and {draws}")
    _, run = choose_search_core(core)
    return run(position, candidates, samples, draws, seed & (1 << 64) - 1, own)
