"""The expert: a search player that never sees another hand.

At each choice it deals the cards it has not seen (every card that is neither in its hand nor played
this round) at random into the other hands, each hand as large as the table shows it (one
*determinization*), and plays the round out from each of its candidate moves: itself on as the
structure keeper plays (``keeper``), the others as the heuristic player does (the model of a sensible
opponent). The move with the most round points over the samples is played (3, 2, 1, 0 for the places);
every candidate is played out on the same deals (common random numbers), so the comparison between
them is sharper than each average. A sample's hands are never read outside that sample: the choice
depends only on the view and the player's seed.

Candidates are few, to spend the time on samples rather than on moves nobody would make: the keeper's
move, the heuristic's, the pass when it is allowed, and the lowest legal play of each unit the
keeper's split of the hand holds. A choice with one candidate is made at once.
"""

from __future__ import annotations

from typing import Final

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.heuristic import HeuristicBot, best_split, played_cards
from parlour.thirteen.bots.keeper import KeeperBot
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.order import FULL_MASK, THREE_OF_SPADES_BIT
from parlour.thirteen.round import POINTS, SEATS, Round
from parlour.thirteen.views import PlayerView

PLAYOUT_CARDS: Final = 3200
"""The work of one choice, in cards still to be played summed over its playouts: a choice early in a
round (long playouts, the most candidates) gets fewer samples than one near its end, so that the
slowest choices stay within a few hundred milliseconds."""
MIN_SAMPLES: Final = 8
MAX_SAMPLES: Final = 32
"""Deals sampled per choice, at least and at most (every candidate is played out on each)."""
MAX_CANDIDATES: Final = 5
"""The most moves compared at one choice."""
PLAYOUT_MOVES: Final = 400
"""A played-out round longer than this stops (it cannot happen: every move is a pass or spends cards)."""


def round_of(view: PlayerView, hands: list[int]) -> Round:
    """Return a round in the state the view shows, with ``hands`` as every seat's cards (the view's own
    hand at its seat, sampled cards at the others)."""
    state = Round.__new__(Round)
    state.number = view.round
    state.rules = view.rules
    state.dealt = tuple(hands)
    state.hands = list(hands)
    state.turn = view.turn
    state.must_include = THREE_OF_SPADES_BIT if view.must_include_three_of_spades else 0
    state.table_mask = view.table_mask
    state.table_shape = view.table_shape
    state.owner = view.table_owner
    state.passed = sum(1 << seat for seat, passed in enumerate(view.passed) if passed)
    state.finished = list(view.finished)
    state.steps = list(view.history)
    return state


def view_in(state: Round, seat: int, like: PlayerView) -> PlayerView:
    """Return ``seat``'s view of a sampled round (the match's scores and results as in ``like``)."""
    return PlayerView.of_round(state, seat, like.scores, like.results, like.winners)


class ExpertBot(Bot):
    """Chooses by playing sampled deals out (see the module docstring)."""

    name = "expert"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._keeper = KeeperBot(seed)
        self._heuristic = HeuristicBot(seed)

    def candidates(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> list[Move]:
        """Return the moves compared at this choice, the keeper's first (it wins ties)."""
        found = [self._keeper.pick(view, plays, may_pass), self._heuristic.pick(view, plays, may_pass)]
        if may_pass:
            found.append(PASS)
        legal = set(plays)
        found.extend(Move(unit) for unit in best_split(view.hand_mask) if unit in legal)
        return list(dict.fromkeys(found))[:MAX_CANDIDATES]  # each move once, in the order found

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the move with the most round points over the sampled deals."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        moves = self.candidates(view, plays, may_pass)
        if len(moves) == 1:
            return moves[0]
        totals = [0] * len(moves)
        for _ in range(self.samples(view, len(moves))):
            hands = self.sample_hands(view)
            for index, move in enumerate(moves):
                totals[index] += self.play_out(round_of(view, hands), move, view)
        best = max(range(len(moves)), key=lambda index: (totals[index], -index))
        return moves[best]

    @staticmethod
    def samples(view: PlayerView, candidates: int) -> int:
        """Return how many deals to sample for a choice among ``candidates`` moves (see
        :data:`PLAYOUT_CARDS`): it depends only on the view, so the same view costs the same."""
        cards = sum(view.hand_counts)
        return max(MIN_SAMPLES, min(MAX_SAMPLES, PLAYOUT_CARDS // (candidates * cards)))

    def sample_hands(self, view: PlayerView) -> list[int]:
        """Deal the unseen cards at random into the other hands, each as large as the view shows it."""
        unseen = FULL_MASK & ~view.hand_mask & ~played_cards(view)
        cards = [bit for bit in range(52) if unseen >> bit & 1]
        self.rng.shuffle(cards)
        hands = [0] * SEATS
        at = 0
        for seat in range(SEATS):
            if seat == view.seat:
                hands[seat] = view.hand_mask
                continue
            for bit in cards[at : at + view.hand_counts[seat]]:
                hands[seat] |= 1 << bit
            at += view.hand_counts[seat]
        return hands

    def play_out(self, state: Round, move: Move, view: PlayerView) -> int:
        """Make ``move`` in a sampled round, play it to its end and return this seat's points."""
        state.push(move.mask)
        for _ in range(PLAYOUT_MOVES):
            seat = state.turn
            if seat is None or view.seat in state.finished:  # this seat's place is decided
                break
            player = self._keeper if seat == view.seat else self._heuristic
            state.push(player.choose(view_in(state, seat, view)).mask)
        if view.seat in state.finished:
            return POINTS[state.finished.index(view.seat)]
        return 0
