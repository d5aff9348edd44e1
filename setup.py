"""Build configuration for the optional compiled cores of the TriPeaks solver and fair player.

Everything else lives in pyproject.toml. The extension is optional: without a C compiler the build
still succeeds and Parlour falls back to the pure-Python twin (``parlour.tripeaks.solver.twin``).
"""

from __future__ import annotations

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "parlour.tripeaks.solver._core",
            sources=["src/parlour/tripeaks/solver/_core.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
        Extension(
            "parlour.tripeaks.solver._rollout",
            sources=["src/parlour/tripeaks/solver/_rollout.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
