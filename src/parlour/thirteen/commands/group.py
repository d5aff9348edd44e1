"""``parlour thirteen``: judge a play, simulate games between computer players, play in the terminal."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import fields, replace
from pathlib import Path
from typing import Any, Final, TextIO, TypeVar

import click
from rich.cells import cell_len
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from parlour.cards import Card
from parlour.cli.db import database_url_option
from parlour.cli.options import LANG_OPTION
from parlour.errors import GameOver, IllegalMove, InvalidCard, InvalidInput, ParlourError
from parlour.games.base import Status
from parlour.games.ratings import computer_ratings_json, fit_fixed
from parlour.i18n import decimal, gettext_for, ngettext_for, normalize_language, percent
from parlour.store import Store, StoreUnavailable, UnknownGame
from parlour.thirteen import Match, MatchCode, Move, Rules, classify
from parlour.thirteen.bots import BOTS, PLAYERS, make_bot
from parlour.thirteen.combos import Combo, beats
from parlour.thirteen.definition import NAME, REASONS, combination_name, expert_is_reduced, thirteen_rules
from parlour.thirteen.duplicate import simulate_duplicate
from parlour.thirteen.fairness import verify as verify_commitment
from parlour.thirteen.move import PASS_WORDS
from parlour.thirteen.order import mask_of, pretty_of
from parlour.thirteen.ratings import ratings as rate
from parlour.thirteen.ratings import round_robin
from parlour.thirteen.review import Decision, review_match
from parlour.thirteen.review_texts import REVIEW_NOTE, REVIEW_SUMMARY, round_label, set_lines
from parlour.thirteen.round import Round
from parlour.thirteen.simulate import simulate as run_simulation
from parlour.thirteen.views import PlayerView

DOMAIN = "thirteen"
EXPERT_NOTE: Final = (
    " The expert is weaker here: it runs without its compiled search core (built where a C compiler is)."
    if expert_is_reduced()
    else ""
)
"""Said in the help of the options that choose computer players, where the Expert plays with the
pure-Python search."""
HOUSE_RULES = tuple(f.name for f in fields(Rules) if f.type in ("bool", bool))
_PROGRESS_FROM_GAMES = 20


@click.group()
def thirteen() -> None:
    """Thirteen (Tiến lên): judge plays, simulate computer players, play against three of them."""


_T = TypeVar("_T")


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


def _rules(house: tuple[str, ...], target: int | None = None) -> Rules:
    rules = Rules(**{name.replace("-", "_"): True for name in house})
    return rules if target is None else replace(rules, target_points=target)


_house_option = click.option(
    "--house",
    multiple=True,
    type=click.Choice([name.replace("_", "-") for name in HOUSE_RULES if name != "single_winner"]),
    help="Switch on a house rule (repeatable).",
)


def _read_cards(text: str, option: str) -> list[Card]:
    """Parse an option's cards, turning a bad card into a usage error (exit code 2) that names it."""
    cards = []
    for item in text.replace(",", " ").split():
        try:
            card = Card.parse(item)
        except InvalidCard as error:
            raise click.BadParameter(str(error), param_hint=option) from None
        if card.is_joker:
            raise click.BadParameter("the joker is not a Thirteen card", param_hint=option)
        if card in cards:
            raise click.BadParameter(f"{card} is named twice", param_hint=option)
        cards.append(card)
    return cards


def judge_play(table: list[Card], play: list[Card], rules: Rules) -> dict[str, Any]:
    """Return the JSON answer of ``judge``: both classifications, ``legal`` and the ``reason`` code."""
    table_combo = classify(table) if table else None
    play_combo = classify(play)
    reason: str | None = None
    if set(table) & set(play):
        reason = "card_on_table"
    elif table and table_combo is None:
        reason = "table_not_a_combination"
    elif play_combo is None:
        reason = "not_a_combination"
    elif not beats(play_combo, table_combo, rules):
        reason = "does_not_beat"

    def describe(combo: Combo | None) -> dict[str, Any] | None:
        return None if combo is None else combo.to_json()

    return {
        "table": describe(table_combo),
        "play": describe(play_combo),
        "legal": reason is None,
        "reason": reason,
    }


@thirteen.command()
@click.option(
    "--table", "table_text", default="", help='Cards on the table, e.g. "5S 5H" (empty: an empty table).'
)
@click.option("--play", "play_text", required=True, help='Cards to play, e.g. "6C 6D".')
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_house_option
@LANG_OPTION
def judge(table_text: str, play_text: str, as_json: bool, house: tuple[str, ...], lang: str) -> None:
    """Classify a table and a play and say whether the play may be made on that table.

    Exit status 0 when it may, 1 when it may not (the reason, in the chosen language, on standard
    error), 2 for cards that cannot be read.
    """
    table = _read_cards(table_text, "--table")
    play = _read_cards(play_text, "--play")
    if not play:
        raise click.BadParameter("name at least one card", param_hint="--play")
    answer = judge_play(table, play, _rules(house))
    if as_json:
        click.echo(json.dumps(answer))
        _refused(answer, lang)
        return

    def line(combo: dict[str, Any] | None, cards: list[Card]) -> str:
        shown = " ".join(card.pretty() for card in sorted(cards, key=lambda c: mask_of([c])))
        if not cards:
            return _(lang, "empty")
        if combo is None:
            return _(lang, "{cards}: not a combination").format(cards=shown)
        length = int(combo["length"])
        count = ngettext_for(lang, DOMAIN, "{count} card", "{count} cards", length).format(count=length)
        return _(lang, "{cards}: {kind}, {count}, top {top}").format(
            cards=shown,
            kind=combination_name(combo, lang),
            count=count,
            top=Card.parse(combo["top"]).pretty(),
        )

    labels = [_(lang, "table:"), _(lang, "play:"), _(lang, "legal:")]
    width = max(cell_len(label) for label in labels)
    verdict = _(lang, "yes") if answer["legal"] else _(lang, "no ({reason})").format(reason=answer["reason"])
    for label, text in zip(
        labels, (line(answer["table"], table), line(answer["play"], play), verdict), strict=True
    ):
        click.echo(f"{label}{' ' * (width - cell_len(label))} {text}")
    _refused(answer, lang)


def _refused(answer: dict[str, Any], lang: str) -> None:
    """Say why a judged play is refused, on standard error in ``lang``, and exit 1 (nothing if legal)."""
    if answer["legal"]:
        return
    message = REASONS.get(str(answer["reason"]))
    text = (
        gettext_for(normalize_language(lang), "thirteen_web", message) if message else str(answer["reason"])
    )
    click.echo(text, err=True)
    sys.exit(1)


@thirteen.command()
@click.argument("code")
@click.argument("salt")
@click.argument("committed", metavar="COMMITMENT")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@LANG_OPTION
def verify(code: str, salt: str, committed: str, as_json: bool, lang: str) -> None:
    """Check that a finished match was dealt from the code it committed to at its start.

    CODE and SALT are revealed when the match ends; COMMITMENT was shown from its first card. Exit
    status 0 when SHA-256(CODE|SALT) is the commitment, 1 when it is not, 2 for malformed input.
    """
    try:
        fair = verify_commitment(code, salt, committed)
    except ParlourError as error:
        raise click.UsageError(str(error)) from error
    if as_json:
        click.echo(json.dumps({"code": code.strip().upper(), "fair": fair}))
    elif fair:
        text = _(lang, "The commitment matches: the match was dealt from {code}.")
        click.echo(text.format(code=code.strip().upper()))
    else:
        click.echo(_(lang, "The commitment does NOT match this code and salt."))
    if not fair:
        raise SystemExit(1)


def _player_names(players: str, *, exactly: int | None = None, at_least: int | None = None) -> list[str]:
    """Read a comma-separated list of computer players: ``exactly`` that many (a table), or ``at_least``
    that many different ones (a round-robin). Raises a usage error that says what is wrong."""
    names = [name.strip().lower() for name in players.split(",")]
    if exactly is not None and len(names) != exactly:
        raise click.BadParameter(
            f"Thirteen needs exactly {exactly} players, got {len(names)}", param_hint="--players"
        )
    for name in names:
        if name not in PLAYERS:
            raise click.BadParameter(f"no computer player is called {name!r}: choose {', '.join(PLAYERS)}")
    if at_least is not None and (len(names) < at_least or len(set(names)) != len(names)):
        raise click.BadParameter(
            f"a round-robin needs at least {at_least} different players, got {', '.join(names)}",
            param_hint="--players",
        )
    return names


@thirteen.command()
@click.option(
    "--players",
    default="strong,greedy,greedy,greedy",
    show_default=True,
    help=f"Four computer players, comma-separated ({', '.join(PLAYERS)}).{EXPERT_NOTE}",
)
@click.option(
    "--games",
    default=100,
    show_default=True,
    type=click.IntRange(1),
    help="Whole games to play (with --duplicate: deals, each played four times).",
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0), help="Seed of deals and bots.")
@click.option(
    "--duplicate",
    is_flag=True,
    help="Play each deal's opening round four times, the hands rotated among the players, and judge "
    "them deal by deal (narrower intervals).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@_house_option
@LANG_OPTION
def simulate(
    players: str, games: int, seed: int, duplicate: bool, as_json: bool, house: tuple[str, ...], lang: str
) -> None:
    """Play whole games to 10 points between computer players, rotating seats, and print each player's
    share of first places per round, mean points per round and games won; or, with --duplicate, deals
    played as bridge plays them, every player with every hand."""
    names = _player_names(players, exactly=4)
    rules = _rules(house)
    console = Console(stderr=True)
    if duplicate:
        _simulate_duplicate(names, games, seed, rules, as_json, lang, console)
        return
    result = _with_progress(
        "games", games, as_json, console, lambda step: run_simulation(names, games, seed, rules, step)
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    title = _(lang, "Thirteen: {games} games, {rounds} rounds, seed {seed}")
    columns = (
        _(lang, "player"),
        _(lang, "first places"),
        _(lang, "share of firsts (95%)"),
        _(lang, "points / round"),
        _(lang, "games won"),
    )
    table = _figures_table(title.format(games=games, rounds=result.rounds, seed=seed), columns)
    for index, player in enumerate(result.players):
        low, high = player.first_share_interval
        table.add_row(
            f"{index + 1}. {player.name}",
            str(player.firsts),
            f"{percent(player.first_share, lang)} ({percent(low, lang)}–{percent(high, lang)})",
            decimal(player.mean_points, lang, 3),
            f"{player.games_won} ({percent(player.games_won / games, lang)})",
        )
    Console(soft_wrap=True).print(table)


def _with_progress(
    label: str, total: int, as_json: bool, console: Console, run: Callable[[Callable[[int], None] | None], _T]
) -> _T:
    """Return ``run(step)``, with a progress bar of ``total`` ``label`` on stderr (``step`` advances it)
    when a person watches a long run there; ``step`` is None otherwise."""
    if total < _PROGRESS_FROM_GAMES or as_json or not console.is_terminal:
        return run(None)
    with Progress(
        TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=console
    ) as progress:
        task = progress.add_task(label, total=total)
        return run(lambda n: progress.advance(task, n))


def _figures_table(title: str, columns: Sequence[str]) -> Table:
    """Return an empty table of figures: the first column (the player) left-aligned, the figures right."""
    table = Table(title=title)
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index == 0 else "right")
    return table


def _with_margin(value: str, margin: float | None, said: Callable[[float], str]) -> str:
    """Return ``value ± margin`` (the value alone when there is no margin: fewer than two deals)."""
    return value if margin is None else f"{value} ± {said(margin)}"


def _simulate_duplicate(
    names: list[str], deals: int, seed: int, rules: Rules, as_json: bool, lang: str, console: Console
) -> None:
    """Play ``deals`` deals in duplicate and print each player's figures, with intervals from the
    deals' spread (``parlour.thirteen.duplicate``)."""
    result = _with_progress(
        "deals", deals, as_json, console, lambda step: simulate_duplicate(names, deals, seed, rules, step)
    )
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    title = _(lang, "Thirteen in duplicate: {deals} deals, {rounds} rounds, seed {seed}")
    columns = (_(lang, "player"), _(lang, "points / round (95%)"), _(lang, "share of firsts (95%)"))
    table = _figures_table(title.format(deals=deals, rounds=result.rounds, seed=seed), columns)
    for index, player in enumerate(result.players):
        table.add_row(
            f"{index + 1}. {player.name}",
            _with_margin(
                decimal(player.mean_points, lang, 3), player.points_margin, lambda m: decimal(m, lang, 3)
            ),
            _with_margin(
                percent(player.first_share, lang), player.first_share_margin, lambda m: percent(m, lang)
            ),
        )
    Console(soft_wrap=True).print(table)


@thirteen.command()
@click.option(
    "--players",
    default=",".join([*BOTS, "learned"]),
    show_default=True,
    help=f"At least four different computer players, comma-separated ({', '.join(PLAYERS)}); every four "
    "of them share a table, so each one more multiplies the tables.",
)
@click.option(
    "--games", default=40, show_default=True, type=click.IntRange(1), help="Whole games at every table."
)
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0), help="Seed of deals and bots.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--save",
    type=click.Path(dir_okay=False, writable=True),
    help="Also write the players' fixed ratings on people's OpenSkill scale to this JSON file (the server "
    "reads them from the package's data/computer_ratings.json).",
)
@LANG_OPTION
def ratings(players: str, games: int, seed: int, as_json: bool, save: str | None, lang: str) -> None:
    """Rate the computer players: every four of them sit at a table for GAMES whole games, and a
    Bradley–Terry model fitted to the finishing orders gives each an Elo-scale rating (the weakest at
    0) with a 95% bootstrap interval; the same rounds fit each one's fixed rating on the scale people
    are rated on (OpenSkill's Plackett–Luce model, the "people" column)."""
    names = _player_names(players, at_least=4)
    tables = math.comb(len(names), 4)
    console = Console(stderr=True)
    with Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=as_json or not console.is_terminal,  # a bar only where a person watches it
    ) as progress:
        task = progress.add_task("games", total=games * tables)
        orders = round_robin(names, games, seed, progress=lambda n: progress.advance(task, n))
    try:
        table_of = rate(orders, names, seed=seed)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    fixed = fit_fixed(orders, names)
    if save is not None:
        Path(save).write_text(
            computer_ratings_json(
                fixed,
                how=f"parlour thirteen ratings --players {','.join(names)} --games {games} --seed {seed}",
                games=games,
                seed=seed,
            )
            + "\n",
            encoding="utf-8",
        )
    if as_json:
        click.echo(json.dumps({"games": games, "tables": tables, "rounds": len(orders), "seed": seed,
                               "ratings": [{**rating.to_json(), "people_scale": fixed[rating.name].to_json()}
                                           for rating in table_of]}))  # fmt: skip
        return
    title = _(lang, "Thirteen ratings: {tables} tables × {games} games, {rounds} rounds, seed {seed}")
    columns = (
        _(lang, "player"),
        _(lang, "rating"),
        _(lang, "95% interval"),
        _(lang, "rounds"),
        _(lang, "on people's scale"),
    )
    shown = _figures_table(title.format(tables=tables, games=games, rounds=len(orders), seed=seed), columns)
    for rating in table_of:
        shown.add_row(
            rating.name,
            f"{rating.rating:.0f}",
            f"{rating.low:.0f}–{rating.high:.0f}",
            str(rating.rounds),
            str(fixed[rating.name].shown),
        )
    Console(soft_wrap=True).print(shown)


# ---- play in the terminal ------------------------------------------------------------------------------


class _Terminal:
    """The terminal game: a person at ``human``, computer players at the other seats, text through gettext."""

    def __init__(self, match: Match, human: int, bots: list[str], seed: int, lang: str, out: TextIO) -> None:
        self.match = match
        self.human = human
        self.bots = {seat: make_bot(bots[i], seed * 4 + seat) for i, seat in enumerate(self._others())}
        self.lang = lang
        self.out = out

    def _others(self) -> list[int]:
        return [seat for seat in range(4) if seat != self.human]

    def _(self, message: str) -> str:
        return gettext_for(self.lang, DOMAIN, message)

    def say(self, text: str) -> None:
        click.echo(text, file=self.out)

    def name(self, seat: int) -> str:
        if seat == self.human:
            return self._("You")
        return self._("Player {seat}").format(seat=seat + 1)

    def labelled(self, seat: int, text: str) -> str:
        """Return ``Player 2: 13 cards`` as the language writes it (French puts a space before the colon)."""
        return self._("{player}: {text}").format(player=self.name(seat), text=text)

    def cards(self, count: int) -> str:
        return ngettext_for(self.lang, DOMAIN, "{count} card", "{count} cards", count).format(count=count)

    def kind(self, combo: Combo) -> str:
        return combination_name(combo.to_json(), self.lang)

    def show(self, view: PlayerView) -> None:
        combo = view.table_combo
        if combo is None:
            self.say(self._("Table: empty"))
        else:
            assert view.table_owner is not None
            self.say(
                self._("Table: {cards} ({kind}, played by {player})").format(
                    cards=pretty_of(view.table_mask),
                    kind=self.kind(combo),
                    player=self.name(view.table_owner),
                )
            )
        others = []
        for seat in self._others():
            state = self.cards(view.hand_counts[seat])
            if view.passed[seat]:
                state += ", " + self._("passed")
            elif seat in view.finished:
                state = self._("out")
            others.append(self.labelled(seat, state))
        self.say(self._("Others: {list}").format(list="; ".join(others)))
        self.say(self._("Your hand: {cards}").format(cards=pretty_of(view.hand_mask)))

    def reason(self, error: IllegalMove | InvalidInput, move: Move, view: PlayerView) -> str:
        code = error.code
        if code == "not_in_hand":
            return self._("You do not hold {cards}.").format(cards=pretty_of(move.mask & ~view.hand_mask))
        if code == "not_a_combination":
            return self._("{cards} is not a combination.").format(cards=pretty_of(move.mask))
        if code == "does_not_beat":
            return self._("{cards} does not beat {table}.").format(
                cards=pretty_of(move.mask), table=pretty_of(view.table_mask)
            )
        if code == "must_include_three_of_spades":
            return self._("The first play of the game must include 3♠.")
        if code == "locked_out_after_pass":
            return self._("You passed: wait until the table is cleared.")
        if code == "cannot_pass_on_empty_table":
            return self._("The table is empty: you lead, so you cannot pass.")
        return str(error)

    def read_move(self, view: PlayerView, stdin: TextIO) -> Move | None:
        """Ask until the person gives a legal move; None when they quit or the input ends."""
        while True:
            self.say(self._("Your turn: type cards (e.g. 5S 5H), pass, hint or quit."))
            line = stdin.readline()
            if not line:
                return None
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "q", "exit"):
                return None
            if word in ("hint", "h", "?", "help"):
                moves = [move.pretty() if not move.is_pass else self._("pass") for move in view.legal_moves()]
                self.say(self._("Legal moves: {moves}").format(moves=" | ".join(moves[:30])))
                continue
            if word in PASS_WORDS or word == self._("pass").lower():
                move = Move(0)
            else:
                read = self.read_cards(text)
                if read is None:
                    continue
                move = read
            try:
                self.match.round.check(self.human, move.mask)
            except (IllegalMove, InvalidInput) as error:
                self.say(self.reason(error, move, view))
                continue
            return move

    def read_cards(self, text: str) -> Move | None:
        """Return the play the person typed; None, after saying what is wrong, when it names no card,
        something that is not a card, or a card twice."""
        cards: list[Card] = []
        for item in text.replace(",", " ").split():
            card = _card_or_none(item)
            if card is None:
                self.say(
                    self._("“{text}” is not a card: write a rank and a suit, e.g. 5S, 10H, QD or 5♠.").format(
                        text=item
                    )
                )
                return None
            if card in cards:
                self.say(self._("You named {card} twice.").format(card=card.pretty()))
                return None
            cards.append(card)
        return Move.play(cards) if cards else None

    def report(self, seat: int, move: Move) -> None:
        if seat == self.human:
            if move.is_pass:
                self.say(self._("You pass."))
            else:
                self.say(self._("You play {cards}.").format(cards=move.pretty()))
        elif move.is_pass:
            self.say(self._("{player} passes.").format(player=self.name(seat)))
        else:
            self.say(self._("{player} plays {cards}.").format(player=self.name(seat), cards=move.pretty()))

    def run(self, stdin: TextIO) -> int:
        """Play the match; return the exit code: 0 at its end and when the person quits or the input
        ends (as ``tripeaks play``), 130 on Ctrl-C (the code to replay it is printed in both cases)."""
        try:
            return self.play(stdin)
        except KeyboardInterrupt:
            self.say("")  # leave the line the terminal echoed ^C on
            self.abandon()
            return 130

    def abandon(self) -> None:
        self.say(self._("Game abandoned. Replay it with --code {code}.").format(code=self.match.code))

    def play(self, stdin: TextIO) -> int:
        match = self.match
        self.say(self._("Thirteen, match {code}.").format(code=match.code))
        self.start_round()
        shown_turn = None
        while not match.over:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            if seat == self.human:
                if shown_turn != len(match.moves):
                    self.show(view)
                    shown_turn = len(match.moves)
                move = self.read_move(view, stdin)
                if move is None:
                    self.abandon()
                    return 0
            else:
                move = self.bots[seat].choose(view)
            current = match.round
            match.push(move)
            self.report(seat, move)
            self.after(current)
        winner = match.winners[0]
        if winner == self.human:
            self.say(self._("You won the game with {points} points.").format(points=match.scores[winner]))
        else:
            self.say(
                self._("{player} won the game with {points} points.").format(
                    player=self.name(winner), points=match.scores[winner]
                )
            )
        return 0

    def start_round(self) -> None:
        current = self.match.round
        self.say(self._("Round {number}").format(number=current.number))
        for step in current.steps:  # only an instant win (a house rule) happens before the first move
            if step.seat == self.human:
                self.say(self._("You go out at once with {cards}.").format(cards=pretty_of(step.mask)))
            else:
                self.say(
                    self._("{player} goes out at once with {cards}.").format(
                        player=self.name(step.seat), cards=pretty_of(step.mask)
                    )
                )

    def after(self, current: Round) -> None:
        step = current.steps[-1]
        if step.out:
            place = current.finished.index(step.seat) + 1
            if step.seat == self.human:
                self.say(self._("You are out in place {place}.").format(place=place))
            else:
                self.say(
                    self._("{player} is out in place {place}.").format(
                        player=self.name(step.seat), place=place
                    )
                )
        if current.over:
            result = self.match.results[-1]
            order = ", ".join(f"{place + 1}. {self.name(seat)}" for place, seat in enumerate(result.order))
            self.say(self._("Round {number} is over: {order}.").format(number=result.number, order=order))
            scores = ", ".join(self.labelled(seat, str(result.totals[seat])) for seat in range(4))
            self.say(self._("Scores: {scores}").format(scores=scores))
            if not self.match.over:
                self.start_round()
        elif step.cleared:
            assert current.turn is not None
            if current.turn == self.human:
                self.say(self._("The table is cleared; you lead."))
            else:
                self.say(
                    self._("The table is cleared; {player} leads.").format(player=self.name(current.turn))
                )


def _card_or_none(text: str) -> Card | None:
    """Return the Thirteen card a word names, None when it names none (the joker included)."""
    try:
        card = Card.parse(text)
    except InvalidCard:
        return None
    return None if card.is_joker else card


@thirteen.command()
@click.argument("code_argument", metavar="[CODE]", required=False)
@click.option(
    "--code", default=None, help="Match code (TH1-… or TH2-…), as CODE (default: a new secret match)."
)
@LANG_OPTION
@click.option(
    "--bots",
    default="strong,strong,strong",
    show_default=True,
    help=f"The three computer players ({', '.join(BOTS)}).{EXPERT_NOTE}",
)
@click.option(
    "--seed", default=0, show_default=True, type=click.IntRange(0), help="Seed of the computer players."
)
@_house_option
def play(
    code_argument: str | None, code: str | None, lang: str, bots: str, seed: int, house: tuple[str, ...]
) -> None:
    """Play a whole game to 10 points against three computer players (you are Player 1, seat 0).

    CODE (or --code) replays that match; without it a new secret match (TH2) is dealt.
    """
    code = code_argument or code
    try:
        language = normalize_language(lang)
        deals = MatchCode.parse(code) if code else MatchCode.secret()
    except InvalidInput as error:
        raise click.BadParameter(str(error)) from None
    names = [name.strip().lower() for name in bots.split(",")]
    if len(names) != 3 or any(name not in BOTS for name in names):
        raise click.BadParameter(f"give three of {', '.join(BOTS)}, comma-separated", param_hint="--bots")
    match = Match(deals, _rules(house))
    terminal = _Terminal(match, 0, names, seed, language, sys.stdout)
    sys.exit(terminal.run(sys.stdin))


@thirteen.command()
@click.argument("code")
@click.argument("moves", nargs=-1)
@click.option(
    "--seat",
    default=None,
    type=click.IntRange(0, 3),
    help="The seat whose play is reviewed  [default: 0; a stored match's: its owner's]",
)
@click.option(
    "--seed", default=0, show_default=True, type=click.IntRange(0), help="Seed of the expert's deals."
)
@click.option(
    "--points",
    default=None,
    type=click.IntRange(1, 100),
    help="The points the match was played to  [default: 10; a stored match's own]",
)
@click.option("--json", "as_json", is_flag=True, help="Print the review as JSON.")
@_house_option
@database_url_option
@LANG_OPTION
def review(
    code: str,
    moves: tuple[str, ...],
    seat: int | None,
    seed: int,
    points: int | None,
    as_json: bool,
    house: tuple[str, ...],
    database_url: str | None,
    lang: str,
) -> None:
    """Review one seat's decisions in a match, graded by the expert.

    The match is CODE played with MOVES (every seat's, in turn order, as `parlour thirteen play`
    records them: "3S 3C", "pass"), or a finished match stored in the database (CODE is then its id, as
    the statistics page's history links it). It shows each round's four hands as dealt, and at each of
    the seat's decisions the round points the expert expects of the move played and of its best
    candidate, judged from that seat's view only, with a grade by the points lost (inaccuracy 0.15,
    mistake 0.3, blunder 0.45). Exit status 2 for a code or a move that cannot be played, 1 for a stored
    match that is not there or not finished.
    """
    rules = _rules(house, points)
    if not moves and not code.strip().upper().startswith(("TH1-", "TH2-")):
        code, moves, rules, stored_seat = _stored_match(code, database_url, lang)
        seat = stored_seat if seat is None else seat
    try:
        made = review_match(code, moves, seat=seat or 0, rules=rules, seed=seed)
    except (InvalidInput, IllegalMove, GameOver) as error:
        raise click.BadParameter(str(error), param_hint="CODE / MOVES") from None
    if as_json:
        click.echo(json.dumps(made.to_json(), ensure_ascii=False))
        return

    def who(other: int, text: object) -> str:
        name = _(lang, "You") if other == made.seat else _(lang, "Player {seat}").format(seat=other + 1)
        return _(lang, "{player}: {text}").format(player=name, text=text)

    decisions: dict[int, list[Decision]] = {}
    for decision in made.decisions:
        decisions.setdefault(decision.round, []).append(decision)
    for played_round in made.rounds:
        click.echo(round_label(played_round.to_json(), made.seat, lang, played_round.number))
        for other, hand in enumerate(played_round.hands):
            cards = " ".join(Card.parse(text).pretty() for text in hand)
            click.echo("  " + who(other, cards))
        for decision in decisions.get(played_round.number, []):
            line = _(lang, "Move {index}: {move}, {points} points expected").format(
                index=decision.index, move=decision.move, points=decimal(decision.played, lang, 2)
            )
            if decision.best_move != decision.move:
                line += "; " + _(lang, "best {move}, {points}").format(
                    move=decision.best_move, points=decimal(decision.best, lang, 2)
                )
            click.echo(f"    {line} ({_(lang, decision.grade)})")
        if played_round.points is not None:
            shown = ", ".join(who(other, points) for other, points in enumerate(played_round.points))
            click.echo("  " + _(lang, "Points: {points}").format(points=shown))
    summary = made.to_json()["summary"]
    lost = decimal(summary["points_lost"], lang, 2)
    said = _(lang, REVIEW_SUMMARY).format(count=summary["decisions"], matched=summary["matched"], lost=lost)
    click.echo(said)
    for line in set_lines(made.to_json(), lang):
        click.echo(line)
    click.echo(_(lang, REVIEW_NOTE))


from parlour.thirteen.commands.terminal import thirteen_tui as _thirteen_tui  # noqa: E402  (parlour thirteen tui)

thirteen.add_command(_thirteen_tui)


def _stored_match(
    game_id: str, database_url: str | None, lang: str
) -> tuple[str, tuple[str, ...], Rules, int]:
    """Return a finished match stored in the database: its code, moves, rules and owner's seat.

    Raises:
        click.ClickException: the database cannot be opened, no game has this id, it is no Thirteen
            match, or the match is not finished (in play: its hands are hidden; left: no review).
    """
    try:
        store = Store(database_url)
        store.upgrade()
    except (StoreUnavailable, ValueError) as error:
        raise click.ClickException(f"the database is not available: {error}") from error
    try:
        record, seat, _kept = store.stored_match(game_id.strip())
    except UnknownGame:
        raise click.ClickException(_(lang, "There is no stored match {id}.").format(id=game_id)) from None
    finally:
        store.close()
    if record.game != NAME or record.status != Status.FINISHED:
        raise click.ClickException(
            _(lang, "Match {id} is not finished: it has no review.").format(id=game_id)
        )
    return record.code, tuple(record.moves), thirteen_rules(record.rules), seat


from parlour.thirteen.commands.terminal import thirteen_online as _thirteen_online  # noqa: E402

thirteen.add_command(_thirteen_online)

from parlour.thirteen.commands.puzzles import puzzles_command as _puzzles  # noqa: E402

thirteen.add_command(_puzzles)
