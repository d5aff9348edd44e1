"""Storage: players, games as records, numbered-game records and statistics (SQLAlchemy 2 + Alembic).

``Store(url=None)`` is the entry point; see ``docs/storage.md`` and the decision record 0002 (Store).
"""

from parlour.store.errors import (
    GameOpen,
    InvalidPreference,
    InvalidRecoveryCode,
    MoveConflict,
    RankedDealOpen,
    StoreUnavailable,
    UnknownGame,
    UnknownPlayer,
)
from parlour.store.store import Store
from parlour.store.types import (
    FinishedRecord,
    NewPlayer,
    NumberedEntry,
    NumberedRecord,
    Outcome,
    PersonalBest,
    PlayedGame,
    Player,
    Statistics,
    StoredGame,
)

__all__ = [
    "FinishedRecord",
    "GameOpen",
    "InvalidPreference",
    "InvalidRecoveryCode",
    "MoveConflict",
    "NewPlayer",
    "NumberedEntry",
    "NumberedRecord",
    "Outcome",
    "PersonalBest",
    "PlayedGame",
    "Player",
    "RankedDealOpen",
    "Statistics",
    "Store",
    "StoreUnavailable",
    "StoredGame",
    "UnknownGame",
    "UnknownPlayer",
]
