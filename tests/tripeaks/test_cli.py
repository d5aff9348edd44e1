"""``parlour tripeaks show / replay / play`` driven as a user would, stdin as a pipe."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

from parlour.cards import Card
from parlour.cli import main
from parlour.i18n.cards import card_name
from parlour.tripeaks import Game
from parlour.tripeaks.commands.group import _column, board
from parlour.tripeaks.layout import ROWS
from tripeaks.golden import LINES, WIN_E_B, path_for

ROOT = Path(__file__).resolve().parents[2]
cli_tripeaks = importlib.import_module(
    "parlour.tripeaks.commands.group"
)  # the package attribute is the Click group


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tripeaks", *args], input=input)
    return result.exit_code, result.output


# ------------------------------------------------------------------------------------------------- show
def test_show_draws_the_deal_with_hidden_cards_hidden() -> None:
    code, out = run("show", "tp1-e-aaaaaab")
    assert code == 0
    assert "TP1-E-AAAAAAB" in out and "Easy" in out
    assert "[ 2♣] [ A♦] [ 6♠] [ K♣] [ K♥] [10♥] [10♠] [ J♠] [10♦] [ 8♠]" in out
    assert out.count("[░░░]") == 18
    assert "Draw pile: 23 cards" in out and "Discard pile: [ Q♣]" in out and "Score: 500" in out
    assert "bottom row: 2 of clubs, ace of diamonds," in out
    game = Game.from_code("TP1-E-AAAAAAB")
    hidden = {game.card_at(p).pretty() for p in range(18)} | {c.pretty() for c in game.deal.stock}
    assert not any(f"[{card:>3}]" in out for card in hidden)


def test_show_in_hindi_and_hungarian() -> None:
    _, out = run("show", "TP1-E-AAAAAAB", "--lang", "hi")
    assert (
        f"ड्रॉ ढेर: 23 पत्ते; डिस्कार्ड ढेर: {card_name(Card.parse('QC'), 'hi')}। शिखरों की चोटियाँ: छिपा पत्ता," in out
    )
    assert "सबसे नीचे की पंक्ति: चिड़ी का 2, ईंट का इक्का, हुकुम का 6, चिड़ी का बादशाह," in out
    assert "आसान" in out and "स्कोर: 500" in out
    _, out = run("show", "TP1-C-AAAAAAB", "--lang", "hu")
    assert "Húzópakli: 23 lap; dobópakli: treff dáma." in out and "Klasszikus" in out


def test_show_json_is_the_players_view_unless_revealed() -> None:
    code, out = run("show", "TP1-E-AAAAAAB", "--json")
    assert code == 0 and json.loads(out) == Game.from_code("TP1-E-AAAAAAB").to_json()
    _, out = run("show", "TP1-E-AAAAAAB", "--json", "--reveal")
    state = json.loads(out)
    assert len(state["stock_cards"]) == 23 and None not in [t["card"] for t in state["tableau"]]


def test_show_reveal_draws_every_card() -> None:
    _, out = run("show", "TP1-E-AAAAAAB", "--reveal")
    assert "[░░░]" not in out


@pytest.mark.parametrize("bad", ["TP1-E-AAAAAA", "hello", "TP1-Q-AAAAAAB", "TP1-E-AAAAAAB-X"])
def test_bad_codes_are_refused_with_the_shape_of_a_code(bad: str) -> None:
    code, out = run("show", bad)
    assert code == 2
    assert f"{bad!r} is not a deal code" in out or "unknown variant letter" in out
    assert "TP1-E-AAAAAAB" in out


# ----------------------------------------------------------------------------------------------- replay
@pytest.mark.parametrize("code", sorted(LINES))
def test_replay_agrees_with_the_golden_playthroughs(code: str) -> None:
    golden = json.loads(path_for(code).read_text(encoding="utf-8"))
    result = CliRunner().invoke(main, ["tripeaks", "replay", code, *LINES[code].split(), "--json"])
    assert json.loads(result.stdout) == golden["final"]
    # The golden lines try refused moves on purpose: then the exit status says so.
    assert result.exit_code == (1 if golden["final"]["rejected"] else 0)


def test_replay_reports_refused_moves_and_goes_on() -> None:
    result = CliRunner().invoke(
        main, ["tripeaks", "replay", "TP1-E-AAAAAAB", "2C", "K♣", "undo", "undo", "zz", "draw"]
    )
    assert result.exit_code == 1  # something was refused
    errors = result.stderr
    assert "Move 1 (2C) refused: Rank must be exactly one higher or lower [not_adjacent]" in errors
    assert "Move 4 (undo) refused: Nothing to undo [nothing_to_undo]" in errors
    assert "Move 5 (zz) refused: That is not a move [invalid_card]" in errors
    out = result.stdout
    assert "Score: 499" in out and "Moves: 2" in out and "Draw pile: 22 cards" in out
    hungarian = CliRunner().invoke(main, ["tripeaks", "replay", "TP1-E-AAAAAAB", "2C", "--lang", "hu"])
    assert hungarian.exit_code == 1 and "[not_adjacent]" in hungarian.stderr
    assert "Rank must" not in hungarian.stderr


def test_replay_a_full_win() -> None:
    status, out = run("replay", "TP1-E-AAAAAAB", *WIN_E_B.split())
    assert status == 0 and "You won! Score: 750" in out


# ------------------------------------------------------------------------------------------------- play
def test_play_a_whole_game_through_a_pipe() -> None:
    commands = ["help", *WIN_E_B.split(), "d", "quit"]
    status, out = run("play", "TP1-E-AAAAAAB", input="\n".join(commands) + "\n")
    assert status == 0
    assert "Commands: a card such as K♣ or KC (or its name, such as king of clubs) removes it" in out
    assert "You won! Score: 750" in out
    assert "Type new for another game or quit to stop." in out
    assert "The game is over" in out  # the draw after the win
    assert out.rstrip().endswith("Goodbye.")


def test_play_error_help_malformed_input_undo_and_new() -> None:
    commands = ["2c", "as", "kc", "hello world", "KC KD", "u", "u", "new TP1-X", "new tp1-c-aaaaaab", "2c"]
    status, out = run("play", "TP1-E-AAAAAAB", input="\n".join(commands) + "\n")
    assert status == 0
    assert "Rank must be exactly one higher or lower" in out
    assert "This card is blocked" in out
    assert "I did not understand 'hello world'." in out and "I did not understand 'KC KD'." in out
    assert "Nothing to undo" in out
    assert "'TP1-X' is not a deal code: a code looks like TP1-E-AAAAAAB." in out
    assert "New game: TP1-C-AAAAAAB" in out and "Classic" in out
    assert out.count("Rank must be exactly one higher or lower") == 2  # 2♣ on Q♣ again, in Classic
    assert out.rstrip().endswith("Goodbye.")  # the end of the input ends the game politely


def test_play_without_error_help_stays_silent_on_refused_cards() -> None:
    status, out = run("play", "TP1-E-AAAAAAB", "--no-error-help", input="2c\nas\nu\n")
    assert status == 0
    assert "Rank must be" not in out and "blocked" not in out
    assert "Nothing to undo" in out


def test_play_stuck_then_undo() -> None:
    game = Game.from_code("TP1-E-AAAAAAH")
    for _ in range(23):
        game.draw()
    assert game.status == "stuck"
    status, out = run("play", "TP1-E-AAAAAAH", input="d\n" * 24 + "u\n")
    assert status == 0
    assert out.count("No more moves possible") == 1
    assert "Type u to undo or new to start a new game." in out
    assert "The draw pile is empty" in out
    assert out.rstrip().endswith("Goodbye.")


def test_play_rules_option_and_describe_in_hungarian() -> None:
    status, out = run(
        "play", "TP1-E-AAAAAAB", "--rules", "classic", "--lang", "hu", input="describe\n2c\nq\n"
    )
    assert status == 0
    assert "TP1-C-AAAAAAB" in out and "Klasszikus" in out
    assert "Húzópakli: 23 lap; dobópakli: treff dáma." in out
    assert "Eggyel magasabb vagy alacsonyabb értékűnek kell lennie" in out
    assert "Lépésed (parancsok: help)" in out and "Viszlát!" in out


def test_play_a_random_deal_in_hindi() -> None:
    status, out = run("play", "--lang", "hi", input="new\nquit\n")
    assert status == 0 and "नई बाज़ी: TP2-E-" in out and "फिर मिलेंगे।" in out


def test_the_module_runs_with_a_real_pipe() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "parlour", "tripeaks", "play", "TP1-E-AAAAAAB"],
        input="kc\nd\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Score: 498" in result.stdout and "Goodbye." in result.stdout


def test_play_reads_card_names_in_english_and_the_chosen_language() -> None:
    status, out = run(
        "play", "TP1-E-AAAAAAB", "--lang", "hi", input="King of Clubs\nईंट का इक्का\nचिड़ी का 2\nहुकुम का 6\n"
    )
    assert status == 0
    assert "स्कोर: 497" in out  # K♣ by its English name, A♦ and 2♣ by their Hindi names
    assert "दर्जा ठीक एक अधिक या एक कम होना चाहिए" in out  # 6♠ on 2♣
    assert "समझ में नहीं आया" not in out


def test_every_board_cell_is_five_columns_wide_even_the_joker() -> None:
    game = Game.from_code("TP1-E-AAAAAAB-JOW")  # open peaks: the joker is face up in row 2
    assert any(game.card_at(p).is_joker for p in ROWS[1])
    lines = board(game).plain.split("\n")
    for row, line in zip(ROWS, lines, strict=True):
        for position in row:
            start = _column(position)
            prefix = next(i for i in range(len(line) + 1) if cell_len(line[:i]) >= start)
            assert cell_len(line[:prefix]) == start
            assert line[prefix] == "[" and cell_len(line[prefix : line.index("]", prefix) + 1]) == 5


def test_the_status_line_in_french_puts_a_no_break_space_before_each_colon() -> None:
    status, out = run("show", "TP1-E-AAAAAAB", "--lang", "fr")
    assert status == 0
    assert "Pioche\u00a0: 23 cartes    Défausse\u00a0: [ Q♣]    Score\u00a0: 500    Coups\u00a0: 0" in out
    _, out = run("show", "TP1-E-AAAAAAB", "--lang", "hu")
    assert "Húzópakli: 23 lap    Dobópakli: [ Q♣]    Pontszám: 500    Lépések: 0" in out


def test_ctrl_c_at_the_prompt_says_goodbye_in_the_chosen_language(monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(_stream: object) -> Iterator[str]:
        yield "kc\n"
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_tripeaks, "_lines", interrupted)
    status, out = run("play", "TP1-E-AAAAAAB", "--lang", "hu")
    assert status == 130
    assert "Pontszám: 499" in out and out.rstrip().endswith("Viszlát!")
    assert "Aborted" not in out and "Traceback" not in out


def test_typed_text_is_printed_as_typed_never_as_rich_emoji_or_markup() -> None:
    _, out = run("replay", "TP1-E-AAAAAAB", ":smile:", "[bold]x[/bold]")
    assert "Move 1 (:smile:) refused" in out and "[invalid_card]" in out
    assert "Move 2 ([bold]x[/bold]) refused" in out
    _, out = run("play", "TP1-E-AAAAAAB", input=":joker:\n")
    assert "> :joker:\n" in out and "🃏" not in out


def test_play_offers_the_fair_hint_and_reads_cards_by_name() -> None:
    status, out = run("play", "TP1-E-AAAAAAB", input="hint\nten of hearts\nquit\n")
    assert status == 0
    assert "Hint: play the" in out or "Hint: draw a card." in out
    assert "I did not understand" not in out  # "ten of hearts" is a card (here one that does not fit)
    _, french = run("play", "TP1-E-AAAAAAB", "--lang", "fr", input="hint\nquit\n")
    assert "Indice" in french
