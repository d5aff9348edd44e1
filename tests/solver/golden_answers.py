"""Golden solver answers: the full answer of a few deals of every rule set, line included.

Regenerate after a deliberate change (a new way of breaking ties between lines of the fewest moves),
from the repository root: ``PYTHONPATH=src:tests python -m solver.golden_answers``. The tests compare
both cores with this file, so a line that drifts is seen even when its length does not change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parlour.tripeaks import CLASSIC, EASY, DealCode, Game
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import solve

GOLDEN_FILE = Path(__file__).resolve().parents[1] / "data" / "tripeaks" / "solver-answers.json"

CASES: list[tuple[int, Rules]] = [
    *[(n, EASY) for n in (1, 2, 3, 28, 36)],  # 28 and 36 cannot be won
    *[(n, CLASSIC) for n in (1, 2, 3, 8, 15)],  # nor can 8 and 15
    (6, EASY.with_variants("joker")),
    (7, CLASSIC.with_variants("empty_discard")),
    (9, EASY.with_variants("draw_only_when_stuck")),
]


def answers(core_name: str | None = None) -> dict[str, dict[str, Any]]:
    """The answer of every case by its deal code: what ``solve --json`` gives, without the node count
    and the core's name."""
    out = {}
    for number, rules in CASES:
        code = DealCode(number, rules)
        answer = solve(Game.from_code(code), core_name=core_name).to_json()
        out[str(code)] = {key: answer[key] for key in ("winnable", "moves", "best", "proved", "line")}
    return out


if __name__ == "__main__":
    GOLDEN_FILE.write_text(json.dumps(answers(), indent=1) + "\n", encoding="utf-8")
    print(GOLDEN_FILE)
