"""Build configuration for the optional compiled cores: the TriPeaks solver and fair player, and the
Thirteen expert's search.

Everything else lives in pyproject.toml. The extension is optional: without a C compiler the build
still succeeds and Parlour falls back to the pure-Python twins (``parlour.tripeaks.solver.twin``,
``parlour.tripeaks.solver.rollout``, ``parlour.thirteen.bots.search``).
"""

from __future__ import annotations

import platform

from setuptools import Extension, setup

# The Thirteen search counts bits all the time: the x86-64 popcount instruction (every x86-64 processor
# of the last fifteen years has it) instead of the compiler's table-driven fallback.
POPCOUNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []
# What the cores share (the TriPeaks layout, the move codes, SplitMix64): written by
# scripts/core_header.py from the Python that defines it.
NATIVE = "src/parlour/native"
SHARED = [f"{NATIVE}/tripeaks_layout.h", f"{NATIVE}/splitmix64.h"]

setup(
    ext_modules=[
        Extension(
            "parlour.tripeaks.solver._core",
            sources=["src/parlour/tripeaks/solver/_core.c"],
            include_dirs=[NATIVE],
            depends=SHARED,
            extra_compile_args=["-O2", *POPCOUNT],
            optional=True,
        ),
        Extension(
            "parlour.tripeaks.solver._rollout",
            sources=["src/parlour/tripeaks/solver/_rollout.c"],
            include_dirs=[NATIVE],
            depends=SHARED,
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "parlour.thirteen.bots._search",
            sources=["src/parlour/thirteen/bots/_search.c"],
            include_dirs=[NATIVE],
            depends=SHARED,
            # -ffp-contract=off: no fused multiply-adds, so the heuristic's sums round as Python's do.
            extra_compile_args=["-O2", "-ffp-contract=off", *POPCOUNT],
            optional=True,
        ),
    ]
)
