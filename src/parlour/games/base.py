"""The seam between Parlour's platform and one game: what a game definition provides.

A game is known to the server, the store, the statistics, the pages and the command line only through
its :class:`GameDefinition`, registered in a :class:`~parlour.games.registry.Registry`:

- ``new(options)`` deals a game from the options a page or the command line sends; ``restore(record)``
  rebuilds a live game from its record by replay;
- a :class:`LiveGame` applies actions and produces the *view* of a seat (never anything hidden);
- ``prepare`` / ``replay`` are the store's side: a normalized record and the replay that checks every
  stored move and gives the :class:`Result` records and statistics need;
- ``explain`` turns a reason code into text, ``localize`` adds language-bound texts to a view;
- ``fold`` turns a player's finished games into the game's statistics.

This module holds only the shapes; each game's definition is in its own package
(``parlour.tripeaks.definition``, ``parlour.thirteen.definition``), found through its entry point.
"""

from __future__ import annotations

import copy
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, Generic, Protocol, TypeVar, runtime_checkable

from parlour.errors import InvalidInput
from parlour.games.ratings import Skill

Json = dict[str, Any]
"""A JSON-ready object (what views, events and results are made of)."""


class Status:
    """The one vocabulary of game states, shared by the engines, the records and the wire.

    ``playing`` while a game goes on (its record is ``open``); a finished game is ``won`` or ``stuck``
    (TriPeaks), ``finished`` (a Thirteen match that has its winner) or ``left`` (ended unfinished).
    """

    OPEN: Final = "open"
    PLAYING: Final = "playing"
    WON: Final = "won"
    STUCK: Final = "stuck"
    FINISHED: Final = "finished"
    LEFT: Final = "left"
    ENDED: Final = frozenset({WON, STUCK, FINISHED, LEFT})
    """The statuses of a record that is no longer open."""


# --- live games ---------------------------------------------------------------------------------------


class SeatView(Protocol):
    """What one seat sees of a game now, as the game builds it (a frozen dataclass, never anything
    that seat may not know). Views stay data inside the process (the table, the terminal app and the
    tests read their fields); they become JSON only at the wire, through :func:`view_json`."""

    def to_json(self) -> Json:
        """Return the view as the pages are sent it (``docs/protocol.md``): a new object each call."""
        ...


ViewT = TypeVar("ViewT", bound=SeatView, covariant=True)
"""The view type of a live game (its :meth:`LiveGame.view`)."""
MatchViewT = TypeVar("MatchViewT", bound=SeatView)
"""The view type of a seated match (read back by :meth:`SeatedMatch.spectator`)."""


def view_json(view: SeatView | None) -> Json | None:
    """Return a seat's view as JSON, the one place a view becomes JSON (None for no view)."""
    return None if view is None else view.to_json()


@dataclass(frozen=True)
class Change:
    """What one accepted action (or automatic step) did, as the game reports it to its owner.

    ``name`` is the event name (``remove``, ``draw``, ``play`` …); ``public`` is the data every seat may
    see; ``private`` adds data per seat; ``visible_to`` (None = all seats) names the seats that see the
    event at all — the others get a version stub. ``moves`` are the move texts to append to the game's
    record, in order; ``finished`` says the game has ended with this change.
    """

    name: str
    public: Json = field(default_factory=dict)
    private: Mapping[int, Json] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None
    moves: Sequence[str] = ()
    finished: bool = False


class LiveGame(ABC, Generic[ViewT]):
    """One game in play, as the server holds it. Subclasses wrap an engine and speak views only: each
    seat's :class:`SeatView` of type ``ViewT``.

    Implementations must never put hidden information (a face-down card, the stock order, another
    seat's hand) into :meth:`view` or into a :class:`Change` a seat can see. Only the game's owner calls
    these methods, one at a time.
    """

    kind: str
    """The game's name in URLs and records: ``tripeaks``, ``thirteen`` (its definition's ``name``)."""

    @property
    @abstractmethod
    def seats(self) -> Sequence[int]:
        """Return the seats that people may watch the game from (TriPeaks: ``(0,)``)."""

    @abstractmethod
    def view(self, seat: int) -> ViewT:
        """Return everything ``seat`` may see now (legal moves left out)."""

    def views(self, seats: Sequence[int]) -> dict[int, ViewT]:
        """Return each of ``seats``' view, as :meth:`view` would (a game may make the parts every seat
        sees once for all of them; the views may then share those parts, so none is to be changed)."""
        return {seat: self.view(seat) for seat in seats}

    @abstractmethod
    def act(self, seat: int, action: Json) -> Change:
        """Apply one action sent by ``seat`` and return what changed.

        Raises:
            ParlourError: the action is malformed (``InvalidInput``) or illegal now (``IllegalMove``);
                the game must be left unchanged.
        """

    @property
    @abstractmethod
    def finished(self) -> bool:
        """Return whether the game has ended (no more actions are accepted)."""

    def legal(self, seat: int) -> list[str]:
        """Return the moves ``seat`` may make now, as move texts (sent only when a page asks)."""
        return []

    def snapshot(self) -> LiveGame[ViewT]:
        """Return an independent copy of the game as it is now: the owner keeps it while a move is being
        recorded and goes back to it when the record could not be written."""
        return copy.deepcopy(self)

    def configure(self, seat: int, settings: Json) -> Change | None:
        """Change settings of the game in play (a computer player's speed …); return the event, if any.

        Raises:
            InvalidInput: a setting this game does not have or a value it cannot take (``bad_option``).
        """
        raise InvalidInput(f"this game has no settings to change: {sorted(settings)!r}", code="bad_option")

    def next_auto(self) -> float | None:
        """Return in how many seconds :meth:`auto` should run (computer players), or None for never."""
        return None

    def auto(self) -> Change | None:
        """Make one automatic step (a computer player's move) and return it, or None if none is due."""
        return None

    def hint_task(self, seat: int, strength: object = None) -> Callable[[], Json] | None:
        """Return a call that computes a hint of ``strength`` (the request's, None for the game's
        default) for ``seat`` from a snapshot of the game (it runs in a worker thread while play goes
        on), or None when this game gives no hints.

        Raises:
            ParlourError: no hint can be given now (the game is over), or no such strength.
        """
        return None


# --- games played by several seats at a friends' table ---------------------------------------------


class SeatedMatch(LiveGame[MatchViewT]):
    """One match of a game played at a friends' table (``parlour.games.tables``), as the table drives it.

    ``people`` are the seats people sit in (the others are computer players); a person's seat in
    ``absent`` is played by a computer player until the person comes back; ``speed`` paces the computer
    players (one of the game's :attr:`SeatedGame.speeds`). The match takes the actions named in
    :attr:`SeatedGame.match_actions` from the people's seats; the table takes ``continue`` (everyone
    ready for the next round) itself.
    """

    people: frozenset[int]
    absent: set[int]
    speed: str
    between_rounds: bool
    """True once a round has ended and the next one waits to be dealt (:meth:`next_round`)."""

    def snapshot(self) -> SeatedMatch[MatchViewT]:
        """Return an independent copy of the match (see :meth:`LiveGame.snapshot`)."""
        twin = super().snapshot()
        assert isinstance(twin, SeatedMatch)
        return twin

    @property
    @abstractmethod
    def turn(self) -> int | None:
        """Return the seat to move (None once the match is over; between rounds, the table waits for
        :attr:`between_rounds` before it asks)."""

    @property
    @abstractmethod
    def turn_key(self) -> tuple[int, ...]:
        """Return a key that changes whenever the turn moves on (a move made, a round dealt)."""

    @property
    @abstractmethod
    def moves_played(self) -> int:
        """Return how many moves the match's record holds."""

    @abstractmethod
    def played_by_computer(self, seat: int) -> bool:
        """Return whether a computer player makes ``seat``'s moves now."""

    @abstractmethod
    def play_for(self, seat: int) -> Change:
        """Make ``seat``'s computer player choose from that seat's own view, and make its move."""

    @abstractmethod
    def time_out(self, seat: int) -> Change:
        """Make what a person's running out of time makes for them (a pass, or their computer
        player's move)."""

    @abstractmethod
    def next_round(self) -> Change:
        """Deal the next round (between rounds only).

        Raises:
            IllegalMove: no round is waiting (``not_between_rounds``).
        """

    @abstractmethod
    def spectator(self, view: MatchViewT) -> MatchViewT:
        """Return what a watcher who has no seat may see, from a person's ``view`` (no hand, nothing
        only that person may know)."""

    def round_orders(self) -> Sequence[tuple[int, ...]]:
        """Return the finishing order of every round played so far (first out first): what a rated
        table rates. A game without such rounds has none."""
        return ()

    def totals(self) -> tuple[int, ...]:
        """Return each seat's points in the match so far (none for a game without points)."""
        return ()

    def out_this_round(self) -> tuple[int, ...]:
        """Return the seats already out of the round being played, in the order they went out."""
        return ()

    def seat_person(self, seat: int) -> None:
        """Let a person play ``seat`` from now on (a public table hands it over between rounds)."""
        self.people = self.people | {seat}
        self.absent.discard(seat)

    def seat_computer(self, seat: int) -> None:
        """Let the computer player of the table's strength play ``seat`` from now on (its person left
        a public table)."""
        self.people = self.people - {seat}
        self.absent.discard(seat)


class TableRules(Protocol):
    """A game's rules as a friends' table keeps them: JSON, the points its match is played to, or the
    deals of a duplicate set."""

    @property
    def target_points(self) -> int:
        """Return the points that win the match."""

    @property
    def duplicate_deals(self) -> int:
        """Return how many deals a duplicate set holds (0: a match to the target points)."""

    def to_json(self) -> Json:
        """Return the rules as JSON (the table's record and its views)."""


@dataclass(frozen=True)
class Players:
    """Who plays a match dealt at a table: the ``people``'s seats, each computer player's strength by
    seat (``strengths``), the strength that plays for an away person (``strength``) and the pace."""

    people: frozenset[int]
    strengths: Mapping[int, str]
    strength: str
    speed: str


class SeatedGame(ABC):
    """What a game played by several seats gives friends' tables (``GameDefinition.seated``).

    Attributes:
        seats: how many seats a table of this game has.
        strengths: its computer players' strengths, weakest first; default_strength: the usual one.
        former_strengths: strengths renamed since a table's record may have been written, by their
            former name: a record is read with the new one.
        speeds: the pause before a computer player's move, in seconds, by speed name; default_speed.
        phrases: quick-chat phrases of this game by id (msgids of its page's domain), beside the
            phrases every table has.
        match_actions: the action types the match takes (the table takes the rest).
        computer_ratings: the computer players' fixed ratings by strength (rated tables need them).
        invitation: the home page's link to the game's tables page (``/NAME/tables``), a ``web``
            msgid; empty for a game without such a page.
    """

    seats: int
    strengths: tuple[str, ...]
    default_strength: str
    speeds: Mapping[str, float]
    default_speed: str
    former_strengths: Mapping[str, str] = MappingProxyType({})
    phrases: Mapping[str, str] = MappingProxyType({})
    match_actions: frozenset[str] = frozenset()
    invitation: str = ""
    computer_ratings: Mapping[str, Skill] = MappingProxyType({})
    """Each computer player's fixed rating on people's scale, by strength (``parlour.games.ratings``):
    a game without them has no rated tables."""
    quick_targets: tuple[int, ...] = ()
    """The points targets Play now offers (the first is the default); none: the rules' default only."""

    def strength_label(self, strength: str, lang: str) -> str:
        """Return a computer player's strength as people read it in ``lang`` (its name by default)."""
        return strength

    @abstractmethod
    def rules(self, data: Any) -> TableRules:
        """Return the table rules of ``data`` (a JSON object; None or empty: the defaults).

        Raises:
            InvalidInput: rules this game cannot have at a table (``bad_option``).
        """

    @abstractmethod
    def deal(
        self, rules: TableRules, players: Players, seats: Sequence[Json]
    ) -> tuple[SeatedMatch[Any], RecordSpec]:
        """Deal a new match with a fresh secret deal, and return it with its record: ``seats`` are the
        record's seats, and its ``secret`` is filled (what only the server may know until the match is
        over)."""

    @abstractmethod
    def restore(self, record: GameRecord, players: Players) -> SeatedMatch[Any]:
        """Rebuild a table's match from its record by replay.

        Raises:
            ParlourError: the record does not replay.
        """


# --- records --------------------------------------------------------------------------------------------


class GameRecord(Protocol):
    """What a stored game offers for restoring it (the store's ``GameRecord`` satisfies it)."""

    @property
    def rules(self) -> Json: ...

    @property
    def code(self) -> str: ...

    @property
    def seats(self) -> list[Any]: ...

    @property
    def moves(self) -> Sequence[str]: ...

    @property
    def numbered(self) -> int | None: ...

    @property
    def secret(self) -> Json | None: ...

    @property
    def status(self) -> str:
        """``open`` while the game is played, else how it ended (:class:`Status`)."""

    @property
    def ranked_open(self) -> bool:
        """A ranked game whose deal must still be kept from its player, ended or not (decision 0060)."""


@dataclass(frozen=True)
class RecordSpec:
    """A game's record as the store keeps it, normalized and checked by the game's definition.

    ``rules`` (JSON), ``rules_key`` (a short name statistics and records group by: ``easy``,
    ``standard``, ``custom`` …), ``code`` (canonical deal code), ``seats`` (JSON list), ``numbered``,
    and ``secret``: what only the server may know while the game is played (Thirteen's fairness salt
    and its computer players' seed), kept with the record and never sent to a page before the end.
    """

    rules: Json
    rules_key: str
    code: str
    seats: list[Any]
    numbered: int | None = None
    secret: Json = field(default_factory=dict)
    table: str | None = None
    """The friends' table the game is played at (None for a player's own game)."""
    deal_drawn: bool = False
    """The server drew the deal from a secret seed for this game (a random deal): nobody knew it before,
    so a challenge of it is ranked. False for a code typed in, a numbered game, a daily deal (public
    once its day is over) (decision 0060)."""


@dataclass(frozen=True)
class NewGame:
    """A freshly dealt live game and its record (None for a game that is not recorded, such as a test's
    explicit layout)."""

    game: LiveGame[SeatView]
    spec: RecordSpec | None


Standing = tuple[int, ...]
"""A numbered game's result as its records compare it: numbers, lower is better, compared in order
(TriPeaks': peak cards left, then moves)."""


@dataclass(frozen=True)
class Result:
    """What replaying a record gives: the record's final ``status`` (one of :attr:`Status.ENDED`),
    the JSON ``data`` kept with the record and read by statistics and numbered records, and
    ``played``: False for a game the player never took part in (a Thirteen match where only the
    computer players moved), which then counts for neither statistics nor records."""

    status: str
    data: Json
    played: bool = True


class Replay(Protocol):
    """A record being replayed by the store: every stored move goes through :meth:`apply`."""

    @property
    def moves(self) -> int:
        """Return how many moves have been applied."""

    def apply(self, move: str) -> str:
        """Apply the next stored move and return it in canonical form.

        Raises:
            ParlourError: the engine refuses it (the replay is left unchanged).
        """

    def result(self, *, ended: bool) -> Result:
        """Return the result of the moves applied so far (``ended``: the game is being closed)."""


@runtime_checkable
class SeatedReplay(Replay, Protocol):
    """A replay of a game several people played (a friends' table's match): each one's own result."""

    def result_for(self, seat: int, *, ended: bool) -> Result:
        """Return the result of the moves applied so far for the person at ``seat``."""


@dataclass(frozen=True)
class FinishedGame:
    """One finished game of a player, as statistics read it: ``rules_key``, the replayed result's
    ``data``, when it ended and when it was dealt."""

    rules_key: str
    result: Json
    finished_at: datetime
    started_at: datetime | None = None


class GameStatistics(Protocol):
    """A player's figures for one game, as its definition folds them."""

    @property
    def played(self) -> int:
        """Return how many games count."""

    def to_json(self) -> Json:
        """Return the figures as JSON (``GET /api/stats``)."""


@dataclass(frozen=True)
class StatisticsTable:
    """A game's statistics laid out as a table for the command line: English headings and rows
    (``labelled``: the first column names the row, such as the rule set)."""

    title: str
    headings: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    labelled: bool = True

    def translated(self, translate: Callable[[str], str]) -> StatisticsTable:
        """Return this table with its headings (and row labels, when ``labelled``) put through
        ``translate``, a catalog's gettext."""
        headings = tuple(translate(heading) for heading in self.headings)
        rows = self.rows
        if self.labelled:
            rows = tuple((translate(row[0]), *row[1:]) for row in self.rows)
        return replace(self, headings=headings, rows=rows)


@dataclass(frozen=True)
class RulesPage:
    """A game's rules page: its ``template``, its ``title`` (a msgid of its ``domain``, the game's own
    catalog of its rules) and what else its template is given (``context``: the game's own facts, such
    as where its cards lie)."""

    template: str
    title: str
    context: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    domain: str = "rules"


@dataclass(frozen=True)
class Preference:
    """A per-player setting a game adds (a computer player's speed …): its ``default`` and ``choices``;
    for the player page, its ``label`` and each choice's name (``names``), ``store`` msgids (a choice
    without a name is shown as it is)."""

    default: str
    choices: tuple[str, ...]
    label: str = ""
    names: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class NumberedGames:
    """A game's numbered deals: the same deals for everybody, each with its record (the best result
    and the first to win) and every player's own best.

    A game with numbered deals deals number N under the rules R when its :meth:`GameDefinition.new` is
    given ``{"rules": R, "number": N}``; its records are kept under the ``rules_key`` of its
    :class:`RecordSpec`.

    Attributes:
        count: how many there are under each rule set (numbers 1 … ``count``).
        rules: the rule sets (their records' ``rules_key``) and their names for people (``store``
            msgids), in the order the pages show them; the first is the default.
        verdict: the solver's answer for (rules key, number): winnable or not, None when unknown.
        standing_of: the standing of a replayed result's ``data`` (:attr:`Result.data`), None when it
            has none (a game left before it was played).
        fields: the name of each number of a standing, in order (``("left", "moves")``): JSON gives
            a record's best as ``best_<field>``.
        wins: whether a standing is a win (the first standing that is makes its player the first winner).
        describe: a standing in words, with the ``store`` domain's translation function of a language
            (``s(msgid, **values)``): "Won in 34 moves".
        explanation: what makes a result better, for the numbered games' page (a ``store`` msgid).
    """

    count: int
    rules: Mapping[str, str]
    verdict: Callable[[str, int], bool | None]
    standing_of: Callable[[Json], Standing | None]
    fields: tuple[str, ...]
    wins: Callable[[Standing], bool]
    describe: Callable[[Standing, Callable[..., str]], str]
    explanation: str

    @property
    def rules_keys(self) -> tuple[str, ...]:
        """Return the rule sets' keys, in order."""
        return tuple(self.rules)

    def best_json(self, standing: Standing) -> Json:
        """Return a standing as JSON: ``{"best_<field>": number, …}``."""
        return {f"best_{name}": value for name, value in zip(self.fields, standing, strict=True)}


@dataclass(frozen=True, slots=True)
class PuzzlePosition:
    """A stored puzzle as a game reads it: the deal's ``code``, the ``moves`` from its start to the
    position, the one ``answer`` and the ``line`` that follows it (all in the game's move words)."""

    code: str
    moves: tuple[str, ...]
    answer: str
    line: tuple[str, ...]


@dataclass(frozen=True)
class Puzzles:
    """A game's puzzles (decision 0065): the platform keeps them, rates them and serves their pages
    (``/{game}/puzzles``, the daily puzzle, streaks); the game says what they are.

    Attributes:
        packaged: the puzzles the pool starts from (each ``{code, moves, answer, themes, difficulty,
            line, source}``, as its generator prints them).
        board: what the page shows of a puzzle before it is answered, in a language (JSON for the
            game's board script): what a player of that position may see, never more.
        move: the canonical words of a move of a puzzle's position (``KC``; ``3S 4S 5S``), None when it
            is not a legal move there.
        solution: what the page shows after an answer, in a language: ``{"answer_words", "code",
            "positions", "steps"}`` (the answer named, the deal, the positions of the line after it and
            each step in words).
        texts: the texts its board script shows, translated into a language.
        board_script: its board module in the game's static files (``js/…``), which draws a board and
            reports the player's move to the platform's puzzle script.
        board_template: the template of its board (included in the platform's puzzle page).
        themes: each theme's name for people (a msgid of the page's catalogs).
        from_deal: the most interesting puzzle of a deal whose code is public now (a past day's daily
            deal), in the ``packaged`` form with the ``source`` given; None when it has none. None for
            a game whose puzzles come only from its packaged pool.
    """

    packaged: Callable[[], list[Json]]
    board: Callable[[PuzzlePosition, str], Json]
    move: Callable[[PuzzlePosition, str], str | None]
    solution: Callable[[PuzzlePosition, str], Json]
    texts: Callable[[str], Mapping[str, str]]
    board_script: str
    board_template: str
    themes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    from_deal: Callable[[str, str], Json | None] | None = None


@dataclass(frozen=True)
class DailyDeals:
    """A game's deal of the day: each day (UTC) one secret deal per rule set, the same for everybody,
    committed to from the start of the day and revealed once it is over (decision 0050).

    Attributes:
        rules: the rule sets (``rules_key``) and their names for people (``store`` msgids), in the
            order the pages show them; the first is the default.
        draw: a fresh random deal under a rule set, as its canonical code (the operating system's CSPRNG).
        commitment: the commitment to ``(code, salt)``: SHA-256 of ``CODE|SALT``.
        standing_of: the standing of an attempt's replayed result ``data`` (lower is better, compared
            in order), None for an attempt that counts for nothing (left before it was played).
        describe: a result's ``data`` in words, with the ``store`` domain's translation function of a
            language (``s(msgid, **values)``).
        won: whether a result's ``data`` is a win (the streak of days won).
        order: how the leaderboard is ordered, for its page (a ``store`` msgid).
    """

    rules: Mapping[str, str]
    draw: Callable[[str], str]
    commitment: Callable[[str, str], str]
    standing_of: Callable[[Json], Standing | None]
    describe: Callable[[Json, Callable[..., str]], str]
    won: Callable[[Json], bool]
    order: str

    @property
    def rules_keys(self) -> tuple[str, ...]:
        """Return the rule sets' keys, in order."""
        return tuple(self.rules)


DAILY_SECRET: Final = "daily"
"""The key of a record's ``secret`` naming the day (ISO date) of a counted attempt at a daily deal."""
CHALLENGE_SECRET: Final = "challenge"
"""The key of a record's ``secret`` naming the challenge an attempt answers."""


RANKED_OPEN_MESSAGE: Final = (
    "This deal is still ranked: its review comes when the day is over, or for a "
    "challenge once your answer has counted."
)
"""What a player is told who asks for the review of a ranked game whose deal is still secret (a
``web`` msgid)."""


def day_end(day: date) -> datetime:
    """Return the moment ``day`` (UTC) is over: the next midnight, UTC."""
    return datetime.combine(day + timedelta(days=1), time(), tzinfo=UTC)


def daily_reveal(secret: Json | None) -> datetime | None:
    """Return when the deal of a ranked daily attempt (its record's ``secret`` names the day) may be
    shown: the end of its day (decision 0060). None for a game that is no daily attempt; an unreadable
    day is kept secret for good rather than shown."""
    day = (secret or {}).get(DAILY_SECRET)
    if day is None:
        return None
    try:
        return day_end(date.fromisoformat(str(day)))
    except ValueError:
        return datetime.max.replace(tzinfo=UTC)


def now_utc() -> datetime:
    """Return the time now, in UTC (the clock a ranked deal's reveal is read against)."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class TerminalGame:
    """How a game is played in the terminal (``parlour tui``).

    Attributes:
        key: the key that picks the game in the menu (one lowercase letter).
        opener: ``module:function`` of the function that opens the game's screen, imported only when
            the game is chosen: ``function(code, lang, database_url, record)`` (``code`` None: a new
            random deal).
        codes: what the game's codes look like, for people (``TH1-…``), when a code is nobody's.
        owns_code: whether a typed code is one of this game's (``parlour tui CODE`` asks each game).
    """

    key: str
    opener: str
    codes: str
    owns_code: Callable[[str], bool]


# --- the definition --------------------------------------------------------------------------------------


class GameDefinition(ABC):
    """Everything the platform knows of one game. One instance per game is registered.

    Attributes:
        name: the game's name in URLs, records and the registry (``tripeaks``).
        title: its name for people (a ``web`` msgid: "TriPeaks" stays as it is, "Thirteen" is translated).
        blurb: one line about it for the home page (a ``web`` msgid); tile_image: its picture there.
        page: the URL path of its page, None without one.
        page_module: the module whose ``router`` serves that page (imported by the server); its
            ``TEMPLATE_HELPERS``, if any, are given to every template (its statistics section's charts).
        statistics_template: the template fragment that shows its statistics on ``/stats``.
        numbered: its numbered deals, None when it has none.
        daily: its deal of the day, None when it has none (decision 0050).
        challenges: whether a finished game may be offered to friends to play the same deal (its
            :meth:`ranked` deals their attempts; ``daily`` says how results compare and read).
        rules: its rules page (``/rules/{name}``), None without one.
        preferences: the per-player settings it adds, by preference name.
        seated: what friends' tables of this game need, None for a game played alone.
        terminal: how it is played in the terminal, None when it is not.
        commands: ``module:attribute`` of its command group on the command line (``parlour NAME …``),
            None without one.
        reviews: whether it reviews a finished game (:meth:`review`).
        reviewed: the statuses of the records it reviews (a Thirteen match only once it is finished,
            when its code and salt are revealed; every ended TriPeaks game).
        review_page: the address of a finished game's review page, ``{game_id}`` standing for the
            game's id (``/tripeaks/review/{game_id}``), None without one.
        puzzles: its puzzles (their pages are ``/{name}/puzzles``), None without puzzles.
        ranked_note: what a ranked attempt (today's daily deal, a challenge) changes in play, said on
            those pages before it starts (a ``store`` msgid); empty when nothing changes.
        learning: ``module:function`` that registers its learning environments with Gymnasium, called
            by ``import parlour.learn`` (the ``learn`` extra), None without one.
        order: where the game comes among the games (the home page, menus, statistics): lower first,
            then by name.
    """

    name: str
    title: str
    blurb: str | None = None
    tile_image: str | None = None
    page: str | None = None
    page_module: str | None = None
    statistics_template: str | None = None
    numbered: NumberedGames | None = None
    daily: DailyDeals | None = None
    challenges: bool = False
    rules: RulesPage | None = None
    preferences: Mapping[str, Preference] = MappingProxyType({})
    seated: SeatedGame | None = None
    terminal: TerminalGame | None = None
    commands: str | None = None
    reviews: bool = False
    reviewed: frozenset[str] = Status.ENDED
    review_page: str | None = None
    puzzles: Puzzles | None = None
    ranked_note: str = ""
    learning: str | None = None
    order: int = 100

    @property
    def home(self) -> Path:
        """Return the game's package folder: the folder of the module that defines this definition, which
        holds the game's own ``templates/``, ``static/`` and ``locale/`` (decision 0061)."""
        module = sys.modules[type(self).__module__]
        if module.__file__ is None:
            raise RuntimeError(f"the module {module.__name__} has no file: its game has no home")
        return Path(module.__file__).resolve().parent

    def assets(self, kind: str) -> Path | None:
        """Return the game's folder of ``kind`` (``templates``, ``static``, ``locale``), None without one."""
        folder = self.home / kind
        return folder if folder.is_dir() else None

    @abstractmethod
    def new(self, options: Json) -> NewGame:
        """Deal a game from creation options (a page's JSON body, the command line).

        Raises:
            ParlourError: bad options, with a reason code :meth:`explain` knows.
        """

    @abstractmethod
    def restore(self, record: GameRecord) -> LiveGame[SeatView]:
        """Rebuild a live game from its record by replaying its moves.

        Raises:
            ParlourError: the record does not replay.
        """

    @abstractmethod
    def prepare(self, rules: Any, code: str, seats: Sequence[Any], numbered: int | None) -> RecordSpec:
        """Return the normalized record of a new game, checked by dealing it.

        Raises:
            InvalidInput: rules, code, seats or number that this game refuses.
        """

    @abstractmethod
    def replay(self, spec: RecordSpec) -> Replay:
        """Return a replay of ``spec`` before its first move."""

    @abstractmethod
    def fold(self, games: Sequence[FinishedGame]) -> GameStatistics:
        """Return a player's statistics from their finished games, in the order they ended."""

    @abstractmethod
    def statistics_tables(self, figures: GameStatistics, player: str) -> list[StatisticsTable]:
        """Return the command line's tables of ``figures`` (``parlour stats --player``)."""

    @abstractmethod
    def statistics_summary(self, figures: GameStatistics) -> list[tuple[str, str]]:
        """Return (English heading, value) pairs for the one-line-per-player overview."""

    def explain(self, code: str, lang: str) -> str | None:
        """Return the translated text of a reason code of this game, None for a code it does not own."""
        return None

    def ranked(self, code: str, secret: Json) -> NewGame:
        """Deal ``code`` as a ranked game (an attempt at a daily deal, a challenge): its views name no
        code and nothing else the hidden cards follow from until it is over, and its record keeps
        ``secret`` (what it is ranked for: ``{"daily": day}``, ``{"challenge": id}``).

        Raises:
            NotImplementedError: this game has no ranked deals. ParlourError: a bad code.
        """
        raise NotImplementedError(f"{self.name} has no ranked deals")

    def review(self, record: GameRecord, seat: int = 0) -> Json:
        """Return the review of a finished game (``reviews``: a game that has them) from ``seat`` (the
        decisions of the person who played it from there), as JSON.

        A review may follow from every hidden card of the deal: the platform asks only for a game that
        is over, and runs it in a worker process (it may take seconds), once per game.

        Raises:
            NotImplementedError: this game has no reviews.
        """
        raise NotImplementedError(f"{self.name} has no reviews")

    def localize(self, view: Json, lang: str) -> Json:
        """Return texts derived from a view in ``lang`` (added to every message carrying that view)."""
        return {}
