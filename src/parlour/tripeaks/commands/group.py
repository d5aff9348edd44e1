"""``parlour tripeaks``: show a deal, replay moves, play in the terminal (Click + Rich)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from functools import cache
from typing import Any, Final, TextIO

import click
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from parlour.cards import DECK, Card
from parlour.cli.options import LANG_OPTION
from parlour.errors import IllegalMove, InvalidCode, InvalidInput
from parlour.i18n import gettext_for, labelled
from parlour.i18n.cards import card_name
from parlour.tripeaks import DealCode, Game, Rules
from parlour.tripeaks.commands.daily import daily_command
from parlour.tripeaks.commands.options import HINT_STRENGTH_OPTION
from parlour.tripeaks.commands.puzzles import puzzles_command
from parlour.tripeaks.commands.review import review_command
from parlour.tripeaks.commands.solver import RULES_CHOICE, SOLVER_COMMANDS, code_for, numbered_line
from parlour.tripeaks.definition import hint_text, player_hint
from parlour.tripeaks.layout import ROWS, SLOT_PLACES
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH
from parlour.tripeaks.texts import (
    DOMAIN,
    ERROR_HELP_REASONS,
    cards_count,
    describe,
    no_more_moves,
    reason_text,
    rules_name,
    variant_names,
    won_text,
)

HALF_CELL = 3
"""Characters per half card width: a card cell is 6 characters, rows are offset by half a card."""
RED_SUITS = frozenset({"♦", "♥"})


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


def _column(position: int) -> int:
    """The text column where the card at ``position`` starts (rows are drawn as overlapping pyramids)."""
    x, _row = SLOT_PLACES[position]
    return round(2 * x) * HALF_CELL


def card_text(card: Card | None, free: bool = True) -> Text:
    """A 5-character cell: ``[ K♣]`` face up (red for ♦ ♥), ``[░░░]`` face down."""
    if card is None:
        return Text("[░░░]", style="blue")
    pretty = card.pretty()
    colour = "red" if pretty[-1:] in RED_SUITS else "black"
    style = f"bold {colour} on white" if free else f"{colour} on grey70"
    # pad by terminal cells, not characters: the joker 🃏 is one character but two cells wide
    return Text(f"[{' ' * (3 - cell_len(pretty))}{pretty}]", style=style)


def board(game: Game, reveal: bool = False) -> Text:
    """The peaks drawn as text: four lines of cards, removed cards left blank."""
    lines = []
    for row in ROWS:
        line = Text()
        for position in row:
            column = _column(position)
            line.append(" " * (column - line.cell_len))
            if game.removed(position):
                line.append("     ")
            else:
                card = game.card_at(position) if reveal or game.face_up(position) else None
                line.append_text(card_text(card, game.is_free(position)))
        lines.append(line)
    return Text("\n").join(lines)


def status_panel(game: Game, lang: str, reveal: bool = False) -> Text:
    """Code and rules, the board, the piles, score, moves and the end message if any."""
    text = Text()
    if game.code is not None:
        text.append(f"{game.code}", style="bold")
        text.append(f"  {rules_name(game.rules.name, lang)}")
        if game.rules.variants:
            text.append(f" + {', '.join(variant_names(game.rules.variants, lang))}")
        text.append("\n\n")
    text.append_text(board(game, reveal))
    text.append("\n\n")
    draw_pile, discard_pile = _(lang, "Draw pile"), _(lang, "Discard pile")
    score, moves = _(lang, "Score"), _(lang, "Moves")
    text.append(f"{labelled(draw_pile, lang)} {cards_count(game.stock_count, lang)}    ")
    text.append(f"{labelled(discard_pile, lang)} ")
    top = game.discard_top
    text.append_text(card_text(top) if top is not None else Text("—"))
    text.append(f"    {labelled(score, lang)} {game.score}    {labelled(moves, lang)} {game.moves}")
    if game.status == "won":
        text.append("\n" + won_text(game.score, lang), style="bold green")
    elif game.status == "stuck":
        text.append("\n" + no_more_moves(lang), style="bold yellow")
    return text


def _console() -> Console:
    return Console(highlight=False, emoji=False, soft_wrap=True)  # print typed text exactly as typed


def _dump(state: dict[str, Any]) -> None:
    click.echo(json.dumps(state, ensure_ascii=False, indent=2))


CODE_RULES_OPTION = click.option(
    "--rules",
    type=RULES_CHOICE,
    default=None,
    help="Easy (King and Ace linked, the default) or Classic: a numbered game's rules, or overrides the "
    "letter of CODE.",
)

REVEAL_OPTION = click.option("--reveal", is_flag=True, help="Show face-down cards and the stock order too.")


@click.group("tripeaks")
def tripeaks() -> None:
    """TriPeaks solitaire: show a deal, replay moves, or play in the terminal."""


@tripeaks.command("show")
@click.argument("code")
@CODE_RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the JSON state instead of the board.")
@REVEAL_OPTION
@LANG_OPTION
def show(code: str, rules: str | None, as_json: bool, reveal: bool, lang: str) -> None:
    """Show the deal of CODE as a player sees it, with its spoken description.

    CODE is a deal code such as TP1-E-AAAAAAB, or a numbered game's number (1 to 50000) under --rules.
    """
    game = Game.from_code(code_for(code, rules))
    if as_json:
        _dump(game.to_json(reveal=reveal))
        return
    console = _console()
    console.print(status_panel(game, lang, reveal))
    console.print()
    console.print(describe(game.to_json(), lang), markup=False)
    verdict = numbered_line(game.code, lang) if game.code else None
    if verdict:
        console.print(verdict, markup=False)


@tripeaks.command("replay")
@click.argument("code")
@click.argument("moves", nargs=-1)
@CODE_RULES_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the JSON state instead of the board.")
@REVEAL_OPTION
@LANG_OPTION
def replay(
    code: str, moves: tuple[str, ...], rules: str | None, as_json: bool, reveal: bool, lang: str
) -> None:
    """Apply MOVES to the deal of CODE (a deal code, or a numbered game's number under --rules) and print
    the resulting state.

    A move is a card (KC or K♣: remove that peak card), draw, or undo. A refused move is reported on
    standard error with its number (1 = the first move), the move, the reason in the chosen language
    and its code; it changes nothing and replay goes on. Exit status 1 when a move was refused.
    """
    game = Game.from_code(code_for(code, rules))
    rejected = []
    for index, move in enumerate(moves, start=1):
        try:
            game.apply(move)
        except (IllegalMove, InvalidInput) as error:
            rejected.append({"index": index, "move": move, "reason": error.code})
    if as_json:
        _dump(game.to_json(reveal=reveal, rejected=rejected))
    else:
        _console().print(status_panel(game, lang, reveal))
    errors = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)
    for entry in rejected:
        try:
            reason = reason_text(str(entry["reason"]), lang)
        except KeyError:  # a move that is no move at all
            reason = _(lang, "That is not a move")
        line = _(lang, "Move {index} ({move}) refused: {reason} [{code}]").format(
            index=entry["index"], move=entry["move"], reason=reason, code=entry["reason"]
        )
        errors.print(line, markup=False)
    if rejected:
        sys.exit(1)


@cache
def _card_names(lang: str) -> dict[str, Card]:
    names = {" ".join(card_name(card, "en").split()): card for card in DECK}
    names.update({" ".join(card_name(card, lang).lower().split()): card for card in DECK})
    return names


NUMBER_WORDS: Final = {
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "10",
}  # fmt: skip
"""English rank words typed for the digits the card names use ("ten of hearts" is "10 of hearts")."""


def read_card(text: str, lang: str) -> Card | None:
    """Read a card typed at the prompt: ``KC``, ``K♣``, ``10h``, or its name in English or ``lang``
    (``king of clubs``, ``ten of hearts``, ``treff király``); None when the text is no card."""
    try:
        return Card.parse(text)
    except InvalidInput:
        words = [NUMBER_WORDS.get(word, word) for word in text.lower().split()]
        return _card_names(lang).get(" ".join(words))


class PlaySession:
    """An interactive game: reads commands line by line, prints the board after each change."""

    def __init__(
        self,
        game: Game,
        lang: str,
        error_help: bool,
        console: Console,
        echo: bool,
        hint_strength: str = DEFAULT_STRENGTH,
    ) -> None:
        self.game = game
        self.lang = lang
        self.hint_strength = hint_strength
        self.error_help = error_help
        self.console = console
        self.echo = echo

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""))

    def show(self) -> None:
        self.console.print()
        self.console.print(status_panel(self.game, self.lang))
        if self.game.status == "stuck":
            self.say(_(self.lang, "Type u to undo or new to start a new game."))
        elif self.game.status == "won":
            self.say(_(self.lang, "Type new for another game or quit to stop."))

    def run(self, lines: Iterable[str]) -> None:
        """Play until ``quit`` or the end of the input."""
        self.show()
        self.prompt()
        for line in lines:
            if self.echo:
                self.console.print(line.rstrip("\n"), markup=False)
            if not self.handle(line.strip()):
                break
            self.prompt()
        else:
            self.console.print()
        self.say(_(self.lang, "Goodbye."))

    def prompt(self) -> None:
        self.console.print(Text(_(self.lang, "Your move (help for commands)") + " > ", style="bold"), end="")

    def handle(self, command: str) -> bool:
        """Carry out one command; return False to stop."""
        word, _sep, rest = command.partition(" ")
        word = word.lower()
        lang = self.lang
        if not word:
            return True
        if word in ("q", "quit", "exit"):
            return False
        if word in ("h", "help", "?"):
            self.say(_(lang, HELP))
            return True
        if word in ("describe", "read"):
            self.say(describe(self.game.to_json(), lang))
            return True
        if word == "hint":
            self.hint()
            return True
        if word in ("n", "new"):
            self.new_game(rest.strip())
            return True
        move = {"d": "draw", "draw": "draw", "u": "undo", "undo": "undo"}.get(command.lower())
        if move is None:
            card = read_card(command, lang)
            if card is None:
                self.not_understood(command)
                return True
            move = str(card)
        try:
            self.game.apply(move)
        except IllegalMove as error:
            if error.code not in ERROR_HELP_REASONS or self.error_help:
                self.say(reason_text(error.code, lang), style="bold red")
            return True
        self.show()
        return True

    def hint(self) -> None:
        """Say the fair hint of the session's strength: the move with the best chance for a player who
        cannot see hidden cards (as the web page's Hint button)."""
        if self.game.status != "playing":
            self.say(reason_text("game_over", self.lang), style="bold red")
            return
        self.say(hint_text(player_hint(self.game, self.hint_strength), self.lang), style="bold cyan")

    def not_understood(self, command: str) -> None:
        self.say(
            _(
                self.lang,
                "I did not understand {text}. Type a card such as K♣ or KC, d to draw, u to undo, "
                "new CODE, help or quit.",
            ).format(text=repr(command)),
            style="bold red",
        )

    def new_game(self, code_text: str) -> None:
        if code_text:
            try:
                code = DealCode.parse(code_text)
            except InvalidCode:
                self.say(
                    _(self.lang, "{text} is not a deal code: a code looks like TP1-E-AAAAAAB.").format(
                        text=repr(code_text)
                    ),
                    style="bold red",
                )
                return
        else:
            code = DealCode.secret(self.game.rules)
        self.game = Game.from_code(code)
        self.say(_(self.lang, "New game: {code}").format(code=code), style="bold")
        self.show()


HELP = (
    "Commands: a card such as K♣ or KC (or its name, such as king of clubs) removes it from the peaks; "
    "d or draw turns the next card of the draw pile; u or undo takes back the last move; new CODE deals the "
    "game of a code (new alone deals a random one); describe reads the board in words; hint suggests a "
    "move; help shows this; quit ends the game."
)


def _lines(stream: TextIO) -> Iterable[str]:
    """The lines of ``stream``, each read when it is needed (a prompt comes before every line)."""
    return iter(stream.readline, "")


@tripeaks.command("play")
@click.argument("code", required=False)
@CODE_RULES_OPTION
@LANG_OPTION
@click.option("--no-error-help", is_flag=True, help="Do not explain why a card cannot be played.")
@HINT_STRENGTH_OPTION
def play(code: str | None, rules: str | None, lang: str, no_error_help: bool, hint_strength: str) -> None:
    """Play TriPeaks in the terminal: the deal of CODE, or a random deal."""
    deal_code = code_for(code, rules) if code else DealCode.secret(Rules.named(rules or "easy"))
    stdin = sys.stdin
    session = PlaySession(
        Game.from_code(deal_code),
        lang.lower(),
        not no_error_help,
        _console(),
        echo=not stdin.isatty(),
        hint_strength=hint_strength.lower(),
    )
    try:
        session.run(_lines(stdin))
    except KeyboardInterrupt:  # Ctrl-C at the prompt ends the game like quit, in the player's language
        session.console.print()
        session.say(_(session.lang, "Goodbye."))
        raise click.exceptions.Exit(130) from None


for _command in SOLVER_COMMANDS:
    tripeaks.add_command(_command)
tripeaks.add_command(review_command)
tripeaks.add_command(puzzles_command)
tripeaks.add_command(daily_command)


from parlour.tripeaks.commands.terminal import tripeaks_tui as _tripeaks_tui  # noqa: E402  (parlour tripeaks tui)

tripeaks.add_command(_tripeaks_tui)
