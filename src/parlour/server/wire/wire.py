"""The wire of Parlour's sockets, the same for every socket URL and for pages relayed from another
process: reading a page's frame into a protocol message, the text a page is sent for a message (in its
language), and the error a refused message gets. No transport here: nothing of WebSockets or Redis."""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import ValidationError

from parlour.errors import ParlourError
from parlour.games.base import GameDefinition
from parlour.games.registry import Registry
from parlour.server.edge.limits import RateLimited
from parlour.server.i18n import protocol_reason, wait_reason
from parlour.server.wire.outbox import Item, Prepared, encode_json
from parlour.server.wire.protocol import INCOMING, ErrorMessage, IncomingMessage
from parlour.store.messages import news_lines

MAX_MESSAGE: Final = 4096
"""The longest client message accepted, in characters."""
MAX_REF: Final = 64
"""The longest text ``ref`` echoed back."""


class BadMessage(ParlourError):
    """A client message that is not a protocol message."""

    code = "bad_message"


def read_frame(frame: Any) -> dict[str, Any]:
    """Return a page's frame (an ASGI ``websocket.receive`` message) read as a protocol message.

    Raises:
        BadMessage: a binary frame, or text that is not a protocol message.
    """
    text = frame.get("text") if isinstance(frame, dict) else None
    if text is None:
        raise BadMessage("binary frames are not protocol messages: send JSON text")
    return parse_message(text)


def encode(item: Item, definition: GameDefinition | None, lang: str) -> str:
    """Return the text a page in ``lang`` is sent for one message: a view gets its game's texts in
    ``lang`` and a numbered game's end its records' news; a shared message that needs neither is sent
    as the text made once for all its pages."""
    if isinstance(item, Prepared) and item.final:
        return item.text
    message = item.message if isinstance(item, Prepared) else item
    extra: dict[str, Any] = {}
    if definition is not None and message.get("view") is not None:
        extra.update(definition.localize(message["view"], lang))
    outcome = (message.get("data") or {}).get("outcome")
    if outcome:  # the records' news of the move that ended a numbered game, in the page's language
        extra["news"] = news_lines(outcome, lang)
    if isinstance(item, Prepared) and not extra:
        return item.text
    return encode_json({**message, **extra})


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_message(text: str) -> dict[str, Any]:
    """Return a page's text read as a JSON object with a string ``type`` (not yet its model).

    Raises:
        BadMessage: too long, not JSON (NaN and Infinity included), or not such an object.
    """
    if len(text) > MAX_MESSAGE:
        raise BadMessage(f"message of {len(text)} characters", code="too_large")
    try:
        message = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise BadMessage(f"not JSON: {text[:40]!r}", code="bad_json") from error
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise BadMessage("a message is an object with a string 'type'", code="bad_message")
    return message


def read_ref(value: Any) -> Any:
    """Return a message's ``ref`` (echoed in the reply): null, a whole number or a short text.

    Raises:
        BadMessage: anything else (the error then carries no ref).
    """
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53):
        return value
    if isinstance(value, str) and len(value) <= MAX_REF and value.isprintable():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            pass
        else:
            return value
    raise BadMessage(
        f"a ref is null, a whole number or a text of up to {MAX_REF} characters", code="bad_message"
    )


def read_incoming(message: dict[str, Any]) -> IncomingMessage:
    """Return a page's message (a JSON object with a string ``type``) read into its model.

    Raises:
        BadMessage: an unknown ``type``, or fields of the wrong shape (the detail names them, and says
            what they should be, never what was sent).
    """
    try:
        return INCOMING.validate_python(message)
    except ValidationError as error:
        problems = error.errors(include_url=False, include_input=False)
        if any(problem["type"] == "union_tag_invalid" for problem in problems):
            raise BadMessage(f"unknown message type {str(message.get('type'))[:40]!r}") from None
        detail = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc'][1:]) or 'message'}: {problem['msg']}"
            for problem in problems[:3]
        )
        raise BadMessage(f"the {message.get('type')} message: {detail}") from None


def error_message(
    games: Registry, kind: str, version: int, error: ParlourError, lang: str, ref: Any
) -> ErrorMessage:
    """Return the error a page is sent for a refused message: the reason code, its text in ``lang``
    (the explanation of the game of ``kind``, found in ``games``, else the protocol's) and the detail,
    with the page's ``ref`` and the game's ``version``."""
    definition = games.find(kind)
    text = definition.explain(error.code, lang) if definition is not None else None
    if isinstance(error, RateLimited):  # a hint asked for too often: say when to ask again
        text = wait_reason(error.retry_after, lang)
    return ErrorMessage(
        type="error",
        code=error.code,
        message=text or protocol_reason(error.code, lang),
        detail=str(error),
        ref=ref,
        v=version,
    )
