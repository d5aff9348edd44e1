"""Play with anyone from the terminal (issue 50): ``parlour thirteen online --server URL`` presses Play
now on a Parlour server and plays the public table it seats you at, with your rating on top.

The terminal is a page like any other: it is a player of that server (its token is kept in this
user's data folder, one per server), speaks the table's socket protocol (``docs/protocol.md``), and
renders the seat's view as the server sends it: nothing of the game is decided here. Raise cards with
the arrows and Space, Enter plays them, P passes, C is "Next round", L leaves the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, ClassVar, Final
from urllib.parse import urlsplit

from platformdirs import user_data_dir
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, Static
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from parlour.cards import Card
from parlour.i18n import decimal, gettext_for, labelled
from parlour.i18n.cards import rank_letters
from parlour.thirteen.definition import combination_name
from parlour.tui.cards import card_label, card_style
from parlour.tui.screens import translate_bindings

DOMAIN: Final = "thirteen_web"
TIMEOUT: Final = 15.0
"""Seconds any one request to the server may take."""


def _(lang: str, message: str) -> str:
    return gettext_for(lang, DOMAIN, message)


class ServerError(Exception):
    """The server refused a request or could not be reached (the message says which, and why)."""


def tokens_file() -> Path:
    """Return where this user's player tokens are kept, one per server."""
    return Path(user_data_dir("parlour")) / "servers.json"


def _saved_tokens() -> dict[str, str]:
    try:
        data = json.loads(tokens_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(key): str(value) for key, value in data.items()} if isinstance(data, dict) else {}


def _request(
    url: str, cookie: str | None, body: dict[str, Any] | None, method: str = "POST"
) -> tuple[Any, str | None]:
    """Make one request; return its JSON and the token cookie it set, if any.

    Raises:
        ServerError: the server answered with an error (its message) or could not be reached.
    """
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Accept", "application/json")
    if cookie:
        request.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            set_cookie = response.headers.get("set-cookie")
            text = response.read().decode()
    except urllib.error.HTTPError as error:
        try:
            message = json.loads(error.read().decode()).get("message")
        except ValueError:
            message = None
        raise ServerError(message or f"the server answered {error.code}") from None
    except (urllib.error.URLError, OSError) as error:
        raise ServerError(f"the server cannot be reached: {getattr(error, 'reason', error)}") from None
    token = None
    if set_cookie and set_cookie.startswith("parlour_token="):
        token = set_cookie.split(";", 1)[0].split("=", 1)[1]
    return (json.loads(text) if text else None), token


class OnlineSeat:
    """This terminal's player on one server: Play now, the table's socket, and the rating."""

    def __init__(self, server: str, lang: str) -> None:
        parts = urlsplit(server)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ServerError(f"{server!r} is not a server address such as http://127.0.0.1:8000")
        self.server = f"{parts.scheme}://{parts.netloc}"
        self.lang = lang
        self.token = _saved_tokens().get(self.server)
        self.socket: ClientConnection | None = None
        self.claim: dict[str, Any] = {}
        self.ref = 0

    @property
    def cookie(self) -> str | None:
        return f"parlour_token={self.token}" if self.token else None

    def _keep_token(self, token: str | None) -> None:
        if token is None or token == self.token:
            return
        self.token = token
        saved = _saved_tokens()
        saved[self.server] = token
        path = tokens_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(saved), encoding="utf-8")
        path.chmod(0o600)  # the token is the player: only this user may read it

    def play_now(self, options: dict[str, Any]) -> dict[str, Any]:
        """Press Play now; return the claim (``table``, ``code``, ``seat``, ``seated``).

        Raises:
            ServerError: refused (the server's message) or unreachable.
        """
        claim, token = _request(f"{self.server}/api/play-now?lang={self.lang}", self.cookie, options)
        self._keep_token(token)
        self.claim = dict(claim)
        return self.claim

    def rating(self) -> dict[str, Any] | None:
        """Return the player's Thirteen rating (None before a rated round).

        Raises:
            ServerError: unreachable.
        """
        answer, _unused = _request(
            f"{self.server}/api/players/me/rating?game=thirteen", self.cookie, None, "GET"
        )
        found = answer.get("rating") if isinstance(answer, dict) else None
        return found if isinstance(found, dict) else None

    async def open(self) -> None:
        """Open the table's socket and say hello (the server sends the seat's state)."""
        parts = urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        headers = {"Cookie": self.cookie or ""}
        self.socket = await connect(
            f"{scheme}://{parts.netloc}/ws/table/{self.claim['table']}?lang={self.lang}",
            additional_headers=headers, open_timeout=TIMEOUT, max_size=2**20,
        )  # fmt: skip
        await self.hello()

    async def hello(self) -> None:
        """Join the table again (from the seat once it is handed over)."""
        assert self.socket is not None
        await self.socket.send(json.dumps({"type": "hello", "v": None}))

    async def act(self, action: dict[str, Any]) -> None:
        """Send one action (its answer comes on the socket: an ``ack`` or an ``error``)."""
        if self.socket is None:
            return
        self.ref += 1
        with contextlib.suppress(ConnectionClosed):
            await self.socket.send(json.dumps({"type": "action", "action": action, "ref": self.ref}))

    async def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()


def _card(text: str, letters: dict[str, str], raised: bool = False, cursor: bool = False) -> Text:
    """Return one card as the hand and the table show it (``^`` before a raised card)."""
    card = Card.parse(text)
    label = Text(card_label(card, letters), style=card_style(card, True))
    if cursor:
        label.stylize("reverse")
    return Text("^", style="bold") + label if raised else Text(" ") + label


class ThirteenOnlineApp(App[None]):
    """Thirteen at a public table of a Parlour server, in the terminal (see the module's description)."""

    TITLE = "Parlour"
    CSS = """
    #top { height: 3; padding: 0 1; }
    #seats { height: 6; padding: 0 1; }
    #pile { height: 3; padding: 0 1; }
    #status { height: 2; padding: 0 1; color: $warning; }
    #hand { height: 3; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←", show=False),
        Binding("right", "move(1)", "→", show=False),
        Binding("space", "raise_card", "Raise"),
        Binding("enter", "play", "Play"),
        Binding("p", "pass_turn", "Pass"),
        Binding("c", "next_round", "Next round"),
        Binding("l", "leave", "Leave the table"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, seat: OnlineSeat, options: dict[str, Any]) -> None:
        super().__init__()
        self.seat = seat
        self.options = options
        self.lang = seat.lang
        self.view: dict[str, Any] = {}
        self.version = -1
        """The table's version of the newest state or event received."""
        self.raised: set[str] = set()
        self.cursor = 0
        self.note = ""
        """The server's last refusal, or why the server cannot be reached (until the next event)."""
        self.waiting = ""
        """The seat claimed for the next round, while it is not handed over."""
        self.rating_text = ""
        self.letters = dict(rank_letters(self.lang))
        self.reader: asyncio.Task[None] | None = None
        translate_bindings(self, self.lang)

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        yield Static(id="seats")
        yield Static(id="pile")
        yield Static(id="status")
        yield Static(id="hand")
        yield Footer()

    async def on_mount(self) -> None:
        try:
            claim = await asyncio.to_thread(self.seat.play_now, self.options)
            await self.seat.open()
        except (ServerError, OSError, ConnectionClosed, TimeoutError) as error:
            self.note = str(error)
            self.render_view()
            return
        if not claim.get("seated"):
            self.waiting = _(self.lang, "You take seat {seat} at the next round.").format(
                seat=claim["seat"] + 1
            )
        await self.refresh_rating()
        self.reader = asyncio.get_running_loop().create_task(self.read())

    async def refresh_rating(self) -> None:
        try:
            rating = await asyncio.to_thread(self.seat.rating)
        except ServerError:
            return
        if rating is not None:
            shown = f"{decimal(rating['rating'], self.lang, 0)} ± {decimal(rating['spread'], self.lang, 0)}"
            self.rating_text = _(self.lang, "Your rating: {rating}").format(rating=shown)
        self.render_view()

    async def read(self) -> None:
        socket = self.seat.socket
        assert socket is not None
        with contextlib.suppress(ConnectionClosed):
            async for text in socket:
                self.receive(json.loads(text))
        self.note = _(self.lang, "Connection lost: reconnecting…")
        self.render_view()

    def receive(self, message: dict[str, Any]) -> None:
        """Take one message of the server: a state or an event (the seat's new view), or an error."""
        kind = message.get("type")
        if kind in ("state", "event") and isinstance(message.get("v"), int):
            self.version = message["v"]
        if message.get("view"):
            self.view = message["view"]
            hand = self.view.get("hand") or []
            self.raised &= set(hand)
            self.cursor = min(self.cursor, max(0, len(hand) - 1))
        data = message.get("data") or {}
        if (
            kind == "event"
            and self.waiting
            and self.seat.claim.get("seat") in (data.get("handed_over") or [])
        ):
            self.waiting = ""  # the seat is ours now: join again, from it
            asyncio.get_running_loop().create_task(self.seat.hello())
        if kind == "event" and data.get("ratings"):
            asyncio.get_running_loop().create_task(self.refresh_rating())
        if kind == "error":
            self.note = str(message.get("message") or "")
        elif kind == "event":
            self.note = ""
        self.render_view()

    # --- what the screen shows ---------------------------------------------------------------------

    def _me(self) -> int | None:
        tables = self.view.get("tables") or {}
        you = tables.get("you")
        return you if isinstance(you, int) else None

    def render_view(self) -> None:
        lang = self.lang
        tables = self.view.get("tables") or {}
        settings = tables.get("settings") or {}
        kind = (
            _(lang, "Rated table: every round counts for your rating.")
            if settings.get("rated")
            else _(lang, "Public table: the site deals, and computer players hold the free seats.")
        )
        code = tables.get("code") or self.seat.claim.get("code") or ""
        top = Text(f"{labelled(_(lang, 'Table code'), lang)} {code}\n{kind}\n{self.rating_text}")
        self.query_one("#top", Static).update(top)
        seats = Text()
        counts = self.view.get("hand_counts") or []
        scores = self.view.get("scores") or []
        turn = self.view.get("turn")
        me = self._me()
        for number, entry in enumerate(tables.get("seats") or []):
            if entry.get("kind") == "person":
                name = _(lang, "You") if number == me else str(entry.get("name") or "")
            else:
                name = _(lang, "Computer {n}").format(n=number + 1)
            cards = counts[number] if number < len(counts) else 0
            points = scores[number] if number < len(scores) else 0
            marker = "▶ " if number == turn and not self.view.get("between_rounds") else "  "
            seats.append(
                f"{marker}{name}: {cards} · {decimal(points, lang, 0)}\n",
                style="bold" if number == turn else "",
            )
        self.query_one("#seats", Static).update(seats)
        pile = Text(labelled(_(lang, "Table"), lang) + " ")
        for card in (self.view.get("table") or {}).get("cards") or []:
            pile.append_text(_card(card, self.letters))
        self.query_one("#pile", Static).update(pile)
        status = self.note or self.waiting
        if not status and self.view.get("between_rounds"):
            status = _(lang, "The round is over.")
        elif not status and self.view.get("my_turn"):
            combo = (self.view.get("table") or {}).get("combo")
            status = (
                _(lang, "Your turn: beat {combo} or pass.").format(combo=combination_name(combo, lang))
                if combo
                else _(lang, "Your turn: lead any combination.")
            )
        self.query_one("#status", Static).update(Text(status))
        hand = Text()
        for index, card in enumerate(self.view.get("hand") or []):
            hand.append_text(_card(card, self.letters, card in self.raised, index == self.cursor))
        self.query_one("#hand", Static).update(hand)

    # --- keys ------------------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        hand = self.view.get("hand") or []
        if hand:
            self.cursor = (self.cursor + step) % len(hand)
            self.render_view()

    def action_raise_card(self) -> None:
        hand = self.view.get("hand") or []
        if not hand:
            return
        card = hand[self.cursor]
        self.raised ^= {card}
        self.render_view()

    async def action_play(self) -> None:
        if self.raised:
            await self.seat.act({"type": "play", "cards": sorted(self.raised)})

    async def action_pass_turn(self) -> None:
        await self.seat.act({"type": "pass"})

    async def action_next_round(self) -> None:
        await self.seat.act({"type": "continue"})

    async def action_leave(self) -> None:
        await self.seat.act({"type": "leave"})
        await self.seat.close()
        self.exit()

    async def on_unmount(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
        await self.seat.close()
