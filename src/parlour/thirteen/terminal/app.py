"""Thirteen in a full-screen terminal app (Textual): your hand along the bottom, the three computer players
with their card counts, the table with the current trick, and the selection rule exactly as on the web
(a selection that cannot be extended is played at once, Play otherwise, Pass). The screen holds no rule:
it renders the live game's view of seat 0 and sends its actions (``parlour.thirteen.definition``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Footer, Static

from parlour.cards import Card
from parlour.errors import ParlourError
from parlour.games.base import Change, Json
from parlour.i18n import gettext_for, labelled
from parlour.i18n.cards import rank_letters
from parlour.thirteen.definition import (
    DEFAULT_STRENGTH,
    DEFINITION,
    REASONS,
    SPEED_NAMES,
    SPEEDS,
    STRENGTHS,
    ThirteenMatch,
    combination_name,
    strength_name,
)
from parlour.thirteen.seat_view import ThirteenSeatView, tricks_json
from parlour.tui.cards import card_label, card_style
from parlour.tui.records import TerminalRecorder
from parlour.tui.screens import ParlourApp, TooSmall, translate_bindings

DOMAIN: Final = "thirteen_web"
SEAT_NAMES: Final = ("You", "West", "North", "East")
CARD_STEP: Final = 6


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


KEYS: Final = (
    "Keys: ← → choose a card, Space raises or lowers it, Enter plays, P passes, C next round, H the "
    "round's history, N new match, V computer speed, G computer strength, S statistics, T theme, Q quits. "
    "A click raises a card too."
)
"""The keys, in English, under the rules on the help screen."""


class HistoryScreen(ModalScreen[None]):
    """The round's tricks so far, in order; Escape or H closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close"),
        Binding("h", "dismiss", "Close", show=False),
    ]

    def __init__(self, title: str, lines: list[str], lang: str) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines
        translate_bindings(self, lang)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(Text(self.title_text + "\n", style="bold") + Text("\n".join(self.lines)))
        yield Footer(show_command_palette=False)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(result)


class HandWidget(Widget):
    """The person's cards; raised cards sit one line higher. A click raises or lowers a card."""

    DEFAULT_CSS = "HandWidget { width: 80; height: 4; }"

    def __init__(self, owner: ThirteenApp) -> None:
        super().__init__(id="hand")
        self.owner = owner

    @property
    def shown(self) -> list[str]:
        """The cards shown: the hand, or after a round the cards the person still held when it ended
        (the next hand waits until the person goes on, as the results window covers it on the web)."""
        board = self.owner.view.board
        last = board.last_round
        if (board.between_rounds or board.over) and last:
            return list(last["remaining"][0])
        return self.owner.hand()

    def render(self) -> Text:
        hand = self.shown
        grid = [[(" ", "")] * max(1, len(hand) * CARD_STEP) for _ in range(4)]
        for index, code in enumerate(hand):
            card = Card.parse(code)
            style = str(card_style(card, True, self.owner.deck))
            if index == self.owner.cursor:
                style += " reverse"
            top = 0 if code in self.owner.selection else 1
            for dy, line in enumerate(("╭───╮", f"│{card_label(card, self.owner.letters)}│", "╰───╯")):
                for dx, char in enumerate(line):
                    grid[top + dy][index * CARD_STEP + dx] = (char, style)
        lines = []
        for row in grid:
            text = Text()
            for char, style in row:
                text.append(char, style or None)
            lines.append(text)
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        index = event.x // CARD_STEP
        hand = self.owner.hand()
        if self.shown != hand:
            return  # the last round's cards: nothing to raise
        if 0 <= index < len(hand):
            self.owner.cursor = index
            self.owner.toggle(hand[index])


class ThirteenApp(ParlourApp):
    """A match to 10 points against three computer players, in the terminal."""

    GAME = DEFINITION
    KEYS = KEYS
    SMALLEST = (13 * CARD_STEP + 1, 18)  # thirteen cards side by side; seats, table, hand, status, keys

    CSS_PATH = "thirteen.tcss"
    TITLE = "Parlour — Thirteen"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("space", "raise", "Raise"),
        Binding("enter", "play", "Play"),
        Binding("p", "pass", "Pass"),
        Binding("c", "continue", "Next round"),
        Binding("s", "statistics", "Stats"),
        Binding("h", "history", "History", show=False),
        Binding("n", "new_match", "New", show=False),
        Binding("v", "speed", "Speed", show=False),
        Binding("g", "strength", "Strength", show=False),
        Binding("t", "theme", "Light, dark, high contrast", show=False),
        Binding("question_mark", "help", "Rules"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, options: Json, lang: str = "en", recorder: TerminalRecorder | None = None) -> None:
        super().__init__(lang, recorder)
        self.definition = DEFINITION
        self.letters = rank_letters(lang)
        self.strength: str = options.get("strength", DEFAULT_STRENGTH)
        self.table: ThirteenMatch = self.deal(options)
        self.selection: list[str] = []
        self.cursor = 0
        self.message = ""
        self.view: ThirteenSeatView = self.table.view(0)

    def deal(self, options: Json) -> ThirteenMatch:
        """Deal a match (recorded when a recorder is there) and return its live table."""
        new = self.definition.new(options)
        assert isinstance(new.game, ThirteenMatch)
        if self.recorder is not None and new.spec is not None:
            self.recorder.start_record(self.definition, new.spec)
        return new.game

    def compose(self) -> ComposeResult:
        with Vertical(id="table"):
            yield Static(id="seats")
            yield Static(id="pile")
            yield Static(id="trick")
            yield HandWidget(self)
            yield Static(id="status")
            yield Static(id="fair")
        yield TooSmall()
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self.check_size(self.size.width, self.size.height)
        self.refresh_all()
        self.schedule_computer()

    # --- drawing -----------------------------------------------------------------------------------

    def finishing_order(self) -> str:
        """Who finished where in the round just played, with the points each won: "1. You +2, 2. …"."""
        results = self.view.board.public.results
        if not results:
            return ""
        last = results[-1]
        return ", ".join(
            f"{place}. {self.seat_name(seat)} +{last.points[seat]}"
            for place, seat in enumerate(last.order, start=1)
        )

    def seat_name(self, seat: int) -> str:
        return _(self.lang, SEAT_NAMES[seat])

    def history_lines(self) -> list[str]:
        """The round so far, a trick a line: "Trick 1: You 3♠ · West 4♠ · North passed" (issue 53)."""
        lines = []
        for number, trick in enumerate(tricks_json(self.view.board.public.history), start=1):
            said = [
                f"{self.seat_name(step['seat'])} "
                + (
                    _(self.lang, "Passed")
                    if step["pass"]
                    else " ".join(Card.parse(card).pretty() for card in step["cards"])
                )
                for step in trick
            ]
            title = labelled(_(self.lang, "Trick {n}").format(n=number), self.lang)
            lines.append(f"{title} {' · '.join(said)}")
        return lines or [_(self.lang, "There is no last trick yet.")]

    def action_history(self) -> None:
        """Show every trick of the round so far (Escape or H closes it)."""
        self.push_screen(HistoryScreen(_(self.lang, "This round so far"), self.history_lines(), self.lang))

    def combo_text(self, combo: Json) -> str:
        """ "a pair", "a sequence of 4" … for the combination on the table, in the app's language."""
        return combination_name(combo, self.lang)

    def hand(self) -> list[str]:
        """The person's cards now, as card codes (what the selection holds)."""
        return [str(card) for card in self.view.hand]

    def refresh_all(self) -> None:
        self.view = self.table.view(0)
        board, lang = self.view.board, self.lang
        public = board.public
        seats = []
        for seat in (1, 2, 3):
            mark = f" ({_(lang, 'Passed')})" if public.passed[seat] else ""
            turn = " ◀" if board.turn == seat else ""
            seats.append(f"{labelled(self.seat_name(seat), lang)} {public.hand_counts[seat]}{mark}{turn}")
        scores = "  ".join(f"{self.seat_name(s)} {public.scores[s]}" for s in range(4))
        self.query_one("#seats", Static).update("   ".join(seats) + "\n" + scores)
        cards = " ".join(card.pretty() for card in public.table)
        self.query_one("#pile", Static).update(cards or _(lang, "The table is empty."))
        trick = "  ".join(
            f"{labelled(self.seat_name(step.seat), lang)} "
            + (_(lang, "Passed") if step.is_pass else " ".join(card.pretty() for card in step.cards))
            for step in board.trick
        )
        self.query_one("#trick", Static).update(trick)
        # Plain text: a status line is no markup ("[c]", a name in brackets, must show as written).
        self.query_one("#status", Static).update(Text(self.status_line()))
        fair = board.fairness
        line = f"{labelled(_(lang, 'Fair deal'), lang)} {(fair.commitment or '—')[:16]}…"
        if fair.code:  # revealed at the end: check it with parlour thirteen verify
            line = f"parlour thirteen verify {fair.code} {fair.salt} {fair.commitment}"
        self.query_one("#fair", Static).update(line)
        self.query_one(HandWidget).refresh()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show in the footer only the keys that mean something now: "Next round" between rounds,
        Raise, Play and Pass during a round (Play and Pass dimmed while a computer player is thinking;
        cards can be raised ahead of the turn)."""
        board = self.view.board
        playing = not board.between_rounds and not board.over
        if action == "continue":
            return board.between_rounds and not board.over
        if action == "raise":
            return playing
        if action == "pass":
            return None if playing and board.turn != 0 else playing
        if action == "play":
            return True if board.between_rounds else None if playing and board.turn != 0 else playing
        return True

    def status_line(self) -> str:
        view, lang = self.view, self.lang
        board = view.board
        if board.over:
            winner = board.public.winners[0]
            ending = (
                _(lang, "You win the game!")
                if winner == 0
                else _(lang, "{name} wins the game.").format(name=self.seat_name(winner))
            )
            return f"{ending} {self.message}".strip()
        if board.between_rounds:
            return f"{_(lang, 'The round is over.')} {self.finishing_order()}  [c]"
        if self.message:
            return self.message
        if view.my_turn:
            combo = board.public.table_combo
            if combo is None:
                return _(lang, "Your turn: lead any combination.")
            return _(lang, "Your turn: beat {combo} or pass.").format(combo=self.combo_text(combo.to_json()))
        return _(lang, "Waiting for {name}…").format(name=self.seat_name(board.turn or 0))

    # --- acting ------------------------------------------------------------------------------------

    def act(self, action: Json) -> Change | None:
        """Send one action of the person; a refusal is explained and changes nothing."""
        try:
            change = self.table.act(0, action)
        except ParlourError as error:
            message = REASONS.get(error.code)
            self.message = _(self.lang, message) if message else str(error)
            self.refresh_all()
            return None
        self.after(change)
        return change

    def after(self, change: Change) -> None:
        """Record a change's moves, then show it."""
        if self.recorder is not None and change.moves:
            self.recorder.append_many(list(change.moves))
        if change.finished and self.recorder is not None:
            self.message = " ".join(self.recorder.finish(self.lang))
        elif change.name in ("play", "pass"):
            self.message = ""
            if change.name == "play" and change.public.get("seat") == 0:
                self.selection = []
        self.refresh_all()
        self.schedule_computer()

    def schedule_computer(self) -> None:
        delay = self.table.next_auto()
        if delay is not None:
            self.set_timer(max(delay, 0.05), self.computer_moves)

    def computer_moves(self) -> None:
        change = self.table.auto()
        if change is not None:
            self.after(change)

    def toggle(self, code: str) -> None:
        if code in self.selection:
            self.selection.remove(code)
        else:
            self.selection.append(code)
        self.message = ""
        if self.selection and self.view.my_turn:
            change = self.act({"type": "select", "cards": list(self.selection)})
            if change is not None and change.name == "selection":
                data: dict[str, Any] = change.public
                reason = REASONS.get(str(data.get("reason")))
                self.message = (
                    _(self.lang, "Press Play to play these cards, or add more.")
                    if data["verdict"] == "wait"
                    else _(self.lang, reason)
                    if reason
                    else _(self.lang, "These cards cannot be played now.")
                )
        self.refresh_all()

    def action_move(self, step: int) -> None:
        count = len(self.view.hand)
        if count:
            self.cursor = (self.cursor + step) % count
            self.refresh_all()

    def action_raise(self) -> None:
        hand = self.hand()
        if hand:
            self.toggle(hand[min(self.cursor, len(hand) - 1)])

    def action_play(self) -> None:
        if self.view.board.between_rounds:
            self.action_continue()
        elif self.selection:
            self.act({"type": "play", "cards": list(self.selection)})

    def action_pass(self) -> None:
        self.selection = []
        self.act({"type": "pass"})

    def action_new_match(self) -> None:
        """A new random match, with the strength chosen (the one in play is left)."""
        self.table = self.deal({"speed": self.table.speed, "strength": self.strength})
        self.selection, self.cursor, self.message = [], 0, ""
        self.refresh_all()
        self.schedule_computer()

    def action_speed(self) -> None:
        """The computer players' next speed (instant, fast, normal, slow), at once."""
        speeds = list(SPEEDS)
        following = speeds[(speeds.index(self.table.speed) + 1) % len(speeds)]
        self.table.configure(0, {"speed": following})
        self.message = f"{labelled(_(self.lang, 'Speed'), self.lang)} {_(self.lang, SPEED_NAMES[following])}"
        self.refresh_all()

    def action_strength(self) -> None:
        """The computer players' next strength, from the next match (N deals one)."""
        self.strength = STRENGTHS[(STRENGTHS.index(self.strength) + 1) % len(STRENGTHS)]
        self.message = (
            f"{labelled(_(self.lang, 'Strength'), self.lang)} {strength_name(self.strength, self.lang)} — "
            + _(self.lang, "A new strength applies from the next game.")
        )
        self.refresh_all()

    def action_continue(self) -> None:
        self.act({"type": "continue"})
