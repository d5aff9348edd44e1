"""The TriPeaks game state: checked actions for people, an unchecked push/pop path for search.

``Game`` holds one deal in play. The checked actions (``remove``, ``remove_card``, ``draw``, ``undo``,
``apply``) validate everything and raise ``IllegalMove`` (``GameOver`` after a win) with a reason code,
changing nothing, when the rules refuse. The unchecked ``push_remove``, ``push_draw`` and ``pop`` are for
the solver and bots: they trust the caller, and ``pop`` is the exact inverse of the last push (the move
counter included), whereas ``undo`` keeps the move counter, as the rules demand.

Each action keeps a small record (position removed or a draw, positions it turned face up, score, run
and counters before it) so that undo costs no copy of the state.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from parlour.cards import Card
from parlour.errors import GameOver, IllegalMove, InvalidCard, InvalidInput
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.layout import COVERED_BY, COVERS, PEAK_OF, PEAKS, TABLEAU_SIZE
from parlour.tripeaks.rules import EASY, Rules
from parlour.tripeaks.views import PlayerView, Slot

START_SCORE: Final = 500
"""The app's scoring starts here; every removal and draw costs 1, an emptied peak brings 100."""
PEAK_BONUS: Final = 100
TRADITIONAL_DRAW_COST: Final = 5
TRADITIONAL_PEAK_BONUS: Final = (15, 15, 30)
"""Traditional scoring: the first and second peak emptied bring 15 each, the third 30."""
UNDO_LIMIT: Final = 100
"""Undo reaches back over at most this many actions."""

PLAYING: Final = "playing"
WON: Final = "won"
STUCK: Final = "stuck"

DRAW: Final = "draw"
UNDO: Final = "undo"
MOVE_FORMAT_HELP: Final = "a move is a card of the peaks (KC, K♣, 10♥), draw or undo"

NOT_ADJACENT: Final = "not_adjacent"
BLOCKED: Final = "blocked"
STOCK_EMPTY: Final = "stock_empty"
NOTHING_TO_UNDO: Final = "nothing_to_undo"
GAME_OVER: Final = "game_over"
MUST_PLAY: Final = "must_play"
UNDO_RANKED: Final = "undo_ranked"
REASON_CODES: Final = (NOT_ADJACENT, BLOCKED, STOCK_EMPTY, NOTHING_TO_UNDO, GAME_OVER, MUST_PLAY, UNDO_RANKED)
"""Every reason code a checked action can raise."""


class _Record(NamedTuple):
    position: int  # -1 for a draw
    flipped: tuple[int, ...]
    score: int
    run: int
    moves: int
    undoable: int


def peak_bonus(rules: Rules, peaks_cleared: int) -> int:
    """Return the points emptying a peak brings when it is the ``peaks_cleared``-th peak emptied (1-3).

    The app's scoring gives 100 for every peak; traditional scoring 15, 15, then 30.
    """
    return TRADITIONAL_PEAK_BONUS[peaks_cleared - 1] if rules.traditional_scoring else PEAK_BONUS


def fits(card: Card, top: Card | None, king_ace_linked: bool) -> bool:
    """Return True when ``card`` may go onto the discard top ``top``.

    An empty discard pile takes any card; the joker fits every card and every card fits the joker;
    otherwise the ranks must differ by exactly one, or be K and A when ``king_ace_linked`` (Easy).
    """
    if top is None or card.suit is None or top.suit is None:
        return True
    difference = abs(card.rank - top.rank)
    return difference == 1 or (king_ace_linked and difference == 12)


class Game:
    """One TriPeaks game in play.

    Args:
        deal: the cards.
        rules: the rules; their ``joker`` and ``empty_discard`` switches must match the deal.
        code: the deal code, when the deal came from one (it is reported in the JSON state).

    Raises:
        InvalidInput: the deal does not fit the rules or the code.
    """

    __slots__ = (
        "_cards",
        "_cover",
        "_discard",
        "_history",
        "_left",
        "_linked",
        "_moves",
        "_peak_left",
        "_removed",
        "_run",
        "_score",
        "_stock",
        "_undoable",
        "_up",
        "code",
        "deal",
        "rules",
    )

    def __init__(self, deal: Deal, rules: Rules = EASY, code: DealCode | None = None) -> None:
        if rules.joker != deal.has_joker:
            raise InvalidInput(f"the rules {'need' if rules.joker else 'forbid'} a joker in the deal")
        if rules.empty_discard != (deal.discard is None):
            raise InvalidInput(
                "the empty-discard variant needs a deal without a discard card, and only it allows one"
            )
        if code is not None and code.rules != rules:
            raise InvalidInput(f"the code {code} is for other rules")
        self.deal = deal
        self.rules = rules
        self.code = code
        self._linked = rules.king_ace_linked
        self._cards: list[Card] = list(deal.tableau)
        self._removed = [False] * TABLEAU_SIZE
        self._up = [rules.open_peaks or not COVERED_BY[p] for p in range(TABLEAU_SIZE)]
        self._cover = [len(COVERED_BY[p]) for p in range(TABLEAU_SIZE)]
        self._discard: list[Card] = [] if deal.discard is None else [deal.discard]
        self._stock: list[Card] = list(reversed(deal.stock))  # top at the end: pop() draws
        self._peak_left = [len(peak) for peak in PEAKS]
        self._left = TABLEAU_SIZE
        self._score = 0 if rules.traditional_scoring else START_SCORE
        self._run = 0
        self._moves = 0
        self._undoable = 0
        self._history: list[_Record] = []

    @classmethod
    def from_code(cls, code: DealCode | str) -> Game:
        """Start the game of a deal code (text is parsed first).

        Raises:
            InvalidCode: the text is not a deal code.
        """
        if isinstance(code, str):
            code = DealCode.parse(code)
        return cls(Deal.from_code(code), code.rules, code)

    def copy(self) -> Game:
        """Return an independent copy of this game, history included."""
        twin = Game.__new__(Game)
        for name in Game.__slots__:
            value = getattr(self, name)
            setattr(twin, name, value.copy() if isinstance(value, list) else value)
        return twin

    # ----------------------------------------------------------------------------------------- queries
    @property
    def status(self) -> str:
        """``won`` (28 removed), ``stuck`` (stock empty and no free card fits) or ``playing``."""
        if self._left == 0:
            return WON
        if not self._stock and not self._any_fit():
            return STUCK
        return PLAYING

    @property
    def score(self) -> int:
        """The current score."""
        return self._score

    @property
    def moves(self) -> int:
        """The move counter: removals and draws made, never decreased by undo."""
        return self._moves

    @property
    def stock_count(self) -> int:
        """How many cards the stock still holds."""
        return len(self._stock)

    @property
    def discard(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top."""
        return tuple(self._discard)

    @property
    def discard_top(self) -> Card | None:
        """The top of the discard pile (None while it is empty)."""
        return self._discard[-1] if self._discard else None

    @property
    def cards_left(self) -> int:
        """How many tableau cards are not yet removed."""
        return self._left

    @property
    def peaks_cleared(self) -> tuple[bool, bool, bool]:
        """For the left, middle and right peak: True once every card of it is removed."""
        left, middle, right = self._peak_left
        return (left == 0, middle == 0, right == 0)

    @property
    def undo_available(self) -> int:
        """How many actions undo can still take back."""
        return self._undoable

    @property
    def last_action_showed_a_card(self) -> bool:
        """True when the last action still in the history showed a card the player had not seen: a
        draw (the stock card), or a removal that turned a face-down card up. Undoing it would put a
        known card back out of sight, which a ranked game refuses (decision 0058)."""
        if not self._history:
            return False
        record = self._history[-1]
        return record.position < 0 or bool(record.flipped)

    def can_undo(self, *, ranked: bool = False) -> bool:
        """True when ``undo(ranked=ranked)`` would take a move back now."""
        if self._left == 0 or not self._history or self._undoable == 0:
            return False
        return not (ranked and self.last_action_showed_a_card)

    def face_up(self, position: int) -> bool:
        """True when the card at ``position`` is face up (removed cards count as face up)."""
        return self._up[position]

    def removed(self, position: int) -> bool:
        """True when the card at ``position`` has been removed."""
        return self._removed[position]

    def card_at(self, position: int) -> Card:
        """The card dealt to ``position``, face up or not (the engine's own knowledge, not a view)."""
        return self._cards[position]

    def visible_card(self, position: int) -> Card | None:
        """The card at ``position`` as the player sees it: None while it is face down."""
        return self._cards[position] if self._up[position] else None

    def is_free(self, position: int) -> bool:
        """True when the card at ``position`` is still there, face up and uncovered."""
        return not self._removed[position] and self._up[position] and self._cover[position] == 0

    def playable_positions(self) -> list[int]:
        """The positions of the free cards (face up, uncovered), whether or not they fit."""
        return [p for p in range(TABLEAU_SIZE) if self.is_free(p)]

    def fitting_positions(self) -> list[int]:
        """The free positions whose card may go onto the discard top now."""
        top = self.discard_top
        linked = self._linked
        return [p for p in range(TABLEAU_SIZE) if self.is_free(p) and fits(self._cards[p], top, linked)]

    def can_draw(self) -> bool:
        """True when a draw is allowed now."""
        if self._left == 0 or not self._stock:
            return False
        return not (self.rules.draw_only_when_stuck and self._any_fit())

    def legal_actions(self) -> list[str]:
        """The moves allowed now as text: the fitting free cards (``KC``), then ``draw`` if allowed.

        Undo is not listed; ``undo_available`` tells whether it is possible.
        """
        if self._left == 0:
            return []
        actions = [str(self._cards[p]) for p in self.fitting_positions()]
        if self.can_draw():
            actions.append(DRAW)
        return actions

    def live_moves(self) -> list[str]:
        """The actions that led here and were not undone, as move texts (``KC`` or ``draw``)."""
        return [DRAW if r.position < 0 else str(self._cards[r.position]) for r in self._history]

    def _any_fit(self) -> bool:
        top = self._discard[-1] if self._discard else None
        linked = self._linked
        cards, removed, up, cover = self._cards, self._removed, self._up, self._cover
        return any(
            not removed[p] and up[p] and cover[p] == 0 and fits(cards[p], top, linked)
            for p in range(TABLEAU_SIZE)
        )

    # -------------------------------------------------------------------------------- unchecked path
    def push_remove(self, position: int) -> None:
        """Remove the card at ``position`` onto the discard pile without any check (for search)."""
        flipped: list[int] = []
        record_base = (self._score, self._run, self._moves, self._undoable)
        self._removed[position] = True
        self._left -= 1
        self._discard.append(self._cards[position])
        for q in COVERS[position]:
            self._cover[q] -= 1
            if self._cover[q] == 0 and not self._up[q]:
                self._up[q] = True
                flipped.append(q)
        peak = PEAK_OF[position]
        self._peak_left[peak] -= 1
        emptied = self._peak_left[peak] == 0
        if self.rules.traditional_scoring:
            self._run += 1
            self._score += self._run
            if emptied:
                self._score += peak_bonus(self.rules, sum(self.peaks_cleared))
        else:
            self._score = max(0, self._score - 1 + (PEAK_BONUS if emptied else 0))
        self._moves += 1
        self._undoable = min(UNDO_LIMIT, self._undoable + 1)
        self._history.append(_Record(position, tuple(flipped), *record_base))

    def push_draw(self) -> None:
        """Turn the top stock card onto the discard pile without any check (for search)."""
        self._history.append(_Record(-1, (), self._score, self._run, self._moves, self._undoable))
        self._discard.append(self._stock.pop())
        if self.rules.traditional_scoring:
            self._score -= TRADITIONAL_DRAW_COST
            self._run = 0
        else:
            self._score = max(0, self._score - 1)
        self._moves += 1
        self._undoable = min(UNDO_LIMIT, self._undoable + 1)

    def pop(self) -> None:
        """Take back the last action exactly, move counter included, without any check (for search)."""
        record = self._history.pop()
        card = self._discard.pop()
        position = record.position
        if position < 0:
            self._stock.append(card)
        else:
            self._removed[position] = False
            self._left += 1
            for q in COVERS[position]:
                self._cover[q] += 1
            for q in record.flipped:
                self._up[q] = False
            self._peak_left[PEAK_OF[position]] += 1
        self._score = record.score
        self._run = record.run
        self._moves = record.moves
        self._undoable = record.undoable

    # ---------------------------------------------------------------------------------- checked path
    def _check_not_over(self) -> None:
        if self._left == 0:
            raise GameOver("the game is won and over: start a new game", code=GAME_OVER)

    def remove(self, position: int) -> None:
        """Remove the card at ``position`` (0–27) onto the discard pile.

        Raises:
            InvalidInput: the position is not 0–27.
            GameOver: the game is won (code ``game_over``).
            IllegalMove: code ``blocked`` (removed, covered or face down) or ``not_adjacent``.
        """
        if not isinstance(position, int) or not 0 <= position < TABLEAU_SIZE:
            raise InvalidInput(f"{position!r} is not a tableau position: positions run from 0 to 27")
        self._check_not_over()
        if self._removed[position]:
            raise IllegalMove(f"position {position} is empty: its card was removed", code=BLOCKED)
        if not self._up[position]:
            raise IllegalMove(f"the card at position {position} is face down", code=BLOCKED)
        card = self._cards[position]
        if self._cover[position]:
            raise IllegalMove(f"{card.pretty()} is still covered", code=BLOCKED)
        top = self.discard_top
        if not fits(card, top, self._linked):
            assert top is not None  # an empty pile takes every card
            raise IllegalMove(
                f"{card.pretty()} is not one rank above or below {top.pretty()}", code=NOT_ADJACENT
            )
        self.push_remove(position)

    def remove_card(self, card: Card) -> None:
        """Remove ``card`` from the peaks (see ``remove``).

        A card that is not face up in the peaks (face down, in the stock, on the discard pile or already
        removed) is ``blocked``; the message never tells where a hidden card is.

        Raises:
            GameOver: the game is won (code ``game_over``).
            IllegalMove: code ``blocked`` or ``not_adjacent``.
        """
        self._check_not_over()
        for position in range(TABLEAU_SIZE):
            if self._cards[position] is card and self._up[position] and not self._removed[position]:
                self.remove(position)
                return
        raise IllegalMove(f"{card.pretty()} is not a face-up card of the peaks", code=BLOCKED)

    def draw(self) -> None:
        """Turn the top stock card onto the discard pile.

        Raises:
            GameOver: the game is won (code ``game_over``).
            IllegalMove: code ``stock_empty``, or ``must_play`` when drawing only when stuck.
        """
        self._check_not_over()
        if not self._stock:
            raise IllegalMove("the stock is empty: there is no redeal", code=STOCK_EMPTY)
        if self.rules.draw_only_when_stuck and self._any_fit():
            raise IllegalMove("a card fits the discard pile: play it before drawing", code=MUST_PLAY)
        self.push_draw()

    def undo(self, *, ranked: bool = False) -> None:
        """Take back the last action: the card returns to its place (or to the stock), cards it turned
        up turn face down again and the score is restored; the move counter keeps its value.

        ``ranked``: the game is ranked (its deal is secret, decision 0058), so an action that showed a
        card (``last_action_showed_a_card``) is not taken back: the player would know the card that
        undo hides again.

        Raises:
            GameOver: the game is won (code ``game_over``).
            IllegalMove: code ``nothing_to_undo``, or ``undo_ranked`` (nothing changes).
        """
        self._check_not_over()
        if not self._history or self._undoable == 0:
            raise IllegalMove("there is nothing to undo", code=NOTHING_TO_UNDO)
        if ranked and self.last_action_showed_a_card:
            raise IllegalMove(
                "in a ranked game, undo cannot take back a draw or a card turned up: its card has been seen",
                code=UNDO_RANKED,
            )
        moves, undoable = self._moves, self._undoable
        self.pop()
        self._moves = moves
        self._undoable = undoable - 1

    def apply(self, text: str, *, ranked: bool = False) -> str:
        """Apply a move given as text: a card (``KC``, ``K♣``) removes it from the peaks; ``draw`` and
        ``undo`` do what they say (any case); ``ranked`` is passed to ``undo``.

        Returns:
            The move in canonical form (``KC``, ``draw`` or ``undo``).

        Raises:
            InvalidCard: the text is neither a card nor ``draw``/``undo``.
            IllegalMove: the rules refuse the move (see ``remove``, ``draw``, ``undo``).
        """
        word = text.strip().lower() if isinstance(text, str) else text
        if word == DRAW:
            self.draw()
            return DRAW
        if word == UNDO:
            self.undo(ranked=ranked)
            return UNDO
        try:
            card = Card.parse(text)
        except InvalidCard as error:
            raise InvalidCard(f"{text!r} is not a move: {MOVE_FORMAT_HELP}") from error
        self.remove_card(card)
        return str(card)

    @property
    def deal_number(self) -> int | None:
        """The deal number of a ``TP1`` deal; None for a secret (``TP2``) deal, whose code is its seed,
        and for an explicit layout."""
        return None if self.code is None or self.code.is_secret else self.code.number

    # ------------------------------------------------------------------------------------------ views
    def view(self, *, ranked: bool = False) -> PlayerView:
        """Return what the player may see now (no face-down card, the stock only as a count);
        ``can_undo`` follows ``undo(ranked=ranked)``."""
        return PlayerView(
            code=None if self.code is None else str(self.code),
            rules=self.rules,
            deal_number=self.deal_number,
            tableau=tuple(
                Slot(self._cards[p] if self._up[p] else None, self._up[p], self._removed[p])
                for p in range(TABLEAU_SIZE)
            ),
            discard=tuple(self._discard),
            stock=len(self._stock),
            score=self._score,
            moves=self._moves,
            status=self.status,
            peaks_cleared=self.peaks_cleared,
            free=tuple(self.playable_positions()),
            can_draw=self.can_draw(),
            can_undo=self.can_undo(ranked=ranked),
        )

    # ------------------------------------------------------------------------------------------ JSON
    def to_json(self, reveal: bool = False, rejected: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """Return the documented JSON state (see docs/tripeaks.md).

        Without ``reveal`` this is the player's view: face-down cards are ``null`` and the stock is only
        a count. With ``reveal`` every tableau card is given and ``stock_cards`` lists the stock, top
        first. ``rejected`` is copied into the state (the command line's list of refused moves).
        """
        tableau = [
            {
                "card": str(self._cards[p]) if (reveal or self._up[p]) else None,
                "face_up": self._up[p],
                "removed": self._removed[p],
            }
            for p in range(TABLEAU_SIZE)
        ]
        state: dict[str, Any] = {
            "code": None if self.code is None else str(self.code),
            "rules": self.rules.name,
            "variants": list(self.rules.variants),
            "deal_number": self.deal_number,
            "tableau": tableau,
            "discard": [str(card) for card in self._discard],
            "stock": len(self._stock),
            "score": self._score,
            "moves": self._moves,
            "status": self.status,
            "peaks_cleared": list(self.peaks_cleared),
            "rejected": list(rejected or []),
        }
        if reveal:
            state["stock_cards"] = [str(card) for card in reversed(self._stock)]
        return state

    def __repr__(self) -> str:
        code = f" {self.code}" if self.code else ""
        return f"<Game{code} {self.status} score={self._score} moves={self._moves} left={self._left}>"
