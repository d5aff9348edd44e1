"""The headers the compiled cores share are what ``scripts/core_header.py`` writes from the Python that
defines the TriPeaks layout, the move codes and SplitMix64, so C and Python cannot drift apart; and no
core defines those things again for itself."""

from __future__ import annotations

import re
import runpy
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORES = [
    ROOT / "src/parlour/tripeaks/solver/_core.c",
    ROOT / "src/parlour/tripeaks/solver/_rollout.c",
    ROOT / "src/parlour/thirteen/bots/_search.c",
]


@pytest.fixture(scope="module")
def script() -> dict[str, Any]:
    return runpy.run_path(str(ROOT / "scripts" / "core_header.py"))


def test_every_shared_header_is_what_the_script_writes(script: dict[str, Any]) -> None:
    for name, render in script["HEADERS"].items():
        assert (ROOT / "src/parlour/native" / name).read_text() == render(), (
            f"{name} is out of date: run .venv/bin/python scripts/core_header.py"
        )


def test_the_layout_header_holds_the_python_layout() -> None:
    from parlour.tripeaks.layout import COVERED_BY, COVERS

    text = (ROOT / "src/parlour/native/tripeaks_layout.h").read_text()

    def table(name: str) -> list[tuple[int, ...]]:
        body = re.search(rf"{name}\[NPOS\]\[2\] = \{{(.*?)\n\}};", text, re.S)
        assert body is not None, name
        return [
            tuple(q for q in map(int, pair) if q >= 0)
            for pair in re.findall(r"\{(-?\d+), (-?\d+)\}", body[1])
        ]

    assert table("COVERED_BY") == list(COVERED_BY)
    assert table("COVERS") == list(COVERS)


def test_no_core_defines_the_shared_things_again() -> None:
    for core in CORES:
        text = core.read_text()
        for name in ("NPOS", "WILD", "DRAW_MOVE"):
            assert not re.search(rf"#define {name}\b", text), f"{core.name} defines {name}"
        assert "0xBF58476D1CE4E5B9" not in text, f"{core.name} has its own SplitMix64"
        declared = re.search(r"^\s*static[^;(]*\b(COVERED_BY|COVERS|COVERS_MASK)\s*\[", text, re.M)
        assert declared is None and "layout_tables" not in text, f"{core.name} builds its own layout"
