"""The choice of core: the compiled extension when the build produced it, else the pure-Python twin.

Both have the same ``solve`` signature and give identical answers (tests compare them). Set the
environment variable ``PARLOUR_SOLVER_CORE=python`` to force the twin.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Final

from parlour.cores import choose_core
from parlour.tripeaks.solver import twin
from parlour.tripeaks.solver.answer import CoreAnswer
from parlour.tripeaks.solver.rollout import COMPILED_ROLLOUTS

CoreSolve = Callable[[bytes, int, bytes, int, bool, bool, int, int], CoreAnswer]


def _compiled() -> CoreSolve | None:
    try:
        compiled = importlib.import_module("parlour.tripeaks.solver._core")
    except ImportError:
        return None

    def solve(
        ranks: bytes,
        removed: int,
        stock: bytes,
        top: int,
        easy: bool,
        draw_only_when_stuck: bool,
        node_limit: int,
        winnable_only: int,
    ) -> CoreAnswer:
        return CoreAnswer(
            *compiled.solve(ranks, removed, stock, top, easy, draw_only_when_stuck, node_limit, winnable_only)
        )

    return solve


COMPILED_SOLVE: Final = _compiled()
"""The compiled core's ``solve``, or None when the extension was not built."""
PYTHON_SOLVE: Final[CoreSolve] = twin.solve
"""The pure-Python twin's ``solve``."""


def compiled_available() -> bool:
    """True when the compiled cores were built and can be imported: the solver's and the fair player's
    rollouts (one build makes both; hints are offered only with them)."""
    return COMPILED_SOLVE is not None and COMPILED_ROLLOUTS is not None


def core(name: str | None = None) -> tuple[str, CoreSolve]:
    """Return ``(name, solve)`` of a core: ``"c"``, ``"python"``, or the default when ``name`` is None.

    The default is the compiled core unless ``PARLOUR_SOLVER_CORE=python`` or it was not built.

    Raises:
        ValueError: ``name`` is unknown, or ``"c"`` was asked for and is not built.
    """
    return choose_core(name, COMPILED_SOLVE, PYTHON_SOLVE, "solver")
