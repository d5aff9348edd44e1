"""TriPeaks solitaire: layout, rules, deal codes, deals and the game engine (pure Python).

The names below are the contract of docs/decisions/0002-engine-interfaces.md.
"""

from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.game import Game
from parlour.tripeaks.rules import CLASSIC, EASY, Rules

__all__ = ["CLASSIC", "EASY", "Deal", "DealCode", "Game", "Rules"]
