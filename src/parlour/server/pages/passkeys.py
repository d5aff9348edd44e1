"""Passkeys (WebAuthn, decision 0064): adding one to the browser's player, and signing in with one.

Four JSON endpoints, each a pair of an options request and the browser's answer:

- ``POST /api/passkeys/register/options`` then ``POST /api/passkeys/register`` (the answer of
  ``navigator.credentials.create``): the browser's player gets the passkey;
- ``POST /api/passkeys/sign-in/options`` then ``POST /api/passkeys/sign-in`` (the answer of
  ``navigator.credentials.get``): this browser becomes the passkey's player.

The relying party is the site of ``--public-url``; without one, only ``localhost``. Every challenge is
kept in the database until it is answered once or expires; every answer must have verified the
person (user verification), come from the site's origin and, for a sign-in, carry a sign counter that
grew. Refusals are ``400 {"code": "passkey_refused", "message", "detail"}`` and change nothing.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import Response
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from parlour.errors import ParlourError
from parlour.server.edge.browser_names import browser_name
from parlour.server.edge.security import PAGE_SCHEMES
from parlour.server.i18n import Texts
from parlour.server.pages.requests import (
    BadBody,
    body_refusal,
    client_address,
    current_player,
    known_player,
    parlour_of,
    read_body,
    request_language,
)
from parlour.server.pages.sign_in import merge_candidate, player_json, sign_in_browser
from parlour.store.identity import PasskeyRefused

router = APIRouter()
log = logging.getLogger("parlour.server")

RP_NAME: Final = "Parlour"
TIMEOUT_MS: Final = 5 * 60 * 1000
"""How long the browser's prompt waits (the challenge lives as long: ``CHALLENGE_AGE``)."""
REFUSED: Final = "This passkey cannot be used here: {detail}"
OFF: Final = (
    "Passkeys need the site's own address: its operator sets it with --public-url (or open it as "
    "http://localhost)."
)


@dataclass(frozen=True)
class RelyingParty:
    """Who passkeys are made for: the RP id (a host name) and the one origin answers may come from."""

    rp_id: str
    origin: str


def relying_party(request: Request) -> RelyingParty | None:
    """Return the relying party of the request's site: ``--public-url``'s host and origin; without one,
    the request's own host when it is ``localhost`` (browsers allow passkeys there without HTTPS);
    otherwise None (passkeys are off: an IP address or an unnamed host cannot be an RP id)."""
    public = parlour_of(request).public_url
    if public:
        parts = urlsplit(public)
        if parts.hostname:
            return RelyingParty(parts.hostname, f"{parts.scheme}://{parts.netloc}")
        return None
    host = request.headers.get("host", "")
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost" or name.endswith(".localhost"):
        scheme = PAGE_SCHEMES.get(request.url.scheme, request.url.scheme)
        return RelyingParty(name, f"{scheme}://{host}")
    return None


class CredentialBody(BaseModel):
    """A browser's answer (``PublicKeyCredential.toJSON()``): checked in depth by ``webauthn``."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1, max_length=1400)
    rawId: str = Field(min_length=1, max_length=1400)
    type: str = Field(max_length=20)
    response: dict[str, Any]


def _challenge_of(credential: dict[str, Any]) -> bytes:
    """Return the challenge an answer signed (from its ``clientDataJSON``).

    Raises:
        PasskeyRefused: the answer has no readable challenge.
    """
    try:
        encoded = credential["response"]["clientDataJSON"]
        client_data = json.loads(_unbase64url(encoded))
        return _unbase64url(client_data["challenge"])
    except (KeyError, TypeError, ValueError, binascii.Error) as error:
        raise PasskeyRefused("the answer carries no readable challenge") from error


def _unbase64url(text: Any) -> bytes:
    if not isinstance(text, str) or len(text) > 8192:
        raise ValueError("not base64url text")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


async def _refused(request: Request, detail: str, status: int = 400) -> JSONResponse:
    lang = await request_language(request)
    message = Texts(lang)(REFUSED).format(detail=detail)
    return JSONResponse({"code": "passkey_refused", "message": message, "detail": detail}, status_code=status)


async def _off(request: Request) -> JSONResponse:
    lang = await request_language(request)
    return JSONResponse({"code": "passkeys_off", "message": Texts(lang)(OFF)}, status_code=409)


async def _credential(request: Request) -> dict[str, Any]:
    """Return the answer in the request's body, its shape checked (``BadBody`` otherwise)."""
    body = await read_body(request, CredentialBody)
    return body.model_dump()


@router.post("/api/passkeys/register/options")
async def registration_options(request: Request) -> Response:
    """Options for ``navigator.credentials.create``: a new passkey for the browser's player (made
    now for a visitor who has none). ``{"publicKey": {...}}``; 409 ``passkeys_off`` when the site's
    address is not set."""
    party = relying_party(request)
    if party is None:
        return await _off(request)
    parlour = parlour_of(request)
    await parlour.limits.hit("passkey", client_address(request))
    player = await current_player(request)
    handle = await parlour.write(parlour.store.player_handle, player.id)
    known = await parlour.call(parlour.store.passkey_credentials, player.id)
    challenge = secrets.token_bytes(32)
    label = player.name or Texts(await request_language(request))("Parlour player")
    options = generate_registration_options(
        rp_id=party.rp_id,
        rp_name=RP_NAME,
        user_id=bytes.fromhex(handle),
        user_name=label,
        user_display_name=label,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            require_resident_key=True,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=_unbase64url(cid)) for cid in known],
    )
    await parlour.write(parlour.store.new_challenge, challenge, "register", player.id)
    return JSONResponse(
        {"publicKey": json.loads(options_to_json(options))}, headers={"Cache-Control": "no-store"}
    )


@router.post("/api/passkeys/register")
async def register(request: Request) -> Response:
    """Keep the passkey of a ``navigator.credentials.create`` answer for the browser's player.
    ``{"passkeys": n}``; 400 ``passkey_refused`` (a challenge not handed out to this player for this,
    or used, or expired; a wrong origin or RP id; no user verification)."""
    party = relying_party(request)
    if party is None:
        return await _off(request)
    parlour = parlour_of(request)
    player = await known_player(request)
    if player is None:
        return await _refused(request, "this browser has no player to add a passkey to")

    async def keep() -> Response:
        credential = await _credential(request)
        challenge = _challenge_of(credential)
        await parlour.write(parlour.store.take_challenge, challenge, "register", player.id)
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=party.rp_id,
            expected_origin=party.origin,
            require_user_verification=True,
        )
        transports = credential["response"].get("transports") or []
        await parlour.write(
            lambda: parlour.store.add_passkey(
                player.id,
                _base64url(verified.credential_id),
                verified.credential_public_key,
                verified.sign_count,
                transports=[str(item)[:20] for item in transports if isinstance(item, str)][:8],
                backed_up=verified.credential_backed_up,
                agent=browser_name(request.headers.get("user-agent")),
            )
        )
        log.info("player %s added a passkey", player.id)
        count = len(await parlour.call(parlour.store.passkey_credentials, player.id))
        return JSONResponse({"passkeys": count})

    return await _answered(request, keep)


@router.post("/api/passkeys/sign-in/options")
async def sign_in_options(request: Request) -> Response:
    """Options for ``navigator.credentials.get``: any passkey of this site, chosen in the browser's
    own prompt. ``{"publicKey": {...}}``; 409 ``passkeys_off`` when the site's address is not set."""
    party = relying_party(request)
    if party is None:
        return await _off(request)
    parlour = parlour_of(request)
    await parlour.limits.hit("passkey", client_address(request))
    challenge = secrets.token_bytes(32)
    options = generate_authentication_options(
        rp_id=party.rp_id,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    await parlour.write(parlour.store.new_challenge, challenge, "sign_in", None)
    return JSONResponse(
        {"publicKey": json.loads(options_to_json(options))}, headers={"Cache-Control": "no-store"}
    )


@router.post("/api/passkeys/sign-in")
async def sign_in(request: Request) -> Response:
    """Make this browser the player of the passkey that answered. ``{"player": {"id", "name"},
    "merge": bool}`` (``merge``: this browser had another player with games, which the player page
    offers to bring in); 400 ``passkey_refused`` (an unknown passkey or challenge, a wrong origin or
    RP id, no user verification, a sign counter that did not grow: a cloned authenticator)."""
    party = relying_party(request)
    if party is None:
        return await _off(request)
    parlour = parlour_of(request)
    await parlour.limits.hit("passkey", client_address(request))

    async def enter() -> Response:
        credential = await _credential(request)
        challenge = _challenge_of(credential)
        await parlour.write(parlour.store.take_challenge, challenge, "sign_in", None)
        stored = await parlour.call(parlour.store.stored_passkey, credential["id"])
        if stored is None:
            raise PasskeyRefused("this passkey is not known here (it may have been removed)")
        handle = credential["response"].get("userHandle")
        if handle is not None and (
            stored.handle is None or _unbase64url(handle) != bytes.fromhex(stored.handle)
        ):
            raise PasskeyRefused("this passkey belongs to another player")
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=party.rp_id,
            expected_origin=party.origin,
            credential_public_key=stored.public_key,
            credential_current_sign_count=stored.sign_count,
            require_user_verification=True,
        )
        token = await parlour.write(
            lambda: parlour.store.sign_in_with_passkey(
                stored.credential_id,
                stored.sign_count,
                verified.new_sign_count,
                backed_up=verified.credential_backed_up,
                agent=browser_name(request.headers.get("user-agent")),
            )
        )
        player = await parlour.call(parlour.store.player_by_token, token)
        if player is None:  # deleted in the same instant
            raise PasskeyRefused("this passkey's player is gone")
        previous = await merge_candidate(request, player.id)
        response = JSONResponse({"player": player_json(player), "merge": previous is not None})
        sign_in_browser(request, response, token, previous)
        log.info("player %s signed in with a passkey", player.id)
        return response

    return await _answered(request, enter)


async def _answered(request: Request, steps: Callable[[], Awaitable[Response]]) -> Response:
    """Return what an answer's ``steps`` return, or the endpoint's 400 when any of them refuses it
    (a body of the wrong shape, a refusal of ours, or of ``webauthn``'s checks)."""
    try:
        return await steps()
    except BadBody as error:
        return body_refusal(error, await request_language(request))
    except PasskeyRefused as error:
        return await _refused(request, str(error))
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        return await _refused(request, _said(error))


def _options(options: str) -> JSONResponse:
    """Return options for the browser's prompt, never kept by a cache (the challenge is single-use)."""
    return JSONResponse({"publicKey": json.loads(options)}, headers={"Cache-Control": "no-store"})


def _said(error: Exception) -> str:
    """Return what was wrong with an answer, as ``webauthn`` says it (never the answer itself)."""
    if isinstance(error, ParlourError | WebAuthnException):
        return str(error)[:200] or type(error).__name__
    return "the answer is not a passkey's answer"
