"""Golden playthroughs: regenerated and diffed step by step against tests/data/thirteen/."""

from __future__ import annotations

import json

import pytest
from thirteen_golden import CODES, path_of, playthrough

from parlour.thirteen import Match


@pytest.mark.parametrize("code", CODES)
def test_playthrough_matches_the_golden_file(code: str) -> None:
    stored = path_of(code).read_text(encoding="utf-8").splitlines()
    fresh = playthrough(code)
    for number, (old, new) in enumerate(zip(stored, fresh, strict=False)):
        assert old == new, f"{path_of(code).name} differs at line {number + 1}:\nstored {old}\nfresh  {new}"
    assert len(stored) == len(fresh)


@pytest.mark.parametrize("code", CODES)
def test_golden_moves_replay_to_the_golden_result(code: str) -> None:
    lines = [json.loads(line) for line in path_of(code).read_text(encoding="utf-8").splitlines()]
    steps, final = lines[1:-1], lines[-1]
    match = Match.replay(code, [step["move"] for step in steps])
    assert match.scores == final["scores"] and list(match.winners) == final["winners"]
    for step in steps:
        assert step["move"] in step["legal"]
        assert step["view"]["turn"] == step["seat"]
