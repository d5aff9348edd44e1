"""TriPeaks in a full-screen terminal app (Textual): the peaks as cards, mouse and keyboard, the fair
hint, the numbered games' verdicts and records. The screens hold no rule: they draw the engine's player
view and send moves, as the web page does.
"""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Footer, Input, Label, RadioButton, RadioSet, Static

from parlour.cards import Card
from parlour.errors import IllegalMove, InvalidInput
from parlour.games.base import DAILY_SECRET, RANKED_OPEN_MESSAGE, day_end
from parlour.i18n import gettext_for, labelled
from parlour.i18n.cards import rank_letters
from parlour.store import StoreUnavailable
from parlour.store.daily import today
from parlour.store.rows import utcnow
from parlour.tripeaks import DealCode, Game
from parlour.tripeaks.definition import (
    DEFINITION,
    NAME,
    REASONS,
    deal_from,
    hint_text,
    numbered_verdict,
    player_hint,
    review_texts,
    verdict_text,
)
from parlour.tripeaks.game import DRAW, UNDO
from parlour.tripeaks.layout import SLOT_PLACES
from parlour.tripeaks.rules import CLASSIC, EASY, VARIANTS, Rules
from parlour.tripeaks.solver import compiled_available
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH as DEFAULT_HINT_STRENGTH
from parlour.tripeaks.solver.players import PLAYERS as HINT_STRENGTHS
from parlour.tripeaks.solver.players import STRENGTH_NAMES as HINT_STRENGTH_NAMES
from parlour.tripeaks.solver.review import review_game
from parlour.tripeaks.terminal.board import BOARD_HEIGHT, BOARD_WIDTH, paint, slot_at
from parlour.tripeaks.texts import (
    describe,
    no_more_moves,
    page_text,
    reason_text,
    rules_name,
    variant_names,
    won_text,
)
from parlour.tui.cards import card_label, card_style
from parlour.tui.records import TerminalRecorder
from parlour.tui.screens import ParlourApp, TooSmall, terminal_text, translate_bindings

STOCK: Final = -1
"""The cursor's stop on the draw pile, after the free cards."""

RECORDS: Final = DEFINITION
"""The definition that makes the records of the deals played here."""


KEYS: Final = (
    "Keys: ← → choose a card, Enter plays it, D draws, U undoes, N new game, H hint, G hint strength, "
    "B reads the board, R reviews a game that is over, S statistics, T theme, Q quits. "
    "The mouse plays cards and draws too. Y deals today's daily deal."
)
"""The keys, in English, under the rules on the help screen."""


class ReviewScreen(ModalScreen[None]):
    """The review of the game just over (``parlour.tripeaks.solver.review``, as ``parlour tripeaks
    review`` prints it), computed in a worker thread; Escape or R closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("r", "dismiss", "Close", show=False),
    ]

    def __init__(self, code: DealCode, moves: list[str], lang: str) -> None:
        super().__init__()
        self.code = code
        self.moves = moves
        self.lang = lang
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review"):
            yield Static(page_text(self.lang, "Thinking…"), id="review-text")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.run_worker(self.compute, thread=True, exclusive=True)

    def compute(self) -> None:
        start = Game.from_code(self.code)
        made = review_game(start, self.moves, honest=compiled_available())
        said = review_texts(made.to_json(), self.lang)
        lines = [*said["head"], "", *said["steps"][1:], "", *said["foot"]]
        self.app.call_from_thread(self.query_one("#review-text", Static).update, Text("\n".join(lines)))

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class BoardWidget(Widget):
    """The 28 peak cards; a click plays the card under the mouse."""

    DEFAULT_CSS = f"BoardWidget {{ width: {BOARD_WIDTH}; height: {BOARD_HEIGHT}; }}"

    def __init__(self, owner: TriPeaksApp) -> None:
        super().__init__(id="board")
        self.owner = owner

    def render(self) -> Text:
        lines = paint(self.owner.game.view(), self.owner.cursor_slot(), self.owner.letters, self.owner.deck)
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        position = slot_at(self.owner.game.view(), event.x, event.y)
        if position is not None:
            self.owner.play_position(position)


class PilesWidget(Widget):
    """The draw pile (a click draws) and the discard pile's top card."""

    DEFAULT_CSS = "PilesWidget { width: 40; height: 3; }"

    def __init__(self, owner: TriPeaksApp) -> None:
        super().__init__(id="piles")
        self.owner = owner

    def render(self) -> Text:
        view = self.owner.game.view()
        lang = self.owner.lang
        stock_style = card_style(Card.parse("2S"), True)
        back = "░░░" if view.stock else "   "
        top = view.discard[-1] if view.discard else None
        middle = card_label(top, self.owner.letters) if top is not None else "   "
        top_style = card_style(top, True, self.owner.deck) if top is not None else stock_style
        cursor = self.owner.cursor == STOCK
        stock_line_style = stock_style.__class__(reverse=True) if cursor else None
        lines = [Text(), Text(), Text()]
        for index, (left, right) in enumerate(
            (("╭───╮", "╭───╮"), (f"│{back}│", f"│{middle}│"), ("╰───╯", "╰───╯"))
        ):
            lines[index].append(left, stock_line_style or "white on blue")
            lines[index].append("   ")
            lines[index].append(right, top_style)
        lines[1].append(f"  {labelled(page_text(lang, 'Draw pile'), lang)} {view.stock}")
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        if event.x < 5:
            self.owner.draw()


class NewGameScreen(ModalScreen[tuple[str, Rules] | None]):
    """Asks for a deal code, a numbered game's number or nothing (a random deal), and the rules: Easy
    or Classic and the variants (for a number or a random deal; a code carries its own).

    It fits an 80×24 window (and scrolls in a smaller one); Enter deals from any field, Space ticks the
    focused box, Escape cancels.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", show=False),
        # Before the fields' own Enter (a box would tick, a radio button choose): Enter always answers.
        Binding("enter", "deal", "Deal", show=False, priority=True),
    ]

    def __init__(self, lang: str, rules: Rules) -> None:
        super().__init__()
        self.lang = lang
        self.rules = rules

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="new-game"):
            yield Label(page_text(self.lang, "Start a new game?"), classes="title")
            yield Input(placeholder="TP1-E-AAAAAAB / 123", id="new-game-input", compact=True)
            with RadioSet(id="new-game-rules", compact=True):
                yield RadioButton(rules_name("easy", self.lang), value=self.rules.king_ace_linked, id="easy")
                yield RadioButton(
                    rules_name("classic", self.lang), value=not self.rules.king_ace_linked, id="classic"
                )
            for variant, name in zip(VARIANTS, variant_names(VARIANTS, self.lang), strict=True):
                yield Checkbox(
                    name, value=getattr(self.rules, variant), id=f"variant-{variant}", compact=True
                )
            with Horizontal(id="new-game-buttons"):
                yield Button(page_text(self.lang, "Deal"), variant="primary", id="deal", compact=True)
                yield Button(page_text(self.lang, "Cancel"), id="cancel", compact=True)
            keys = terminal_text(self.lang, "Enter deals, Space ticks a box, Tab moves, Esc cancels.")
            yield Label(keys, id="new-game-keys")

    def on_mount(self) -> None:
        self.query_one(Input).focus()  # the code or number first: most people paste or type one

    def chosen(self) -> tuple[str, Rules]:
        classic = self.query_one("#classic", RadioButton).value
        rules = (CLASSIC if classic else EASY).with_variants(
            *(variant for variant in VARIANTS if self.query_one(f"#variant-{variant}", Checkbox).value)
        )
        return self.query_one(Input).value, rules

    def action_deal(self) -> None:
        focused = self.focused
        if isinstance(focused, Button) and focused.id == "cancel":
            self.dismiss(None)  # Enter on Cancel is a press of Cancel
        else:
            self.dismiss(self.chosen())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(self.chosen() if event.button.id == "deal" else None)


class TriPeaksApp(ParlourApp):
    """The TriPeaks table in the terminal."""

    GAME = RECORDS
    KEYS = KEYS
    SMALLEST = (BOARD_WIDTH + 4, 21)  # the board and its padding; status, board, piles, message, keys

    CSS_PATH = "tripeaks.tcss"
    TITLE = "Parlour — TriPeaks"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("enter", "play", "Play"),
        Binding("space", "play", "Play", show=False),
        Binding("d", "draw", "Draw"),
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New"),
        Binding("y", "daily", "Daily deal", show=False),
        Binding("h", "hint", "Hint"),
        Binding("g", "hint_strength", "Hint strength", show=False),
        Binding("b", "read", "Read", show=False),
        Binding("r", "review", "Review", show=False),
        Binding("s", "statistics", "Stats"),
        Binding("t", "theme", "Light, dark, high contrast", show=False),
        Binding("question_mark", "help", "Rules"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        game: Game,
        lang: str = "en",
        recorder: TerminalRecorder | None = None,
        numbered: int | None = None,
        hint_strength: str = DEFAULT_HINT_STRENGTH,
    ) -> None:
        super().__init__(lang, recorder)
        self.game = game
        self.hint_strength = hint_strength
        self.letters = rank_letters(lang)
        self.numbered = numbered
        self.cursor: int = 0
        self.message = ""
        self.played: list[str] = []
        """The moves made since the deal, undos too (a review goes through them all)."""
        self.secret_until: datetime | None = None
        """When the daily deal on the board stops being secret (its day's end), None for another deal."""
        self.daily: str | None = None
        """The day (ISO date) of the daily deal being played, whose code stays hidden until its attempt
        is over (decision 0050); None for any other deal."""

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static(id="status")
            yield BoardWidget(self)
            yield PilesWidget(self)
            yield Static(id="message")
        yield TooSmall()
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.check_size(self.size.width, self.size.height)
        if self.recorder is not None and self.game.code is not None:
            self.recorder.start_record(
                RECORDS, RECORDS.prepare(None, str(self.game.code), [0], self.numbered)
            )
        self.refresh_all()

    def stops(self) -> list[int]:
        """The cursor's stops: the free cards left to right, then the draw pile."""
        view = self.game.view()
        return [*sorted(view.free, key=lambda p: (SLOT_PLACES[p][0], SLOT_PLACES[p][1])), STOCK]

    def cursor_slot(self) -> int | None:
        stops = self.stops()
        return None if self.cursor == STOCK else stops[min(self.cursor, len(stops) - 1)] if stops else None

    def refresh_all(self) -> None:
        view = self.game.view()
        lang = self.lang
        parts = [
            f"{labelled(page_text(lang, 'Score'), lang)} {view.score}",
            f"{labelled(page_text(lang, 'Moves'), lang)} {view.moves}",
        ]
        if self.daily is not None:
            parts.append(f"{gettext_for(lang, 'store', 'Daily deal')} {self.daily}")
        elif view.code and not self.deal_secret():
            parts.append(view.code)
        if self.numbered is not None:
            parts.append(page_text(lang, "Game #{number}").format(number=self.numbered))
            verdict = numbered_verdict(self.game.rules, self.numbered)
            if verdict:
                parts.append(verdict_text(verdict, lang))
        self.query_one("#status", Static).update("   ".join(parts))
        ending = ""
        if view.status == "won":
            ending = won_text(view.score, lang)
        elif view.status == "stuck":
            ending = no_more_moves(lang)
        self.query_one("#message", Static).update(" ".join(part for part in (ending, self.message) if part))
        self.query_one(BoardWidget).refresh()
        self.query_one(PilesWidget).refresh()

    # --- moves -------------------------------------------------------------------------------------

    def apply(self, move: str) -> None:
        """Make a move: recorded first, shown after; a refusal is explained."""
        before = self.game.copy()
        try:
            # An attempt at the daily deal is ranked: undo never hides a card seen (decision 0058).
            canonical = self.game.apply(move, ranked=self.daily is not None)
        except (IllegalMove, InvalidInput) as error:
            try:
                self.message = reason_text(error.code, self.lang)
            except KeyError:
                self.message = str(error)
            self.refresh_all()
            return
        try:
            if self.recorder is not None:
                self.recorder.append(canonical)
        except StoreUnavailable:
            self.game = before  # never ahead of the record
            self.message = page_text(self.lang, "Your move could not be saved. Please try again.")
            self.refresh_all()
            return
        self.played.append(canonical)
        self.message = ""
        if self.game.status == "won" and self.recorder is not None:
            self.message = " ".join(self.recorder.finish(self.lang) + self.streak_words())
        self.cursor = min(self.cursor, len(self.stops()) - 1)
        self.refresh_all()

    def play_position(self, position: int) -> None:
        """Play the card at a layout position (a click or Enter on the cursor)."""
        slot = self.game.view().tableau[position]
        if slot.card is None:
            self.message = reason_text("blocked", self.lang)
            self.refresh_all()
            return
        self.apply(str(slot.card))

    def draw(self) -> None:
        self.apply(DRAW)

    # --- actions (keys) ----------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        stops = self.stops()
        index = len(stops) - 1 if self.cursor == STOCK else self.cursor
        index = (index + step) % len(stops)
        self.cursor = STOCK if stops[index] == STOCK else index
        self.refresh_all()

    def action_play(self) -> None:
        position = self.cursor_slot()
        if position is None:
            self.draw()
        else:
            self.play_position(position)

    def action_draw(self) -> None:
        self.draw()

    def action_undo(self) -> None:
        self.apply(UNDO)

    def action_read(self) -> None:
        self.message = describe(self.game.to_json(), self.lang)
        self.refresh_all()

    def action_hint(self) -> None:
        if self.game.status != "playing":
            self.message = reason_text("game_over", self.lang)
        else:
            hint = player_hint(self.game, self.hint_strength)
            self.message = hint_text(hint, self.lang)
            if hint.move == DRAW:
                self.cursor = STOCK
            else:
                view = self.game.view()
                for index, position in enumerate(self.stops()):
                    if position != STOCK and str(view.tableau[position].card) == hint.move:
                        self.cursor = index
        self.refresh_all()

    def action_daily(self) -> None:
        """Deal today's daily deal under the rules in play (Easy unless Classic): a ranked attempt,
        recorded, its code hidden until it is over; the first attempt to end counts."""
        if self.recorder is None:
            self.message = gettext_for(
                self.lang, "store", "The daily deal needs the records: start without --no-record."
            )
            self.refresh_all()
            return
        rules = "classic" if self.game.rules.name == "classic" else "easy"
        day = today()
        try:
            deal = self.recorder.store.daily_deal(NAME, rules, day)
            new = RECORDS.ranked(deal.code, {DAILY_SECRET: day.isoformat()})
            assert new.spec is not None
            news = self.recorder.start_record(RECORDS, new.spec)
        except StoreUnavailable:
            self.message = page_text(self.lang, "Your move could not be saved. Please try again.")
            self.refresh_all()
            return
        self.game = Game.from_code(deal.code)
        self.played, self.numbered, self.cursor, self.daily = [], None, 0, day.isoformat()
        self.secret_until = day_end(day)
        said = gettext_for(
            self.lang, "store", "Your first attempt to end is the one that counts; any later one is practice."
        )
        self.message = " ".join([*news, said, gettext_for(self.lang, "store", RECORDS.ranked_note)])
        self.refresh_all()

    def streak_words(self) -> list[str]:
        """After an attempt at the daily deal: the days in a row played and won, in the app's language."""
        if self.daily is None or self.recorder is None:
            return []
        self.daily = None  # over: the code may show again
        try:
            streaks = self.recorder.store.daily_streaks(NAME, self.recorder.player_id)
        except StoreUnavailable:
            return []
        s = self.lang
        return [
            f"{labelled(gettext_for(s, 'store', 'Days in a row played'), s)} {streaks.current_played}.",
            f"{labelled(gettext_for(s, 'store', 'Days in a row won'), s)} {streaks.current_won}.",
        ]

    def action_review(self) -> None:
        """Review the game once it is over (the review sees every card: not while it is played). A
        stuck attempt at the daily deal is ended first (it counts as it stands), as the web page does."""
        if self.daily is not None and self.game.status == "stuck" and self.recorder is not None:
            self.message = " ".join(self.recorder.finish(self.lang) + self.streak_words())
        elif self.daily is not None:
            self.message = page_text(
                self.lang, "This game is still being played: its review comes when it is over."
            )
            self.refresh_all()
            return
        if self.game.status == "playing" or self.game.code is None:
            self.message = page_text(
                self.lang, "This game is still being played: its review comes when it is over."
            )
            self.refresh_all()
            return
        if self.deal_secret():
            self.message = gettext_for(self.lang, "web", RANKED_OPEN_MESSAGE)
            self.refresh_all()
            return
        self.push_screen(ReviewScreen(self.game.code, list(self.played), self.lang))

    def deal_secret(self) -> bool:
        """Return whether the deal on the board is today's daily deal, whose code and review wait for the
        day's end even once the attempt is over (decision 0060)."""
        return self.secret_until is not None and utcnow() < self.secret_until

    def action_hint_strength(self) -> None:
        """The next hint strength (Simple, Quick, Thorough), for the hints from now on."""
        self.hint_strength = HINT_STRENGTHS[
            (HINT_STRENGTHS.index(self.hint_strength) + 1) % len(HINT_STRENGTHS)
        ]
        name = gettext_for(self.lang, "web", HINT_STRENGTH_NAMES[self.hint_strength])
        self.message = gettext_for(self.lang, "web", "Hint strength: {strength}").format(strength=name)
        self.refresh_all()

    def action_new_game(self) -> None:
        def chosen(answer: tuple[str, Rules] | None) -> None:
            if answer is None:
                return
            try:
                code, numbered = deal_from(*answer)
            except InvalidInput as error:  # said in the player's language, as the web's New game does
                reason = REASONS.get(error.code)
                self.message = page_text(self.lang, reason) if reason else str(error)
                self.refresh_all()
                return
            self.new_game(code, numbered)

        self.push_screen(NewGameScreen(self.lang, self.game.rules), chosen)

    def new_game(self, code: DealCode, numbered: int | None) -> None:
        """Deal ``code`` (closing the game in play in the records)."""
        news: list[str] = []
        if self.recorder is not None:
            news = self.recorder.start_record(RECORDS, RECORDS.prepare(None, str(code), [0], numbered))
            news += self.streak_words()  # a daily attempt left for a new deal has ended
        self.daily = None
        self.secret_until = None
        self.game = Game.from_code(code)
        self.played = []
        self.numbered = numbered
        self.cursor = 0
        self.message = " ".join(news)
        self.refresh_all()
