"""The WebSocket messages between a game page and the server: a pydantic model per message a page sends
(read through :data:`INCOMING`), a ``TypedDict`` per message the server sends (mypy checks that it
sends nothing else). ``docs/protocol.md`` describes them for people. Views inside them are the games'
own JSON views (``parlour.games``).
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter

from parlour.games.base import Json

CLOSE_REFUSED: Final = 4403
"""The socket code of a page refused: another site's, or one too many for its game or table."""
CLOSE_UNKNOWN: Final = 4404
"""The socket code of a page of no such game or table."""
CLOSE_TOO_SLOW: Final = 4408
"""The page fell too far behind the game's events (it reconnects and gets the state)."""
CLOSE_MOVED: Final = 4409
"""The socket code that tells a page its table is moving to another process: reconnect."""
CLOSE_UNAVAILABLE: Final = 4503
"""A friends' table cannot be reached now (an outage): the page is told so and tries again later."""
CLOSE_ENDED: Final = 4410
"""The game's record was ended elsewhere (a new game was dealt): the page does not reconnect."""

# --- from the page ---------------------------------------------------------------------------------------
# Pydantic models: the dispatcher (``parlour.server.sockets.rooms``) reads every message through
# :data:`INCOMING`, a union told apart by ``type``. Fields a model does not name are ignored; a
# message's ``ref`` is read before the rest (``parlour.server.wire.wire.read_ref``), so that a refusal of
# the rest still carries it.


class _FromPage(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    ref: Any = None


class HelloMessage(_FromPage):
    """Connect (or reconnect) to the game: ``v`` is the last version the page saw, None for none. At a
    friends' table, ``seat_token`` (optional) is the token of the page's seat."""

    type: Literal["hello"]
    v: StrictInt | None = None
    seat_token: Annotated[StrictStr, Field(max_length=100)] | None = None


class ActionMessage(_FromPage):
    """One action of the game (a move, a selection …), answered by ``ack`` or ``error`` with ``ref``."""

    type: Literal["action"]
    action: dict[str, Any]


class HintRequest(_FromPage):
    """What would you play? ``strength`` is optional, one of the game's own (``docs/protocol.md``)."""

    type: Literal["hint"]
    strength: Any = None


class LegalRequest(_FromPage):
    """The moves the page's seat may make now."""

    type: Literal["legal"]


class PingRequest(_FromPage):
    """Are you there? (answered before ``hello`` too)."""

    type: Literal["ping"]


IncomingMessage = Annotated[
    HelloMessage | ActionMessage | HintRequest | LegalRequest | PingRequest, Field(discriminator="type")
]
INCOMING: Final[TypeAdapter[IncomingMessage]] = TypeAdapter(IncomingMessage)
"""Reads a page's message (a JSON object) into its model; raises ``pydantic.ValidationError``."""


# --- from the server ------------------------------------------------------------------------------------


class StateMessage(TypedDict):
    """The whole view, at version ``v`` (first connection, or a page too far behind)."""

    type: Literal["state"]
    v: int
    game: str
    view: Json


class EventMessage(TypedDict):
    """One numbered event: its ``name``, ``data`` and the seat's ``view`` after it. A seat that may not
    see the event gets only ``v`` and ``name`` None (a gap in versions always means lost messages)."""

    type: Literal["event"]
    v: int
    name: str | None
    data: NotRequired[Json]
    view: NotRequired[Json | None]


class AckMessage(TypedDict):
    """An action was accepted and is durable: its event is version ``v``. Taking a seat at a friends'
    table (``sit``) is answered with the ``seat`` and its secret ``seat_token``, sent only here."""

    type: Literal["ack"]
    ref: Any
    v: int
    seat: NotRequired[int]
    seat_token: NotRequired[str]


class ErrorMessage(TypedDict):
    """A message was refused and changed nothing: reason ``code``, its translated ``message``."""

    type: Literal["error"]
    code: str
    message: str
    detail: str
    ref: Any
    v: int


class HintMessage(TypedDict):
    """A hint at version ``v``: ``hint`` is the game's own JSON (the move it suggests and why; see
    ``docs/protocol.md`` for each game's)."""

    type: Literal["hint"]
    ref: Any
    v: int
    hint: Json


class LegalMessage(TypedDict):
    """The moves the page's seat may make at version ``v``, as move texts."""

    type: Literal["legal"]
    ref: Any
    v: int
    moves: list[str]


class PongMessage(TypedDict):
    """The answer to ``ping``, with the current version."""

    type: Literal["pong"]
    ref: Any
    v: int


class EndedMessage(TypedDict):
    """The game was ended elsewhere while this page had it open (``game_ended``: the player dealt a new
    game in another tab or window): no action is accepted any more, and the socket closes (code 4410).
    ``v`` is the last version of the game."""

    type: Literal["ended"]
    code: str
    v: int


class UnavailableMessage(TypedDict):
    """A friends' table cannot be reached now (``table_unavailable``: Redis or the database does not
    answer): ``message`` says so in the page's language, the socket closes (code 4503), and the page
    tries again, waiting longer each time (from about ``retry_after`` seconds)."""

    type: Literal["unavailable"]
    code: str
    message: str
    retry_after: int


class RefusedMessage(TypedDict):
    """The connection is not allowed (``no_such_game`` for an unknown game and another player's alike,
    ``cross_site`` for a page of another site); the socket closes."""

    type: Literal["refused"]
    code: str
