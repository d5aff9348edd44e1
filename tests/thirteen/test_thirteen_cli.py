"""``parlour thirteen`` judge, simulate and play (driven through stdin as a pipe)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from parlour.cli import main
from parlour.grades import names
from parlour.thirteen import Match
from parlour.thirteen.bots import GreedyBot, make_bot
from parlour.thirteen.review import GRADES
from parlour.thirteen.review_texts import REVIEW_NOTE, REVIEW_SUMMARY, SET_DEAL, SET_ROUND

ROOT = Path(__file__).resolve().parents[2]


def judge(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(main, ["thirteen", "judge", *args, "--json"])
    answer: dict[str, object] = json.loads(result.stdout)
    assert result.exit_code == (0 if answer["legal"] else 1), result.output  # refused: exit status 1
    return answer


def test_judge_json_of_the_seed_example() -> None:
    assert judge("--table", "5S 5H", "--play", "6C 6D") == {
        "table": {"kind": "pair", "length": 2, "top": "5H"},
        "play": {"kind": "pair", "length": 2, "top": "6D"},
        "legal": True,
        "reason": None,
    }


@pytest.mark.parametrize(
    ("table", "play", "legal", "reason"),
    [
        ("", "3S 4C 5D", True, None),
        ("", "3S 5D", False, "not_a_combination"),
        ("5D 5S", "5C 5H", True, None),
        ("5S 5H", "5C 5D", False, "does_not_beat"),
        ("2H", "6S 6C 6D 6H", True, None),
        ("2S 2H", "3S 3C 4S 4C 5S 5C", False, "does_not_beat"),
        ("2S 2H", "3S 3C 4S 4C 5S 5C 6S 6C", True, None),
        ("2S 2C 2H", "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C", True, None),
        ("5S 6S", "7S", False, "table_not_a_combination"),
        ("5S", "5S", False, "card_on_table"),
        ("KS AS 2S", "3S", False, "table_not_a_combination"),
    ],
)
def test_judge_cases(table: str, play: str, legal: bool, reason: str | None) -> None:
    answer = judge("--table", table, "--play", play)
    assert answer["legal"] is legal and answer["reason"] == reason


def test_judge_house_rule_and_text_output() -> None:
    assert judge("--table", "2S 2H", "--play", "6S 6C 6D 6H", "--house", "quad-beats-pair-of-twos")["legal"]
    result = CliRunner().invoke(main, ["thirteen", "judge", "--table", "5S 5H", "--play", "5C 5D"])
    assert result.exit_code == 1
    assert "a pair, 2 cards, top 5♥" in result.stdout and "legal: no (does_not_beat)" in result.stdout
    assert result.stderr.strip() == "These cards do not beat the cards on the table."
    french = CliRunner().invoke(
        main, ["thirteen", "judge", "--table", "5S 5H", "--play", "5C 5D", "--lang", "fr"]
    )
    assert french.exit_code == 1 and "ne battent pas" in french.stderr


@pytest.mark.parametrize(("option", "bad"), [("--play", "6X"), ("--table", "11S")])
def test_judge_malformed_card_exits_2_naming_it(option: str, bad: str) -> None:
    args = {"--table": "5S 5H", "--play": "6C 6D"}
    args[option] = f"6C {bad}" if option == "--play" else bad
    result = CliRunner().invoke(main, ["thirteen", "judge", *[x for pair in args.items() for x in pair]])
    assert result.exit_code == 2
    assert repr(bad) in result.output and option in result.output


def test_simulate_json_and_table() -> None:
    result = CliRunner().invoke(
        main, ["thirteen", "simulate", "--players", "greedy,random,random,random", "--games", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["games"] == 4 and [p["name"] for p in data["players"]] == [
        "greedy",
        "random",
        "random",
        "random",
    ]
    assert sum(p["first_places"] for p in data["players"]) == data["rounds"]
    assert sum(p["games_won"] for p in data["players"]) == 4
    table = CliRunner().invoke(
        main, ["thirteen", "simulate", "--players", "greedy,random,random,random", "--games", "2"]
    )
    assert table.exit_code == 0 and "games won" in table.output
    bad = CliRunner().invoke(main, ["thirteen", "simulate", "--players", "greedy,random"])
    assert bad.exit_code == 2 and "exactly 4" in bad.output


def human_moves(number: int, seed: int = 0) -> list[str]:
    """The moves a greedy person makes in the CLI's match, found by playing the same match here."""
    match = Match(number)
    bots = {seat: make_bot("strong", seed * 4 + seat) for seat in (1, 2, 3)}
    person = GreedyBot(0)
    lines = []
    while not match.over:
        seat = match.turn
        assert seat is not None
        view = match.view(seat)
        move = person.choose(view) if seat == 0 else bots[seat].choose(view)
        if seat == 0:
            lines.append(str(move))
        match.push(move)
    return lines


def test_a_person_plays_a_whole_game_through_a_pipe() -> None:
    lines = human_moves(1)
    script = "\n".join(["XX", "3S 3S", "hint", *lines]) + "\n"
    process = subprocess.run(
        [sys.executable, "-m", "parlour", "thirteen", "play", "--code", "TH1-AAAAAAB"],
        input=script,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        timeout=60,
    )
    assert process.returncode == 0, process.stdout[-2000:] + process.stderr
    out = process.stdout
    assert "“XX” is not a card" in out
    assert "won the game with" in out and "Round 2" in out
    assert out.count("Your turn") >= len(lines)


@pytest.mark.parametrize(
    ("lang", "text"),
    [("hi", "आपके पत्ते:"), ("hu", "A lapjaid:"), ("fr", "Votre main\u00a0:"), ("en", "Your hand:")],
)
def test_play_speaks_every_language_and_stops_at_end_of_input(lang: str, text: str) -> None:
    result = CliRunner().invoke(main, ["thirteen", "play", "--code", "TH1-AAAAAAB", "--lang", lang], input="")
    assert result.exit_code == 0  # the end of the input is a quit, as in tripeaks play
    assert text in result.output and "TH1-AAAAAAB" in result.output


def test_play_reports_illegal_moves_in_the_language() -> None:
    result = CliRunner().invoke(
        main, ["thirteen", "play", "--code", "TH1-AAAAAAB", "--lang", "fr"], input="3S\n3C 4D\nquit\n"
    )
    assert "Vous n'avez pas 3♠ en main." in result.output
    assert "3♣ 4♦ n'est pas une combinaison." in result.output


def test_play_rejects_bad_options() -> None:
    assert CliRunner().invoke(main, ["thirteen", "play", "--code", "TH1-XYZ"]).exit_code == 2
    assert CliRunner().invoke(main, ["thirteen", "play", "--lang", "de"]).exit_code == 2
    assert CliRunner().invoke(main, ["thirteen", "play", "--bots", "random"]).exit_code == 2


def test_play_announces_an_instant_win_under_the_house_rule() -> None:
    # TH1-AAAAAEE deals seat 1 (Player 2) a dragon, 3 to A.
    args = ["thirteen", "play", "--code", "TH1-AAAAAEE"]
    result = CliRunner().invoke(main, [*args, "--house", "instant-wins"], input="")
    assert "Player 2 goes out at once with 3♣ 4♠ 5♣ 6♦ 7♣ 8♣ 9♥ 10♦ J♣ Q♠ K♠ A♠ 2♠." in result.output
    assert "at once" not in CliRunner().invoke(main, args, input="").output


def test_catalogs_hold_exactly_the_messages_the_command_uses() -> None:
    source = (ROOT / "src/parlour/thirteen/commands/group.py").read_text(encoding="utf-8")
    used = set(re.findall(r'(?:self\._|\b_)\(\s*(?:lang,\s*)?"((?:[^"\\]|\\.)*)"\s*\)', source))
    used |= {
        "{count} card",
        REVIEW_SUMMARY,
        REVIEW_NOTE,
        SET_ROUND,
        SET_DEAL,
        *names(GRADES),
    }  # (constants, and the grades' names)
    for lang in ("hi", "hu", "fr", "vi"):
        path = ROOT / f"src/parlour/thirteen/locale/{lang}/LC_MESSAGES/thirteen.po"
        with path.open("rb") as handle:
            catalog = read_po(handle)
        ids = {
            message.id if isinstance(message.id, str) else message.id[0] for message in catalog if message.id
        }
        assert ids == used, f"{lang}: {sorted(ids ^ used)}"


def test_simulate_shows_progress_on_a_terminal_and_json_alone_with_json() -> None:
    args = ["thirteen", "simulate", "--players", "greedy,greedy,greedy,greedy", "--games", "20"]
    on_a_terminal = CliRunner().invoke(main, args, env={"FORCE_COLOR": "1"})
    assert on_a_terminal.exit_code == 0 and "20/20" in on_a_terminal.stderr
    as_json = CliRunner().invoke(main, [*args, "--json"], env={"FORCE_COLOR": "1"})
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["games"] == 20
    assert as_json.stderr == ""  # no progress bar: --json output is the answer alone
    piped = CliRunner().invoke(main, args)
    assert piped.exit_code == 0 and piped.stderr == ""  # nobody watches a bar in a pipe or a log


def test_judge_text_counts_one_card_in_the_singular() -> None:
    result = CliRunner().invoke(main, ["thirteen", "judge", "--table", "2H", "--play", "5S 5C 5D 5H"])
    assert result.exit_code == 0
    assert "2♥: a single card, 1 card, top 2♥" in result.output
    assert "four of a kind, 4 cards, top 5♥" in result.output


def test_play_reports_a_repeated_card_in_the_language_and_ignores_a_play_of_no_card() -> None:
    result = CliRunner().invoke(
        main, ["thirteen", "play", "--code", "TH1-AAAAAAB", "--lang", "fr"], input="3C 3C\n,\nquit\n"
    )
    assert "Vous avez nommé 3♣ deux fois." in result.output
    assert "named twice" not in result.output and "at least one card" not in result.output
    assert result.output.count("À vous\u00a0:") == 3


def test_ctrl_c_abandons_the_game_with_its_code_and_no_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "thirteen", "play", "--code", "TH1-AAAAAAB"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("Your turn"):
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert "Game abandoned. Replay it with --code TH1-AAAAAAB." in out
    assert "Traceback" not in err and "Aborted" not in err + out
    assert process.returncode == 130


def test_play_separates_names_from_counts_and_scores_as_the_language_writes_it() -> None:
    lines = human_moves(1)
    args = ["thirteen", "play", "--code", "TH1-AAAAAAB", "--lang", "fr"]
    result = CliRunner().invoke(main, args, input="\n".join(lines[:40]) + "\n")
    assert (
        "Les autres\u00a0: Joueur 2\u00a0: 13 cartes; Joueur 3\u00a0: 13 cartes; Joueur 4\u00a0: 10 cartes"
        in result.output
    )
    assert re.search(
        r"Points\xa0: Vous\xa0: \d+, Joueur 2\xa0: \d+, Joueur 3\xa0: \d+, Joueur 4\xa0: \d+", result.output
    )
    english = CliRunner().invoke(main, [*args[:-2], "--lang", "en"], input="\n".join(lines[:40]) + "\n")
    assert re.search(r"Scores: You: \d+, Player 2: \d+, Player 3: \d+, Player 4: \d+", english.output)


def test_a_weaker_expert_is_said_so_in_the_help_and_on_the_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled search (here forced off) the Expert plays with a smaller budget: its name on
    the pages and in the terminal says so, and the help of the options that choose players too."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from parlour.thirteen.definition import expert_is_reduced, strength_name

    monkeypatch.setenv("PARLOUR_SOLVER_CORE", "python")
    assert expert_is_reduced()
    assert strength_name("expert", "en") == "Expert (weaker here: without its compiled search core)"
    assert strength_name("expert", "hu").startswith("Szakértő (itt gyengébb")
    assert strength_name("strong", "en") == "Strong"
    parlour = str(Path(sys.executable).with_name("parlour"))
    shown = subprocess.run(
        [parlour, "thirteen", "play", "--help"], capture_output=True, text=True, timeout=60,
        env={**os.environ, "PARLOUR_SOLVER_CORE": "python", "COLUMNS": "200"}, check=True,
    )  # fmt: skip
    assert "The expert is weaker here" in " ".join(shown.stdout.split())


def test_judge_names_combinations_as_the_pages_and_the_terminal_do() -> None:
    """One name per combination, the game's (``combination_name``): a double sequence counts its pairs."""
    result = CliRunner().invoke(main, ["thirteen", "judge", "--play", "3S 3C 4S 4C 5S 5C"])
    assert result.exit_code == 0 and "a double sequence of 3 pairs, 6 cards" in result.output
    french = CliRunner().invoke(main, ["thirteen", "judge", "--play", "3S 4C 5D", "--lang", "fr"])
    assert french.exit_code == 0 and "suite de 3" in french.output, french.output
