"""The end of a round, searched exactly: can a seat go out first against any defence?

With every hand known (a bridge problem), the seat to be proved (the *hero*) chooses its moves and the
three others choose theirs together against it; the search ends as soon as somebody goes out: a win
when it is the hero. Positions are remembered (hands, table, owner of the table, passes, turn), so each
is searched once. :func:`winning_moves` judges every legal move of the hero at its turn; a Thirteen
puzzle is a position where exactly one of them wins.

How far it reaches is measured, not promised: ``benchmarks/puzzles.py`` prints the positions searched
and the time for ends of rounds of 8 to 20 cards in all hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from parlour.thirteen.round import Round

NODE_LIMIT: Final = 2_000_000
"""Positions one proof may search before it gives up (``Unproved``)."""


class Unproved(Exception):
    """The search reached its node limit before it could prove the answer."""


@dataclass
class Search:
    """One exact search for ``hero``: the positions it remembers and how many it visited."""

    hero: int
    node_limit: int = NODE_LIMIT
    nodes: int = 0
    known: dict[tuple[object, ...], bool] = field(default_factory=dict)

    def wins(self, state: Round) -> bool:
        """Return whether the hero goes out first from ``state`` against any defence (the state is not
        changed).

        Raises:
            Unproved: the node limit was reached.
        """
        if state.finished:
            return state.finished[0] == self.hero
        seat = state.turn
        if seat is None:  # cannot happen before somebody is out; a finished round is decided above
            return False
        key = (tuple(state.hands), state.table_mask, state.owner, state.passed, seat, state.must_include)
        found = self.known.get(key)
        if found is not None:
            return found
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise Unproved(f"more than {self.node_limit} positions")
        moves = list(state.legal_plays(seat))
        if state.can_pass(seat):
            moves.append(0)
        # The hero needs one winning move; the defence one move that stops it. Big plays first: a
        # play that goes out at once decides the search soonest.
        moves.sort(key=lambda mask: -mask.bit_count())
        if seat == self.hero:
            answer = any(self._after(state, mask) for mask in moves)
        else:
            answer = all(self._after(state, mask) for mask in moves)
        self.known[key] = answer
        return answer

    def _after(self, state: Round, mask: int) -> bool:
        following = state.copy()
        following.steps = []  # a search keeps no history
        following.push(mask)
        return self.wins(following)


def winning_moves(state: Round, *, node_limit: int = NODE_LIMIT) -> tuple[list[int], int]:
    """Return the moves (masks; 0 = pass) of the seat to move after which it goes out first against any
    defence, and the positions searched.

    Raises:
        Unproved: the search reached ``node_limit``.
        ValueError: the round is over, or somebody is out already.
    """
    if state.turn is None or state.finished:
        raise ValueError("the end of a round is searched while nobody is out yet")
    search = Search(state.turn, node_limit)
    hero = state.turn
    moves = list(state.legal_plays(hero))
    if state.can_pass(hero):
        moves.append(0)
    winners = [mask for mask in moves if search._after(state, mask)]
    return winners, search.nodes


def brute_force_wins(state: Round, hero: int) -> bool:
    """Return whether ``hero`` goes out first from ``state`` against any defence, by plain minimax: no
    memory, no ordering (the tests compare it with :class:`Search` on small positions)."""
    if state.finished:
        return state.finished[0] == hero
    seat = state.turn
    if seat is None:
        return False
    moves = list(state.legal_plays(seat))
    if state.can_pass(seat):
        moves.append(0)
    results = []
    for mask in moves:
        following = state.copy()
        following.push(mask)
        results.append(brute_force_wins(following, hero))
    return any(results) if seat == hero else all(results)
