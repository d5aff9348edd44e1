"""The engine agrees with the golden playthroughs under tests/data/tripeaks (see golden.py)."""

from __future__ import annotations

import json

import pytest

from parlour.tripeaks import Deal
from tripeaks.golden import LINES, path_for, playthrough


@pytest.mark.parametrize("code", sorted(LINES))
def test_playthrough_matches_the_golden_file(code: str) -> None:
    golden = json.loads(path_for(code).read_text(encoding="utf-8"))
    assert playthrough(code, LINES[code]) == golden
    assert Deal.parse(golden["layout"]) == Deal.from_code(code)


def test_golden_lines_cover_wins_every_reason_and_undo() -> None:
    results = set()
    statuses = set()
    for code in LINES:
        golden = json.loads(path_for(code).read_text(encoding="utf-8"))
        results |= {step["result"] for step in golden["steps"]}
        statuses.add(golden["final"]["status"])
    assert {"ok", "blocked", "not_adjacent", "nothing_to_undo", "stock_empty", "game_over"} <= results
    assert {"must_play", "invalid_card"} <= results
    assert statuses == {"won", "playing"}  # no golden line ends stuck: test_game.py covers that end


def test_the_e_b_win_ends_on_its_score() -> None:
    golden = json.loads(path_for("TP1-E-AAAAAAB").read_text(encoding="utf-8"))
    final = golden["final"]
    assert final["status"] == "won" and final["peaks_cleared"] == [True, True, True]
    assert final["score"] == 500 - 50 + 300  # the undone move does not count: 50 live actions
    assert [r["reason"] for r in final["rejected"]] == [
        "blocked",
        "not_adjacent",
        "nothing_to_undo",
        "invalid_card",
        "game_over",
    ]
