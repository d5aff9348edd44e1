"""TriPeaks in the terminal, driven with Textual's Pilot: a deal won by keys and by clicks from a solver
line, refusals explained, the records kept in the store, at 80×24 and 120×40."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from parlour.games.registry import default_registry
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.definition import TriPeaksFigures
from parlour.tripeaks.rules import EASY
from parlour.tripeaks.solver import numbered_result, solve
from parlour.tripeaks.terminal.app import RECORDS, STOCK, BoardWidget, TriPeaksApp
from parlour.tripeaks.terminal.board import corner
from parlour.tui.records import TerminalRecorder

NUMBER = next(n for n in range(100, 400) if (r := numbered_result(EASY, n)) is not None and r.winnable)


def run(coroutine: Any) -> Any:
    """Run a Pilot session on a loop of its own (another test's loop may run in this thread)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def winning_line() -> list[str]:
    return list(solve(Game.from_code(DealCode(NUMBER, EASY))).line)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_numbered_deal_is_won_with_the_keys(tmp_path: Path, size: tuple[int, int]) -> None:
    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", recorder, NUMBER)

    async def play() -> str:
        async with app.run_test(size=size) as pilot:
            status = str(app.query_one("#status").render())
            assert f"Game #{NUMBER}" in status and "Winnable in" in status
            for move in winning_line():
                if move == "draw":
                    await pilot.press("d")
                    continue
                view = app.game.view()
                stops = app.stops()
                target = next(
                    i for i, p in enumerate(stops) if p != STOCK and str(view.tableau[p].card) == move
                )
                while app.cursor != target:
                    await pilot.press("right")
                await pilot.press("enter")
            message = str(app.query_one("#message").render())
            await pilot.press("s")  # the statistics screen opens over the table
            await pilot.pause()
            assert app.screen.query("#statistics")
            await pilot.press("escape")
            await pilot.pause()
            assert not app.screen.query("#statistics")
            return message

    message = run(play())
    assert app.game.status == "won"
    assert "You won!" in message and f"You are the first to win game #{NUMBER}!" in message
    stats = recorder.store.statistics(recorder.player_id).of("tripeaks", TriPeaksFigures)
    assert stats.rules["easy"].won == 1


def test_a_deal_is_won_with_clicks_and_a_refusal_is_explained(tmp_path: Path) -> None:
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "hu", None, NUMBER)

    async def play() -> tuple[str, str]:
        async with app.run_test(size=(80, 24)) as pilot:
            top_x, top_y = corner(0)
            await pilot.click("#board", offset=(top_x + 2, top_y + 1))  # a face-down peak top
            refused = str(app.query_one("#message").render())
            for move in winning_line():
                if move == "draw":
                    await pilot.click("#piles", offset=(2, 1))
                    continue
                view = app.game.view()
                position = next(p for p in view.free if str(view.tableau[p].card) == move)
                x, y = corner(position)
                await pilot.click(BoardWidget, offset=(x + 2, y + 1))
            return refused, str(app.query_one("#message").render())

    refused, message = run(play())
    assert refused == "Ez a lap blokkolva van"
    assert app.game.status == "won" and "Nyertél" in message


def test_new_game_takes_a_pasted_code_and_undo_goes_back(tmp_path: Path) -> None:
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", None, NUMBER)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("d")
            assert app.game.view().moves == 1
            await pilot.press("u")
            assert app.game.view().stock == 23
            await pilot.press("n")
            await pilot.press(*"TP1-C-AAAAAAD")
            await pilot.press("enter")
            # A pasted code of a numbered deal is that numbered game, as on the web (Classic #3).
            assert str(app.game.code) == "TP1-C-AAAAAAD" and app.numbered == 3
            await pilot.press("h")
            assert "Hint:" in str(app.query_one("#message").render())
            await pilot.press("g")  # Thorough → Simple: greedy play's own move, with its chance
            assert app.hint_strength == "greedy"
            assert "Hint strength: Simple" in str(app.query_one("#message").render())
            await pilot.press("h")
            assert "Hint:" in str(app.query_one("#message").render())

    run(play())


def test_a_thirteen_round_is_played_with_the_keys(tmp_path: Path) -> None:
    from parlour.thirteen.terminal.app import HandWidget, ThirteenApp

    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    app = ThirteenApp({"code": "TH1-AAAAAAC", "speed": "instant", "strength": "greedy"}, "en", recorder)

    async def play() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            assert "lead any combination" in str(app.query_one("#status").render())
            for _ in range(400):
                await pilot.pause(0.02)
                view = app.table.view(0).to_json()
                if view["between_rounds"] or view["winners"]:
                    break
                if view["turn"] != 0:
                    continue
                legal = app.table.legal(0)
                move = legal[0]
                if move == "pass":
                    await pilot.press("p")
                    continue
                for code in move.split():
                    app.cursor = view["hand"].index(code)
                    await pilot.press("space")
                    if app.table.view(0).to_json()["turn"] != 0:  # played at once: it could not be extended
                        break
                else:
                    await pilot.press("enter")
            await pilot.pause()
            keys = " ".join(str(item.render()) for item in app.query("FooterKey"))
            # Until the person goes on, the hand shows what was left of the round, not the next deal.
            view = app.table.view(0).to_json()
            assert app.query_one(HandWidget).shown == view["last_round"]["remaining"][0] != view["hand"]
            return str(app.query_one("#status").render()) + "\n" + keys

    status, keys = run(play()).split("\n")
    assert "The round is over" in status and status.endswith("  [c]")  # the key hint is not markup
    assert re.search(r"1\. .+ \+\d, 2\. .+ \+\d, 3\. .+ \+\d, 4\. .+ \+\d", status), status
    assert "Next round" in keys and "Pass" not in keys and "Raise" not in keys  # only what means something
    record = recorder.store.game_record(recorder.game_id or "", recorder.player_id)
    assert len(record.moves) == recorder.moves > 13  # every seat's moves, the person's and the others'


def test_the_terminal_board_writes_the_kings_as_the_language_does() -> None:
    from parlour.cards import Card
    from parlour.i18n.cards import rank_letters
    from parlour.tripeaks.terminal.board import paint
    from parlour.tui.cards import card_label

    assert card_label(Card.parse("KC"), rank_letters("fr")) == "R♣ "
    assert card_label(Card.parse("TH"), rank_letters("hu")) == "10♥"
    view = Game.from_code(DealCode(1, EASY)).view()
    english = "".join(line.plain for line in paint(view))
    hungarian = "".join(line.plain for line in paint(view, None, rank_letters("hu")))
    assert "K♣" in english and "R♣" in hungarian and "K♣" not in hungarian


def test_the_statistics_screen_shows_the_terminal_players_figures(tmp_path: Path) -> None:
    from rich.console import Console

    from parlour.tui.screens import statistics_renderable

    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    recorder.start_record(RECORDS, RECORDS.prepare(None, str(DealCode(NUMBER, EASY)), [0], NUMBER))
    recorder.append_many(winning_line())
    recorder.finish("en")
    console = Console(record=True, width=120)
    console.print(statistics_renderable(recorder))
    text = console.export_text()
    assert "TriPeaks — this terminal" in text and "Thirteen — this terminal" in text
    easy = next(line for line in text.splitlines() if "Easy" in line)
    assert " 1 " in easy and "100%" in easy
    again = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    assert again.player_id == recorder.player_id  # the token file keeps the terminal's player


def test_t_goes_through_the_light_dark_and_high_contrast_themes() -> None:
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", None, NUMBER)

    async def play() -> list[str]:
        async with app.run_test(size=(80, 24)) as pilot:
            seen = [app.theme]
            for _ in range(3):
                await pilot.press("t")
                seen.append(app.theme)
            return seen

    seen = run(play())
    assert set(seen[1:]) == {"textual-light", "textual-dark", "parlour-high-contrast"}
    assert seen[1] != seen[2] != seen[3]


def test_the_players_deck_and_theme_from_the_web_are_kept_in_the_terminal(tmp_path: Path) -> None:
    from parlour.cards import Card
    from parlour.tripeaks.terminal.board import paint

    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    recorder.store.set_preferences(recorder.player_id, deck="four_colour", theme="high_contrast")
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", recorder, NUMBER)

    async def look() -> tuple[str, str]:
        async with app.run_test(size=(80, 24)):
            return app.theme, app.deck

    assert run(look()) == ("parlour-high-contrast", "four_colour")
    view = Game.from_code(DealCode(1, EASY)).view()
    colours = {
        span.style.color.name  # type: ignore[union-attr]
        for line in paint(view, None, None, "four_colour")
        for span in line.spans
        if span.style.color is not None  # type: ignore[union-attr]
    }
    two = {
        span.style.color.name  # type: ignore[union-attr]
        for line in paint(view)
        for span in line.spans
        if span.style.color is not None  # type: ignore[union-attr]
    }
    assert {"blue", "green"} <= colours and not {"blue", "green"} & two
    from parlour.tui.cards import card_style

    assert card_style(Card.parse("QD"), True, "four_colour").color.name == "blue"  # type: ignore[union-attr]
    assert card_style(Card.parse("QH"), True, "four_colour").color.name == "red"  # type: ignore[union-attr]


def test_the_help_screen_shows_the_rules_pages_words() -> None:
    from rich.console import Console

    from parlour.tui.screens import rules_renderable

    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "hu", None, NUMBER)

    async def play() -> bool:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            opened = bool(app.screen.query("#help"))
            await pilot.press("escape")
            await pilot.pause()
            return opened and not app.screen.query("#help")

    assert run(play())
    console = Console(record=True, width=100)
    console.print(rules_renderable(default_registry().get("tripeaks"), "hu"))
    text = console.export_text()
    assert "Röviden" in text and "Nincs több lehetséges lépés" in text  # the seed's own words
    console = Console(record=True, width=100)
    console.print(rules_renderable(default_registry().get("thirteen"), "en"))
    assert "3 of spades" in console.export_text()


def test_the_menu_chooses_a_game() -> None:
    from parlour.cli.tui import terminal_games
    from parlour.tui.menu import MenuApp

    async def choose(keys: tuple[str, ...]) -> str | None:
        app = MenuApp("hu", terminal_games())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*keys)
        return app.return_value

    assert run(choose(("h",))) == "thirteen"
    assert run(choose(("t",))) == "tripeaks"
    assert run(choose(("q",))) is None


def test_thirteen_settings_and_a_new_match_from_the_keys() -> None:
    from parlour.thirteen.terminal.app import ThirteenApp

    app = ThirteenApp({"code": "TH1-AAAAAAC", "speed": "normal", "strength": "greedy"}, "en", None)

    async def play() -> tuple[str, str, str]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("v")  # normal → slow, at once
            speed = app.table.speed
            await pilot.press("g")  # greedy → strong, from the next match
            before = app.table
            await pilot.press("n")
            assert app.table is not before
            return speed, app.table.strength, str(app.query_one("#status").render())

    speed, strength, status = run(play())
    assert speed == "slow" and strength == "strong"
    assert "Your turn" in status or "Waiting for" in status  # the new match says whose turn it is


def test_the_new_game_window_deals_a_random_deal_under_the_rules_chosen() -> None:
    from textual.widgets import Checkbox, RadioButton

    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", None, NUMBER)

    async def play() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("n")
            await pilot.pause()
            app.screen.query_one("#classic", RadioButton).value = True
            app.screen.query_one("#variant-joker", Checkbox).value = True
            await pilot.click("#deal")
            await pilot.pause()

    run(play())
    assert not app.game.rules.king_ace_linked and app.game.rules.joker and app.numbered is None


def test_every_key_and_label_of_the_terminal_has_its_name_in_every_language() -> None:
    from babel.messages.pofile import read_po
    from textual.binding import Binding

    from parlour.cli.tui import terminal_games
    from parlour.i18n import LANGUAGES, LOCALE_DIR
    from parlour.thirteen.terminal.app import ThirteenApp
    from parlour.tui.screens import HelpScreen, StatisticsScreen

    names = {
        binding.description
        for owner in (TriPeaksApp, ThirteenApp, HelpScreen, StatisticsScreen)
        for binding in owner.BINDINGS
        if isinstance(binding, Binding) and any(letter.isalpha() for letter in binding.description)
    }
    names |= {TriPeaksApp.KEYS, ThirteenApp.KEYS, "this terminal", "Quit"}
    names |= {game.title for game in terminal_games()}  # the menu's keys are named after the games
    headings = {"Played", "Win rate", "Moves/win", "Best time", "Rounds", "4th", "Easy", "All"}
    for lang in LANGUAGES[1:]:
        with (LOCALE_DIR / lang / "LC_MESSAGES" / "terminal.po").open("rb") as handle:
            catalog = read_po(handle)
        missing = sorted(name for name in names | headings if name not in catalog)
        assert not missing, f"{lang}: {missing}"


@pytest.mark.parametrize(
    ("lang", "shown", "english"),
    [("hi", ["खींचें", "संकेत", "निकलें"], "Draw"), ("fr", ["Piocher", "Indice", "Quitter"], "Hint")],
)
def test_the_footer_names_the_keys_in_the_players_language(lang: str, shown: list[str], english: str) -> None:
    from rich.console import Console
    from textual.widgets import Footer

    from parlour.tui.screens import statistics_renderable

    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), lang, None, NUMBER)

    async def footer() -> tuple[str, str]:
        async with app.run_test(size=(160, 24)) as pilot:
            await pilot.pause()
            main = " ".join(str(item.render()) for item in app.query_one(Footer).query("FooterKey"))
            await pilot.press("s")
            await pilot.pause()
            closing = " ".join(str(item.render()) for item in app.screen.query("FooterKey"))
            return main, closing

    main, closing = run(footer())
    assert all(name in main for name in shown) and english not in main
    assert ("बंद करें" if lang == "hi" else "Fermer") in closing
    console = Console(record=True, width=100)
    console.print(statistics_renderable(None, lang))
    assert "--no-record" in console.export_text() and "Nothing" not in console.export_text()


def test_r_reviews_a_game_that_is_over_and_not_one_in_play() -> None:
    """R opens the review of a game that is over, as ``parlour tripeaks review`` says it (in the
    language chosen); a game in play is refused in words."""
    game = Game.from_code(DealCode(NUMBER, EASY))
    line = winning_line()
    app = TriPeaksApp(game, "fr", None, NUMBER)

    async def review() -> tuple[str, str]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("r")
            refused = str(app.query_one("#message").render())
            app.apply("draw")
            app.apply("undo")
            for move in line:
                app.apply(move)
            await pilot.press("r")
            for _ in range(100):  # the review is made in a worker thread
                await pilot.pause(0.05)
                text = str(app.screen.query_one("#review-text").render())
                if "Gagnée" in text:
                    break
            await pilot.press("escape")
            return refused, text

    refused, text = run(review())
    assert "encore en cours" in refused
    assert f"Gagnée en {len(line) + 1} coups\u202f; le minimum était de {len(line)}." in text
    assert "2. Annuler" in text and "Ensuite" in text  # the move in French, not the engine's "undo"


def test_y_deals_todays_daily_deal_with_its_code_hidden_and_counts_the_streak(tmp_path: Path) -> None:
    from parlour.store.daily import today

    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", recorder, NUMBER)
    deal = recorder.store.daily_deal("tripeaks", "easy", today())

    async def play() -> tuple[str, str, str]:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("y")
            await pilot.pause()
            status = str(app.query_one("#status").render())
            await pilot.press("d")
            await pilot.press("r")  # no review of an attempt in play
            await pilot.pause()
            refused = str(app.query_one("#message").render())
            await pilot.press("n")
            await pilot.pause()
            await pilot.press("enter")  # a new deal ends the attempt: it counts
            await pilot.pause()
            return status, refused, str(app.query_one("#message").render())

    status, refused, ended = run(play())
    assert f"Daily deal {today().isoformat()}" in status
    assert deal.code not in status and deal.code.split("-")[-1] not in status
    assert "still being played" in refused
    assert "This attempt counts for the day's leaderboard." in ended and "Days in a row played: 1." in ended
    entry = recorder.store.daily_entry("tripeaks", "easy", today(), recorder.player_id)
    assert entry is not None and entry.result["moves"] == 1


def test_undo_in_the_daily_attempt_never_hides_a_card_seen(tmp_path: Path) -> None:
    recorder = TerminalRecorder(f"sqlite:///{tmp_path / 'tui.db'}", token_file=tmp_path / "token")
    app = TriPeaksApp(Game.from_code(DealCode(NUMBER, EASY)), "en", recorder, NUMBER)

    async def play() -> tuple[str, int, str]:
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.press("u")  # a numbered game: the seed apps' undo takes a draw back
            await pilot.press("d", "u")
            await pilot.pause()
            stock_after_plain_undo = app.game.stock_count
            await pilot.press("y")
            await pilot.pause()
            said = str(app.query_one("#message").render())
            await pilot.press("d", "u")
            await pilot.pause()
            return (
                said + "|" + str(app.query_one("#message").render()),
                stock_after_plain_undo,
                str(app.game.stock_count),
            )

    message, plain, ranked = run(play())
    assert "a card you have seen stays seen" in message.split("|")[0]
    assert plain == 23 and ranked == "22"
    assert "In a ranked game, undo cannot hide a card you have seen" in message
