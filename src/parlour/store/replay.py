"""The server's own replay of stored moves: the only source of results that reach the database.

A game record is (game, rules, deal code, seats, moves). Replaying it with the engine checks every move
and yields the result; nothing a client claims about a result is ever read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.errors import InvalidInput, ParlourError
from parlour.store.records import NUMBERED_GAMES, NUMBERED_RULES

GAMES = ("tripeaks", "thirteen")


class CorruptRecord(InvalidInput):
    """A stored move list that the engine rejects (the database was changed behind the store's back)."""

    code = "corrupt_record"


@dataclass(frozen=True)
class GameSpec:
    """Everything needed to replay a game, in the JSON forms the database keeps."""

    game: str
    rules: dict[str, Any]
    rules_key: str
    code: str
    seats: list[Any]
    numbered: int | None = None


def prepare(game: str, rules: Any, code: str, seats: list[Any], numbered: int | None) -> GameSpec:
    """Return the normalized description of a new game, checked by building its first position.

    Raises:
        InvalidInput: unknown game, rules or code that the engine refuses, or a numbered game that is
        not TriPeaks #1–#50,000 under Easy or Classic with the matching deal code.
    """
    if game == "tripeaks":
        deal_code = _tripeaks_code(code)
        if rules is not None and _tripeaks_rules(rules) != deal_code.rules:
            raise InvalidInput(f"the deal code {code!r} is for other rules than {rules!r}")
        key = prepare_rules_key(deal_code.rules)
        spec = GameSpec(game, deal_code.rules.as_dict(), key, str(deal_code), seats, numbered)
        if numbered is not None:
            if isinstance(numbered, bool) or not 1 <= numbered <= NUMBERED_GAMES:
                raise InvalidInput(f"numbered games run from 1 to {NUMBERED_GAMES:,}, not {numbered!r}")
            if key not in NUMBERED_RULES:
                raise InvalidInput(f"numbered games are played under Easy or Classic rules, not {code!r}")
            if deal_code.number != numbered:
                raise InvalidInput(f"numbered game #{numbered} is deal number {numbered}, not {code!r}")
        _start(spec)
        return spec
    if game == "thirteen":
        if numbered is not None:
            raise InvalidInput("only TriPeaks has numbered games")
        from parlour.store import thirteen_replay

        spec = thirteen_replay.prepare(rules, code, seats)
        thirteen_replay.start(spec)
        return spec
    raise InvalidInput(f"unknown game {game!r}: choose one of {', '.join(GAMES)}")


def prepare_rules_key(rules: Any) -> str:
    """Return ``easy``, ``classic`` or ``custom`` for TriPeaks rules (engine value, mapping or name).

    Raises:
        InvalidInput: not TriPeaks rules.
    """
    from parlour.tripeaks import rules as tp_rules

    engine_rules = _tripeaks_rules(rules)
    return (
        "easy"
        if engine_rules == tp_rules.EASY
        else "classic"
        if engine_rules == tp_rules.CLASSIC
        else "custom"
    )


def check(spec: GameSpec, stored: Sequence[str], new: Sequence[str]) -> list[str]:
    """Check that ``new`` moves are legal after the ``stored`` ones; return them in canonical form.

    Raises:
        InvalidInput / IllegalMove: the first rejected new move, its index and text in the message and
        the engine's reason code kept. CorruptRecord: a stored move is rejected.
    """
    state = _replayed(spec, stored)
    canonical = []
    for offset, move in enumerate(new):
        try:
            canonical.append(_apply(spec, state, move))
        except ParlourError as error:
            raise type(error)(f"move {len(stored) + offset} {move!r}: {error}", code=error.code) from error
    return canonical


def result(spec: GameSpec, stored: Sequence[str]) -> dict[str, Any]:
    """Return the result of replaying ``stored``: a JSON-ready dict whose ``status`` ends the game.

    TriPeaks: ``status`` (``won``, ``stuck`` or ``left``), ``left`` (peak cards left), ``moves``,
    ``score``. Thirteen: see :func:`parlour.store.thirteen_replay.result`.

    Raises:
        CorruptRecord: a stored move is rejected.
    """
    state = _replayed(spec, stored)
    if spec.game == "thirteen":
        from parlour.store import thirteen_replay

        return thirteen_replay.result(spec, state)
    left = state.cards_left
    status = state.status if state.status in ("won", "stuck") else "left"
    return {
        "status": status,
        "won": status == "won",
        "left": left,
        "moves": state.moves,
        "score": state.score,
    }


def _replayed(spec: GameSpec, stored: Sequence[str]) -> Any:
    state = _start(spec)
    for index, move in enumerate(stored):
        try:
            _apply(spec, state, move)
        except ParlourError as error:
            raise CorruptRecord(f"stored move {index} {move!r} of this game is rejected: {error}") from error
    return state


def _start(spec: GameSpec) -> Any:
    if spec.game == "thirteen":
        from parlour.store import thirteen_replay

        return thirteen_replay.start(spec)
    from parlour.tripeaks.game import Game

    return Game.from_code(_tripeaks_code(spec.code))


def _apply(spec: GameSpec, state: Any, move: str) -> str:
    if not isinstance(move, str):
        raise InvalidInput(f"a move is text, not {move!r}")
    if spec.game == "thirteen":
        from parlour.store import thirteen_replay

        return thirteen_replay.apply(state, move)
    return str(state.apply(move))


def _tripeaks_rules(rules: Any) -> Any:
    from parlour.tripeaks import rules as tp_rules

    if isinstance(rules, tp_rules.Rules):
        return rules
    if isinstance(rules, str):
        return tp_rules.Rules.named(rules)
    if isinstance(rules, Mapping):
        try:
            return tp_rules.Rules(**rules)
        except TypeError as error:
            raise InvalidInput(f"not TriPeaks rules: {dict(rules)!r} ({error})") from error
    raise InvalidInput(f"not TriPeaks rules: {rules!r}")


def _tripeaks_code(code: str) -> Any:
    from parlour.tripeaks.codes import DealCode

    return DealCode.parse(code)
