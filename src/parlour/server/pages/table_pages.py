"""Friends' tables over HTTP, for every game played at tables: ``POST /api/tables`` makes one and
``GET /api/tables`` lists the public ones gathering players. (Each game's own pages — its tables page
and a table's page — come with its page module.)

Creating a table only writes its row (the host seated at seat 0 with a fresh seat token): the table
comes alive in whichever process a page's socket reaches first (``parlour.server.sockets.page_socket``).
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, StrictStr
from starlette.responses import Response

from parlour.errors import InvalidInput, ParlourError
from parlour.games.base import GameDefinition
from parlour.games.registry import Registry
from parlour.games.tables import Seat, TableRecord, TableSettings, clean_name, seated_game
from parlour.server.i18n import supported
from parlour.server.pages.requests import (
    BadBody,
    current_player,
    parlour_of,
    read_body,
    request_language,
)
from parlour.store.secrets import digest

router = APIRouter()


def refusal(definition: GameDefinition | None, error: ParlourError, lang: str) -> JSONResponse:
    """Return 400 with the reason code, its text in ``lang`` (the table's game explains it) and the
    detail."""
    text = (definition.explain(error.code, lang) if definition is not None else None) or str(error)
    return JSONResponse({"code": error.code, "message": text, "detail": str(error)[:300]}, status_code=400)


def seated_games(games: Registry) -> list[GameDefinition]:
    """Return the registered games played at friends' tables."""
    return [definition for definition in games if definition.seated is not None]


def table_game(games: Registry, name: Any) -> GameDefinition:
    """Return the game a request names for a table (``name`` None: the one game played at tables, when
    there is exactly one).

    Raises:
        InvalidInput: no such game, a game played alone, or none named among several (``bad_option``).
    """
    only = _only(games)
    if name is None and only is not None:
        return only
    seated = seated_games(games)
    choices = ", ".join(definition.name for definition in seated)
    if not isinstance(name, str) or not any(definition.name == name for definition in seated):
        raise InvalidInput(f"name the table's game: one of {choices}", code="bad_option")
    return games.get(name)


def table_url(definition: GameDefinition, code: str) -> str:
    """Return the address of a table's page: ``/{game}/t/{code}``."""
    return f"/{definition.name}/t/{code}"


def table_summary(definition: GameDefinition, record: TableRecord) -> dict[str, Any]:
    """Return what the lobby shows of a public table: its code, address, host's name, seats taken, the
    points its match is played to and, for a duplicate set, its number of deals (0 otherwise)."""
    game = seated_game(definition)
    seats = [Seat.from_record(data, game) for data in record.seats]
    settings = TableSettings.from_record(game, record.settings)
    host = next((seat.name for seat in seats if seat.player_id == record.host), "")
    return {
        "code": record.code,
        "url": table_url(definition, record.code),
        "host": host,
        "free": sum(1 for seat in seats if seat.kind == "empty"),
        "people": sum(1 for seat in seats if seat.kind == "person"),
        "target_points": settings.rules.target_points,
        "duplicate_deals": settings.rules.duplicate_deals,
        "turn_seconds": settings.turn_seconds,
    }


class NewTable(BaseModel):
    """A new table: its ``game`` (may be left out while one game only is played at tables), the host's
    ``name`` (the player's own by default) and its ``settings`` (the table's and the game's, checked by
    the table)."""

    model_config = ConfigDict(extra="forbid")

    game: StrictStr | None = None
    name: StrictStr | None = None
    settings: dict[str, Any] | None = None


@router.post("/api/tables")
async def create_table(request: Request) -> Response:
    """Create a friends' table: body ``{"game": …, "name": …, "settings": {…}}`` (all optional; the
    game may be left out while one game only is played at tables).

    Returns ``{"table", "code", "url", "seat", "seat_token"}``: the host sits at seat 0, and the seat
    token (shown only here) lets the host's pages act for that seat. 400 with ``code`` and ``message``
    for a bad game or bad settings.
    """
    parlour = parlour_of(request)
    player = await current_player(request)
    lang = supported(request.query_params.get("lang")) or await request_language(request)
    definition: GameDefinition | None = None
    try:
        try:
            body = await read_body(request, NewTable, empty={})
        except BadBody as error:
            raise ParlourError(str(error), code="bad_option") from None
        definition = table_game(parlour.games, body.game)
        game = seated_game(definition)
        settings = TableSettings.from_json(game, body.settings)
        name = clean_name(body.name or player.name, 0)
    except ParlourError as error:
        return refusal(definition or _only(parlour.games), error, lang)
    await parlour.limits.hit("new_table", str(player.id))
    seat_token = secrets.token_urlsafe(24)
    host = Seat("person", name, player.id, digest(seat_token))
    seats = [host.to_record(), *(Seat().to_record() for _ in range(game.seats - 1))]
    record = await parlour.write(
        parlour.store.create_table, definition.name, player.id, settings.to_json(), seats
    )
    return JSONResponse(
        {
            "table": record.table_id,
            "code": record.code,
            "url": table_url(definition, record.code),
            "seat": 0,
            "seat_token": seat_token,
        },
        status_code=201,
    )


@router.get("/api/tables")
async def public_tables(request: Request) -> Response:
    """The public lobby of a game (``?game=…``, which may be left out while one game only is played
    at tables): ``{"tables": [{"code", "url", "host", "free", "people", …}]}``."""
    parlour = parlour_of(request)
    try:
        definition = table_game(parlour.games, request.query_params.get("game"))
    except ParlourError as error:
        lang = supported(request.query_params.get("lang")) or await request_language(request)
        return refusal(_only(parlour.games), error, lang)
    records = await parlour.call(parlour.store.public_tables, definition.name)
    return JSONResponse({"tables": [table_summary(definition, record) for record in records]})


def _only(games: Registry) -> GameDefinition | None:
    """Return the one game played at tables, which explains a refusal before any game was named (None
    when there are several)."""
    seated = seated_games(games)
    return seated[0] if len(seated) == 1 else None
