"""Friends' tables: a private table of a game's seats for people and computer players, for any game
whose definition can be played by several seats (:class:`~parlour.games.base.SeatedGame`).

Nothing here knows a game: the table's game deals, restores and plays its matches, names its computer
players' strengths and speeds, reads its rules and adds its own quick-chat phrases. A
:class:`FriendsTable` is one live game as the server's owner holds it. It goes through three phases:

- ``gathering``: people take free seats (``sit``) and may stand up again (``stand``); the host puts a
  computer player of any strength in an empty seat (``add_bot``), takes one out (``remove_bot``), swaps
  two seats (``swap``), changes the table's settings (``settings``) and deals (``start``) once every
  seat is taken.
- ``playing``: the match (a :class:`~parlour.games.base.SeatedMatch`), each person from their own seat
  and the computer players from theirs. A person whose pages have all gone is *away*;
  after the table's grace period a computer player plays for them until they come back. A turn timer
  (off by default) passes, or plays, for a person who runs out of time. After a round the next one is
  dealt when every person present has pressed "Next round", or after :data:`NEXT_ROUND_SECONDS`.
- ``over``: the match has its winner; anyone seated may deal a ``rematch`` with the same seats.

Quick chat (``chat``) is a preset phrase or emoji by id, or short free text when the table allows it.

Seats are numbered from 0; a page that has not sat down watches from the table's ``lobby`` (the number
after the last seat) and sees what a watcher may see (no hand).
Actions carry ``_player`` (the connection's player id) and, for ``sit``, ``_token_hash``: the socket
layer sets them after dropping any a page sent, so a page cannot act as another player. Only views
leave this module: a seat's view holds its own hand and nothing of the others'.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Final

from parlour.copies import shallow_copy
from parlour.errors import IllegalMove, InvalidInput
from parlour.games.base import (
    Change,
    GameDefinition,
    GameRecord,
    Json,
    LiveGame,
    Players,
    RecordSpec,
    SeatedGame,
    SeatedMatch,
    SeatView,
    TableRules,
)

GATHERING: Final = "gathering"
PLAYING: Final = "playing"
OVER: Final = "over"
NEXT_ROUND_SECONDS: Final = 20.0
"""After a round, the next one is dealt when everyone present is ready, or after this long."""
TURN_CHOICES: Final = (0, 15, 30, 60, 120)
"""Turn timers a table may have, in seconds (0: no timer, the default for friends)."""
GRACE_CHOICES: Final = (15, 30, 60, 120, 300)
"""How long an away person's seat waits before a computer player plays for them, in seconds."""
DEFAULT_GRACE: Final = 60
MAX_NAME: Final = 20
MAX_CHAT: Final = 80
"""The longest free-text chat message, in characters (when the table allows free text)."""
PHRASES: Final = {
    "hello": "Hello!",
    "good_luck": "Good luck!",
    "well_played": "Well played!",
    "oops": "Oops!",
    "thanks": "Thanks!",
    "one_moment": "One moment, please.",
    "good_game": "Good game!",
    "rematch": "Rematch?",
    "bye": "Bye!",
}
"""Quick-chat phrases every table has, by id, in the order of a game (msgids; each page shows them in its
own language). A game adds its own (:attr:`SeatedGame.phrases`): :func:`table_phrases`."""
EMOJI: Final = ("👍", "😄", "😮", "😅", "🎉", "🔥", "🙏", "👋")
"""Quick-chat emoji (the same for every language)."""
SITE_DEALS: Final = frozenset(
    {"sit", "stand", "add_bot", "remove_bot", "swap", "settings", "start", "rematch"}
)
"""What the site does itself at a public table (Play now seats people, the table deals on)."""
SEATING_CHANGES: Final = frozenset(
    {"seated", "stood", "bot_added", "bot_removed", "swapped", "table_settings", "started", "left"}
)
"""Changes that alter what the table's record keeps (its seats, settings and current match)."""


@dataclass(frozen=True)
class Seat:
    """One of a table's seats: ``empty``, a ``person`` (their player id, name and hashed seat
    token) or a ``bot`` (its strength). A seat changes by being replaced, so copies share seats."""

    kind: str = "empty"
    name: str = ""
    player_id: int | None = None
    token_hash: str | None = None
    strength: str | None = None

    def to_record(self) -> Json:
        """Return the seat as the table's record keeps it (with the token's hash, never the token)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "player": self.player_id,
            "token_hash": self.token_hash,
            "strength": self.strength,
        }

    @classmethod
    def from_record(cls, data: Any, game: SeatedGame) -> Seat:
        """Read a seat of a table of ``game`` from the table's record (anything unreadable is an empty
        seat; a strength renamed since, its new name; a strength not among the game's, none)."""
        if not isinstance(data, dict) or data.get("kind") not in ("person", "bot"):
            return cls()
        player = data.get("player")
        strength = data.get("strength")
        strength = game.former_strengths.get(strength, strength) if isinstance(strength, str) else None
        return cls(
            kind=data["kind"],
            name=str(data.get("name") or "")[:MAX_NAME],
            player_id=player if isinstance(player, int) else None,
            token_hash=data.get("token_hash") if isinstance(data.get("token_hash"), str) else None,
            strength=strength if strength in game.strengths else None,
        )


@dataclass(frozen=True)
class TableSettings:
    """What the host chooses for a table of ``game``: its ``rules`` (the game's, target points
    included), the computer players' ``strength`` (for new computer players and for away people) and
    ``speed``, the turn timer (``turn_seconds``, 0 for none), the ``grace_seconds`` before a computer
    player takes an away person's seat, whether chat takes short ``free_text``, and whether the table
    is listed in the ``public`` lobby. :meth:`of` gives a game's defaults."""

    game: SeatedGame = field(repr=False, compare=False)
    rules: TableRules
    strength: str
    speed: str
    turn_seconds: int = 0
    grace_seconds: int = DEFAULT_GRACE
    free_text: bool = False
    public: bool = False
    quick: bool = False
    """A public table Play now seats strangers at: the site deals, a computer player holds every seat
    nobody sits in and hands it over at the next round (decision 0062)."""
    rated: bool = False
    """Every round rates its people (OpenSkill: ``parlour.games.ratings``)."""

    def to_json(self) -> Json:
        """Return the settings as JSON (the record's and the views' form)."""
        return {
            "quick": self.quick,
            "rated": self.rated,
            "rules": self.rules.to_json(),
            "strength": self.strength,
            "speed": self.speed,
            "turn_seconds": self.turn_seconds,
            "grace_seconds": self.grace_seconds,
            "free_text": self.free_text,
            "public": self.public,
        }

    def changed(self, data: Any) -> TableSettings:
        """Return these settings with the changes of ``data`` (a JSON object of some settings).

        Raises:
            InvalidInput: not an object, an unknown setting or a value not offered (``bad_option``).
        """
        if not isinstance(data, dict) or not data:
            raise InvalidInput("settings must be a JSON object of settings to change", code="bad_option")
        allowed: dict[str, Sequence[Any]] = {
            "strength": self.game.strengths,
            "speed": tuple(self.game.speeds),
            "turn_seconds": TURN_CHOICES,
            "grace_seconds": GRACE_CHOICES,
            "free_text": (True, False),
            "public": (True, False),
        }
        if self.game.computer_ratings:  # a rated friends' table (its people agree on sitting down)
            allowed["rated"] = (True, False)
        changes: dict[str, Any] = {}
        for name, value in data.items():
            if name == "rules":
                try:
                    changes["rules"] = self.game.rules(value if isinstance(value, dict) else None)
                except InvalidInput as error:
                    raise InvalidInput(str(error), code="bad_option") from error
                continue
            if name not in allowed:
                raise InvalidInput(f"unknown table setting {name!r}", code="bad_option")
            # bool is an int: compare types too, so that ``"turn_seconds": true`` is refused.
            if not any(value == choice and type(value) is type(choice) for choice in allowed[name]):
                raise InvalidInput(
                    f"{name} must be one of {list(allowed[name])!r}, not {value!r}", code="bad_option"
                )
            changes[name] = value
        return replace(self, **changes)

    @classmethod
    def of(cls, game: SeatedGame) -> TableSettings:
        """Return the settings a new table of ``game`` starts with."""
        return cls(game, game.rules(None), game.default_strength, game.default_speed)

    @classmethod
    def from_json(cls, game: SeatedGame, data: Any) -> TableSettings:
        """Return settings of a table of ``game`` from a new table's body; missing ones take the
        defaults (``quick`` and ``rated`` are the site's to set: :meth:`for_quick_play`).

        Raises:
            InvalidInput: as :meth:`changed`.
        """
        defaults = cls.of(game)
        if isinstance(data, dict) and data.get("strength") in game.former_strengths:
            data = {**data, "strength": game.former_strengths[data["strength"]]}
        return defaults.changed(data) if data else defaults

    @classmethod
    def from_record(cls, game: SeatedGame, data: Any) -> TableSettings:
        """Return the settings a table's record keeps (those a page may choose, and the site's own).

        Raises:
            InvalidInput: as :meth:`changed`.
        """
        if not isinstance(data, dict):
            return cls.from_json(game, data)
        chosen = {key: value for key, value in data.items() if key not in ("quick", "rated")}
        return replace(
            cls.from_json(game, chosen), quick=data.get("quick") is True, rated=data.get("rated") is True
        )

    @classmethod
    def for_quick_play(
        cls, game: SeatedGame, rules: TableRules, strength: str, *, rated: bool
    ) -> TableSettings:
        """Return the settings of a new public table Play now makes: ``rules``, computer players of
        ``strength``, the usual pace, a 30-second turn timer (strangers wait for nobody), the shortest
        grace, quick-chat phrases only.

        Raises:
            InvalidInput: a strength the game does not have, or a rated table of a game whose computer
                players have no fixed ratings (``bad_option``).
        """
        if strength not in game.strengths:
            raise InvalidInput(
                f"strength must be one of {game.strengths}, not {strength!r}", code="bad_option"
            )
        if rated and strength not in game.computer_ratings:
            raise InvalidInput("this game has no rated tables", code="bad_option")
        return replace(
            cls.of(game), rules=rules, strength=strength, turn_seconds=30, grace_seconds=GRACE_CHOICES[0],
            public=True, quick=True, rated=rated,
        )  # fmt: skip

    def quick_key(self) -> str:
        """Return what two people's Play now must share to sit at one table: rated or casual, the
        rules and the computer players' strength."""
        rules = ",".join(f"{key}={value}" for key, value in sorted(self.rules.to_json().items()))
        return f"{'rated' if self.rated else 'casual'}|{self.strength}|{rules}"[:64]


def table_phrases(game: SeatedGame) -> dict[str, str]:
    """Return every quick-chat phrase of a table of ``game`` by id, in the order of a game: the
    greetings and "Well played!", then the game's own phrases, then the rest ("Bye!" last)."""
    ids = list(PHRASES)
    cut = ids.index("well_played") + 1
    return {
        **{key: PHRASES[key] for key in ids[:cut]},
        **game.phrases,
        **{key: PHRASES[key] for key in ids[cut:]},
    }


def clean_name(value: Any, seat: int) -> str:
    """Return a display name for a seat: printable text, trimmed to :data:`MAX_NAME` characters
    (``Player N`` when nothing is left).

    Raises:
        InvalidInput: the name is not text (``bad_name``).
    """
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise InvalidInput("a name is text", code="bad_name")
    text = "".join(ch for ch in unicodedata.normalize("NFC", value) if ch.isprintable()).strip()
    return text[:MAX_NAME].strip() or f"Player {seat + 1}"


def clean_chat(value: Any) -> str:
    """Return a free-text chat message: printable text, at most :data:`MAX_CHAT` characters.

    Raises:
        InvalidInput: not text, empty, or too long (``bad_chat``).
    """
    if not isinstance(value, str):
        raise InvalidInput("a chat message is text", code="bad_chat")
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in value).split())
    if not text or len(text) > MAX_CHAT:
        raise InvalidInput(f"a chat message has 1 to {MAX_CHAT} characters", code="bad_chat")
    return text


@dataclass(frozen=True)
class TableRecord:
    """What the store keeps of a table between restarts: everything but who is connected. ``game`` is
    the name of the game played at it."""

    game: str
    table_id: str
    code: str
    host: int
    settings: Json
    seats: list[Json]
    phase: str
    game_id: str | None
    epoch: int = 0
    """The owner epoch the table was taken over at (its writes are refused once another process has
    taken it over since: ``parlour.server.cluster.node``)."""
    honoured: tuple[int, ...] = ()
    """People whose seat claims this save honours (they sit from the next round: decision 0062)."""
    released: tuple[int, ...] = ()
    """People whose seat claims this save ends (they left, or their claim could not be honoured)."""
    watchers: int = 0
    """Pages watching the table (none seated) when it was saved."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A person's claim of a seat at a public table, for the table to honour at the next round."""

    player: int
    seat: int
    name: str


@dataclass(frozen=True, slots=True)
class RatedRound:
    """A round of a rated table to rate: the match's ``round`` (from 0) and its seats in finishing
    order, each ``(player, None)`` for a person who played it or ``(None, strength)`` for a computer
    player (a person's seat played by the computer from the round's start counts as the computer)."""

    round: int
    order: tuple[tuple[int | None, str | None], ...]


def seated_game(definition: GameDefinition) -> SeatedGame:
    """Return what a table of ``definition``'s game needs from it.

    Raises:
        InvalidInput: the game is played alone, not at tables (``no_tables``).
    """
    if definition.seated is None:
        raise InvalidInput(f"{definition.name} is not played at friends' tables", code="no_tables")
    return definition.seated


@dataclass(frozen=True)
class SeatState:
    """One seat as every page sees it: its kind, its sitter's name and a computer player's strength;
    for a person, whether they are connected (else away), played for by a computer player, ready."""

    kind: str
    name: str
    strength: str | None
    connected: bool = False
    computer: bool = False
    ready: bool = False

    def to_json(self) -> Json:
        """Return ``{"kind", "name", "strength"}``, with ``connected``, ``away``, ``computer`` and
        ``ready`` for a person."""
        data: Json = {"kind": self.kind, "name": self.name, "strength": self.strength}
        if self.kind == "person":
            data["connected"] = self.connected
            data["away"] = not self.connected
            data["computer"] = self.computer
            data["ready"] = self.ready
        return data


@dataclass(frozen=True)
class TableState:
    """The table's part of every view at one moment: its join code, phase, host's seat, seats,
    settings and the seconds left of the turn's and the next round's timers."""

    code: str
    phase: str
    host: int | None
    seats: tuple[SeatState, ...]
    settings: TableSettings
    turn_left: float | None
    next_round_left: float | None
    match: str | None = None
    """The record id of the match just over (None during a match): its people may review it."""

    @cached_property
    def shared_json(self) -> Json:
        """The table's JSON without ``you``, made once for every seat (never to be changed)."""
        return {
            "code": self.code,
            "phase": self.phase,
            "host": self.host,
            "seats": [seat.to_json() for seat in self.seats],
            "settings": self.settings.to_json(),
            "turn_left": self.turn_left,
            "next_round_left": self.next_round_left,
            "match": self.match,
        }


@dataclass(frozen=True)
class TableView:
    """What one seat of a table (or the lobby: a page not seated) sees: the table, and during a match
    that seat's view of it (the lobby's is a watcher's).

    Attributes:
        match: the seat's view of the match (None without a match).
        table: the table's part, the same for every seat.
        you: the seat (None for the lobby).
    """

    match: SeatView | None
    table: TableState
    you: int | None

    def to_json(self) -> Json:
        """Return the match's view (empty without a match) with the table's under ``tables``."""
        data = self.match.to_json() if self.match is not None else {}
        data["tables"] = {**self.table.shared_json, "you": self.you}
        return data


class FriendsTable(LiveGame[TableView]):
    """A live friends' table of ``definition``'s game (see the module's description).

    Raises:
        InvalidInput: a game that is not played at tables (``no_tables``).
    """

    def __init__(
        self,
        definition: GameDefinition,
        table_id: str,
        code: str,
        host: int,
        settings: TableSettings | None = None,
        seats: Sequence[Seat] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.definition = definition
        self.game = seated_game(definition)
        self.kind = definition.name
        self.lobby = self.game.seats
        """The seat number of a page that has not sat down (a friend choosing a seat, or a watcher)."""
        self.table_id = table_id
        self.code = code
        """The short code friends type to join (not a deal code: it tells nothing of any card)."""
        self.host = host
        self.settings = settings or TableSettings.of(self.game)
        self.seating: list[Seat] = list(seats) if seats else [Seat() for _ in range(self.game.seats)]
        self.phase = GATHERING
        self.match: SeatedMatch[Any] | None = None
        self.game_id: str | None = None
        """The current match's record id (set by the owner once the record is made)."""
        self.epoch = 0
        """The owner epoch of the process holding the table (its writes carry it)."""
        self.pending: RecordSpec | None = None
        """The record of a match just dealt, for the owner to store (with its secret) before the
        ``started`` event leaves."""
        self.clock = clock
        self.connected: set[int] = set()
        self.away_since: dict[int, float] = {}
        self.ready: set[int] = set()
        self.round_ended_at: float | None = None
        self.turn_started = clock()
        self._turn_key: tuple[int, ...] | None = None
        self.watched = False
        """Whether a page watches from the lobby (a public table plays on for its watchers)."""
        self.claims: list[Claim] = []
        """Claims of seats to honour at the next round (the owner reads them from the store)."""
        self.honoured: list[int] = []
        self.released: list[int] = []
        """People whose claims the next save honours or ends (cleared once it is kept)."""
        self.rated_rounds: list[RatedRound] = []
        """Rounds of a rated table to rate before their event leaves (cleared once kept)."""
        self.round_people: dict[int, int] = {}
        """The people who began the round being played, by seat."""
        self.left: dict[int, tuple[int, ...]] = {}
        """People of the round whose seat the computer took over during it: the seats already out then."""
        self.watchers = 0
        """Pages watching from the lobby (the owner counts them before each save)."""
        self.dirty = False
        """A public table's round ended since it was last saved (its lobby shows the points)."""
        self.gone: set[int] = set()
        """Seats whose people left this public table (the computer plays them until the next round,
        when they are free): a page of theirs watches from the lobby and cannot take them back."""

    def snapshot(self) -> FriendsTable:
        """Return an independent copy of the table: its seats, who is connected, away and ready, and
        its match's own snapshot (settings and a dealt match's record spec are immutable, so shared)."""
        twin = shallow_copy(self)
        twin.seating = list(self.seating)
        twin.match = self.match.snapshot() if self.match is not None else None
        twin.connected = set(self.connected)
        twin.away_since = dict(self.away_since)
        twin.ready = set(self.ready)
        twin.claims = list(self.claims)
        twin.honoured = list(self.honoured)
        twin.released = list(self.released)
        twin.rated_rounds = list(self.rated_rounds)
        twin.round_people = dict(self.round_people)
        twin.left = dict(self.left)
        twin.gone = set(self.gone)
        return twin

    # --- what pages see -------------------------------------------------------------------------

    @property
    def seats(self) -> Sequence[int]:
        """The seats views are made for: every person's seat, and the lobby's."""
        return (*(seat for seat, s in enumerate(self.seating) if s.kind == "person"), self.lobby)

    @property
    def finished(self) -> bool:
        """A table never finishes while it is live: after a match comes a rematch or nothing."""
        return False

    @property
    def moves_played(self) -> int:
        """Return how many moves the current match has (0 without a match): its record's length."""
        return self.match.moves_played if self.match is not None else 0

    def host_seat(self) -> int | None:
        """Return the host's seat, None when the host is not seated."""
        return next((n for n, s in enumerate(self.seating) if s.player_id == self.host), None)

    def seat_of_token(self, token_hash: str) -> int | None:
        """Return the seat whose token has this hash, None for none."""
        found = (
            n for n, s in enumerate(self.seating) if s.token_hash is not None and s.token_hash == token_hash
        )
        return next(found, None)

    def seat_of_player(self, player_id: int) -> int | None:
        """Return the seat a player sits in, None when they sit in none."""
        return next((n for n, s in enumerate(self.seating) if s.player_id == player_id), None)

    def watching_seat(self, player_id: int) -> int:
        """Return where a page of this player watches from: their seat, or the lobby when they have
        none (or left it)."""
        seat = self.seat_of_player(player_id)
        return self.lobby if seat is None or seat in self.gone else seat

    def seats_view(self) -> tuple[SeatState, ...]:
        """Return who sits where, as every page may see it: each seat's kind, name and strength, and
        for people whether they are connected, away, played for by a computer player, ready."""
        seats = []
        for number, each in enumerate(self.seating):
            person = each.kind == "person"
            seats.append(
                SeatState(
                    kind=each.kind,
                    name=each.name,
                    strength=each.strength,
                    connected=person and number in self.connected,
                    computer=person and self.match is not None and number in self.match.absent,
                    ready=person and number in self.ready,
                )
            )
        return tuple(seats)

    def seats_json(self) -> list[Json]:
        """Return :meth:`seats_view` as events carry it."""
        return [seat.to_json() for seat in self.seats_view()]

    def table_state(self) -> TableState:
        """Return the table's public part of every view: code, phase, host, the seats
        (:meth:`seats_view`), settings, timers."""
        now = self.clock()
        deadline = self._turn_deadline()
        return TableState(
            code=self.code,
            phase=self.phase,
            host=self.host_seat(),
            seats=self.seats_view(),
            settings=self.settings,
            turn_left=None if deadline is None else max(0.0, round(deadline - now, 1)),
            next_round_left=None
            if self.round_ended_at is None
            else max(0.0, round(self.round_ended_at + NEXT_ROUND_SECONDS - now, 1)),
            match=self.game_id if self.phase == OVER else None,
        )

    def view(self, seat: int) -> TableView:
        """Return what ``seat`` sees: the table, and during a match that seat's view of it (the lobby
        sees the match as a spectator: no hand at all).

        Raises:
            InvalidInput: a seat that is neither a person's nor the lobby (``no_such_seat``).
        """
        return self.views((seat,))[seat]

    def views(self, seats: Sequence[int]) -> dict[int, TableView]:
        """Return each of ``seats``' view, with the match's public part and the table's made once for
        all of them.

        Raises:
            InvalidInput: one of ``seats`` is neither a person's nor the lobby (``no_such_seat``).
        """
        for seat in seats:
            self._check_seat(seat)
        table = self.table_state()
        people = [seat for seat in seats if seat != self.lobby]
        matches: dict[int, SeatView] = {}
        if self.match is not None:
            # The lobby watches as a spectator: a person's view of the match without the hand.
            wanted = people or (list(self.match.seats[:1]) if self.lobby in seats else [])
            got = self.match.views(wanted)
            matches.update((seat, view) for seat, view in got.items() if seat in people)
            if self.lobby in seats and wanted:
                matches[self.lobby] = self.match.spectator(got[wanted[0]])
        return {
            seat: TableView(matches.get(seat), table, None if seat == self.lobby else seat) for seat in seats
        }

    def _check_seat(self, seat: int) -> None:
        """Raise InvalidInput (``no_such_seat``) unless ``seat`` is a person's or the lobby."""
        if seat != self.lobby and not (0 <= seat < self.game.seats and self.seating[seat].kind == "person"):
            raise InvalidInput(f"seat {seat} is not a person's seat", code="no_such_seat")

    def legal(self, seat: int) -> list[str]:
        """Return a person's legal moves in the match (none outside a match)."""
        if self.match is None or self.phase != PLAYING or seat == self.lobby:
            return []
        return self.match.legal(seat)

    # --- actions ---------------------------------------------------------------------------------

    def act(self, seat: int, action: Json) -> Change:
        """Apply one action of a page watching from ``seat`` (see the module's description).

        Raises:
            InvalidInput: a malformed action or a value not offered.
            IllegalMove: not allowed now (``not_host``, ``seat_taken``, ``not_gathering`` …) or the
                engine's reason during a match.
        """
        kind = action.get("type")
        player = action.get("_player")
        if self.settings.quick and kind in SITE_DEALS:
            raise IllegalMove("at a public table the site seats people and deals", code="quick_table")
        if kind == "leave":
            return self._leave(seat, player)
        handlers: dict[str, Callable[[int, Any, Json], Change]] = {
            "sit": self._sit,
            "stand": self._stand,
            "add_bot": self._add_bot,
            "remove_bot": self._remove_bot,
            "swap": self._swap,
            "settings": self._settings,
            "start": self._start,
            "rematch": self._start,
            "chat": self._chat,
        }
        if isinstance(kind, str) and kind in handlers:
            return handlers[kind](seat, player, action)
        if kind == "continue" or kind in self.game.match_actions:
            return self._match_action(seat, action)
        raise InvalidInput(f"unknown action {kind!r}", code="bad_action")

    def _need_host(self, player: Any) -> None:
        if player is None or player != self.host:
            raise IllegalMove("only the table's host may do that", code="not_host")

    def _need_gathering(self) -> None:
        if self.phase != GATHERING:
            raise IllegalMove("the seats are set once the first deal is made", code="not_gathering")

    def _seat_number(self, value: Any) -> int:
        last = self.game.seats - 1
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= last:
            raise InvalidInput(f"a seat is 0 to {last}, not {value!r}", code="no_such_seat")
        return value

    def _seating_change(self, name: str, data: Json | None = None) -> Change:
        return Change(name, {**(data or {}), "seats": self.seats_json()})

    def _sit(self, seat: int, player: Any, action: Json) -> Change:
        self._need_gathering()
        if not isinstance(player, int):
            raise IllegalMove("sitting down needs a player", code="no_player")
        if seat != self.lobby or self.seat_of_player(player) is not None:
            raise IllegalMove("you already have a seat at this table", code="already_seated")
        wanted = self._seat_number(action.get("seat"))
        if self.seating[wanted].kind != "empty":
            raise IllegalMove(f"seat {wanted} is taken", code="seat_taken")
        token_hash = action.get("_token_hash")
        if not isinstance(token_hash, str):
            raise IllegalMove("sitting down needs a seat token", code="no_player")
        if self.settings.rated and action.get("agree_rated") is not True:
            raise IllegalMove(
                "this table is rated: sitting down needs agree_rated true", code="rated_needs_agreement"
            )
        name = clean_name(action.get("name"), wanted)
        self.seating[wanted] = Seat("person", name, player, token_hash)
        self.connected.add(wanted)
        return self._seating_change("seated", {"seat": wanted})

    def _stand(self, seat: int, player: Any, action: Json) -> Change:
        self._need_gathering()
        if seat == self.lobby or self.seating[seat].kind != "person":
            raise IllegalMove("you have no seat to leave", code="no_such_seat")
        if self.seating[seat].player_id == self.host:
            raise IllegalMove("the host keeps a seat (swap seats to move)", code="host_stays")
        self.seating[seat] = Seat()
        self.connected.discard(seat)
        self.away_since.pop(seat, None)
        return self._seating_change("stood", {"seat": seat})

    def _add_bot(self, seat: int, player: Any, action: Json) -> Change:
        self._need_host(player)
        self._need_gathering()
        wanted = self._seat_number(action.get("seat"))
        strength = action.get("strength", self.settings.strength)
        if strength not in self.game.strengths:
            raise InvalidInput(
                f"strength must be one of {self.game.strengths}, not {strength!r}", code="bad_option"
            )
        if self.seating[wanted].kind != "empty":
            raise IllegalMove(f"seat {wanted} is taken", code="seat_taken")
        self.seating[wanted] = Seat("bot", "", None, None, strength)
        return self._seating_change("bot_added", {"seat": wanted})

    def _remove_bot(self, seat: int, player: Any, action: Json) -> Change:
        self._need_host(player)
        self._need_gathering()
        wanted = self._seat_number(action.get("seat"))
        if self.seating[wanted].kind != "bot":
            raise IllegalMove(f"seat {wanted} has no computer player", code="no_bot_there")
        self.seating[wanted] = Seat()
        return self._seating_change("bot_removed", {"seat": wanted})

    def _swap(self, seat: int, player: Any, action: Json) -> Change:
        self._need_host(player)
        self._need_gathering()
        first, second = self._seat_number(action.get("a")), self._seat_number(action.get("b"))
        if first == second:
            raise InvalidInput("swap two different seats", code="bad_action")
        self.seating[first], self.seating[second] = self.seating[second], self.seating[first]
        self.connected = {_swapped(n, first, second) for n in self.connected}
        self.away_since = {_swapped(n, first, second): t for n, t in self.away_since.items()}
        return self._seating_change("swapped", {"a": first, "b": second})

    def _settings(self, seat: int, player: Any, action: Json) -> Change:
        self._need_host(player)
        self._need_gathering()
        changed = self.settings.changed(action.get("settings"))
        others = any(s.kind == "person" and s.player_id != self.host for s in self.seating)
        if changed.rated and not self.settings.rated and others:
            # Everyone rated has agreed on sitting down: a table turns rated before anyone else sits.
            raise IllegalMove(
                "a table is made rated before friends sit down (each agrees as they sit)",
                code="rated_needs_agreement",
            )
        self.settings = changed
        return Change("table_settings", {"settings": self.settings.to_json()})

    def _start(self, seat: int, player: Any, action: Json) -> Change:
        rematch = action.get("type") == "rematch"
        if rematch:  # anyone at the table may deal again: the host may have gone home
            seated = seat != self.lobby and self.seating[seat].kind == "person"
            if not seated or self.seating[seat].player_id != player:
                raise IllegalMove(
                    "only a person seated at this table may ask for a rematch", code="not_seated"
                )
        else:
            self._need_host(player)
        if rematch and self.phase != OVER:
            raise IllegalMove("a rematch follows a finished match", code="not_over")
        if not rematch and self.phase != GATHERING:
            raise IllegalMove("the match has already been dealt", code="not_gathering")
        empty = [n for n, s in enumerate(self.seating) if s.kind == "empty"]
        if empty:
            raise IllegalMove(
                f"seats {empty} are empty: seat a friend or a computer player", code="seats_empty"
            )
        self._deal()
        return Change("started", {"rematch": rematch, "seats": self.seats_json()})

    def _deal(self) -> None:
        """Deal a new match at this table (the game draws its secret deal)."""
        self.match, spec = self.game.deal(self.settings.rules, self.players(), self.record_seats())
        self._mark_absent()
        self.phase = PLAYING
        self.ready.clear()
        self.round_ended_at = None
        self._note_turn(force=True)
        self.pending = replace(spec, table=self.table_id)
        self._begin_round()

    def players(self) -> Players:
        """Return who plays a match at this table now: its people, its computer players' strengths,
        the strength that plays for an away person and the pace."""
        return players_of(self.seating, self.settings)

    def record_seats(self) -> list[Json]:
        """Return the match record's seats: ``{"kind": "human", "player": id, "name": …}`` for people
        (the host's marked ``"owner"``: the record is theirs), ``{"kind": "bot", "strength": …}`` for
        computer players."""
        seats: list[Json] = []
        for each in self.seating:
            if each.kind == "person":
                entry: Json = {"kind": "human", "player": each.player_id, "name": each.name}
                if each.player_id == self.host:
                    entry["owner"] = True
                seats.append(entry)
            else:
                seats.append({"kind": "bot", "strength": each.strength or self.settings.strength})
        return seats

    def _leave(self, seat: int, player: Any) -> Change:
        """A person leaves a public table for good: the computer player plays their seat from now on
        (and, for a rated round, they are placed as they stand), and the seat is free at the next round."""
        if not self.settings.quick:
            raise IllegalMove("leave a friends' table by closing it", code="not_quick")
        if seat == self.lobby or self.seating[seat].player_id != player:
            raise IllegalMove("you have no seat to leave", code="no_such_seat")
        if self.match is not None and self.phase == PLAYING:
            self._take_over([seat])
        self.gone.add(seat)
        self.connected.discard(seat)
        self.away_since.pop(seat, None)
        if self.match is None or self.phase != PLAYING or self.match.between_rounds:
            self._release(seat)
        self._note_turn(force=True)
        return self._seating_change("left", {"seat": seat})

    def _chat(self, seat: int, player: Any, action: Json) -> Change:
        if seat == self.lobby:
            raise IllegalMove("take a seat to chat", code="no_such_seat")
        phrase, text = action.get("phrase"), action.get("text")
        if phrase is not None:
            known = phrase in self.game.phrases or phrase in PHRASES or phrase in EMOJI
            if not isinstance(phrase, str) or not known:
                raise InvalidInput(f"no quick-chat phrase {phrase!r}", code="bad_chat")
            return Change("chat", {"seat": seat, "phrase": phrase})
        if not self.settings.free_text:
            raise IllegalMove("this table takes quick-chat phrases only", code="no_free_text")
        return Change("chat", {"seat": seat, "text": clean_chat(text)})

    def _match_action(self, seat: int, action: Json) -> Change:
        if self.match is None or self.phase != PLAYING:
            raise IllegalMove("no match is being played", code="no_match")
        if seat == self.lobby:
            raise IllegalMove("take a seat to play", code="no_such_seat")
        if action.get("type") == "continue":
            if not self.match.between_rounds:
                raise IllegalMove("the round is still being played", code="not_between_rounds")
            self.ready.add(seat)
            if self._everyone_ready():
                return self._next_round()
            return Change("ready", {"seat": seat})
        change = self.match.act(seat, action)
        return self._after_match_change(change)

    # --- time: away people, the turn timer, the next round, the computer players --------------------

    def set_connected(self, seats: set[int]) -> Change | None:
        """Tell the table which seats have a page connected now; return the event when that changes
        (a person away, or back: a computer player that was playing for them gives the seat back)."""
        self.watched = self.lobby in seats
        people = {
            n for n in seats if n != self.lobby and self.seating[n].kind == "person" and n not in self.gone
        }
        if people == self.connected:
            return None
        now = self.clock()
        back = people - self.connected
        gone = self.connected - people
        self.connected = people
        for n in gone:
            self.away_since[n] = now
        for n in back:
            self.away_since.pop(n, None)
        reclaimed = []
        if self.match is not None:
            for n in sorted(back & self.match.absent):
                self.match.absent.discard(n)
                reclaimed.append(n)
        self._note_turn(force=bool(reclaimed))
        return Change("presence", {"back": sorted(back), "away": sorted(gone), "reclaimed": reclaimed})

    def _due(self) -> list[tuple[float, str]]:
        """Return (when, what) for everything waiting to happen, by the clock."""
        match = self.match
        here = bool(self.connected) or (self.settings.quick and self.watched)
        if not here:
            return []  # nobody is here: the table waits for its people
        if self.settings.quick and self.phase == GATHERING:
            # Due since the table was made: at once.
            return [(0.0, "start")] if all(s.kind != "empty" for s in self.seating) else []
        if self.settings.quick and self.phase == OVER and self.round_ended_at is not None:
            return [(self.round_ended_at + NEXT_ROUND_SECONDS, "rematch")]
        if match is None or self.phase != PLAYING:
            return []
        due: list[tuple[float, str]] = []
        for n, since in self.away_since.items():
            if n not in match.absent and self.seating[n].kind == "person":
                due.append((since + self.settings.grace_seconds, "take_over"))
        if match.between_rounds:
            if self.round_ended_at is not None:
                due.append((self.round_ended_at + NEXT_ROUND_SECONDS, "next_round"))
            return due
        turn = match.turn
        if turn is None:
            return due
        if match.played_by_computer(turn):
            speeds = self.game.speeds
            pause = speeds.get(self.settings.speed, speeds[self.game.default_speed])
            due.append((self.turn_started + pause, "computer"))
        deadline = self._turn_deadline()
        if deadline is not None:
            due.append((deadline, "timeout"))
        return due

    def next_auto(self) -> float | None:
        """Return in how many seconds the next timed step is due (None when nothing is waiting)."""
        due = self._due()
        if not due:
            return None
        return max(0.0, min(when for when, _ in due) - self.clock())

    def auto(self) -> Change | None:
        """Make the timed step that is due, if any: a computer player takes an away person's seat,
        the next round is dealt, a computer player moves, or a person's time runs out."""
        now = self.clock()
        for when, what in sorted(self._due()):
            if when > now:
                return None
            if what in ("start", "rematch"):  # a public table deals on by itself
                handed = self._apply_claims()
                self._deal()
                data = {"rematch": what == "rematch", "handed_over": handed, "seats": self.seats_json()}
                return Change("started", data)
            match = self.match
            assert match is not None
            if what == "take_over":
                seats = sorted(
                    n for n, since in self.away_since.items()
                    if n not in match.absent and since + self.settings.grace_seconds <= now
                )  # fmt: skip
                self._take_over(seats)
                self._note_turn(force=True)
                return Change("taken_over", {"seats": seats})
            if what == "next_round":
                return self._next_round()
            turn = match.turn
            assert turn is not None
            if what == "computer":
                return self._after_match_change(match.play_for(turn))
            change = match.time_out(turn)  # the person's time ran out
            change = replace(change, public={**change.public, "timeout": True})
            return self._after_match_change(change)
        return None

    def _turn_deadline(self) -> float | None:
        match = self.match
        if match is None or self.phase != PLAYING or match.between_rounds or not self.settings.turn_seconds:
            return None
        turn = match.turn
        if turn is None or match.played_by_computer(turn):
            return None
        return self.turn_started + self.settings.turn_seconds

    def _note_turn(self, *, force: bool = False) -> None:
        """Restart the turn's clock when the turn moved on (or ``force``)."""
        match = self.match
        key = None if match is None else match.turn_key
        if force or key != self._turn_key:
            self._turn_key = key
            self.turn_started = self.clock()

    def _mark_absent(self) -> None:
        """Give the computer players the seats of people who have been away for longer than the grace."""
        if self.match is None:
            return
        now = self.clock()
        for n, since in self.away_since.items():
            if since + self.settings.grace_seconds <= now:
                self.match.absent.add(n)

    def _everyone_ready(self) -> bool:
        match = self.match
        assert match is not None
        present = {n for n in self.connected if n not in match.absent}
        return present <= self.ready

    def _next_round(self) -> Change:
        match = self.match
        assert match is not None
        handed = self._apply_claims()
        change = match.next_round()
        self.ready.clear()
        self.round_ended_at = None
        self._note_turn(force=True)
        self._begin_round()
        if handed or self.released:
            change = replace(
                change, public={**change.public, "handed_over": handed, "seats": self.seats_json()}
            )
        return change

    # --- public tables: claims honoured between rounds, people leaving, rated rounds ------------------

    def wants_claims(self) -> bool:
        """True when the next step may hand seats over: a public table gathering, between rounds or
        after its match (the owner then reads the claims from the store: :meth:`offer_claims`)."""
        if not self.settings.quick:
            return False
        return self.phase != PLAYING or (self.match is not None and self.match.between_rounds)

    def offer_claims(self, claims: Sequence[Claim]) -> None:
        """Give the table the seat claims not honoured yet (read from the store by its owner)."""
        self.claims = list(claims)

    def saved(self) -> None:
        """The owner kept the table's record: the claims it honoured and released are settled."""
        self.honoured.clear()
        self.released.clear()
        self.dirty = False

    def _take_over(self, seats: Sequence[int]) -> None:
        """Let computer players play ``seats`` (their people are away or left); at a rated table a
        person of the round is placed as they stand now."""
        match = self.match
        assert match is not None
        out = tuple(match.out_this_round())
        for n in seats:
            match.absent.add(n)
            if n in self.round_people and n not in self.left:
                self.left[n] = out

    def _release(self, seat: int) -> None:
        """A public table's person is gone: their claim ends and a computer player holds the seat."""
        person = self.seating[seat]
        if person.player_id is not None:
            self.released.append(person.player_id)
        self.seating[seat] = Seat("bot", "", None, None, self.settings.strength)
        self.gone.discard(seat)
        self.connected.discard(seat)
        self.away_since.pop(seat, None)
        if self.match is not None:
            self.match.seat_computer(seat)

    def _release_absent(self) -> None:
        """Give the seats of people a computer player plays for (they left, or stayed away past the
        grace) back to computer players, their claims ended."""
        if self.match is None:
            return
        for n, each in enumerate(self.seating):
            if each.kind == "person" and n in self.match.absent:
                self._release(n)

    def _apply_claims(self) -> list[int]:
        """At a round's start: seats of people who left become computer players' again, and claims of
        computer-held seats become people's; return the seats handed to people."""
        if not self.settings.quick:
            return []
        self._release_absent()
        handed = []
        for claim in self.claims:
            seat = claim.seat
            taken = self.seat_of_player(claim.player) is not None
            if not 0 <= seat < self.game.seats or self.seating[seat].kind != "bot" or taken:
                if not taken:
                    self.released.append(claim.player)  # a seat it cannot have: the person tries again
                continue
            self.seating[seat] = Seat("person", clean_name(claim.name, seat), claim.player, None)
            self.honoured.append(claim.player)
            self.away_since[seat] = self.clock()  # away until their page joins from the seat
            if self.match is not None:
                self.match.seat_person(seat)
            handed.append(seat)
        self.claims = []
        return handed

    def _begin_round(self) -> None:
        """Note who begins the round (the people a rated round rates)."""
        match = self.match
        self.left = {}
        self.round_people = {}
        if match is None:
            return
        for n, each in enumerate(self.seating):
            if each.kind == "person" and each.player_id is not None and n not in match.absent:
                self.round_people[n] = each.player_id

    def _rate_finished_round(self) -> None:
        """At a rated table, keep the round just finished for rating: its finishing order with each
        person who left during it placed as they stood (below every seat still playing then)."""
        match = self.match
        orders = match.round_orders() if match is not None else ()
        if not self.settings.rated or not orders:
            return
        order = orders[-1]
        gone = [n for n in self.left if n not in self.left[n]]  # still playing when taken over
        # The earliest to leave is placed lowest: every later leaver was still playing then.
        placed = [n for n in order if n not in gone] + list(reversed(gone))
        entries: list[tuple[int | None, str | None]] = []
        for n in placed:
            if n in self.round_people:
                entries.append((self.round_people[n], None))
            else:
                entries.append((None, self.seating[n].strength or self.settings.strength))
        self.rated_rounds.append(RatedRound(len(orders) - 1, tuple(entries)))

    def _after_match_change(self, change: Change) -> Change:
        """Follow the match after one of its changes: the round's end, the match's end, the turn."""
        match = self.match
        assert match is not None
        if (match.between_rounds or match.finished) and self.round_ended_at is None:
            self.round_ended_at = self.clock()
            self.ready.clear()
            self._rate_finished_round()
            self.dirty = self.settings.quick
        if match.finished:
            self.phase = OVER
            if self.settings.quick:  # the match's end: people who left give their seats up now
                self._release_absent()
            else:
                self.round_ended_at = None  # a friends' table waits for a rematch, not for a timer
        self._note_turn()
        return change

    # --- the record ------------------------------------------------------------------------------

    def record(self) -> TableRecord:
        """Return what the store keeps of the table."""
        return TableRecord(
            game=self.kind,
            table_id=self.table_id,
            code=self.code,
            host=self.host,
            settings=self.settings.to_json(),
            seats=self._seat_records(),
            phase=self.phase,
            game_id=self.game_id,
            epoch=self.epoch,
            honoured=tuple(self.honoured),
            released=tuple(self.released),
            watchers=self.watchers,
        )

    def _seat_records(self) -> list[Json]:
        """Return the seats as the record keeps them, each with its points in the match (for lists)."""
        totals = self.match.totals() if self.match is not None else ()
        seats = [each.to_record() for each in self.seating]
        for seat, points in zip(seats, totals, strict=False):
            seat["points"] = points
        return seats

    @classmethod
    def restore(
        cls,
        definition: GameDefinition,
        record: TableRecord,
        match_record: GameRecord | None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> FriendsTable:
        """Rebuild a table of ``definition``'s game from its record and its current match's record
        (replayed), with nobody connected yet: people count as away from now, so the grace period
        starts again.

        Raises:
            InvalidInput: a game not played at tables, or settings the table's record cannot have.
            ParlourError: the match's record does not replay.
        """
        game = seated_game(definition)
        seats = [Seat.from_record(data, game) for data in record.seats[: game.seats]]
        seats += [Seat() for _ in range(game.seats - len(seats))]
        settings = TableSettings.from_record(game, record.settings)
        table = cls(definition, record.table_id, record.code, record.host, settings, seats, clock=clock)
        table.game_id = record.game_id
        table.epoch = record.epoch
        if match_record is not None:
            match = game.restore(match_record, table.players())
            table.match = match
            table.phase = OVER if match.finished else PLAYING
            if match.between_rounds:
                table.round_ended_at = clock()
        now = clock()
        table.away_since = {n: now for n, s in enumerate(seats) if s.kind == "person"}
        table._note_turn(force=True)
        table._begin_round()
        if table.phase == OVER and settings.quick:
            table.round_ended_at = now  # a public table deals on after a pause
        return table


def players_of(seats: Sequence[Seat], settings: TableSettings) -> Players:
    """Return who plays a match at a table with ``seats`` and ``settings``."""
    return Players(
        people=frozenset(n for n, seat in enumerate(seats) if seat.kind == "person"),
        strengths={
            n: seat.strength or settings.strength for n, seat in enumerate(seats) if seat.kind == "bot"
        },
        strength=settings.strength,
        speed=settings.speed,
    )


def _swapped(seat: int, first: int, second: int) -> int:
    return second if seat == first else first if seat == second else seat
