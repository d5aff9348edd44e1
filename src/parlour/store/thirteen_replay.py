"""Replaying stored Thirteen matches: moves in turn order (``"5S 5H"`` or ``"pass"``), bots' moves included.

The player's own seat is the first entry of ``seats`` that is ``"human"`` or ``{"kind": "human", …}``
(seat 0 when none is marked).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.errors import GameOver, InvalidInput
from parlour.store.replay import GameSpec
from parlour.thirteen import Match, Rules, format_code, parse_code

SEATS = 4


def prepare(rules: Any, code: str, seats: list[Any]) -> GameSpec:
    """Return the normalized description of a new match.

    Raises:
        InvalidInput: rules that are not Thirteen rules, a bad code, or not four seats.
    """
    engine_rules = _rules(rules)
    if len(seats) != SEATS:
        raise InvalidInput(f"Thirteen has {SEATS} seats, not {len(seats)}: {seats!r}")
    key = "standard" if engine_rules == Rules() else "custom"
    return GameSpec("thirteen", engine_rules.to_json(), key, format_code(parse_code(code)), seats, None)


def start(spec: GameSpec) -> Match:
    """Return the match of ``spec`` before any move."""
    return Match.from_code(spec.code, _rules(spec.rules))


def apply(match: Match, move: str) -> str:
    """Make the next move (for the seat whose turn it is) and return it in canonical form.

    Raises:
        InvalidInput, IllegalMove: the engine refuses it; GameOver after the end of the match.
    """
    seat = match.turn
    if seat is None:
        raise GameOver(f"the match {match.code} is over: no move {move!r}")
    match.apply(seat, move)
    return str(match.moves[-1])


def player_seat(seats: list[Any]) -> int:
    """Return the seat of the player who owns the record."""
    for seat, entry in enumerate(seats):
        if entry == "human" or (isinstance(entry, Mapping) and entry.get("kind") == "human"):
            return seat
    return 0


def result(spec: GameSpec, match: Match) -> dict[str, Any]:
    """Return the match's result for the player's seat.

    ``status`` is ``finished`` (match over) or ``left``; ``rounds`` completed, ``places`` (how many of
    them the player finished 1st, 2nd, 3rd, 4th), ``points`` (the player's total), ``won`` (the player
    won the match), ``scores`` (every seat's total).
    """
    seat = player_seat(spec.seats)
    places = [0] * SEATS
    for finished in match.results:
        places[finished.order.index(seat)] += 1
    return {
        "status": "finished" if match.over else "left",
        "seat": seat,
        "rounds": len(match.results),
        "places": places,
        "points": match.scores[seat],
        "won": seat in match.winners,
        "scores": list(match.scores),
    }


def _rules(rules: Any) -> Rules:
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str) and rules.strip().lower() == "standard":
        return Rules()
    if isinstance(rules, Mapping):
        try:
            return Rules.from_json(dict(rules))
        except (TypeError, ValueError) as error:
            raise InvalidInput(f"not Thirteen rules: {dict(rules)!r} ({error})") from error
    raise InvalidInput(f"not Thirteen rules: {rules!r}")
