"""The click-to-play rule of the seed's interface, as a pure function.

Selected cards are played at once when they form a legal play that no further card of the hand could
extend into a larger legal play; when they form a legal play that could be extended, the player must
press Play ("wait"); otherwise they are not playable.

"Extend" means: some legal play *now* that contains every selected card and at least one more card of
the hand. On a table the kind and length are fixed by the table, so a legal play there can only be
extended by a bomb on 2s (a double sequence of 3 pairs on a single 2 when the hand holds a fourth
pair); on an empty table a card extends to a pair, a pair to a triple, a sequence to a longer one, a
sequence of pairs to a longer double sequence, and so on.
"""

from __future__ import annotations

from enum import StrEnum

from parlour.thirteen.combos import Shape, is_bomb, shape_beats, shape_of
from parlour.thirteen.moves import plays_now
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.views import PlayerView


class Selection(StrEnum):
    """The answer of the selection rule."""

    PLAY_NOW = "play_now"
    WAIT = "wait"
    NOT_PLAYABLE = "not_playable"


def judge_selection(
    hand: int,
    selection: int,
    table: Shape | None,
    rules: Rules = STANDARD,
    must_include: int = 0,
    bombs_only: bool = False,
) -> Selection:
    """Classify a selection of cards (strength masks) against the table.

    Args:
        hand: the player's cards.
        selection: the selected cards (a subset of the hand, else not playable).
        table: the shape on the table, None when it is empty.
        rules: the house rules.
        must_include: cards every play must hold now (3♠ on a game's first play).
        bombs_only: only bombs are allowed (a passed player under the ``bomb_after_pass`` rule).

    Returns:
        ``PLAY_NOW``, ``WAIT`` or ``NOT_PLAYABLE``.
    """
    if not selection or selection & ~hand:
        return Selection.NOT_PLAYABLE
    shape = shape_of(selection)
    if (
        shape is None
        or selection & must_include != must_include
        or not shape_beats(shape, table, rules)
        or (bombs_only and not is_bomb(selection))
    ):
        return Selection.NOT_PLAYABLE
    for play in plays_now(hand, table, rules, must_include, bombs_only):
        if play != selection and play & selection == selection:
            return Selection.WAIT
    return Selection.PLAY_NOW


def judge_view_selection(view: PlayerView, selection: int) -> Selection:
    """Apply the selection rule for the seat of ``view``; not playable when it is not the seat's turn."""
    if not view.my_turn:
        return Selection.NOT_PLAYABLE
    return judge_selection(
        view.hand_mask,
        selection,
        view.table_shape,
        view.rules,
        1 if view.must_include_three_of_spades else 0,
        view.passed[view.seat],
    )
