"""The TriPeaks solver: exact answers for positions with every card known, fair hints for players.

* ``solve(game_or_deal, rules)`` → ``Solution``: winnable or not, a win with the fewest moves (as moves
  the engine accepts), otherwise the best result; proved, or ``proved=False`` when a limit stopped it.
* A compiled core (``_core``, C, built by the package's own build) and a pure-Python twin (``twin``)
  give identical answers; ``core.compiled_available()`` tells which one is in use.
* ``fair_hint(game)`` samples the cards the player cannot see and solves each sample.
* ``numbered_result(rules, number)`` is the shipped census of the numbered games.
"""

from parlour.tripeaks.solver.core import compiled_available
from parlour.tripeaks.solver.hints import Hint, fair_hint
from parlour.tripeaks.solver.numbered import NumberedResult, numbered_result
from parlour.tripeaks.solver.position import Position
from parlour.tripeaks.solver.solve import DEFAULT_NODE_LIMIT, Solution, solve, solve_position

__all__ = [
    "DEFAULT_NODE_LIMIT",
    "Hint",
    "NumberedResult",
    "Position",
    "Solution",
    "compiled_available",
    "fair_hint",
    "numbered_result",
    "solve",
    "solve_position",
]
