"""Challenges of every game that has them: a player's finished game offered to friends by a link to the
same deal (``POST /api/games/{game_id}/challenge``, or the form ``POST /{game}/challenge``), the
challenge's page ``/{game}/challenge/{id}`` and ``POST /{game}/challenge/{id}/play``.

The link holds only the challenge's id. A friend plays the deal as a ranked game (its code hidden until
it is over, decision 0041) and sees nothing of the challenger's game before their own attempt has
ended; then both results side by side, and each may open the other's review. Texts are the ``store``
domain's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.games.base import CHALLENGE_SECRET, GameDefinition
from parlour.server.pages.players import _page
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    BadBody,
    checked_form,
    current_player,
    game_having,
    known_player,
    parlour_of,
    read_form,
    refused,
)
from parlour.store import GameOpen, UnknownGame
from parlour.store.challenges import Challenge, NotChallengeable, UnknownChallenge

router = APIRouter()


def challenge_url(challenge: Challenge) -> str:
    """Return the address of a challenge's page."""
    return f"/{challenge.game}/challenge/{challenge.id}"


@router.post("/api/games/{game_id}/challenge")
async def make_challenge(request: Request, game_id: str) -> Response:
    """Offer one of the player's finished games as a challenge: 201 ``{"challenge", "url", "ranked"}``
    (``ranked`` false for an open challenge of a public deal: decision 0060; the same
    challenge again for a game offered already); 404 ``no_such_game``; 409 ``game_open`` while it is
    played (leave it first) or ``not_challengeable`` (its game has no challenges, or it was left
    before its first move)."""
    player = await known_player(request)
    if player is None:
        return await refused(request, "no_such_game", 404)
    parlour = parlour_of(request)
    try:
        challenge = await parlour.write(parlour.store.make_challenge, game_id, player.id)
    except NotChallengeable:
        return await refused(request, "not_challengeable", 409)
    except GameOpen:
        return await refused(request, "game_open", 409)
    except UnknownGame:
        return await refused(request, "no_such_game", 404)
    body = {"challenge": challenge.id, "url": challenge_url(challenge), "ranked": challenge.ranked}
    return JSONResponse(body, status_code=201)


class ChallengeForm(BaseModel):
    """The form that offers a finished game as a challenge (from a numbered game's page)."""

    game_id: str = ""


@router.post("/{game}/challenge", include_in_schema=False)
async def make_challenge_form(request: Request, game: str) -> Response:
    """Offer a finished game as a challenge from a page's form and go to the challenge's page (a game
    that cannot be offered goes back to the numbered games' page)."""
    _definition(request, game)
    fields = await checked_form(request)
    try:
        form = read_form(fields, ChallengeForm)
    except BadBody:
        form = ChallengeForm()
    player = await current_player(request)
    parlour = parlour_of(request)
    try:
        challenge = await parlour.write(parlour.store.make_challenge, form.game_id, player.id)
    except EDGE_ERRORS:
        raise
    except ParlourError:
        return RedirectResponse(f"/{game}/numbered", 303)
    return RedirectResponse(challenge_url(challenge), 303)


def _definition(request: Request, game: str) -> GameDefinition:
    """Return the game named in a challenge's address.

    Raises:
        HTTPException: 404, no registered game of that name has challenges.
    """
    return game_having(request, game, lambda found: found.challenges and found.daily is not None)


async def _challenge(request: Request, game: str, challenge_id: str) -> tuple[GameDefinition, Challenge]:
    definition = _definition(request, game)
    parlour = parlour_of(request)
    try:
        challenge = await parlour.call(parlour.store.challenge, challenge_id)
    except UnknownChallenge:
        raise HTTPException(404) from None
    if challenge.game != game:
        raise HTTPException(404)
    return definition, challenge


@router.get("/{game}/challenge/{challenge_id}", include_in_schema=False)
async def challenge_page(request: Request, game: str, challenge_id: str) -> Response:
    """A challenge: to its challenger, the link to share and the friends' answers; to a friend who has
    answered, both results side by side with their reviews; to anyone else, who challenges them and a
    button to play the same deal (nothing of the challenger's game)."""
    definition, challenge = await _challenge(request, game, challenge_id)
    parlour = parlour_of(request)
    player = await known_player(request)
    me = player.id if player else None
    answers = await parlour.call(parlour.store.challenge_answers, challenge.id)
    mine = next((answer for answer in answers if answer.player_id == me), None)
    is_challenger = me == challenge.challenger_id
    open_games = await parlour.call(parlour.store.open_games, me, game) if me is not None else []
    in_play = any((record.secret or {}).get(CHALLENGE_SECRET) == challenge.id for record in open_games)
    shown: dict[str, Any] = {
        "definition": definition,
        "daily": definition.daily,
        "challenge_id": challenge.id,
        "ranked": challenge.ranked,
        "challenger": challenge.challenger_name,
        "is_challenger": is_challenger,
        "mine": mine,
        "in_play": in_play and mine is None and not is_challenger,
        "can_play": definition.page is not None and not is_challenger,
        "link": str(request.url_for("challenge_page", game=game, challenge_id=challenge.id)),
    }
    # The challenger's game is shown only to its challenger and to a friend whose answer has ended.
    if is_challenger or mine is not None:
        shown.update(offered=challenge)
        shown.update(answers=answers if is_challenger else [mine])
    return await _page(request, "challenge.html", shown)


@router.post("/{game}/challenge/{challenge_id}/play", include_in_schema=False)
async def play_challenge(request: Request, game: str, challenge_id: str) -> Response:
    """Start an attempt at a challenge's deal (ranked: its code hidden until it is over) and go to the
    game's page; the first attempt to end is the friend's answer. The challenger goes back to the
    challenge's page."""
    definition, challenge = await _challenge(request, game, challenge_id)
    await checked_form(request)
    player = await current_player(request)
    if player.id == challenge.challenger_id or definition.page is None:
        return RedirectResponse(challenge_url(challenge), 303)
    parlour = parlour_of(request)
    try:
        ranked = definition.ranked(challenge.code, {CHALLENGE_SECRET: challenge.id})
        if ranked.spec is not None:  # a challenge of this attempt is ranked as this one is
            ranked = replace(ranked, spec=replace(ranked.spec, deal_drawn=challenge.ranked))
        await parlour.start(definition, player.id, {}, ranked)
    except EDGE_ERRORS:
        raise
    except ParlourError:
        return RedirectResponse(challenge_url(challenge), 303)
    return RedirectResponse(definition.page, status_code=303)
