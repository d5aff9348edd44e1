"""The Thirteen page, ``GET /thirteen``, and its settings endpoint, ``POST /api/thirteen/settings``.

The live match itself is ``parlour.thirteen.definition``; this module only renders the table page (resuming
the player's open match, or dealing one) and saves the computer players' settings, which reach a live
match only through its owner.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, StrictStr, model_validator
from starlette.responses import Response

from parlour.cards import Suit
from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.i18n import gettext_for, labelled, ngettext_for
from parlour.i18n.cards import card_pattern, rank_letters, suit_name
from parlour.server.i18n import supported
from parlour.server.pages.requests import (
    BadBody,
    current_player,
    known_player,
    parlour_of,
    read_body,
    render,
    request_language,
)
from parlour.server.pages.reviews import review_for_page
from parlour.thirteen.definition import (
    COMBINATION_NAMES,
    DEFAULT_SPEED,
    DEFAULT_STRENGTH,
    DOMAIN,
    MAX_CARDS,
    NAME,
    REASONS,
    SPEED_NAMES,
    SPEEDS,
    STRENGTH_NAMES,
    STRENGTHS,
    check_settings,
    strength_name,
)
from parlour.thirteen.review_texts import review_positions, review_texts

RANK_CODES: Final = "A23456789TJQK"
MAX_POINTS: Final = 60
"""Point totals the page has words for (a match ends at 10; ties play on, rarely for long)."""

# --- the page ---------------------------------------------------------------------------------------

SEAT_NAMES: Final = ("You", "West", "North", "East")
SCRIPT_TEXTS: Final = (
    "a single card", "a pair", "three of a kind", "four of a kind", "a sequence of {n}",
    "a double sequence of {n} pairs", "first out", "second", "third", "last", "Passed", "Thinking…",
    "The table is empty.", "{name} played {combo}", "The table is empty: {name} leads.",
    "The table is empty: you lead.",
    "The game is over.", "The round is over.", "You are out of this round ({place}).",
    "You passed: wait until the table is cleared.", "Your turn: your play must include the 3 of spades.",
    "Your turn: lead any combination.", "Your turn: beat {combo} or pass.", "Waiting for {name}…",
    "You win the game!", "{name} wins the game.", "Round {n} is over",
    "Press Play to play these cards, or add more.", "These cards cannot be played now.",
    "Connection lost: reconnecting…", "Connecting…", "This game cannot be opened here. Start a new game.",
    "This game was ended in another window or tab. Reload the page to go on.",
    "The table cannot be reached just now: trying again…",
    "First to 1 point wins.", "First to {n} points wins.",
    "Duplicate: deal {deal} of {deals}, rotation {rotation} of 4.", "You hold hand {hand}.", "Hand",
    "{names} share the win.",
    "This browser cannot compute SHA-256 on this page: use the command below.",
    "The commitment matches this code and salt: the cards were not changed during the game.",
    "The commitment does not match this code and salt!",
    "2s played: {cards}",
    "Bombs played: {n}",
    "Bomb!",
    "Away",
    "Nobody is at the table: the game waits for its players to come back.",
    "{name} is away: a computer player takes their turns if they do not come back soon.",
    "The code and salt are shown when the day is over.",
    "Duplicate: 1 deal, played four times", "Duplicate: {n} deals, each played four times",
    # The screen-reader mode's event log, the asking keys' answers and the command box.
    "New round.", "Your hand: {cards}.", "Your hand is empty.", "You play {combo}: {cards}.",
    "{name} plays {combo}: {cards}.", "You pass.", "{name} passes.", "{name} says: {text}",
    "{name} is out: {place}.", "Points", "Last trick", "There is no last trick yet.", "Trick {n}",
    "There is no clock on this turn.", "{seconds} s left for {name}.",
    "Type cards such as 3♠ 4♠ 5♠ (or 3s 4s 5s) to play them, or pass.",
    "Not a card: “{word}”. Write a card as 3♠ or 3s.", "You do not hold {card}.", "play", "pass", "next",
)  # fmt: skip
"""Texts thirteen.js shows, sent to the page translated."""

router = APIRouter()


def thirteen_texts(lang: str) -> Any:
    """Return the translation of ``thirteen_web`` messages into ``lang`` (the templates' ``t``)."""
    return lambda message: gettext_for(lang, DOMAIN, message)


def _definition(request: Request) -> GameDefinition:
    return parlour_of(request).games.get(NAME)


def preferred(preferences: Any) -> tuple[str, str]:
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
    """The Thirteen table: the player's open match (resumed after a reload or restart) or a new one.

    A visitor who is not a player yet gets the table without a match: its script deals the first one
    (``POST /api/games/thirteen``), which makes the player, so that a page view makes nobody.
    """
    parlour = parlour_of(request)
    definition = _definition(request)
    player = await known_player(request)
    prefs_of_player = await parlour.call(parlour.store.preferences, player.id if player else None)
    speed, strength = preferred(prefs_of_player)
    game_id = None
    if player is not None:
        owner = await parlour.current(definition, player.id)
        if owner is None:
            owner, _ = await parlour.start(definition, player.id, {"strength": strength, "speed": speed})
        else:
            await owner.configure(0, {"speed": speed})
        game_id = owner.game_id
    lang = await request_language(request)
    context = page_context(lang, prefs_of_player, speed, strength)
    context["boot"]["game"] = game_id
    context["boot"]["player"] = player is not None
    return await render(request, "thirteen.html", context)


def page_context(lang: str, preferences: dict[str, Any], speed: str, strength: str) -> dict[str, Any]:
    """Return the template context of a Thirteen page in ``lang`` (a match against the computer or a
    friends' table): the translations, the page script's boot data and the settings' choices."""
    t = thirteen_texts(lang)
    seat_names = [t(name) for name in SEAT_NAMES]
    boot: dict[str, Any] = {
        "lang": lang,
        "texts": {message: t(message) for message in SCRIPT_TEXTS},
        "label": labelled("{label}", lang),  # a label before its value: "{label}:", "{label}\u00a0:"
        # Why a selection can never be played, by the engine's reason code.
        "reasons": {code: t(message) for code, message in REASONS.items()},
        # A combination's name by its kind; the view's combination says its kind and its ``n``.
        "comboNames": {kind: t(message) for kind, message in COMBINATION_NAMES.items()},
        "seatNames": seat_names,
        # Card names are built on the page from rank and suit names: the page holds no card codes.
        # One pattern per rank ("queen of {suit}"), since languages inflect around the rank.
        "cardPatterns": {text: card_pattern(rank, lang) for rank, text in enumerate(RANK_CODES, start=1)},
        "suitNames": {suit.letter: suit_name(suit, lang) for suit in Suit},
        "rankLetters": rank_letters(lang),
        "sound": preferences.get("sound", True) is not False,
        "cardCounts": [
            ngettext_for(lang, DOMAIN, "{n} card", "{n} cards", n).format(n=n) for n in range(MAX_CARDS + 1)
        ],
        # Said in the end window to a person a computer player stood in for, by the rounds it played.
        "playedFor": [
            ngettext_for(
                lang,
                DOMAIN,
                "A computer player played for you in {n} round while you were away.",
                "A computer player played for you in {n} rounds while you were away.",
                n,
            ).format(n=n)
            for n in range(MAX_POINTS + 1)
        ],
        "pointCounts": [
            ngettext_for(lang, DOMAIN, "{n} point", "{n} points", n).format(n=n)
            for n in range(MAX_POINTS + 1)
        ],
    }
    return {
        "t": t,
        "boot": boot,
        "seat_names": seat_names,
        "speed": speed,
        "strength": strength,
        "speeds": [(value, t(label)) for value, label in SPEED_NAMES.items()],
        "strengths": [(value, strength_name(value, lang)) for value in STRENGTH_NAMES],
    }


class ComputerPlayers(BaseModel):
    """The computer players' settings a page saves: their ``speed``, their ``strength``, or both."""

    model_config = ConfigDict(extra="forbid")

    speed: StrictStr | None = None
    strength: StrictStr | None = None

    @model_validator(mode="after")
    def _offered(self) -> ComputerPlayers:
        """Check each value against what the game offers (``check_settings``)."""
        try:
            check_settings(self.model_dump(exclude_none=True) or {"speed": DEFAULT_SPEED})
        except ParlourError as error:
            raise ValueError(
                f"speed is one of {', '.join(SPEEDS)}; strength one of {', '.join(STRENGTHS)}"
            ) from error
        return self


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
        chosen = (await read_body(request, ComputerPlayers)).model_dump(exclude_none=True)
        if not chosen:
            raise BadBody("choose a speed, a strength or both")
    except BadBody as error:
        message = gettext_for(lang, DOMAIN, REASONS["bad_option"])
        return JSONResponse({"code": "bad_option", "message": message, "detail": str(error)}, status_code=400)
    changes = {f"bot_{name}": value for name, value in chosen.items()}
    await parlour.write(parlour.store.set_preferences, player.id, **changes)
    speed, strength = preferred(await parlour.call(parlour.store.preferences, player.id))
    for owner in parlour.live.of_player(player.id, NAME):
        await owner.configure(0, {"speed": speed})
    return JSONResponse({"speed": speed, "strength": strength})


# --- the review of a finished match -----------------------------------------------------------------


def review_seat_names(seats: list[Any], reviewed: int, lang: str) -> list[str]:
    """Return the names the review gives the four seats: "You" for the reviewed one, a person's name
    at a friends' table, the seat's place at the table ("West" …) for a computer player."""
    t = thirteen_texts(lang)
    found = []
    for seat in range(len(SEAT_NAMES)):
        entry = seats[seat] if seat < len(seats) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        if seat == reviewed:
            found.append(t("You"))
        elif isinstance(name, str) and name.strip():
            found.append(name.strip())
        else:
            found.append(t(SEAT_NAMES[seat]))
    return found


@router.get("/thirteen/review/{game_id}", include_in_schema=False)
async def review_page(request: Request, game_id: str) -> Response:
    """The review of a finished Thirteen match the player played: every round with the four hands, step
    by step (←/→, a slider, the list of moves), and at each of the player's decisions the expert's
    estimate of the move played and of its best candidate, graded. A match in play has no review (its
    hands are hidden): 409; a match left unfinished, another player's or none: 404."""
    found = await review_for_page(request, game_id, NAME)
    if isinstance(found, Response):
        return found
    record, review = found
    lang = await request_language(request)
    names = review_seat_names(list(record.seats), int(review["seat"]), lang)
    said = review_texts(review, lang, names)
    return await render(
        request,
        "thirteen_review.html",
        {
            "t": thirteen_texts(lang),
            "said": said,
            "code": review["code"],
            "names": names,
            "script_data": {
                "review": review,
                "positions": review_positions(review),
                "steps": said["steps"],
                "grades": said["grades"],
                "names": names,
                "rankLetters": rank_letters(lang),
            },
        },
    )
