"""The structure keepers: baselines that play like careful beginners of three tempers, for measuring
the others.

It splits its hand as the heuristic player does (``best_split``: sequences, pairs, triples and bombs
kept together) and plays the lowest of those units that the table allows, 2s and bombs last. It passes
only on a 2 or a bomb: when no unit fits a table that holds one. Otherwise, when no unit fits, it plays
its lowest play that holds no 2 and is no bomb, breaking a unit. It goes out when its whole hand is a
play. There is no look-ahead and no reading of the others; against three heuristic players it takes
31.3% of first places over 2,228 rounds (``parlour thirteen simulate``), so the heuristic is the player
to beat, and a stronger player must beat this one clearly too (the ladder of issue 13).

Two variants keep the same structure with another temper, so that a player measured against keepers
meets more than one style (issue 28's test bench):

- ``keeper-patient`` never breaks a unit to follow: it passes instead, unless an opponent holds two cards
  or fewer. It keeps its 2s and bombs for the end: it spends one only when an opponent holds three cards
  or fewer, the table holds a 2 or a bomb, or the rest of its hand is then one unit.
- ``keeper-eager`` sheds cards: it leads its unit with the most cards (the lowest of equals; a 2 or a
  bomb last), follows with its lowest unit, spends a 2 or a bomb whenever no ordinary unit fits, and
  breaks a unit rather than pass. It passes only when nothing fits.
"""

from __future__ import annotations

from typing import Final

from parlour.thirteen.bots.base import Bot
from parlour.thirteen.bots.heuristic import best_split, fewest_cards_of_others
from parlour.thirteen.bots.simple import lowest_play
from parlour.thirteen.combos import is_bomb
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.order import TWO
from parlour.thirteen.views import PlayerView

_TWOS = 0xF << (4 * TWO)


def precious(play: int) -> bool:
    """Return True for a play that spends a 2 or is a bomb."""
    return bool(play & _TWOS) or is_bomb(play)


def by_structure(hand: int, plays: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Return, of the legal ``plays``: those that spend no 2 and are no bomb, those of them that are
    units of the hand's split (``best_split``), and the 2s and bombs that are units (kept whole)."""
    units = set(best_split(hand))
    ordinary = tuple(play for play in plays if not precious(play))
    return (
        ordinary,
        tuple(play for play in ordinary if play in units),
        tuple(play for play in plays if play in units and precious(play)),
    )


def break_or_pass(ordinary: tuple[int, ...], plays: tuple[int, ...], may_pass: bool) -> Move:
    """Return a keeper's last resort: its lowest ``ordinary`` play (no 2, no bomb; it breaks a unit),
    else the pass, else its lowest play."""
    if ordinary:
        return Move(lowest_play(ordinary))
    if may_pass:
        return PASS
    return Move(lowest_play(plays))


class KeeperBot(Bot):
    """Plays its lowest unit that keeps its hand's structure (see the module docstring). The variants
    below share its first steps (go out; else the lowest unit that fits and spends no 2 and is no bomb)
    and differ in ``otherwise``."""

    name = "keeper"

    def pick(self, view: PlayerView, plays: tuple[int, ...], may_pass: bool) -> Move:
        """Return the keeper's move."""
        hand = view.hand_mask
        if hand in plays:
            return Move(hand)  # go out
        ordinary, kept, special = by_structure(hand, plays)
        if kept and view.table_shape is not None:
            return Move(lowest_play(kept))
        return self.otherwise(view, plays, may_pass, (ordinary, kept, special))

    def otherwise(
        self,
        view: PlayerView,
        plays: tuple[int, ...],
        may_pass: bool,
        sorted_plays: tuple[tuple[int, ...], ...],
    ) -> Move:
        """Return the move when it leads, or when it follows and no ordinary unit fits; ``sorted_plays``
        is ``by_structure``'s answer."""
        ordinary, kept, special = sorted_plays
        if kept:
            return Move(lowest_play(kept))
        if special:
            return Move(lowest_play(special))
        if may_pass and precious(view.table_mask):
            return PASS
        return break_or_pass(ordinary, plays, may_pass)


PATIENT_DANGER: Final = 2
"""The patient keeper breaks a unit to follow only when an opponent holds this many cards or fewer."""
PATIENT_SPEND: Final = 3
"""It spends a 2 or a bomb when an opponent holds this many cards or fewer (or see its docstring)."""


class PatientKeeperBot(KeeperBot):
    """Keeps its structure and waits: passes rather than break a unit, 2s and bombs for the end."""

    name = "keeper-patient"

    def otherwise(
        self,
        view: PlayerView,
        plays: tuple[int, ...],
        may_pass: bool,
        sorted_plays: tuple[tuple[int, ...], ...],
    ) -> Move:
        """Return the patient keeper's move when it leads or no ordinary unit fits."""
        ordinary, kept, special = sorted_plays
        if kept:
            return Move(lowest_play(kept))
        danger = fewest_cards_of_others(view)
        hand = view.hand_mask
        if special:
            spend = lowest_play(special)
            if (
                not may_pass
                or danger <= PATIENT_SPEND
                or precious(view.table_mask)
                or len(best_split(hand & ~spend)) <= 1
            ):
                return Move(spend)
        if may_pass and danger > PATIENT_DANGER:
            return PASS
        return break_or_pass(ordinary, plays, may_pass)


class EagerKeeperBot(KeeperBot):
    """Keeps its structure and hurries: leads its longest unit, spends 2s and bombs, rarely passes."""

    name = "keeper-eager"

    def otherwise(
        self,
        view: PlayerView,
        plays: tuple[int, ...],
        may_pass: bool,
        sorted_plays: tuple[tuple[int, ...], ...],
    ) -> Move:
        """Return the eager keeper's move when it leads or no ordinary unit fits."""
        ordinary, kept, special = sorted_plays
        if view.table_shape is None and (kept or special):
            # The unit that sheds the most cards, the lowest of equals; a 2 or a bomb only when no other.
            units = kept or special
            return Move(min(units, key=lambda play: (-play.bit_count(), play.bit_length(), play)))
        if special:
            return Move(lowest_play(special))
        return Move(lowest_play(ordinary or plays))
