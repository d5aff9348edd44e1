"""TriPeaks as Parlour plays it: the game's one definition (live play, records, texts, statistics).

The page sends ``{"position": p}`` for a tap on the card at layout position ``p`` (so a tap on a
face-down card can be explained without the page knowing the card), ``{"move": "draw"}`` and
``{"move": "undo"}``; ``{"move": "KC"}`` is accepted too. Views are the engine's
:class:`~parlour.tripeaks.views.PlayerView` (no face-down card, no stock order) plus the numbered
game's verdict and the derived facts the page shows (which refusals are quiet, a peak's bonus).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any, Final

from babel.numbers import format_percent

from parlour.cards import Card
from parlour.errors import GameOver, IllegalMove, InvalidInput
from parlour.games.base import (
    CHALLENGE_SECRET,
    DAILY_SECRET,
    Change,
    DailyDeals,
    FinishedGame,
    GameDefinition,
    GameRecord,
    GameStatistics,
    Json,
    LiveGame,
    NewGame,
    NumberedGames,
    Preference,
    RecordSpec,
    Result,
    RulesPage,
    SeatView,
    Standing,
    StatisticsTable,
    Status,
    TerminalGame,
    daily_reveal,
    now_utc,
)
from parlour.i18n import gettext_for, ngettext_for
from parlour.i18n.cards import card_name, card_text
from parlour.tripeaks import Deal, DealCode, Game, Rules
from parlour.tripeaks import rules as tp_rules
from parlour.tripeaks.fairness import commitment as daily_commitment
from parlour.tripeaks.game import DRAW, PLAYING, UNDO, WON, peak_bonus
from parlour.tripeaks.layout import COVERS, PEAK_OF, SLOT_PLACES, TABLEAU_SIZE
from parlour.tripeaks.puzzle_board import PUZZLES
from parlour.tripeaks.rules import VARIANTS
from parlour.tripeaks.solver import Hint, compiled_available, numbered_result
from parlour.tripeaks.solver.hints import DEFAULT_SAMPLES
from parlour.tripeaks.solver.players import DEFAULT_STRENGTH, PLAYERS, checked_strength, hint_at
from parlour.tripeaks.solver.review import review_game
from parlour.tripeaks.texts import ERROR_HELP_REASONS, describe, reason_text
from parlour.tripeaks.views import PlayerView

NAME: Final = "tripeaks"
NUMBERED_GAMES: Final = 50_000
"""Numbered games #1 … #50,000 under Easy and under Classic: deal number = game number."""
NUMBERED_RULES: Final = ("easy", "classic")
OPTION_KEYS: Final = frozenset({"code", "rules", "variants", "number", "deal"})
TWIN_HINT_SAMPLES: Final = 200
"""The most samples of a fair hint played by the slower pure-Python twin (the terminal and the command
line without the compiled core); the compiled core plays the hint's full budget."""
RECENT: Final = 30
"""How many recent games the statistics chart shows."""


@dataclass(frozen=True)
class TriPeaksSeatView:
    """The player's view of a game in play: the engine's board (no face-down card, no stock order),
    the numbered game's census verdict, and what the page is given so that it works out no rule.

    Attributes:
        board: the engine's view of the board.
        numbered: the numbered game's number (None for another deal).
        winnable: the solver's census verdict of a numbered game (``{"winnable", "moves"}``), or None.
        code_hidden: a ranked deal whose code (and number) the view must not name yet (decision 0041).
        daily: the game is an attempt at today's daily deal (the end window leads to its leaderboard).
        fitting: the free positions whose card goes onto the discard pile now (what the player can
            see for themselves: the page gives a tap near such a card to it, on a phone where cards
            overlap).
    """

    board: PlayerView
    numbered: int | None
    winnable: Json | None
    code_hidden: bool
    fitting: tuple[int, ...]
    daily: bool = False
    challenge: str | None = None
    """The id of the challenge this game answers (its end window leads to the challenge's results)."""

    def to_json(self) -> Json:
        """Return the view as ``docs/protocol.md`` describes it: the board, with the rules' switches
        and the refusals the page shows quietly."""
        data = self.board.to_json()
        if self.code_hidden:
            data["code"] = data["deal_number"] = None
        data["ranked"] = self.code_hidden  # a ranked deal in play: its undo never hides a card seen
        data["daily"] = self.daily
        data["challenge"] = self.challenge
        data["numbered"] = self.numbered
        data["winnable"] = self.winnable
        data["rules_switches"] = self.board.rules.as_dict()
        data["quiet_refusals"] = sorted(ERROR_HELP_REASONS)
        data["fitting"] = list(self.fitting)
        return data


class TriPeaksLiveGame(LiveGame[TriPeaksSeatView]):
    """One TriPeaks game held by the server for its player (seat 0)."""

    kind = NAME

    def __init__(
        self,
        game: Game,
        numbered: int | None = None,
        *,
        code_hidden: bool = False,
        daily: bool = False,
        reveal_at: datetime | None = None,
        ended_secret: bool = False,
        record_ended: bool = False,
        challenge: str | None = None,
    ) -> None:
        self.game = game
        self.challenge = challenge
        """The id of the challenge the game answers, None for any other game."""
        self.record_ended = record_ended
        """Restored from a record that has ended (left, or stuck and ended): shown as it was left."""
        self.reveal_at = reveal_at
        """When a ranked daily attempt's deal may be shown, won or not: the end of its day (decision
        0060). None for any other game."""
        self.ended_secret = ended_secret
        """An ended challenge attempt whose deal must still be kept from its player: it was left before
        its first move, so it does not count as the player's answer (decision 0060)."""
        self.numbered = numbered
        self.verdict = numbered_verdict(game.rules, numbered)
        self.daily = daily
        """An attempt at today's daily deal (its record's secret names the day)."""
        self.code_hidden = code_hidden
        """A ranked deal (dealt from a server secret, its record keeping a ``secret``): every hidden
        card follows from its code, so the view names no code and no deal number until the game is
        won or its record has ended (decision 0041), and undo never hides a card the player has seen
        (decision 0058)."""

    @property
    def seats(self) -> Sequence[int]:
        """TriPeaks has one seat."""
        return (0,)

    @property
    def finished(self) -> bool:
        """A game ends when it is won; a stuck game stays open (the player may undo)."""
        return self.game.status == WON

    def view(self, seat: int) -> TriPeaksSeatView:
        """Return the player's view: the board, the numbered game's verdict, the fitting cards."""
        return TriPeaksSeatView(
            board=self.game.view(ranked=self.code_hidden),
            numbered=self.numbered,
            winnable=self.verdict,
            code_hidden=self.code_hidden and not self.deal_shown(),
            fitting=tuple(self.game.fitting_positions()),
            daily=self.daily,
            challenge=self.challenge,
        )

    def deal_shown(self) -> bool:
        """Return whether a ranked game's code may be in its view now: once it is won (a challenge
        answered) or its record has ended, but a daily attempt's only when its day is over, and never
        an ended record the store still keeps secret (decision 0060)."""
        if not (self.finished or self.record_ended) or self.ended_secret:
            return False
        return self.reveal_at is None or now_utc() >= self.reveal_at

    def legal(self, seat: int) -> list[str]:
        """Return the moves allowed now (``KC`` … then ``draw``)."""
        return self.game.legal_actions()

    def snapshot(self) -> TriPeaksLiveGame:
        """Return a copy (the engine's own copy of the game, history included)."""
        twin = copy.copy(self)
        twin.game = self.game.copy()
        return twin

    def act(self, seat: int, action: Json) -> Change:
        """Apply a tap on a position or a move text; return the event for the page's animations.

        Raises:
            ParlourError: a malformed action (``invalid_input``, ``invalid_card``) or one the rules
                refuse (``not_adjacent``, ``blocked``, ``stock_empty``, ``nothing_to_undo``,
                ``undo_ranked`` …).
        """
        if set(action) == {"position"}:
            position = action["position"]
            if isinstance(position, bool) or not isinstance(position, int):
                raise InvalidInput(f"position {position!r} is not a whole number")
            return self._remove(position)
        if set(action) != {"move"} or not isinstance(action["move"], str):
            raise InvalidInput(f"a TriPeaks action is {{'position': p}} or {{'move': text}}, got {action!r}")
        text = action["move"].strip()
        if text.lower() == DRAW:
            self.game.draw()
            return Change("draw", public={"card": str(self.game.discard_top)}, moves=[DRAW])
        if text.lower() == UNDO:
            return self._undo()
        card = Card.parse(text)
        for position in range(TABLEAU_SIZE):
            if self.game.visible_card(position) is card and not self.game.removed(position):
                return self._remove(position)
        # Face down, in the stock, on the discard pile or removed: all "blocked", never saying which.
        raise IllegalMove(f"{card.pretty()} is not a face-up card of the peaks", code="blocked")

    def hint_task(self, seat: int, strength: object = None) -> Callable[[], Json] | None:
        """Return the computation of the hint of this strength (see :func:`player_hint`; None: the
        thorough one) on a copy of the game, or None without the compiled core (the pure-Python twin
        would take many seconds a hint).

        Raises:
            GameOver: the game is won or stuck: nothing to hint.
            InvalidInput: an unknown strength.
        """
        if not compiled_available():
            return None
        chosen = checked_strength(strength)
        if self.game.status != Status.PLAYING:
            raise GameOver("the game is over: there is nothing to hint", code="game_over")
        snapshot = self.game.copy()

        def compute() -> Json:
            hint = player_hint(snapshot, chosen)
            position = None
            if hint.move != DRAW:
                position = next(
                    p for p in snapshot.playable_positions() if str(snapshot.card_at(p)) == hint.move
                )
            return {
                "strength": chosen,
                "move": hint.move,
                "position": position,
                "chance": round(hint.chance, 3),
                "low": round(hint.low, 3),
                "high": round(hint.high, 3),
            }

        return compute

    def _remove(self, position: int) -> Change:
        game = self.game
        was_down = (
            [q for q in COVERS[position] if not game.face_up(q)] if 0 <= position < TABLEAU_SIZE else []
        )
        before = game.peaks_cleared
        game.remove(position)
        flipped = [{"position": q, "card": str(game.card_at(q))} for q in was_down if game.face_up(q)]
        peak = PEAK_OF[position]
        cleared = game.peaks_cleared[peak] and not before[peak]
        data = {
            "position": position,
            "card": str(game.card_at(position)),
            "flipped": flipped,
            "peak_cleared": cleared,
            # What this peak brought under the scoring in force (the page shows it, it holds no rule).
            "peak_bonus": peak_bonus(game.rules, sum(game.peaks_cleared)) if cleared else 0,
            "status": game.status,
        }
        return Change("remove", public=data, moves=[str(game.card_at(position))], finished=game.status == WON)

    def _undo(self) -> Change:
        """Undo; the event names the card only when it goes back to the peaks (face up), never a card
        returning to the stock."""
        game = self.game
        history = game.live_moves()
        face_down_before = {p for p in range(TABLEAU_SIZE) if not game.face_up(p)}
        game.undo(ranked=self.code_hidden)
        undone = history[-1]  # undo succeeded, so there was a move to take back
        data: Json = {"undone": undone}
        if undone != DRAW:
            data["position"] = next(
                p for p in range(TABLEAU_SIZE) if not game.removed(p) and str(game.card_at(p)) == undone
            )
            turned_down = (
                p for p in range(TABLEAU_SIZE) if not game.face_up(p) and p not in face_down_before
            )
            data["hidden"] = sorted(turned_down)
        return Change("undo", public=data, moves=[UNDO])


def _challenge_of(secret: Json) -> str | None:
    """Return the id of the challenge a ranked record answers (its ``secret``), None for another."""
    challenge = secret.get(CHALLENGE_SECRET)
    return challenge if isinstance(challenge, str) else None


def numbered_verdict(rules: Rules, numbered: int | None) -> Json | None:
    """Return ``{"winnable": bool, "moves": n}`` from the solver's census for a numbered game, or None."""
    if numbered is None:
        return None
    result = numbered_result(rules, numbered)
    if result is None:
        return None
    return {"winnable": result.winnable, "moves": result.moves}


def numbered_of(code: DealCode) -> int | None:
    """Return the numbered game a deal code is (its number, under Easy or Classic without variants),
    None for any other deal: a pasted code of a numbered deal is that numbered game."""
    numbered_rules = rules_key(code.rules) in NUMBERED_RULES and not code.is_secret
    return code.number if numbered_rules and 1 <= code.number <= NUMBERED_GAMES else None


def deal_from(text: str, rules: Rules = tp_rules.EASY) -> tuple[DealCode, int | None]:
    """Read what the New game window was given: a deal code (a numbered deal's code is that numbered
    game), a numbered game's number (under ``rules``, Easy or Classic), or nothing (a random deal under
    ``rules``, variants included).

    Raises:
        InvalidInput: none of these (the reason code says which: ``invalid_code``, ``invalid_number``).
    """
    typed = text.strip()
    if not typed:
        return DealCode.secret(rules), None
    if typed.isascii() and typed.isdigit():
        number = int(typed)
        if not 1 <= number <= NUMBERED_GAMES or rules not in (tp_rules.EASY, tp_rules.CLASSIC):
            raise InvalidInput(f"numbered games run from 1 to {NUMBERED_GAMES}", code="invalid_number")
        return DealCode(number, rules), number
    code = DealCode.parse(typed)
    return code, numbered_of(code)


def verdict_text(verdict: Json, lang: str) -> str:
    """Return a numbered game's census verdict in words: "Winnable in 48 moves" (with the plural the
    language needs) or "This game cannot be won"."""
    if not verdict["winnable"]:
        return gettext_for(lang, "web", "This game cannot be won")
    moves = int(verdict["moves"] or 0)
    singular, plural = "Winnable in {moves} move", "Winnable in {moves} moves"
    return ngettext_for(lang, "web", singular, plural, moves).format(moves=moves)


def player_hint(game: Game, strength: str | None = None) -> Hint:
    """Return the hint of this strength (``greedy``, ``quick`` or ``fair``; None: ``fair``) for a game in
    play, judged only from what the player sees: with the compiled core, each strength's own budget (the
    thorough hint spends all of it, for a narrow interval); fewer samples with the slower pure-Python
    twin.

    Raises:
        GameOver: the game is won or stuck.
        InvalidInput: an unknown strength.
    """
    samples = DEFAULT_SAMPLES if compiled_available() else TWIN_HINT_SAMPLES
    return hint_at(game.copy(), checked_strength(strength), seed=game.moves, samples=samples)


def hint_text(hint: Hint, lang: str) -> str:
    """Return the hint in words with its chance and margin: "Hint: play the king of hearts. Chance of
    winning: 62% (± 3%)", the percentages written as ``lang`` writes them."""
    if hint.move == DRAW:
        text = gettext_for(lang, "web", "Hint: draw a card.")
    else:
        card = Card.parse(hint.move)
        text = gettext_for(lang, "web", "Hint: play {the_card}.").format(
            card=card_name(card, lang), the_card=card_name(card, lang, definite=True)
        )
    chance = gettext_for(lang, "web", "Chance of winning: {chance} (± {margin})").format(
        chance=format_percent(hint.chance, locale=lang), margin=format_percent(hint.margin, locale=lang)
    )
    return f"{text} {chance}"


def describe_standing(standing: Standing, s: Callable[..., str]) -> str:
    """Return a numbered game's result (peak cards left, moves) in words, through ``s`` (the ``store``
    domain's translation of a language): "Won in 34 moves", "Cards left: 3, moves: 40"."""
    left, moves = standing
    if left == 0:
        return s("Won in {moves} moves", moves=moves)
    return s("Cards left: {left}, moves: {moves}", left=left, moves=moves)


def positions_of(game: Game, moves: Sequence[str]) -> list[Json]:
    """Return the position of ``game`` and after each of ``moves`` (all legal), as a review page draws
    them: which of the 28 places are cleared (``removed``) and face up (``up``, as strings of 0 and 1),
    the top of the discard pile, the cards left in the stock, the move counter and the score. ``game``
    is left unchanged."""
    game = game.copy()
    found = []
    for index in range(len(moves) + 1):
        if index:
            game.apply(moves[index - 1])
        top = game.discard_top
        found.append(
            {
                "removed": "".join("1" if game.removed(p) else "0" for p in range(TABLEAU_SIZE)),
                "up": "".join("1" if game.face_up(p) else "0" for p in range(TABLEAU_SIZE)),
                "discard": None if top is None else str(top),
                "stock": game.stock_count,
                "moves": game.moves,
                "score": game.score,
            }
        )
    return found


NOT_WON: Final = (
    "Not won: {left} peak card left after {moves} moves.",
    "Not won: {left} peak cards left after {moves} moves.",
)
AFTER: Final = ("After {moves} moves: {left} peak card left.", "After {moves} moves: {left} peak cards left.")
LOST_AT: Final = "Move {index} ({move}) lost the game: it could be won before that move, and not after."
SUMMARY: Final = (
    "Choices: {choices}; the Thorough hint's own move: {matched}; chance of winning lost in all: {lost}."
)
SEEN_HOW: Final = (
    "Chances are estimated without looking at any hidden card (the Thorough hint); "
    "the verdicts after each move see every card."
)


def verdict_words(winnable: bool | None, fewest: int | None, lang: str) -> str:
    """Return a review's exact verdict of a position in ``lang`` (``solver`` catalog): "win in 40"
    (``fewest`` moves left), "lost", or "unknown" (``winnable`` None: the search was cut short)."""
    if winnable is None:
        return gettext_for(lang, "solver", "unknown")
    if not winnable:
        return gettext_for(lang, "solver", "lost")
    return gettext_for(lang, "solver", "win in {moves}").format(moves=fewest)


def move_words(move: str, lang: str) -> str:
    """Return a recorded move (``KC``, ``draw``, ``undo``) as a player of ``lang`` reads it: the card
    with the language's letters (``R♣``), or the action's word (``Piocher``)."""
    if move in (DRAW, UNDO):
        return gettext_for(lang, "solver", "Draw" if move == DRAW else "Undo")
    try:
        return card_text(Card.parse(move), lang)
    except InvalidInput:
        return move


def review_texts(review: Json, lang: str) -> dict[str, list[str]]:
    """Return what a review (:meth:`TriPeaksDefinition.review`'s JSON) says in ``lang`` (``solver``
    catalog): ``head``, the result, the deal's verdict and the move that lost the game with the shortest
    win from before it; ``foot``, the choices' summary and how the chances were judged; ``steps``, one
    line for the deal and for each move (its grade and chances, the verdict after it)."""

    def s(message: str) -> str:
        return gettext_for(lang, "solver", message)

    def verdict(winnable: bool | None, fewest: int | None) -> str:
        return verdict_words(winnable, fewest, lang)

    moves, left, fewest = review["moves_made"], review["cards_left"], review["fewest_at_start"]
    if review["status"] == WON:
        head = [
            s("Won in {moves} moves; the fewest was {fewest}.").format(
                moves=moves, fewest=review["fewest_at_start"]
            )
        ]
    elif review["status"] == PLAYING:
        head = [ngettext_for(lang, "solver", *AFTER, left).format(moves=moves, left=left)]
    else:
        head = [ngettext_for(lang, "solver", *NOT_WON, left).format(left=left, moves=moves)]
    if review["winnable_at_start"]:
        head.append(
            s("Winnable from the deal, in {moves} moves at fewest.").format(moves=review["fewest_at_start"])
        )
    else:
        head.append(
            s("Not winnable from the deal.") if review["winnable_at_start"] is False else s("unknown")
        )
    line_words = [move_words(step, lang) for step in review["winning_line"] or []]
    losing = review["first_losing_move"]
    if losing is not None:
        lost = next(move for move in review["moves"] if move["index"] == losing)
        head.append(s(LOST_AT).format(index=lost["index"], move=move_words(lost["move"], lang)))
        head.append(s("The shortest win from before it: {line}").format(line=" ".join(line_words)))
    foot = []
    summary = review["summary"]
    if summary["choices"]:
        lost_chance = format_percent(summary["chance_lost"], locale=lang)
        foot = [
            s(SUMMARY).format(choices=summary["choices"], matched=summary["matched"], lost=lost_chance),
            s(SEEN_HOW),
        ]
    steps = [verdict(review["winnable_at_start"], fewest)]
    for move in review["moves"]:
        parts = [f"{move['index']}. {move_words(move['move'], lang)}"]
        if move["grade"] is not None:
            parts.append(s(move["grade"]))
            parts.append(f"{s('Played')} {format_percent(move['played_chance'], locale=lang)}")
            if move["best_move"] != move["move"]:
                best = format_percent(move["best_chance"], locale=lang)
                parts.append(f"{s('Best')} {best} ({move_words(move['best_move'], lang)})")
        parts.append(f"{s('After it')}: {verdict(move['winnable_after'], move['fewest_left_after'])}")
        steps.append(" · ".join(parts))
    return {"head": head, "foot": foot, "steps": steps, "line": line_words}


def census_verdict(rules_key: str, number: int) -> bool | None:
    """Return whether the census says numbered game ``number`` under ``rules_key`` can be won."""
    try:
        result = numbered_result(Rules.named(rules_key), number)
    except (LookupError, ValueError):
        return None
    return None if result is None else result.winnable


NUMBERED: Final = NumberedGames(
    count=NUMBERED_GAMES,
    rules={"easy": "Easy", "classic": "Classic"},
    verdict=census_verdict,
    standing_of=lambda data: (int(data["left"]), int(data["moves"])) if "left" in data else None,
    fields=("left", "moves"),
    wins=lambda standing: standing[0] == 0,
    describe=describe_standing,
    explanation="The best result of each game is kept: fewest peak cards left, then fewest moves.",
)
"""TriPeaks' numbered games: #1 … #50,000 under Easy and Classic, a result being the peak cards left
and then the moves."""


def draw_daily(rules_key: str) -> str:
    """Return a fresh secret deal under the rules ``rules_key`` (``easy``, ``classic``) as its ``TP2``
    code: a 128-bit seed from the operating system's random source (decision 0059), so that nobody can
    compute its cards from those they see.

    Raises:
        ValueError: no such rule set.
    """
    return str(DealCode.secret(Rules.named(rules_key)))


def daily_standing(data: Json) -> Standing | None:
    """Return an attempt's place on the leaderboard, lower being better: peak cards left, then the
    score (higher first), the moves, the seconds from the deal to the end; None for an attempt left
    before it was played."""
    if data.get("empty") or "left" not in data:
        return None
    return (int(data["left"]), -int(data["score"]), int(data["moves"]), int(data.get("seconds") or 0))


def describe_daily(data: Json, s: Callable[..., str]) -> str:
    """Return an attempt's result in words ("Won, score: 2,140")."""
    if data.get("won"):
        return s("Won, score: {score}", score=data["score"])
    return s("Cards left: {left}, score: {score}", left=data["left"], score=data["score"])


DAILY: Final = DailyDeals(
    rules={"easy": "Easy", "classic": "Classic"},
    draw=draw_daily,
    commitment=daily_commitment,
    standing_of=daily_standing,
    describe=describe_daily,
    won=lambda data: bool(data.get("won")),
    order="Ranked by peak cards cleared, then score, then fewest moves, then time.",
)
"""TriPeaks' daily deal: one secret deal a day under Easy and under Classic (decision 0050)."""


# --- options and records -------------------------------------------------------------------------------


def _rules(options: Json) -> Rules:
    name = options.get("rules", "easy")
    if not isinstance(name, str):
        raise InvalidInput(f"rules {name!r} must be 'easy' or 'classic'", code="invalid_rules")
    try:
        rules = Rules.named(name)
    except InvalidInput as error:
        raise InvalidInput(str(error), code="invalid_rules") from error
    variants = options.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) and v in VARIANTS for v in variants):
        raise InvalidInput(
            f"variants {variants!r}: choose from {', '.join(VARIANTS)}", code="invalid_variant"
        )
    return rules.with_variants(*variants)


def engine_rules(rules: Any) -> Rules:
    """Return TriPeaks rules from the engine's value, a JSON mapping or a preset name.

    Raises:
        InvalidInput: not TriPeaks rules.
    """
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        return Rules.named(rules)
    if isinstance(rules, dict):
        try:
            return Rules(**rules)
        except TypeError as error:
            raise InvalidInput(f"not TriPeaks rules: {rules!r} ({error})") from error
    raise InvalidInput(f"not TriPeaks rules: {rules!r}")


def rules_key(rules: Rules) -> str:
    """Return ``easy``, ``classic`` or ``custom`` (variants on) for statistics and records."""
    return "easy" if rules == tp_rules.EASY else "classic" if rules == tp_rules.CLASSIC else "custom"


class TriPeaksReplay:
    """A TriPeaks record being replayed by the store."""

    def __init__(self, code: str) -> None:
        self.game = Game.from_code(code)
        self._applied = 0

    @property
    def moves(self) -> int:
        """Return how many stored moves have been applied."""
        return self._applied

    def apply(self, move: str) -> str:
        """Apply the next move (``KC``, ``draw``, ``undo``) and return its canonical text.

        Raises:
            ParlourError: the engine refuses it.
        """
        canonical = self.game.apply(move)
        self._applied += 1
        return canonical

    def result(self, *, ended: bool) -> Result:
        """Return ``won``, ``stuck`` or ``left`` with the peak cards left, moves and score."""
        game = self.game
        status = game.status if game.status in (Status.WON, Status.STUCK) else Status.LEFT
        data = {
            "status": status,
            "won": status == Status.WON,
            "left": game.cards_left,
            "moves": game.moves,
            "score": game.score,
        }
        return Result(status, data)


# --- statistics ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TriPeaksStatistics:
    """TriPeaks figures of one rule set (``easy``, ``classic``, ``custom``) or of all (``all``)."""

    rules_key: str
    played: int = 0
    won: int = 0
    best_score: int | None = None
    current_streak: int = 0
    longest_streak: int = 0
    average_moves_of_wins: float | None = None
    best_time: float | None = None
    """The fastest win, in seconds from the deal to the last card (None before the first win)."""

    @property
    def win_rate(self) -> float | None:
        """Won divided by played, None before the first game."""
        return self.won / self.played if self.played else None

    def to_json(self) -> Json:
        """Return the figures as JSON."""
        return {
            "played": self.played,
            "won": self.won,
            "win_rate": self.win_rate,
            "best_score": self.best_score,
            "current_streak": self.current_streak,
            "longest_streak": self.longest_streak,
            "average_moves_of_wins": self.average_moves_of_wins,
            "best_time": self.best_time,
        }


@dataclass(frozen=True)
class RecentGame:
    """One finished TriPeaks game, for the statistics chart."""

    rules_key: str
    won: bool
    score: int
    left: int
    finished_at: datetime


@dataclass(frozen=True)
class TriPeaksFigures:
    """A player's TriPeaks statistics: per rule set (and ``all``), and the recent games."""

    rules: dict[str, TriPeaksStatistics] = field(default_factory=dict)
    recent: list[RecentGame] = field(default_factory=list)

    @property
    def played(self) -> int:
        """Return how many TriPeaks games count."""
        return self.rules["all"].played if "all" in self.rules else 0

    def to_json(self) -> Json:
        """Return ``{rules_key: figures}`` (the shape of ``GET /api/stats``' ``tripeaks``)."""
        return {key: row.to_json() for key, row in self.rules.items()}


def _per_rules(key: str, results: list[tuple[bool, int, int, float | None]]) -> TriPeaksStatistics:
    streak = longest = 0
    for won, _score, _moves, _time in results:
        streak = streak + 1 if won else 0
        longest = max(longest, streak)
    wins = [moves for won, _score, moves, _time in results if won]
    times = [time for won, _score, _moves, time in results if won and time is not None]
    return TriPeaksStatistics(
        rules_key=key,
        played=len(results),
        won=len(wins),
        best_score=max(score for _won, score, _moves, _time in results),
        current_streak=streak,
        longest_streak=longest,
        average_moves_of_wins=sum(wins) / len(wins) if wins else None,
        best_time=min(times) if times else None,
    )


def clock(seconds: float | None) -> str:
    """``83.2`` → ``1:23`` (``1:02:03`` past an hour), ``–`` for None."""
    if seconds is None:
        return "–"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


RULE_NAMES: Final = {"easy": "Easy", "classic": "Classic", "custom": "Variants", "all": "All"}


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _number(value: float | None, digits: int = 0) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


# --- the definition -----------------------------------------------------------------------------------


REASONS: Final = {
    "invalid_code": "That is not a deal code: a code looks like TP1-E-AAAAAAB",
    "invalid_number": "Numbered games run from 1 to 50,000",
    "invalid_card": "That is not a card",
    "invalid_rules": "Choose Easy or Classic",
    "invalid_variant": "Unknown variant",
}
"""English texts (``web`` msgids) of the reason codes the New Game window adds to the engine's own."""


class TriPeaksDefinition(GameDefinition):
    """TriPeaks: one player, deals by code or number, fair hints, numbered-game records.

    ``explicit_deals`` lets tests deal an explicit layout (``{"deal": text}``), never recorded.
    """

    name = NAME
    title = "TriPeaks"
    order = 10  # first on the home page: the game Parlour began with
    learning = "parlour.tripeaks.learn:register"
    blurb = "Clear three peaks of cards one rank up or down."
    tile_image = "img/tile-tripeaks.svg"
    page = "/tripeaks"
    page_module = "parlour.tripeaks.site.page"
    rules = RulesPage(
        "rules_tripeaks.html",
        "TriPeaks rules",
        MappingProxyType({"peak_positions": SLOT_PLACES}),
        domain="tripeaks_rules",
    )
    statistics_template = "stats_tripeaks.html"
    numbered = NUMBERED
    daily = DAILY
    challenges = True
    preferences = MappingProxyType(
        {
            "hint_strength": Preference(
                DEFAULT_STRENGTH,
                PLAYERS,
                "TriPeaks: hint strength",
                MappingProxyType({"greedy": "Simple", "quick": "Quick", "fair": "Thorough"}),
            )
        }
    )
    terminal = TerminalGame(
        key="t",
        opener="parlour.tripeaks.commands.terminal:run_tripeaks",
        codes="TP1-… or a numbered game's number",
        owns_code=lambda text: text.strip().isdigit() or text.strip().upper().startswith("TP1-"),
    )
    commands = "parlour.tripeaks.commands.group:tripeaks"
    reviews = True
    review_page = "/tripeaks/review/{game_id}"
    puzzles = PUZZLES
    ranked_note = (
        "Undo takes back a card played, but not a draw nor a card that turned another up: "
        "a card you have seen stays seen."
    )

    def __init__(self, *, explicit_deals: bool = False) -> None:
        self.explicit_deals = explicit_deals

    # --- live games --------------------------------------------------------------------------------

    def new(self, options: Json) -> NewGame:
        """Deal a game from the New Game window's options.

        ``{"code": "TP1-E-AAAAAAB"}`` deals that code; otherwise ``rules`` (``easy``/``classic``) and
        ``variants`` choose the rules and ``number`` (1 … 50,000) a numbered game, or a random deal
        without it.

        Raises:
            ParlourError: ``invalid_code``, ``invalid_rules``, ``invalid_variant``, ``invalid_number``
                or ``invalid_input`` (an unknown option, or a layout when not allowed).
        """
        unknown = set(options) - OPTION_KEYS
        if unknown:
            raise InvalidInput(f"unknown options {sorted(unknown)!r}")
        if "deal" in options:
            if not self.explicit_deals or not isinstance(options["deal"], str):
                raise InvalidInput("explicit layouts are not accepted here")
            game = Game(Deal.parse(options["deal"]), _rules(options))
            return NewGame(TriPeaksLiveGame(game), None)
        code_text = options.get("code")
        number = options.get("number")
        drawn = False
        if code_text is not None:
            code = DealCode.parse(code_text if isinstance(code_text, str) else repr(code_text))
            number = numbered_of(code)
        elif number is None:
            code, drawn = DealCode.secret(_rules(options)), True
        else:
            rules = _rules(options)
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= NUMBERED_GAMES:
                raise InvalidInput(
                    f"game number {number!r} is not 1 … {NUMBERED_GAMES}", code="invalid_number"
                )
            code = DealCode(number, rules)
        spec = replace(self.prepare(code.rules, str(code), [0], number), deal_drawn=drawn)
        return NewGame(TriPeaksLiveGame(Game.from_code(code), numbered=number), spec)

    def ranked(self, code: str, secret: Json) -> NewGame:
        """Deal ``code`` ranked: its views name no code and no number until it is over (decision
        0041), and its record keeps ``secret`` (the day, or the challenge, it counts for).

        Raises:
            InvalidCode: not a deal code.
        """
        deal = DealCode.parse(code)
        spec = RecordSpec(deal.rules.as_dict(), rules_key(deal.rules), str(deal), [0], None, dict(secret))
        live = TriPeaksLiveGame(
            Game.from_code(deal),
            code_hidden=True,
            daily=DAILY_SECRET in secret,
            reveal_at=daily_reveal(secret),
            challenge=_challenge_of(secret),
        )
        return NewGame(live, spec)

    def restore(self, record: GameRecord) -> LiveGame[SeatView]:
        """Rebuild a live game from its record by replaying its moves.

        Raises:
            ParlourError: the record's code or a move is invalid.
        """
        game = Game.from_code(record.code)
        for move in record.moves:
            game.apply(move)
        # A ranked deal's code stays hidden while its record is open, and after it has ended while the
        # store keeps it secret (a daily attempt until its day is over: decision 0060).
        secret = record.secret or {}
        hidden = bool(secret) and (record.status == Status.OPEN or record.ranked_open)
        return TriPeaksLiveGame(
            game,
            numbered=record.numbered,
            code_hidden=hidden,
            daily=hidden and DAILY_SECRET in secret,
            reveal_at=daily_reveal(secret) if hidden else None,
            ended_secret=hidden and record.status != Status.OPEN and CHALLENGE_SECRET in secret,
            record_ended=record.status != Status.OPEN,
            challenge=_challenge_of(secret),
        )

    # --- records -----------------------------------------------------------------------------------

    def prepare(self, rules: Any, code: str, seats: Sequence[Any], numbered: int | None) -> RecordSpec:
        """Return the normalized record of a deal; ``rules`` None takes them from the code.

        Raises:
            InvalidInput: a bad code, rules that are not the code's, a numbered game outside
                1–50,000, under other rules or of another deal number.
        """
        deal_code = DealCode.parse(code)
        if rules is not None and engine_rules(rules) != deal_code.rules:
            raise InvalidInput(f"the deal code {code!r} is for other rules than {rules!r}")
        key = rules_key(deal_code.rules)
        if numbered is not None:
            if isinstance(numbered, bool) or not 1 <= numbered <= NUMBERED_GAMES:
                raise InvalidInput(f"numbered games run from 1 to {NUMBERED_GAMES:,}, not {numbered!r}")
            if key not in NUMBERED_RULES:
                raise InvalidInput(f"numbered games are played under Easy or Classic rules, not {code!r}")
            if deal_code.number != numbered:
                raise InvalidInput(f"numbered game #{numbered} is deal number {numbered}, not {code!r}")
        return RecordSpec(deal_code.rules.as_dict(), key, str(deal_code), list(seats), numbered)

    def replay(self, spec: RecordSpec) -> TriPeaksReplay:
        """Return a replay of the record's deal."""
        return TriPeaksReplay(spec.code)

    # --- statistics --------------------------------------------------------------------------------

    def review(self, record: GameRecord, seat: int = 0) -> Json:
        """Return the review of a finished game (``parlour.tripeaks.solver.review``, seed 0: the same
        numbers as ``parlour tripeaks review CODE MOVE…``), with the deal's cards as they lie, so that a
        page can show every position (the game is over: nothing of it is hidden any more). Without the
        compiled cores the honest chances are left out (the twin would take minutes).

        Raises:
            InvalidInput: the record's code is no deal code.
        """
        game = Game.from_code(record.code)
        made = review_game(game, list(record.moves), honest=compiled_available())
        review = made.to_json()
        deal = game.deal
        review["deal"] = {
            "tableau": [str(card) for card in deal.tableau],
            "discard": None if deal.discard is None else str(deal.discard),
            "stock": [str(card) for card in deal.stock],
        }
        review["positions"] = positions_of(game, [move.move for move in made.moves])
        if made.first_losing_move is not None:  # the shortest win, from just before the losing move
            before = next(move for move in made.moves if move.index == made.first_losing_move)
            start = game.copy()
            for move in made.moves[: made.moves.index(before)]:
                start.apply(move.move)
            review["line_positions"] = positions_of(start, list(made.winning_line))[1:]
        return review

    def fold(self, games: Sequence[FinishedGame]) -> TriPeaksFigures:
        """Return per-rules figures and the recent games. A game left unfinished counts as played and
        not won (it ends a winning streak)."""
        by_rules: dict[str, list[tuple[bool, int, int, float | None]]] = {}
        recent: list[RecentGame] = []
        for finished in games:
            result = finished.result
            started = finished.started_at
            took = (finished.finished_at - started).total_seconds() if started is not None else None
            entry = (bool(result["won"]), int(result["score"]), int(result["moves"]), took)
            by_rules.setdefault(finished.rules_key, []).append(entry)
            by_rules.setdefault("all", []).append(entry)
            recent.append(
                RecentGame(finished.rules_key, entry[0], entry[1], int(result["left"]), finished.finished_at)
            )
        per_rules = {key: _per_rules(key, results) for key, results in by_rules.items()}
        per_rules.setdefault("all", TriPeaksStatistics("all"))
        return TriPeaksFigures(per_rules, recent[-RECENT:])

    def statistics_tables(self, figures: GameStatistics, player: str) -> list[StatisticsTable]:
        """Return one row per rule set played, then all together."""
        assert isinstance(figures, TriPeaksFigures)
        headings = (
            "Rules", "Played", "Won", "Win rate", "Best score", "Streak", "Longest", "Moves/win", "Best time"
        )  # fmt: skip
        keys = [key for key in ("easy", "classic", "custom") if key in figures.rules] + ["all"]
        rows = []
        for key in keys:
            row = figures.rules[key]
            rows.append(
                (
                    RULE_NAMES[key],
                    str(row.played),
                    str(row.won),
                    _percent(row.win_rate),
                    _number(row.best_score),
                    str(row.current_streak),
                    str(row.longest_streak),
                    _number(row.average_moves_of_wins, 1),
                    clock(row.best_time),
                )
            )
        return [StatisticsTable(f"TriPeaks — {player}", headings, tuple(rows))]

    def statistics_summary(self, figures: GameStatistics) -> list[tuple[str, str]]:
        """Return TriPeaks played, won, win rate and best score over all rules."""
        assert isinstance(figures, TriPeaksFigures)
        everything = figures.rules["all"]
        return [
            ("TriPeaks played", str(everything.played)),
            ("won", str(everything.won)),
            ("win rate", _percent(everything.win_rate)),
            ("best score", _number(everything.best_score)),
        ]

    # --- texts ---------------------------------------------------------------------------------------

    def explain(self, code: str, lang: str) -> str | None:
        """Return the translated text of a reason code, or None for a generic code."""
        try:
            return reason_text(code, lang)
        except KeyError:  # not an engine reason: one of the New Game window's own
            message = REASONS.get(code)
        return None if message is None else gettext_for(lang, "web", message)

    def localize(self, view: Json, lang: str) -> Json:
        """Return the view's spoken ``description`` and the ``names`` of the cards it shows (face-up
        peak cards and the top of the discard pile), for screen readers."""
        shown = [slot["card"] for slot in view["tableau"] if slot["card"] and not slot["removed"]]
        shown.extend(view["discard"][-3:])
        names = {card: card_name(Card.parse(card), lang) for card in shown}
        # The same cards named as a sentence names them ("play the 4 of clubs"), for the hint's words.
        definite = {card: card_name(Card.parse(card), lang, definite=True) for card in shown}
        texts: Json = {"description": describe(view, lang), "names": names, "definite_names": definite}
        verdict = view.get("winnable")
        if verdict:
            texts["verdict"] = verdict_text(verdict, lang)
        return texts


__all__ = [
    "DEFINITION",
    "NUMBERED_GAMES",
    "NUMBERED_RULES",
    "RecentGame",
    "TriPeaksDefinition",
    "TriPeaksFigures",
    "TriPeaksLiveGame",
    "TriPeaksStatistics",
]


DEFINITION: Final = TriPeaksDefinition()
"""The game as the platform registers it (the ``parlour.games`` entry point names it)."""
