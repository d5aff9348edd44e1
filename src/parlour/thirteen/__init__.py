"""Thirteen (Tiến lên, southern) as CardGames.io plays it: combinations, the game to 10 points, per-seat
views, the click-to-play selection rule, legal move generation and computer players.

The engine speaks reason codes; text lives in the adapters. Everything that leaves the engine for a seat
is a ``PlayerView``.
"""

from __future__ import annotations

from parlour.thirteen.codes import MatchCode, format_code, parse_code, round_deal_number
from parlour.thirteen.combos import KIND_NAMES, Combo, beats, classify
from parlour.thirteen.game import Match, Record, deal_hands
from parlour.thirteen.move import PASS, Move
from parlour.thirteen.round import POINTS, Round, Step
from parlour.thirteen.rules import STANDARD, Rules
from parlour.thirteen.views import PlayerView, RoundResult

__all__ = [
    "KIND_NAMES",
    "PASS",
    "POINTS",
    "STANDARD",
    "Combo",
    "Match",
    "MatchCode",
    "Move",
    "PlayerView",
    "Record",
    "Round",
    "RoundResult",
    "Rules",
    "Step",
    "beats",
    "classify",
    "deal_hands",
    "format_code",
    "parse_code",
    "round_deal_number",
]
