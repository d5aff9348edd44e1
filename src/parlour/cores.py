"""Which of two cores runs: the compiled one when it was built, else its pure-Python twin (for every
engine that has a compiled core: the TriPeaks solver and fair player, the Thirteen expert's search).

``PARLOUR_SOLVER_CORE=python`` forces the twins everywhere.
"""

from __future__ import annotations

import os
from typing import TypeVar

Core = TypeVar("Core")


def choose_core(name: str | None, compiled: Core | None, twin: Core, what: str) -> tuple[str, Core]:
    """Return ``(name, core)``: ``"c"`` for ``compiled``, ``"python"`` for ``twin``; with ``name`` None,
    the compiled core unless ``PARLOUR_SOLVER_CORE=python`` or it was not built.

    Raises:
        ValueError: ``name`` is unknown, or ``"c"`` was asked for and ``compiled`` is None (``what``
            names the core in the message).
    """
    wanted = name or os.environ.get("PARLOUR_SOLVER_CORE", "").strip().lower() or "auto"
    if wanted == "python":
        return "python", twin
    if wanted in ("c", "auto"):
        if compiled is not None:
            return "c", compiled
        if wanted == "c":
            raise ValueError(f"the compiled {what} core is not built: install Parlour with a C compiler")
        return "python", twin
    raise ValueError(f"unknown solver core {name!r}: choose c or python")
