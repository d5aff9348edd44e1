"""TriPeaks as a live game on the server: deal from the New Game window's options, moves, views, texts.

The page sends ``{"position": p}`` for a tap on the card at layout position ``p`` (so a tap on a
face-down card can be explained without the page knowing the card), ``{"move": "draw"}`` and
``{"move": "undo"}``; ``{"move": "KC"}`` is accepted too. Views are the engine's player view
(``Game.to_json()``, which holds no face-down card and no stock order) plus what the page needs to draw
the buttons. Error-help texts come from the ``tripeaks`` catalog when it has them, else from ``web``.
"""

from __future__ import annotations

import importlib.util
import secrets
from collections.abc import Callable, Sequence
from functools import cache
from typing import Final

from babel.messages.pofile import read_po

from parlour.cards import Card
from parlour.deal import DEAL_NUMBER_LIMIT
from parlour.errors import GameOver, IllegalMove, InvalidInput
from parlour.i18n import LOCALE_DIR, gettext_for
from parlour.i18n.cards import card_name
from parlour.i18n.tripeaks import describe, reason_text
from parlour.server.kinds import GameKind, GameRecord, NewGame
from parlour.server.live import Change, Json, LiveGame
from parlour.store import NUMBERED_GAMES
from parlour.tripeaks import Deal, DealCode, Game, Rules
from parlour.tripeaks.game import DRAW, UNDO, WON
from parlour.tripeaks.layout import COVERS, PEAK_OF, TABLEAU_SIZE
from parlour.tripeaks.rules import VARIANTS

OPTION_KEYS: Final = frozenset({"code", "rules", "variants", "number", "deal"})


class TriPeaksLive(LiveGame):
    """One TriPeaks game held by the server for its player (seat 0)."""

    kind = "tripeaks"

    def __init__(self, game: Game, numbered: int | None = None) -> None:
        self.game = game
        self.numbered = numbered
        self.verdict = numbered_verdict(game.rules, numbered)

    @property
    def seats(self) -> Sequence[int]:
        """TriPeaks has one seat."""
        return (0,)

    @property
    def finished(self) -> bool:
        """A game ends when it is won; a stuck game stays open (the player may undo)."""
        return self.game.status == WON

    def view(self, seat: int) -> Json:
        """Return the player's view: the engine's view plus free positions and what the buttons allow."""
        game = self.game
        view = game.to_json()
        view.pop("rejected", None)
        view["free"] = game.playable_positions()
        view["can_draw"] = game.can_draw()
        view["can_undo"] = game.undo_available > 0 and game.status != WON
        view["numbered"] = self.numbered
        view["winnable"] = self.verdict
        view["rules_switches"] = game.rules.as_dict()
        return view

    def act(self, seat: int, action: Json) -> Change:
        """Apply a tap on a position or a move text; return the event for the page's animations.

        Raises:
            ParlourError: a malformed action (``invalid_input``, ``invalid_card``) or one the rules
                refuse (``not_adjacent``, ``blocked``, ``stock_empty``, ``nothing_to_undo`` …).
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

    def hint_task(self, seat: int) -> Callable[[], Json] | None:
        """Return the fair hint's computation on a copy of the game, or None without the solver.

        Raises:
            GameOver: the game is won or stuck: nothing to hint.
        """
        if not hints_available():
            return None
        if self.game.status != "playing":
            raise GameOver("the game is over: there is nothing to hint", code="game_over")
        snapshot = self.game.copy()

        def compute() -> Json:
            from parlour.tripeaks.solver import fair_hint

            hint = fair_hint(snapshot, samples=HINT_SAMPLES, seed=snapshot.moves)
            position = None
            if hint.move != DRAW:
                position = next(
                    p for p in snapshot.playable_positions() if str(snapshot.card_at(p)) == hint.move
                )
            return {"move": hint.move, "position": position, "chance": round(hint.chance, 3)}

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
        data = {
            "position": position,
            "card": str(game.card_at(position)),
            "flipped": flipped,
            "peak_cleared": game.peaks_cleared[peak] and not before[peak],
            "status": game.status,
        }
        return Change("remove", public=data, moves=[str(game.card_at(position))], finished=game.status == WON)

    def _undo(self) -> Change:
        """Undo; the event names the card only when it goes back to the peaks (face up), never a card
        returning to the stock."""
        game = self.game
        history = game.live_moves()
        face_down_before = {p for p in range(TABLEAU_SIZE) if not game.face_up(p)}
        game.undo()
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


# --- the solver (when it is installed) --------------------------------------------------------------

HINT_SAMPLES: Final = 16
"""Samples per fair hint: about half a second on this machine, steady enough to trust."""


@cache
def solver_available() -> bool:
    """Return whether ``parlour.tripeaks.solver`` is present."""
    return importlib.util.find_spec("parlour.tripeaks.solver") is not None


@cache
def hints_available() -> bool:
    """Return whether fair hints are fast enough to offer: the solver with its compiled core (about
    half a second a hint; the pure-Python twin would take many seconds)."""
    if not solver_available():
        return False
    from parlour.tripeaks.solver import compiled_available

    return compiled_available()


def numbered_verdict(rules: Rules, numbered: int | None) -> Json | None:
    """Return ``{"winnable": bool, "moves": n}`` from the solver's census for a numbered game, or None."""
    if numbered is None or not solver_available():
        return None
    from parlour.tripeaks.solver import numbered_result

    result = numbered_result(rules, numbered)
    if result is None:
        return None
    return {"winnable": result.winnable, "moves": result.moves}


# --- creating and restoring ---------------------------------------------------------------------------


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


def new_game(options: Json, *, explicit_deals: bool = False) -> NewGame:
    """Deal a game from the New Game window's options.

    ``{"code": "TP1-E-AAAAAAB"}`` deals that code; otherwise ``rules`` (``easy``/``classic``) and
    ``variants`` choose the rules and ``number`` (1 … 50,000) a numbered game, or a random deal without
    it. ``{"deal": layout}`` (``Deal.parse``'s text) is accepted only when ``explicit_deals`` is on (tests);
    such a game is not recorded.

    Raises:
        ParlourError: ``invalid_code``, ``invalid_rules``, ``invalid_variant``, ``invalid_number`` or
            ``invalid_input`` (an unknown option, or a layout when not allowed).
    """
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise InvalidInput(f"unknown options {sorted(unknown)!r}")
    if "deal" in options:
        if not explicit_deals or not isinstance(options["deal"], str):
            raise InvalidInput("explicit layouts are not accepted here")
        rules = _rules(options)
        game = Game(Deal.parse(options["deal"]), rules)
        return NewGame(TriPeaksLive(game), rules=rules.as_dict(), code="", seats=[0], record=False)
    code_text = options.get("code")
    if code_text is not None:
        code = DealCode.parse(code_text if isinstance(code_text, str) else repr(code_text))
        game = Game.from_code(code)
        return NewGame(TriPeaksLive(game), rules=code.rules.as_dict(), code=str(code), seats=[0])
    rules = _rules(options)
    number = options.get("number")
    if number is None:
        code = DealCode(secrets.randbelow(DEAL_NUMBER_LIMIT), rules)
        return NewGame(TriPeaksLive(Game.from_code(code)), rules=rules.as_dict(), code=str(code), seats=[0])
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= NUMBERED_GAMES:
        raise InvalidInput(f"game number {number!r} is not 1 … {NUMBERED_GAMES}", code="invalid_number")
    code = DealCode(number, rules)
    live = TriPeaksLive(Game.from_code(code), numbered=number)
    return NewGame(live, rules=rules.as_dict(), code=str(code), seats=[0], numbered=number)


def restore(record: GameRecord) -> LiveGame:
    """Rebuild a live game from its record by replaying its moves.

    Raises:
        ParlourError: the record's code or a move is invalid.
    """
    game = Game.from_code(record.code)
    for move in record.moves:
        game.apply(move)
    return TriPeaksLive(game, numbered=getattr(record, "numbered", None))


# --- texts ----------------------------------------------------------------------------------------------

REASONS: Final = {
    "invalid_code": "That is not a deal code: a code looks like TP1-E-AAAAAAB",
    "invalid_number": "Numbered games run from 1 to 50,000",
    "invalid_card": "That is not a card",
    "invalid_rules": "Choose Easy or Classic",
    "invalid_variant": "Unknown variant",
}
"""English texts (``web`` msgids) of the reason codes the New Game window and the socket add to the
engine's own, which the ``tripeaks`` domain explains."""


@cache
def _tripeaks_messages() -> frozenset[str]:
    with (LOCALE_DIR / "hu" / "LC_MESSAGES" / "tripeaks.po").open("rb") as handle:
        return frozenset(m.id for m in read_po(handle) if isinstance(m.id, str) and m.id and not m.context)


def text(lang: str, message: str) -> str:
    """Translate a TriPeaks page text: from the ``tripeaks`` domain when it has it, else from ``web``."""
    domain = "tripeaks" if message in _tripeaks_messages() else "web"
    return gettext_for(lang, domain, message)


def explain(code: str, lang: str) -> str | None:
    """Return the translated text of a reason code, or None for a generic code."""
    try:
        return reason_text(code, lang)
    except KeyError:  # not an engine reason: one of the page's own
        message = REASONS.get(code)
    return None if message is None else text(lang, message)


def localize(view: Json, lang: str) -> Json:
    """Return the texts of a view in ``lang``: its spoken ``description`` and the ``names`` of the cards
    it shows (face-up peak cards and the discard pile), for screen readers."""
    shown = [slot["card"] for slot in view["tableau"] if slot["card"] and not slot["removed"]]
    shown.extend(view["discard"][-3:])
    names = {card: card_name(Card.parse(card), lang) for card in shown}
    return {"description": describe(view, lang), "names": names}


def kind(*, explicit_deals: bool = False) -> GameKind:
    """Return the TriPeaks game kind; ``explicit_deals`` lets tests deal an explicit layout."""

    def deal(options: Json) -> NewGame:
        return new_game(options, explicit_deals=explicit_deals)

    return GameKind("tripeaks", "/tripeaks", deal, restore, explain, localize)


KIND: Final = kind()
