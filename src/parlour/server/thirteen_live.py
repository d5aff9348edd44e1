"""Thirteen in the browser: one person (seat 0) against three computer players, paced by a speed setting.

The live game wraps the engine's ``Match`` and only ever hands out seat 0's ``PlayerView``: the other
seats' hands never leave this module. The page sends four actions over the game's WebSocket (see
``docs/protocol.md``):

- ``{"type": "select", "cards": [...]}`` — the cards the person has raised. The engine's selection rule
  decides: a selection that cannot be extended is played at once (event ``play`` with ``auto: true``);
  one that could be extended waits for the Play button; one that can never be played is answered with
  a ``selection`` event saying so. Either way nothing else changes.
- ``{"type": "play", "cards": [...]}`` — the Play button: play exactly these cards (checked).
- ``{"type": "pass"}`` — the Pass button.
- ``{"type": "continue"}`` — after a round's results: deal on (the computer players wait for it).

Each computer player's move is its own event, ``next_auto`` spacing them by the speed setting. Every
move, the person's or a computer player's, is written to the game's record before its event is sent.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.responses import Response

from parlour.cards import Card, Suit
from parlour.errors import IllegalMove, InvalidInput, NotYourTurn
from parlour.i18n import gettext_for, ngettext_for
from parlour.i18n.cards import card_pattern, suit_name
from parlour.server.context import current_player, parlour_of, render, request_language
from parlour.server.i18n import supported
from parlour.server.kinds import GameKind, GameRecord, NewGame
from parlour.server.live import Change, Json, LiveGame
from parlour.thirteen import STANDARD, Match, Move, Rules, parse_code
from parlour.thirteen.bots import make_bot
from parlour.thirteen.select import Selection, judge_view_selection

DOMAIN: Final = "thirteen_web"
PERSON: Final = 0
BOT_SEATS: Final = (1, 2, 3)
SPEEDS: Final = {"instant": 0.0, "fast": 0.35, "normal": 0.8, "slow": 1.6}
"""Seconds a computer player waits before its move, by the ``bot_speed`` preference."""
STRENGTHS: Final = ("random", "greedy", "heuristic")
"""The computer players' strengths the page offers (the ``bot_strength`` preference)."""
DEFAULT_SPEED: Final = "normal"
DEFAULT_STRENGTH: Final = "heuristic"
MAX_CARDS: Final = 13
RANK_CODES: Final = "A23456789TJQK"
MAX_POINTS: Final = 60
"""Point totals the page has words for (a match ends at 10; ties play on, rarely for long)."""


class ThirteenTable(LiveGame):
    """A live match: the person at seat 0, computer players of one strength at seats 1-3."""

    kind = "thirteen"

    def __init__(self, match: Match, strength: str, bot_seed: int, speed: str = DEFAULT_SPEED) -> None:
        self.match = match
        self.strength = strength
        self.bot_seed = bot_seed
        self.speed = speed
        self.bots = {seat: make_bot(strength, seed=bot_seed * 4 + seat) for seat in BOT_SEATS}
        # After a round the next deal waits for the person to have read the results.
        self.between_rounds = _just_dealt_after_a_round(match)

    # --- LiveGame ----------------------------------------------------------------------------------

    @property
    def seats(self) -> Sequence[int]:
        """Only the person watches the table."""
        return (PERSON,)

    @property
    def finished(self) -> bool:
        """True once the match has its winner."""
        return self.match.over

    def view(self, seat: int) -> Json:
        """Return the person's view: their hand, the others' card counts, the table, passes, scores."""
        if seat != PERSON:
            raise InvalidInput(f"seat {seat} is not a person's seat", code="no_such_seat")
        view = self.match.view(PERSON)
        data = view.to_json()
        # The legal moves can run to hundreds of plays; the page asks the selection rule instead.
        data.pop("legal_moves", None)
        data["can_pass"] = view.my_turn and view.table_shape is not None and not self.between_rounds
        data["between_rounds"] = self.between_rounds
        data["settings"] = {"speed": self.speed, "strength": self.strength}
        return data

    def act(self, seat: int, action: Json) -> Change:
        """Apply one of the person's actions (``select``, ``play``, ``pass``, ``continue``).

        Raises:
            InvalidInput: a malformed action (``bad_action``, ``invalid_card`` …).
            IllegalMove: the engine's reason (``not_your_turn``, ``does_not_beat`` …) or
                ``not_between_rounds`` / ``round_results_pending``.
        """
        kind = action.get("type")
        if kind == "continue":
            if not self.between_rounds:
                raise IllegalMove("the round is still being played", code="not_between_rounds")
            self.between_rounds = False
            return Change("next_round", {"round": self.match.view(PERSON).round})
        if kind not in ("select", "play", "pass"):
            raise InvalidInput(f"unknown action {kind!r}", code="bad_action")
        if self.between_rounds:
            raise IllegalMove("the next round has not started yet", code="round_results_pending")
        if kind == "pass":
            return self._move(seat, Move.pass_(), auto=False)
        cards = _cards(action.get("cards"))
        if kind == "play":
            return self._move(seat, Move.play(cards), auto=False)
        move = Move.play(cards)
        view = self.match.view(PERSON)
        if view.turn != seat:
            raise NotYourTurn(f"it is seat {view.turn}'s turn, not seat {seat}'s", code="not_your_turn")
        if move.mask & ~view.hand_mask:
            raise IllegalMove(f"{move.pretty()} is not all in your hand", code="not_in_hand")
        verdict = judge_view_selection(view, move.mask)
        if verdict is Selection.PLAY_NOW:
            return self._move(seat, move, auto=True)
        return Change("selection", {"cards": [str(card) for card in move.cards], "verdict": str(verdict)})

    def next_auto(self) -> float | None:
        """Return the pause before the next computer player's move (None when it is the person's turn)."""
        turn = self.match.turn
        if turn is None or turn == PERSON or self.between_rounds:
            return None
        return SPEEDS.get(self.speed, SPEEDS[DEFAULT_SPEED])

    def auto(self) -> Change | None:
        """Let the computer player to move choose from its own view, and make that move."""
        turn = self.match.turn
        if turn is None or turn == PERSON or self.between_rounds:
            return None
        move = self.bots[turn].choose(self.match.view(turn))
        return self._move(turn, move, auto=False)

    # --- moves -------------------------------------------------------------------------------------

    def _move(self, seat: int, move: Move, *, auto: bool) -> Change:
        """Make a checked move and describe it; raises the engine's errors, changing nothing."""
        rounds_before = len(self.match.results)
        table_before = self.match.view(PERSON).table_owner
        self.match.apply(seat, move)
        data: Json = {"seat": seat, "cards": [str(card) for card in move.cards]}
        if move.is_pass:
            name = "pass"
        else:
            name = "play"
            data["auto"] = auto
        after = self.match.view(PERSON)
        data["cleared"] = table_before is not None and after.table_owner is None
        if len(self.match.results) > rounds_before:
            data["round_result"] = self.match.results[-1].to_json()
            self.between_rounds = not self.match.over
        if self.match.over:
            data["winners"] = list(self.match.winners)
        return Change(name, data, moves=(str(move),), finished=self.match.over)


def _just_dealt_after_a_round(match: Match) -> bool:
    """True when a round has ended and nobody has moved in the next one yet (the results are showing)."""
    view = match.view(PERSON)
    return bool(view.results) and not view.history and not match.over


def _cards(value: Any) -> list[Card]:
    """Read the ``cards`` of an action: a list of 1-13 card texts.

    Raises:
        InvalidInput: not a list of card texts (``bad_action``), or an unreadable card (``invalid_card``).
    """
    if not isinstance(value, list) or not value or len(value) > MAX_CARDS:
        raise InvalidInput("cards must be a list of 1 to 13 cards such as ['5S', '5H']", code="bad_action")
    if not all(isinstance(text, str) for text in value):
        raise InvalidInput("every card must be text such as '5S'", code="bad_action")
    return [Card.parse(text) for text in value]


# --- creating and restoring games -------------------------------------------------------------------


def new_game(options: Json) -> NewGame:
    """Deal a new match from the page's options: ``code`` (``TH1-…``, optional), ``strength``, ``speed``.

    Raises:
        InvalidInput: an unknown option, strength or speed; InvalidCode: a bad match code.
    """
    unknown = sorted(set(options) - {"code", "strength", "speed"})
    if unknown:
        raise InvalidInput(f"unknown option(s): {', '.join(unknown)}", code="bad_option")
    strength = options.get("strength", DEFAULT_STRENGTH)
    speed = options.get("speed", DEFAULT_SPEED)
    if strength not in STRENGTHS:
        raise InvalidInput(f"strength {strength!r}: choose one of {', '.join(STRENGTHS)}", code="bad_option")
    if speed not in SPEEDS:
        raise InvalidInput(f"speed {speed!r}: choose one of {', '.join(SPEEDS)}", code="bad_option")
    code = options.get("code")
    if code is None or code == "":
        number = secrets.randbelow(26**7)
    elif isinstance(code, str):
        number = parse_code(code)
    else:
        raise InvalidInput(f"code {code!r} is not text", code="invalid_code")
    match = Match(number, STANDARD)
    bot_seed = number
    table = ThirteenTable(match, strength, bot_seed, speed)
    seats: list[Json] = [{"kind": "human"}] + [
        {"kind": "bot", "strength": strength, "seed": bot_seed * 4 + seat} for seat in BOT_SEATS
    ]
    return NewGame(table, match.rules.to_json(), match.code, seats)


def restore_game(record: GameRecord) -> ThirteenTable:
    """Rebuild a live match from its record by replaying every stored move with the engine.

    Raises:
        ParlourError: the record does not replay (the server then leaves it closed).
    """
    rules_data = record.rules if isinstance(record.rules, dict) else {}
    rules = Rules.from_json(rules_data) if rules_data else STANDARD
    match = Match.replay(record.code, list(record.moves), rules)
    seats = list(record.seats) if isinstance(record.seats, list | tuple) else []
    bots = [seat for seat in seats if isinstance(seat, dict) and seat.get("kind") == "bot"]
    strength = bots[0].get("strength", DEFAULT_STRENGTH) if bots else DEFAULT_STRENGTH
    if strength not in STRENGTHS:
        strength = DEFAULT_STRENGTH
    return ThirteenTable(match, strength, match.number)


REASONS: Final = {
    "not_your_turn": "It is not your turn.",
    "does_not_beat": "These cards do not beat the cards on the table.",
    "not_a_combination": "These cards do not form a combination.",
    "must_include_three_of_spades": "The first play of the game must include the 3 of spades.",
    "cannot_pass_on_empty_table": "You cannot pass on an empty table: lead a combination.",
    "locked_out_after_pass": "You passed: you are out until the table is cleared.",
    "not_in_hand": "That card is not in your hand.",
    "already_out": "You have no cards left in this round.",
    "empty_play": "Choose at least one card.",
    "duplicate_card": "A card was named twice.",
    "invalid_card": "That is not a card.",
    "invalid_code": "That is not a Thirteen code (TH1- and 7 letters).",
    "bad_action": "The move is not understood.",
    "bad_option": "That setting is not available.",
    "not_between_rounds": "The round is still being played.",
    "round_results_pending": "The next round has not started yet.",
    "game_over": "The game is over.",
}
"""English texts of the reason codes a Thirteen action can be refused with (msgids of ``thirteen_web``)."""


def explain(code: str, lang: str) -> str | None:
    """Return the translated reason for a refused Thirteen action, or None for a code not of this game."""
    message = REASONS.get(code)
    return None if message is None else gettext_for(lang, DOMAIN, message)


KIND: Final = GameKind(name="thirteen", page="/thirteen", new=new_game, restore=restore_game, explain=explain)


# --- the page ---------------------------------------------------------------------------------------

SEAT_NAMES: Final = ("You", "West", "North", "East")
SPEED_NAMES: Final = {"instant": "Instant", "fast": "Fast", "normal": "Normal", "slow": "Slow"}
STRENGTH_NAMES: Final = {"random": "Beginner", "greedy": "Casual", "heuristic": "Skilled"}
SCRIPT_TEXTS: Final = (
    "a single card", "a pair", "three of a kind", "four of a kind", "a sequence of {n}",
    "a double sequence of {n} pairs", "first out", "second", "third", "last", "Passed", "Thinking…",
    "The table is empty.", "{name} played {combo}", "The table is empty: {name} leads.",
    "The game is over.", "The round is over.", "You are out of this round ({place}).",
    "You passed: wait until the table is cleared.", "Your turn: your play must include the 3 of spades.",
    "Your turn: lead any combination.", "Your turn: beat {combo} or pass.", "Waiting for {name}…",
    "You win the game!", "{name} wins the game.", "Round {n} is over",
    "Press Play to play these cards, or add more.", "These cards cannot be played now.",
    "Connection lost: reconnecting…", "Connecting…", "This game cannot be opened here. Start a new game.",
)  # fmt: skip
"""Texts thirteen.js shows, sent to the page translated."""

router = APIRouter()


def _t(lang: str) -> Any:
    return lambda message: gettext_for(lang, DOMAIN, message)


def _preferred(preferences: Any) -> tuple[str, str]:
    """Return the (speed, strength) a player chose, or the defaults for anything unusable."""
    prefs = preferences if isinstance(preferences, dict) else {}
    speed = prefs.get("bot_speed")
    strength = prefs.get("bot_strength")
    return (
        speed if speed in SPEEDS else DEFAULT_SPEED,
        strength if strength in STRENGTHS else DEFAULT_STRENGTH,
    )


@router.get("/thirteen", include_in_schema=False)
async def thirteen_page(request: Request) -> Response:
    """The Thirteen table: the player's open match (resumed after a reload or restart) or a new one."""
    parlour = parlour_of(request)
    kind = parlour.kinds.get(KIND.name, KIND)
    player = await current_player(request)
    speed, strength = _preferred(await parlour.call(parlour.store.preferences, player.id))
    owner = await parlour.current(kind, player.id)
    if owner is None:
        owner, _ = await parlour.start(kind, player.id, {"strength": strength, "speed": speed})
    if isinstance(owner.game, ThirteenTable):
        owner.game.speed = speed
    lang = await request_language(request)
    t = _t(lang)
    seat_names = [t(name) for name in SEAT_NAMES]
    boot = {
        "game": owner.game_id,
        "lang": lang,
        "texts": {message: t(message) for message in SCRIPT_TEXTS},
        "seatNames": seat_names,
        # Card names are built on the page from rank and suit names: the page holds no card codes.
        # One pattern per rank ("queen of {suit}"), since languages inflect around the rank.
        "cardPatterns": {text: card_pattern(rank, lang) for rank, text in enumerate(RANK_CODES, start=1)},
        "suitNames": {suit.letter: suit_name(suit, lang) for suit in Suit},
        "cardCounts": [
            ngettext_for(lang, DOMAIN, "{n} card", "{n} cards", n).format(n=n) for n in range(MAX_CARDS + 1)
        ],
        "pointCounts": [
            ngettext_for(lang, DOMAIN, "{n} point", "{n} points", n).format(n=n)
            for n in range(MAX_POINTS + 1)
        ],
    }
    context = {
        "t": t,
        "boot": boot,
        "seat_names": seat_names,
        "speed": speed,
        "strength": strength,
        "speeds": [(value, t(label)) for value, label in SPEED_NAMES.items()],
        "strengths": [(value, t(label)) for value, label in STRENGTH_NAMES.items()],
    }
    return await render(request, "thirteen.html", context)


@router.post("/api/thirteen/settings")
async def thirteen_settings(request: Request) -> Response:
    """Save the computer players' ``speed`` and/or ``strength`` as the player's preferences.

    A new speed applies at once to the player's live match; a new strength from the next match.
    Returns ``{"speed": …, "strength": …}``, or 400 with ``code`` and ``message`` for a bad value.
    """
    parlour = parlour_of(request)
    player = await current_player(request)
    lang = supported(request.query_params.get("lang")) or "en"
    try:
        body: Any = await request.json()
    except ValueError:
        body = None
    allowed = {"speed": SPEEDS, "strength": STRENGTHS}
    if (
        not isinstance(body, dict)
        or not body
        or any(name not in allowed or body[name] not in allowed[name] for name in body)
    ):
        message = gettext_for(lang, DOMAIN, REASONS["bad_option"])
        return JSONResponse({"code": "bad_option", "message": message}, status_code=400)
    changes = {f"bot_{name}": value for name, value in body.items()}
    await parlour.call(parlour.store.set_preferences, player.id, **changes)
    speed, strength = _preferred(await parlour.call(parlour.store.preferences, player.id))
    for owner in parlour.live.of_player(player.id, KIND.name):
        if isinstance(owner.game, ThirteenTable):
            owner.game.speed = speed
    return JSONResponse({"speed": speed, "strength": strength})
