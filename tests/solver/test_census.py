"""The census: Wilson intervals, resumable output files, and the shipped numbered-game data."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from parlour.intervals import wilson
from parlour.tripeaks import CLASSIC, EASY, Deal, DealCode
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver import numbered_result, solve
from parlour.tripeaks.solver.census import jobs_for_file, jobs_for_numbers, run_census, summarise
from parlour.tripeaks.solver.numbered import NumberedResult, numbered_count, pack, table_from_records


def test_wilson_interval() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4)
    assert high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_a_census_resumes_without_solving_a_deal_twice(tmp_path: Path) -> None:
    out = tmp_path / "census.jsonl"
    run_census(jobs_for_numbers(1, 3, EASY), out)
    lines = out.read_text().splitlines()
    assert [json.loads(line)["code"] for line in lines] == ["TP1-E-AAAAAAB", "TP1-E-AAAAAAC", "TP1-E-AAAAAAD"]
    out.write_text("\n".join(lines) + "\n" + lines[0][:20])  # an interrupted write leaves a torn line
    records = run_census(jobs_for_numbers(1, 5, EASY), out)
    codes = [json.loads(line)["code"] for line in out.read_text().splitlines()]
    assert codes == [str(DealCode(n, EASY)) for n in range(1, 6)]
    assert [r["code"] for r in records] == codes
    for record in records:
        solution = solve(Deal.from_code(record["code"]), EASY)
        assert (record["winnable"], record["moves"]) == (solution.winnable, solution.moves)
        assert record["best"] == {"left": solution.best_left, "moves": solution.best_moves}


def test_a_deals_file_takes_codes_and_layouts(tmp_path: Path) -> None:
    layout = Deal.from_code("TP1-C-AAAAAAC").to_text()
    path = tmp_path / "deals.txt"
    path.write_text(f"# two deals\nTP1-C-AAAAAAC\n{layout}\n\n")
    jobs = jobs_for_file(path, CLASSIC)
    records = run_census(jobs, tmp_path / "out.jsonl")
    assert records[0]["code"] == "TP1-C-AAAAAAC" and records[1]["deal"] == layout
    assert {k: v for k, v in records[0].items() if k in ("winnable", "moves", "best")} == {
        k: v for k, v in records[1].items() if k in ("winnable", "moves", "best")
    }
    summary = summarise(records)
    assert summary.deals == 2 and summary.winnable in (0, 2)


def test_packing_numbered_results_round_trips() -> None:
    records = [
        {
            "code": "TP1-E-AAAAAAB",
            "winnable": True,
            "moves": 41,
            "best": {"left": 0, "moves": 41},
            "proved": True,
        },
        {
            "code": "TP1-E-AAAAAAC",
            "winnable": False,
            "moves": None,
            "best": {"left": 3, "moves": 50},
            "proved": True,
        },
    ]
    table = table_from_records(records)
    assert table == [(41, 0), (50, 3)]
    assert pack({"easy": table, "classic": table}).startswith(b"\x1f\x8b")
    with pytest.raises(ValueError, match="missing"):
        table_from_records(records[1:])


SHIPPED = {"easy": 50_000, "classic": 50_000}


@pytest.mark.parametrize("rules", [EASY, CLASSIC])
def test_the_shipped_census_matches_a_fresh_solve_of_random_games(rules: Rules) -> None:
    count = numbered_count(rules)
    assert count >= SHIPPED[rules.name], "the census of the numbered games is not (all) in the package"
    for number in random.Random(2026).sample(range(1, count + 1), 6):
        shipped = numbered_result(rules, number)
        solution = solve(Deal.from_code(DealCode(number, rules)), rules)
        assert shipped == NumberedResult(
            number, rules.name, solution.winnable, solution.moves, solution.best_left, solution.best_moves
        )


def test_numbered_results_exist_only_for_plain_rules_and_numbered_games() -> None:
    assert numbered_result(EASY.with_variants("joker"), 1) is None
    assert numbered_result("easy", 0) is None
    assert numbered_result("classic", 10**6) is None
