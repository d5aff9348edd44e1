"""``parlour tripeaks solve | census | hint | autoplay`` and the census line of ``show``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from parlour.cli import main
from parlour.tripeaks import Deal, Game
from parlour.tripeaks.solver import numbered_result
from solver.helpers import replay


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tripeaks", *args])
    return result.exit_code, result.output


def test_solve_json_has_the_answer_and_a_line_that_wins() -> None:
    code, output = run("solve", "TP1-E-AAAAAAB", "--json")
    assert code == 0, output
    answer = json.loads(output)
    assert set(answer) >= {"winnable", "moves", "line", "best"}
    assert answer["winnable"] and answer["moves"] == len(answer["line"])
    assert answer["best"] == {"left": 0, "moves": answer["moves"]}
    game = replay(Game.from_code("TP1-E-AAAAAAB"), tuple(answer["line"]))
    assert game.status == "won" and game.moves == answer["moves"]


def test_solve_any_win_gives_a_win_the_engine_accepts_or_proves_there_is_none() -> None:
    _, fewest = run("solve", "TP1-C-AAAAAAC", "--json")
    code, output = run("solve", "TP1-C-AAAAAAC", "--any-win", "--json")
    assert code == 0, output
    answer = json.loads(output)
    assert answer["winnable"] and answer["search"] == "any win"
    assert answer["moves"] >= json.loads(fewest)["moves"]
    game = replay(Game.from_code("TP1-C-AAAAAAC"), tuple(answer["line"]))
    assert game.status == "won" and game.moves == answer["moves"]
    code, output = run("solve", "TP1-E-AAAABIL", "--any-win", "--json")
    assert code == 0, output
    answer = json.loads(output)
    assert not answer["winnable"] and answer["proved"] and answer["best"] is None
    code, output = run("solve", "TP1-E-AAAABIL", "--any-win")
    assert code == 0 and "Not winnable." in output and "Best result" not in output


def test_solve_after_moves_counts_from_the_start_and_lines_go_on_from_there() -> None:
    _, whole = run("solve", "TP1-C-AAAAAAC", "--json")
    first = json.loads(whole)["line"][:3]
    code, output = run("solve", "TP1-C-AAAAAAC", *first, "--json")
    assert code == 0, output
    answer = json.loads(output)
    assert answer["moves"] == json.loads(whole)["moves"]
    assert len(answer["line"]) == answer["moves"] - 3


def test_solve_takes_an_explicit_layout_like_the_code() -> None:
    layout = Deal.from_code("TP1-C-AAAAAAD").to_text()
    by_code = json.loads(run("solve", "TP1-C-AAAAAAD", "--json")[1])
    code, output = run("solve", layout, "--rules", "classic", "--json")
    assert code == 0, output
    by_layout = json.loads(output)
    assert (by_layout["winnable"], by_layout["moves"], by_layout["best"]) == (
        by_code["winnable"],
        by_code["moves"],
        by_code["best"],
    )


def test_solve_text_and_refusals() -> None:
    code, output = run("solve", "TP1-E-AAAAAAB")
    assert code == 0 and "Winnable in" in output
    code, output = run("solve", "TP1-E-AAAAAAB", "2S")
    assert code == 2 and "move 1 '2S'" in output
    code, output = run("solve", "TP1-Q-AAAAAAB")
    assert code == 2 and "not a deal code" in output
    code, output = run("solve", "AC 2C 3C")
    assert code == 2 and "layout" in output


def test_census_writes_json_lines_and_a_summary(tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    code, output = run(
        "census", "--from", "1", "--to", "6", "--rules", "easy", "--jobs", "2", "--out", str(out)
    )
    assert code == 0, output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["code"] for r in records) == [
        f"TP1-E-AAAAA{c}" for c in ("AB", "AC", "AD", "AE", "AF", "AG")
    ]
    assert all({"code", "winnable", "moves", "best"} <= set(r) for r in records)
    assert "95% Wilson interval" in output and "slowest deals" in output
    code, output = run("census", "--from", "1", "--to", "6", "--rules", "easy", "--out", str(out))
    assert code == 0 and len(out.read_text().splitlines()) == 6  # resumed: nothing solved twice
    code, output = run("census", "--rules", "easy")
    assert code == 2 and "--from" in output
    result = CliRunner().invoke(
        main,
        ["tripeaks", "census", "--from", "1", "--to", "6", "--rules", "easy", "--out", str(out), "--json"],
    )
    summary = json.loads(result.stdout)
    assert result.exit_code == 0 and summary["deals"] == 6 and summary["rules"] == "easy"
    assert 0 <= summary["interval"][0] <= summary["share"] <= summary["interval"][1] <= 1


def test_census_of_a_deals_file(tmp_path: Path) -> None:
    deals = tmp_path / "deals.txt"
    deals.write_text(Deal.from_code("TP1-E-AAAAAAB").to_text() + "\n")
    out = tmp_path / "c.jsonl"
    code, output = run(
        "census", "--deals-file", str(deals), "--rules", "easy", "--jobs", "1", "--out", str(out)
    )
    assert code == 0, output
    assert json.loads(out.read_text())["deal"].startswith(str(Deal.from_code("TP1-E-AAAAAAB").tableau[0]))


def test_hint_json_is_reproducible() -> None:
    args = ("hint", "TP1-E-AAAAAAB", "KC", "--samples", "4", "--seed", "5", "--json")
    code, output = run(*args)
    assert code == 0, output
    hint = json.loads(output)
    assert hint["move"] in hint["chances"] and hint["samples"] == 4
    assert run(*args)[1] == output


@pytest.mark.parametrize(("player", "samples"), [("greedy", None), ("quick", 200)])
def test_autoplay_reports_a_win_rate(player: str, samples: int | None) -> None:
    span = ("--from", "1", "--to", "8" if player == "greedy" else "2")
    result = CliRunner().invoke(
        main,
        ["tripeaks", "autoplay", "--player", player, *span, "--rules", "classic", "--jobs", "1", "--json"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)  # the JSON alone on standard output: no progress bar there
    deals = int(span[3])
    assert report["player"] == player and report["samples"] == samples
    assert report["deals"] == deals and 0 <= report["won"] <= deals


def test_hint_takes_a_strength() -> None:
    from parlour.tripeaks.solver.players import greedy_move

    code, output = run("hint", "TP1-E-AAAAAAB", "--hint-strength", "greedy", "--json")
    assert code == 0, output
    simple = json.loads(output)
    assert simple["move"] == greedy_move(Game.from_code("TP1-E-AAAAAAB")) and list(simple["chances"]) == [
        simple["move"]
    ]
    code, output = run("hint", "TP1-E-AAAAAAB", "--hint-strength", "quick", "--json")
    assert code == 0 and json.loads(output)["samples"] == 200
    code, output = run("hint", "TP1-E-AAAAAAB", "--hint-strength", "strong")
    assert code == 2 and "'greedy', 'quick', 'fair'" in output


def test_autoplay_refuses_a_player_that_is_no_hint_strength() -> None:
    code, output = run("autoplay", "--player", "strong", "--from", "1", "--to", "2", "--rules", "easy")
    assert code == 2 and "'greedy', 'quick', 'fair'" in output


def test_show_prints_the_census_verdict_of_a_numbered_game() -> None:
    result = numbered_result("easy", 1)
    assert result is not None and result.winnable
    code, output = run("show", "TP1-E-AAAAAAB")
    assert code == 0
    assert f"Game #1: winnable in {result.moves} moves" in output
    code, output = run("show", "TP1-E-AAAAAAB", "--lang", "hu")
    assert f"#1. játék: {result.moves} lépésben megnyerhető" in output
    code, output = run("show", "TP1-E-AAAAAAB-J")
    assert "Game #" not in output  # variants are not in the census


def test_a_search_cut_short_says_it_does_not_know_from_both_cores() -> None:
    for core in ("c", "python"):
        status, output = run("solve", "TP1-C-AAAAAAD", "--json", "--node-limit", "10", "--core", core)
        answer = json.loads(output)
        assert status == 0
        assert answer["winnable"] is None and answer["proved"] is False, (core, answer)
        assert answer["core"] == core


@pytest.mark.parametrize("command", ["show", "solve", "hint", "replay"])
def test_a_numbered_games_number_stands_for_its_code(command: str) -> None:
    """``1`` is numbered game #1 (Easy unless --rules says Classic), wherever a deal code is taken."""
    extra = ("--samples", "8") if command == "hint" else ()
    for rules, code in ((None, "TP1-E-AAAAAAB"), ("classic", "TP1-C-AAAAAAB")):
        chosen = ("--rules", rules) if rules else ()
        by_number = run(command, "1", *chosen, *extra, "--json")
        by_code = run(command, code, *extra, "--json")
        assert by_number[0] == 0, by_number[1]
        assert json.loads(by_number[1]) == json.loads(by_code[1])
    for number in ("0", "50001", "99999999999"):
        exit_code, output = run(command, number)
        assert exit_code == 2 and "numbered games run from 1 to 50000" in output


def test_text_answers_speak_the_chosen_language(tmp_path: Path) -> None:
    exit_code, output = run("solve", "1", "--lang", "hu")
    assert exit_code == 0 and "lépésben megnyerhető (a leosztás elejétől)" in output and "állapot" in output
    exit_code, output = run("solve", "1", "--lang", "fr", "--any-win")
    assert exit_code == 0 and output.startswith("Gagnable\u00a0: une victoire en ")
    exit_code, output = run("hint", "1", "--samples", "8", "--lang", "hi")
    assert exit_code == 0 and "नमूनों में से" in output
    exit_code, output = run("autoplay", "--player", "greedy", "--from", "1", "--to", "2", "--rules", "easy",
                            "--jobs", "1", "--lang", "fr")  # fmt: skip
    assert exit_code == 0 and "intervalle de Wilson à 95\u00a0%" in output
    out = tmp_path / "c.jsonl"
    exit_code, output = run("census", "--from", "1", "--to", "2", "--rules", "classic", "--jobs", "1",
                            "--out", str(out), "--lang", "hu")  # fmt: skip
    assert exit_code == 0 and "Felmérés (Klasszikus): 2 leosztás" in output and "leglassabb" in output


def test_json_is_the_answer_alone_and_a_default_file_is_named(tmp_path: Path, monkeypatch: Any) -> None:
    """With --json standard output holds one JSON document and standard error no progress bar, even
    where a terminal would show one; a census without --out says which file it writes."""
    monkeypatch.chdir(tmp_path)
    terminal = {"FORCE_COLOR": "1"}
    for args in (
        ["autoplay", "--player", "greedy", "--from", "1", "--to", "3", "--rules", "easy", "--jobs", "1"],
        ["census", "--from", "1", "--to", "3", "--rules", "easy", "--jobs", "1", "--out", "c.jsonl"],
    ):
        shown = CliRunner().invoke(main, ["tripeaks", *args], env=terminal)
        assert shown.exit_code == 0 and "3/3" in shown.stdout + shown.stderr  # a person at a terminal sees it
        result = CliRunner().invoke(main, ["tripeaks", *args, "--json"], env=terminal)
        assert result.exit_code == 0 and json.loads(result.stdout)["deals"] == 3
        assert result.stderr == "", result.stderr
    result = CliRunner().invoke(main, ["tripeaks", "census", "--from", "1", "--to", "2", "--rules", "classic",
                                       "--jobs", "1", "--json"])  # fmt: skip
    assert json.loads(result.stdout)["out"] == "census-classic-1-2.jsonl"
    assert "writing census-classic-1-2.jsonl in the current folder" in result.stderr
    assert len((tmp_path / "census-classic-1-2.jsonl").read_text().splitlines()) == 2
