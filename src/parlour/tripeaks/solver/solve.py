"""``solve``: the exact answer for a TriPeaks position with every card known."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import Game
from parlour.tripeaks.layout import TABLEAU_SIZE
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver.core import core
from parlour.tripeaks.solver.position import Position

DEFAULT_NODE_LIMIT: Final = 5_000_000
"""States a search may visit before it gives up (and says so with ``proved=False``)."""


@dataclass(frozen=True, slots=True)
class Solution:
    """The answer for one position.

    ``winnable``: a win exists. ``line``: the moves of a win with the fewest moves from this position
    (engine texts ``KC``/``draw``), or, without a win, the moves to the best result. ``moves``: the move
    counter at the end of that win, counted from the start of the deal (None without a win).
    ``best_left`` and ``best_moves``: the best result reachable, fewest peak cards left then fewest moves
    (0 and ``moves`` for a win). ``proved``: False when the search hit its node limit, in which case
    ``winnable`` False only means no win was found. ``nodes``: states visited; ``core``: ``c``/``python``.
    """

    winnable: bool
    line: tuple[str, ...]
    moves: int | None
    best_left: int
    best_moves: int
    proved: bool
    nodes: int
    core: str

    def to_json(self) -> dict[str, Any]:
        """The JSON answer of ``parlour tripeaks solve --json``."""
        # A search cut short that found no win does not know: null, not false.
        return {
            "winnable": self.winnable if self.winnable or self.proved else None,
            "moves": self.moves,
            "line": list(self.line),
            "best": {"left": self.best_left, "moves": self.best_moves},
            "proved": self.proved,
            "nodes": self.nodes,
            "core": self.core,
        }


def solve_position(
    position: Position,
    *,
    node_limit: int = DEFAULT_NODE_LIMIT,
    winnable_only: bool = False,
    any_win: bool = False,
    core_name: str | None = None,
) -> Solution:
    """Solve a position (see ``Solution``). ``winnable_only`` skips the search for the best result of a
    position without a win (``best_left``/``best_moves`` are then only what the first pass saw).
    ``any_win`` also accepts any win, found depth-first: much faster when only winnability matters,
    but ``line`` and ``moves`` are then some win, not the fewest moves.

    Raises:
        ValueError: an unknown core was asked for.
    """
    name, core_solve = core(core_name)
    ranks, removed, stock, top = position.codes()
    rules = position.rules
    answer = core_solve(
        ranks,
        removed,
        stock,
        top,
        rules.king_ace_linked,
        rules.draw_only_when_stuck,
        node_limit,
        2 if any_win else int(winnable_only),
    )
    moves_made = position.moves_made
    if answer.winnable and answer.line is not None:
        line = tuple(position.move_text(move) for move in answer.line)
        total = moves_made + len(line)
        return Solution(True, line, total, 0, total, True, answer.nodes, name)
    best_line = answer.best_line or []
    return Solution(
        False,
        tuple(position.move_text(move) for move in best_line),
        None,
        TABLEAU_SIZE - answer.best_removed,
        moves_made + len(best_line),
        bool(answer.proved),  # the C core answers 0 or 1
        answer.nodes,
        name,
    )


def solve(
    game_or_deal: Game | Deal,
    rules: Rules | None = None,
    *,
    node_limit: int = DEFAULT_NODE_LIMIT,
    winnable_only: bool = False,
    any_win: bool = False,
    core_name: str | None = None,
) -> Solution:
    """Solve a game in play (from its current position) or a deal (from its start).

    ``rules`` is required with a deal and ignored with a game (which carries its own).
    ``winnable_only`` and ``any_win`` are as in ``solve_position``.

    Raises:
        ValueError: a deal was given without rules, or an unknown core was asked for.
    """
    if isinstance(game_or_deal, Game):
        position = Position.of_game(game_or_deal)
    else:
        if rules is None:
            raise ValueError("solve() needs the rules to solve a deal")
        position = Position.of_deal(game_or_deal, rules)
    return solve_position(
        position, node_limit=node_limit, winnable_only=winnable_only, any_win=any_win, core_name=core_name
    )
