"""One player on every device (decision 0064), besides passkeys: link codes with their QR image, the
list of the player's browsers, bringing another player's history in, the download of one's data and
"Delete me".

- ``GET /api/player``: the browser's player, ``{"id", "name"}``; 404 ``no_player`` for none.
- ``POST /player/link``: a link code (and its QR image) on the player page, valid ten minutes, once.
- ``GET /link?code=…`` / ``POST /link``: another browser signs in with it (opening the address only
  fills the form in; posting it signs in). Tries are rate-limited per address.
- ``POST /player/browsers/{id}/sign-out``, ``POST /player/passkeys/{id}/remove``.
- ``POST /player/merge`` / ``POST /player/merge/decline``: after a sign-in on a browser whose own
  player had played, bring that player's history in (both tokens prove both players) or not.
- ``GET /player/data.json``: every row that names the player, as a download.
- ``POST /player/delete`` (with ``confirm=on``): erase the player; results stay under "Anonymous".

Forms carry the CSRF token; every refusal says what was wrong and changes nothing.
"""

from __future__ import annotations

import logging
from typing import Final

import orjson
import segno
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse
from markupsafe import Markup
from pydantic import BaseModel
from starlette.responses import Response

from parlour.errors import ParlourError
from parlour.server.context import Parlour
from parlour.server.edge.player_cookie import TOKEN_COOKIE
from parlour.server.pages.players import StoreTexts, player_page_response
from parlour.server.pages.requests import (
    EDGE_ERRORS,
    checked_form,
    client_address,
    known_player,
    parlour_of,
    read_form,
    refused,
    render,
    request_language,
)
from parlour.server.pages.sign_in import (
    PREVIOUS_COOKIE,
    agent_of,
    merge_candidate,
    player_json,
    sign_in_browser,
)
from parlour.store.player_data import PlayerSeated

router = APIRouter()
SEATED: Final = "You are at a table: leave it first, then try again."
BAD_LINK_CODE: Final = "This link code is not valid: it may be used already or expired. Make a new one."
log = logging.getLogger("parlour.server")


@router.get("/api/player")
async def the_player(request: Request) -> Response:
    """The browser's player: ``{"id", "name"}``; 404 ``{"code": "no_player"}`` for a browser that has
    none (nothing is made)."""
    player = await known_player(request)
    if player is None:
        return await refused(request, "no_player", 404)
    return JSONResponse(player_json(player), headers={"Cache-Control": "no-store"})


def qr_image(address: str, title: str) -> Markup:
    """Return an inline SVG QR image of ``address`` (made here: no script, nothing fetched)."""
    code = segno.make(address, error="m")
    svg = code.svg_inline(scale=4, border=2, dark="#000", light="#fff", title=title, svgclass="qr")
    return Markup(svg.replace("<svg ", '<svg role="img" ', 1))


def site_address(request: Request) -> str:
    """Return the site's address as players reach it: ``--public-url``, else the request's own."""
    public = parlour_of(request).public_url
    return (public or str(request.base_url)).rstrip("/")


@router.post("/player/link", include_in_schema=False)
async def make_link_code(request: Request) -> Response:
    """Show a link code and its QR image on the player page (no-store: it is a secret for minutes)."""
    await checked_form(request)
    player = await known_player(request)
    if player is None:  # nothing to link yet
        return RedirectResponse("/player", status_code=303)
    parlour = parlour_of(request)
    code, expires = await parlour.write(parlour.store.new_link_code, player.id)
    lang = await request_language(request)
    s = StoreTexts(lang)
    address = f"{site_address(request)}/link?code={code}"
    link = {
        "code": code,
        "address": address,
        "expires": expires,
        "qr": qr_image(address, s("QR code: open it on the other device to sign in as you")),
    }
    response = await player_page_response(request, link=link)
    response.headers["Cache-Control"] = "no-store"
    return response


class LinkForm(BaseModel):
    """The form of a link code typed (or brought by the QR image's address) on another browser."""

    code: str = ""


async def _link_page(request: Request, code: str, problem: str | None = None, status: int = 200) -> Response:
    lang = await request_language(request)
    response = await render(
        request, "link.html", {"s": StoreTexts(lang), "code": code[:20], "problem": problem}
    )
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/link", include_in_schema=False)
async def link_page(request: Request) -> Response:
    """The page a link code is typed into (the QR image's address fills it in; nothing is changed
    until the form is sent)."""
    return await _link_page(request, request.query_params.get("code", ""))


@router.post("/link", include_in_schema=False)
async def redeem_link_code(request: Request) -> Response:
    """Sign this browser in with a link code (form field ``code``)."""
    form = read_form(await checked_form(request), LinkForm)
    parlour = parlour_of(request)
    await parlour.limits.hit("link_code", client_address(request))
    try:
        token = await parlour.write(parlour.store.redeem_link_code, form.code, agent_of(request))
    except EDGE_ERRORS:
        raise
    except ParlourError:
        lang = await request_language(request)
        problem = StoreTexts(lang)(
            "This link code is not valid: it may be used already or expired. Make a new one."
        )
        return await _link_page(request, form.code, problem, 400)
    player = await parlour.call(parlour.store.player_by_token, token)
    assert player is not None
    previous = await merge_candidate(request, player.id)
    response = RedirectResponse("/player?saved=linked", status_code=303)
    sign_in_browser(request, response, token, previous)
    log.info("player %s signed in with a link code", player.id)
    return response


@router.post("/player/browsers/{browser_id}/sign-out", include_in_schema=False)
async def sign_out_browser(request: Request, browser_id: str) -> Response:
    """Sign one of the player's browsers out (this one too, if it is this one)."""
    await checked_form(request)
    player = await known_player(request)
    if player is None:
        return RedirectResponse("/player", status_code=303)
    parlour = parlour_of(request)
    mine = await parlour.call(parlour.store.browsers, player.id, request.cookies.get(TOKEN_COOKIE))
    this_one = any(browser.current and browser.browser_id == browser_id for browser in mine)
    gone = await parlour.write(parlour.store.sign_out_browser, player.id, browser_id[:40])
    if this_one:
        response = RedirectResponse("/player?saved=signed-out-here", status_code=303)
        response.delete_cookie(TOKEN_COOKIE, path="/")
        return response
    return RedirectResponse(f"/player?saved={'browser-signed-out' if gone else 'nothing'}", status_code=303)


@router.post("/player/passkeys/{passkey_id}/remove", include_in_schema=False)
async def remove_passkey(request: Request, passkey_id: str) -> Response:
    """Remove one of the player's passkeys (it signs nobody in any more)."""
    await checked_form(request)
    player = await known_player(request)
    if player is None:
        return RedirectResponse("/player", status_code=303)
    parlour = parlour_of(request)
    gone = await parlour.write(parlour.store.remove_passkey, player.id, passkey_id[:40])
    return RedirectResponse(f"/player?saved={'passkey-removed' if gone else 'nothing'}", status_code=303)


async def _end_live_games(parlour: Parlour, player_id: int) -> None:
    """Stop this process's live games of the player (their record is what a merge or erase reads)."""
    for owner in [owner for owner in parlour.live.owners() if owner.player_id == player_id]:
        await parlour.abandon(owner)


@router.post("/player/merge", include_in_schema=False)
async def merge(request: Request) -> Response:
    """Bring the history of the player this browser had before it signed in into its player now."""
    await checked_form(request)
    player = await known_player(request)
    previous_token = request.cookies.get(PREVIOUS_COOKIE)
    parlour = parlour_of(request)
    previous = await parlour.call(parlour.store.player_by_token, previous_token) if previous_token else None
    if player is None or previous is None or previous.id == player.id:
        response = RedirectResponse("/player?saved=nothing", status_code=303)
    else:
        try:
            summary = await parlour.write(parlour.store.merge_players, previous.id, player.id)
        except PlayerSeated:
            lang = await request_language(request)
            return await player_page_response(request, problem=StoreTexts(lang)(SEATED), status=409)
        await _end_live_games(parlour, previous.id)
        log.info("player %s merged into player %s (%d games)", previous.id, player.id, summary.games)
        response = RedirectResponse("/player?saved=merged", status_code=303)
    response.delete_cookie(PREVIOUS_COOKIE, path="/player")
    return response


@router.post("/player/merge/decline", include_in_schema=False)
async def decline_merge(request: Request) -> Response:
    """Keep the two players apart: the other one's token, which no browser holds any more, stops
    working (that player stays reachable by its recovery code)."""
    await checked_form(request)
    previous_token = request.cookies.get(PREVIOUS_COOKIE)
    current_token = request.cookies.get(TOKEN_COOKIE)
    if previous_token and previous_token != current_token:
        parlour = parlour_of(request)
        await parlour.write(parlour.store.forget_token, previous_token)
    response = RedirectResponse("/player", status_code=303)
    response.delete_cookie(PREVIOUS_COOKIE, path="/player")
    return response


@router.get("/player/data.json", include_in_schema=False)
async def download_data(request: Request) -> Response:
    """Everything stored about the player, as one JSON file to keep; 404 ``no_player`` for none."""
    player = await known_player(request)
    if player is None:
        return await refused(request, "no_player", 404)
    parlour = parlour_of(request)
    data = await parlour.call(parlour.store.player_data, player.id)
    return Response(
        orjson.dumps(data, option=orjson.OPT_INDENT_2),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="parlour-player-{player.id}.json"',
            "Cache-Control": "no-store",
        },
    )


class DeleteForm(BaseModel):
    """ "Delete me": the box that says the person understands (``on``)."""

    confirm: str = ""


@router.post("/player/delete", include_in_schema=False)
async def delete_me(request: Request) -> Response:
    """Erase the player after the confirmation box; this browser is signed out."""
    form = read_form(await checked_form(request), DeleteForm)
    player = await known_player(request)
    if player is None:
        return RedirectResponse("/player", status_code=303)
    if form.confirm != "on":
        lang = await request_language(request)
        problem = StoreTexts(lang)("Tick the box to say you understand, then press Delete me again.")
        return await player_page_response(request, problem=problem, status=400)
    parlour = parlour_of(request)
    try:
        await parlour.write(parlour.store.erase_player, player.id)
    except PlayerSeated:
        lang = await request_language(request)
        return await player_page_response(request, problem=StoreTexts(lang)(SEATED), status=409)
    await _end_live_games(parlour, player.id)
    log.info("a player deleted themselves")
    response = RedirectResponse("/player?saved=deleted", status_code=303)
    response.delete_cookie(TOKEN_COOKIE, path="/")
    response.delete_cookie(PREVIOUS_COOKIE, path="/player")
    return response
