"""Rollouts on sampled deals: what each move is worth to a player who cannot see the hidden cards.

The cards the player has not seen are shuffled into the face-down places and the stock (a sample);
each candidate move is made in the sample and the game is played on to its end by a *base policy* that
reads only what a player would see at that point: the free cards and the shape of the layout, never a
face-down card nor the stock order. A move's count is the number of samples in which it then won, an
unbiased estimate of the chance to win by making that move and then playing the base policy: a chance
a player who cannot see the hidden cards really has, unlike the share of samples that an all-seeing
solver wins. Every candidate is played on the same samples (common random numbers).

The compiled core (``_rollout.c``) and this module's twin (:func:`twin_rollouts`) are the same
algorithm with the same random numbers: they give the same counts (tests compare them).

Base policies:

* ``greedy`` (0): the fitting free card that turns the most face-down cards up, then the rightmost;
  draws when none fits (the ``greedy`` player's rule).
* ``chain`` (1): the first card of the longest run of free cards that can be played one on another
  from the top (the cards a removal would turn up are face down, so a run never counts them), ties by
  the cards the run turns up, then as ``greedy``; draws when none fits.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from parlour.cards import DECK, JOKER, Card
from parlour.cores import choose_core
from parlour.deal import MASK64, SplitMix64
from parlour.tripeaks.game import DRAW, Game
from parlour.tripeaks.layout import COVERED_BY, COVERS, TABLEAU_SIZE
from parlour.tripeaks.solver.position import rank_code
from parlour.tripeaks.solver.twin import WILD, free_of

HIDDEN: Final = 255
"""The rank code of a face-down card in :class:`Seen` (its rank is not known to the player)."""
DRAW_MOVE: Final = 28
"""The move code of a draw (a card's move code is its position)."""
POLICIES: Final = ("greedy", "chain")
"""The base policies, by their code (the index)."""
FULL: Final = (1 << TABLEAU_SIZE) - 1

Counts = tuple[list[int], list[int]]
"""What the cores answer: the wins of each move, and for each two moves ``i, j`` the samples in which
``i`` won and ``j`` lost (at ``i * len(moves) + j``)."""
RolloutCore = Callable[[bytes, int, int, int, bytes, bool, bool, bool, bytes, int, int, int], Counts]


@dataclass(frozen=True, slots=True)
class Seen:
    """What the player sees of a game, in the cores' form: the rank codes of the tableau (``HIDDEN``
    for a face-down card; removed places keep their card), the removed mask, how many cards the stock
    holds, the discard top's rank code, the ranks of the unseen cards (in deck order) and the rules'
    switches that matter to play."""

    ranks: bytes
    removed: int
    stock_count: int
    top: int
    unseen: bytes
    easy: bool
    draw_only_when_stuck: bool
    open_peaks: bool

    @classmethod
    def of_game(cls, game: Game) -> Seen:
        """Return what the player of ``game`` sees (and nothing else: no face-down card, no stock)."""
        ranks = bytearray()
        removed = 0
        for p in range(TABLEAU_SIZE):
            if game.removed(p):
                removed |= 1 << p
                ranks.append(rank_code(game.card_at(p)))
            elif game.face_up(p):
                ranks.append(rank_code(game.card_at(p)))
            else:
                ranks.append(HIDDEN)
        unseen = bytes(rank_code(card) for card in unseen_cards(game))
        return cls(
            bytes(ranks),
            removed,
            game.stock_count,
            rank_code(game.discard_top),
            unseen,
            game.rules.king_ace_linked,
            game.rules.draw_only_when_stuck,
            game.rules.open_peaks,
        )

    def move_code(self, game: Game, move: str) -> int:
        """The core's code of a legal move of ``game``: its position, or ``DRAW_MOVE``."""
        if move == DRAW:
            return DRAW_MOVE
        for p in game.fitting_positions():
            if str(game.card_at(p)) == move:
                return p
        raise ValueError(f"{move!r} is not a legal move here")


def unseen_cards(game: Game) -> list[Card]:
    """The cards the player has not seen, in deck order: every card that is neither face up in the peaks
    (nor removed from them) nor on the discard pile."""
    seen = set(game.discard)
    for p in range(TABLEAU_SIZE):
        if game.face_up(p) or game.removed(p):
            seen.add(game.card_at(p))
    deck = (*DECK, JOKER) if game.rules.joker else DECK
    return [card for card in deck if card not in seen]


# --- the twin ------------------------------------------------------------------------------------


def _fits(card: int, top: int, easy: bool) -> bool:
    if card == WILD or top == WILD:
        return True
    gap = abs(card - top)
    return gap == 1 or (easy and gap == 12)


def _free(removed: int) -> list[int]:
    """The free positions, highest first (the order both cores scan them in)."""
    free = free_of(removed)
    return [p for p in range(TABLEAU_SIZE - 1, -1, -1) if free >> p & 1]


def _turns_up(removed: int, p: int, open_peaks: bool) -> int:
    if open_peaks:
        return 0
    count = 0
    for q in COVERS[p]:
        other = next(c for c in COVERED_BY[q] if c != p)
        count += removed >> other & 1
    return count


class _Sample:
    """One sample being played out (the twin's form of the core's ``Sim``)."""

    __slots__ = ("easy", "open_peaks", "rank", "stock")

    def __init__(self, rank: list[int], stock: list[int], easy: bool, open_peaks: bool) -> None:
        self.rank = rank
        self.stock = stock
        self.easy = easy
        self.open_peaks = open_peaks

    def greedy_choice(self, removed: int, free: list[int], top: int) -> int:
        best, best_up = -1, -1
        for p in free:
            if not _fits(self.rank[p], top, self.easy):
                continue
            up = _turns_up(removed, p, self.open_peaks)
            if up > best_up:
                best, best_up = p, up
        return best

    def longest_run(self, removed: int, free: list[int], top: int) -> tuple[int, int]:
        best, best_up = 0, 0
        for p in free:
            if not _fits(self.rank[p], top, self.easy):
                continue
            rest = [q for q in free if q != p]
            length, after_up = self.longest_run(removed | 1 << p, rest, self.rank[p])
            length += 1
            up = _turns_up(removed, p, self.open_peaks) + after_up
            if length > best or (length == best and up > best_up):
                best, best_up = length, up
        return best, best_up

    def chain_choice(self, removed: int, free: list[int], top: int) -> int:
        best, best_length, best_up = -1, -1, -1
        for p in free:
            if not _fits(self.rank[p], top, self.easy):
                continue
            rest = [q for q in free if q != p]
            length, up = self.longest_run(removed | 1 << p, rest, self.rank[p])
            length += 1
            up += _turns_up(removed, p, self.open_peaks)
            if length > best_length or (length == best_length and up > best_up):
                best, best_length, best_up = p, length, up
        return best

    def play_out(self, removed: int, k: int, top: int, policy: int) -> bool:
        choose = self.chain_choice if policy == 1 else self.greedy_choice
        while True:
            if removed == FULL:
                return True
            p = choose(removed, _free(removed), top)
            if p >= 0:
                removed |= 1 << p
                top = self.rank[p]
                continue
            if k >= len(self.stock):
                return False
            top = self.stock[k]
            k += 1


def twin_rollouts(
    ranks: bytes,
    removed: int,
    stock_count: int,
    top: int,
    unseen: bytes,
    easy: bool,
    draw_only_when_stuck: bool,
    open_peaks: bool,
    moves: bytes,
    samples: int,
    seed: int,
    policy: int,
) -> Counts:
    """The pure-Python twin of the compiled ``rollouts``: the wins of each move over ``samples`` samples
    and, for each two moves, the samples the first won and the second lost (see :data:`Counts`).

    ``draw_only_when_stuck`` changes nothing here (both base policies draw only when stuck; the
    candidate moves are the caller's, already legal), and is taken to keep the two signatures equal.

    Raises:
        ValueError: an argument is out of range, or the unseen cards do not fill the hidden places and
            the stock.
    """
    del draw_only_when_stuck
    if len(ranks) != TABLEAU_SIZE or not 0 <= removed <= FULL or not 0 <= top <= WILD or not 0 <= policy <= 1:
        raise ValueError("rollouts: an argument is out of range")
    hidden = [p for p in range(TABLEAU_SIZE) if ranks[p] == HIDDEN and not removed >> p & 1]
    if len(hidden) + stock_count != len(unseen):
        raise ValueError("rollouts: the unseen cards do not fill the hidden places and the stock")
    free = _free(removed)
    for move in moves:
        if move != DRAW_MOVE and (move not in free or ranks[move] == HIDDEN):
            raise ValueError("rollouts: a move is not a free card nor a draw")
        if move == DRAW_MOVE and stock_count == 0:
            raise ValueError("rollouts: a draw from an empty stock")
    wins = [0] * len(moves)
    beats = [0] * (len(moves) * len(moves))
    rng = SplitMix64(seed)
    rank = list(ranks)
    for _ in range(samples):
        cards = list(unseen)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.next() % (i + 1)  # the core's modulo, not the deal's rejection: the same numbers
            cards[i], cards[j] = cards[j], cards[i]
        for h, p in enumerate(hidden):
            rank[p] = cards[h]
        sample = _Sample(rank, cards[len(hidden) :], easy, open_peaks)
        won = [
            sample.play_out(removed, 1, sample.stock[0], policy)
            if move == DRAW_MOVE
            else sample.play_out(removed | 1 << move, 0, rank[move], policy)
            for move in moves
        ]
        for i, first in enumerate(won):
            wins[i] += first
            for j, second in enumerate(won):
                beats[i * len(moves) + j] += first and not second
    return wins, beats


# --- the choice of core --------------------------------------------------------------------------


def _compiled() -> RolloutCore | None:
    try:
        module = importlib.import_module("parlour.tripeaks.solver._rollout")
    except ImportError:
        return None
    found: RolloutCore = module.rollouts
    return found


COMPILED_ROLLOUTS: Final = _compiled()
"""The compiled core's ``rollouts``, or None when the extension was not built."""


def rollout_core(name: str | None = None) -> tuple[str, RolloutCore]:
    """Return ``(name, rollouts)``: ``"c"``, ``"python"``, or the default when ``name`` is None (the
    compiled core unless ``PARLOUR_SOLVER_CORE=python`` or it was not built).

    Raises:
        ValueError: ``name`` is unknown, or ``"c"`` was asked for and is not built.
    """
    return choose_core(name, COMPILED_ROLLOUTS, twin_rollouts, "rollout")


def rollouts(
    seen: Seen,
    moves: Sequence[int],
    *,
    samples: int,
    seed: int,
    policy: str = "chain",
    core_name: str | None = None,
) -> Counts:
    """Return, for each move code in ``moves``, the samples in which it won, and for each two moves the
    samples the first won and the second lost (see the module docstring and :data:`Counts`).

    Raises:
        ValueError: an unknown policy or core, or a move that is not legal in ``seen``.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown base policy {policy!r}: choose {' or '.join(POLICIES)}")
    _, run = rollout_core(core_name)
    return run(
        seen.ranks,
        seen.removed,
        seen.stock_count,
        seen.top,
        seen.unseen,
        seen.easy,
        seen.draw_only_when_stuck,
        seen.open_peaks,
        bytes(moves),
        samples,
        seed & MASK64,
        POLICIES.index(policy),
    )
