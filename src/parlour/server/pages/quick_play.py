"""Play with anyone over HTTP, for every game played at tables (issue 50, decision 0062).

- ``POST /api/play-now`` seats the person at a public table at once: their claim if they hold one,
  else a computer-held seat of a table in play with the same options (theirs from the next round),
  else a new table with computer players at the other seats.
- ``POST /api/tables/{table_id}/claim`` lets a watcher claim a computer-held seat of that table.
- ``DELETE /api/play-now`` gives up a claim not honoured yet.
- ``GET /api/ratings`` is a game's leaderboard of people; ``GET /api/players/me/rating`` the player's.

A claim is only a row in the database: the table's owner, on whichever process, honours it at the next
round (``parlour.server.owners.tables``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr
from starlette.responses import Response

from parlour.errors import InvalidInput, ParlourError
from parlour.games.base import GameDefinition
from parlour.games.ratings import Skill, closest
from parlour.games.tables import Seat, TableRecord, TableSettings, clean_name, seated_game
from parlour.server.i18n import supported
from parlour.server.pages.requests import (
    BadBody,
    current_player,
    game_having,
    known_player,
    parlour_of,
    read_body,
    render,
    request_language,
)
from parlour.server.pages.table_pages import refusal, table_game, table_url
from parlour.store.errors import StoreUnavailable, conflict
from parlour.store.ratings import MIN_ROUNDS
from parlour.store.seat_claims import SeatClaim

router = APIRouter()


class PlayNow(BaseModel):
    """What a person chooses for Play now: the ``game`` (may be left out while one game only is played
    at tables), ``rated`` or casual, the points ``target`` (the game's default when left out) and the
    computer players' ``strength`` for the seats nobody holds."""

    model_config = ConfigDict(extra="forbid")

    game: StrictStr | None = None
    rated: StrictBool = False
    target: StrictInt | None = None
    strength: StrictStr | None = None


class ClaimSeat(BaseModel):
    """A watcher's claim of a computer-held ``seat`` (the first free one when left out)."""

    model_config = ConfigDict(extra="forbid")

    seat: StrictInt | None = None


def play_summary(definition: GameDefinition, record: TableRecord) -> dict[str, Any]:
    """Return what a list of public tables in play shows of one: its address, each seat (a person's
    name or a computer player, with their points), how many watch, the points to win, whether it is
    rated and how many seats a computer player holds (a watcher may claim one for the next round)."""
    game = seated_game(definition)
    settings = TableSettings.from_record(game, record.settings)
    seats = []
    for data in record.seats[: game.seats]:
        seat = Seat.from_record(data, game)
        points = data.get("points") if isinstance(data, dict) else None
        seats.append(
            {"kind": seat.kind, "name": seat.name, "points": points if isinstance(points, int) else 0}
        )
    return {
        "table": record.table_id,
        "code": record.code,
        "url": table_url(definition, record.code),
        "seats": seats,
        "watchers": record.watchers,
        "target_points": settings.rules.target_points,
        "rated": settings.rated,
        "strength": settings.strength,
        "computer_seats": sum(1 for seat in seats if seat["kind"] == "bot"),
    }


@router.get("/api/tables/playing")
async def tables_in_play(request: Request) -> Response:
    """The public tables in play of a game (``?game=…``): ``{"tables": [play_summary …]}``."""
    parlour = parlour_of(request)
    try:
        definition = table_game(parlour.games, request.query_params.get("game"))
    except ParlourError as error:
        return refusal(None, error, await _language(request))
    records = await parlour.call(parlour.store.tables_in_play, definition.name)
    return JSONResponse({"tables": [play_summary(definition, record) for record in records]})


def claim_json(definition: GameDefinition, claim: SeatClaim, code: str) -> dict[str, Any]:
    """Return what a page is told of a claim: the table, its address, the seat, and whether the person
    sits there already (else from the next round)."""
    return {
        "table": claim.table_id,
        "code": code,
        "url": table_url(definition, code),
        "seat": claim.seat,
        "seated": claim.seated,
        "new_table": claim.new_table,
    }


async def _language(request: Request) -> str:
    return supported(request.query_params.get("lang")) or await request_language(request)


@router.post("/api/play-now")
async def play_now(request: Request) -> Response:
    """Seat the person at a public table now: body ``{"game", "rated", "target", "strength"}`` (all
    optional). Returns ``{"table", "code", "url", "seat", "seated", "new_table"}``; 400 with ``code``
    and ``message`` for a bad option."""
    parlour = parlour_of(request)
    lang = await _language(request)
    definition: GameDefinition | None = None
    try:
        try:
            body = await read_body(request, PlayNow, empty={})
        except BadBody as error:
            raise InvalidInput(str(error), code="bad_option") from None
        definition = table_game(parlour.games, body.game)
        game = seated_game(definition)
        rules = game.rules({"target_points": body.target} if body.target is not None else None)
        settings = TableSettings.for_quick_play(
            game, rules, body.strength or game.default_strength, rated=body.rated
        )
    except ParlourError as error:
        return refusal(definition, error, lang)
    player = await current_player(request)
    await parlour.limits.hit("play_now", str(player.id))
    name = player.name or ""  # none chosen: the table calls the seat "Player N"
    person = Seat("person", clean_name(name, 0), player.id, None)
    computer = Seat("bot", "", None, None, settings.strength)
    seats = [person.to_record(), *(computer.to_record() for _ in range(game.seats - 1))]
    arguments = (definition.name, player.id, name, settings.quick_key(), settings.to_json(), seats)
    try:
        claim = await parlour.write(parlour.store.play_now, *arguments, rated=settings.rated)
    except StoreUnavailable as error:
        if not conflict(error):
            raise
        # The same person pressed on another process at the same moment: their claim is made there.
        claim = await parlour.write(parlour.store.play_now, *arguments, rated=settings.rated)
    record = await parlour.call(parlour.store.table, claim.table_id)
    parlour.metrics.seated(definition.name, new_table=claim.new_table)
    return JSONResponse(
        claim_json(definition, claim, record.code), status_code=201 if claim.new_table else 200
    )


@router.post("/api/tables/{table_id}/claim")
async def claim_seat(request: Request, table_id: str) -> Response:
    """A watcher claims a computer-held seat of a public table: body ``{"seat": n}`` (optional).
    Returns the claim (as ``POST /api/play-now``); 400 ``seat_taken``, ``table_full`` or
    ``seated_elsewhere``, 404 ``no_such_table``."""
    parlour = parlour_of(request)
    lang = await _language(request)
    try:
        try:
            body = await read_body(request, ClaimSeat, empty={})
        except BadBody as error:
            raise InvalidInput(str(error), code="bad_option") from None
        record = await parlour.call(parlour.store.table, table_id)
        definition = parlour.games.get(record.game)
    except ParlourError as error:
        status = 404 if error.code == "no_such_table" else 400
        answer = refusal(None, error, lang)
        answer.status_code = status
        return answer
    player = await current_player(request)
    await parlour.limits.hit("play_now", str(player.id))
    name = player.name or ""
    try:
        claim = await parlour.write(parlour.store.claim_seat, table_id, player.id, name, body.seat)
    except ParlourError as error:
        return refusal(definition, error, lang)
    return JSONResponse(claim_json(definition, claim, record.code))


class ReportName(BaseModel):
    """The ``seat`` whose person's name is reported."""

    model_config = ConfigDict(extra="forbid")

    seat: StrictInt


@router.post("/api/tables/{table_id}/report")
async def report_name(request: Request, table_id: str) -> Response:
    """Report the name of the person at a seat (body ``{"seat": n}``): it is queued for an operator
    and the answer ``{"name"}`` tells the page which name to hide for this person. 400
    ``nothing_to_report`` for a seat with no other person, 404 ``no_such_table``."""
    parlour = parlour_of(request)
    lang = await _language(request)
    player = await current_player(request)
    try:
        try:
            body = await read_body(request, ReportName)
        except BadBody as error:
            raise InvalidInput(str(error), code="bad_option") from None
        await parlour.limits.hit("play_now", str(player.id))
        name = await parlour.write(parlour.store.report_name, player.id, table_id, body.seat)
    except ParlourError as error:
        answer = refusal(None, error, lang)
        answer.status_code = 404 if error.code == "no_such_table" else answer.status_code
        return answer
    return JSONResponse({"name": name})


@router.delete("/api/play-now")
async def give_up(request: Request) -> Response:
    """Give up a claim not honoured yet (a seat already handed over is left from the table's page)."""
    parlour = parlour_of(request)
    player = await known_player(request)
    if player is not None:
        await parlour.write(parlour.store.leave_claim, player.id)
    return Response(status_code=204)


def rating_json(skill: Skill, computers: dict[str, Skill]) -> dict[str, Any]:
    """Return a rating as pages read it, with the computer player whose rating is closest."""
    return {**skill.to_json(), "closest": closest(skill, computers)}


@router.get("/api/ratings")
async def leaderboard(request: Request) -> Response:
    """A game's leaderboard of people (``?game=…``, ``?week=1`` for the last seven days):
    ``{"game", "week", "min_rounds", "people": [{"name", "rating", "spread", "provisional", "rounds"}]}``."""
    parlour = parlour_of(request)
    try:
        definition = table_game(parlour.games, request.query_params.get("game"))
    except ParlourError as error:
        return refusal(None, error, await _language(request))
    week = request.query_params.get("week") in ("1", "true")
    board = await parlour.call(parlour.store.leaderboard, definition.name, week=week)
    seated = seated_game(definition)
    computers = dict(seated.computer_ratings)
    return JSONResponse(
        {
            "game": definition.name,
            "week": week,
            "people": [
                {"name": line.name, "rounds": line.rounds, **rating_json(line.skill, computers)}
                for line in board
            ],
        }
    )


@router.get("/api/players/me/rating")
async def my_rating(request: Request) -> Response:
    """The player's rating at a game (``?game=…``) with its history: ``{"rating": {…} | null,
    "history": [{"at", "rating", "spread"}]}`` (no player is made for the question)."""
    parlour = parlour_of(request)
    try:
        definition = table_game(parlour.games, request.query_params.get("game"))
    except ParlourError as error:
        return refusal(None, error, await _language(request))
    player = await known_player(request)
    if player is None:
        return JSONResponse({"rating": None, "history": []})
    skill = await parlour.call(parlour.store.rating, definition.name, player.id)
    history = await parlour.call(parlour.store.rating_history, definition.name, player.id)
    computers = dict(seated_game(definition).computer_ratings)
    return JSONResponse(
        {
            "rating": None if skill is None else rating_json(skill, computers),
            "history": [
                {"at": at.isoformat(), "rating": point.shown, "spread": point.spread} for at, point in history
            ],
        }
    )


@router.get("/ratings/{game}", include_in_schema=False)
async def leaderboard_page(request: Request, game: str) -> Response:
    """A game's leaderboards of people (this week and all time) beside its computer players' fixed
    ratings, on one scale."""
    definition = game_having(
        request, game, lambda found: bool(found.seated and found.seated.computer_ratings)
    )
    seated = seated_game(definition)
    parlour = parlour_of(request)
    lang = await request_language(request)
    week = await parlour.call(parlour.store.leaderboard, definition.name, week=True)
    ever = await parlour.call(parlour.store.leaderboard, definition.name)
    computers = sorted(seated.computer_ratings.items(), key=lambda item: -item[1].mu)
    context = {
        "game": definition,
        "boards": [("week", week), ("all", ever)],
        "computers": [(seated.strength_label(name, lang), skill) for name, skill in computers],
        "min_rounds": MIN_ROUNDS,
    }
    return await render(request, "ratings.html", context)
