"""Thirteen puzzles (issue 53): ends of rounds with every hand shown, as a bridge problem, where exactly
one move of the seat to play makes it go out first against any defence (``parlour.thirteen.endgame``
proves every move), found in matches played by the computer players from public match numbers.

A puzzle is the match's ``code``, the ``moves`` of the match up to the position and the ``answer``, in
the command line's words (``"3S 4S 5S"``, ``"pass"``). Positions are taken while nobody is out yet and
the four hands hold at most :data:`MAX_CARDS` cards in all (the search proves those in milliseconds);
a position where a move empties the hand at once is no puzzle (that move is plainly right).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from parlour.thirteen.bots import Bot, make_bot
from parlour.thirteen.combos import is_bomb
from parlour.thirteen.endgame import Search, Unproved, winning_moves
from parlour.thirteen.game import Match
from parlour.thirteen.order import TWO, text_of
from parlour.thirteen.round import Round
from parlour.thirteen.simulate import play_match

MAX_CARDS: Final = 20
"""The most cards the four hands may hold in all at a puzzle's position."""
PLAYERS: Final = ("heuristic", "strong", "heuristic", "strong")
"""The computer players whose matches the puzzles come from (two styles, seats fixed)."""


@dataclass(frozen=True, slots=True)
class ThirteenPuzzle:
    """A puzzle: the match's ``code``, its ``moves`` to the position, the ``seat`` to play and its one
    winning ``answer``; ``hands`` (each seat's cards, in the command line's words), ``table`` (the
    cards to beat, empty on a lead), ``themes``, ``difficulty``, the ``line`` (a way the round can go
    from there, the answer first, to the seat going out), ``nodes`` (positions searched), where it
    comes from and the round of the match it is in."""

    code: str
    moves: tuple[str, ...]
    seat: int
    answer: str
    hands: tuple[str, ...]
    table: str
    themes: tuple[str, ...]
    difficulty: str
    line: tuple[str, ...]
    nodes: int
    source: str
    round_number: int

    def to_json(self) -> dict[str, Any]:
        """Return the puzzle as ``parlour thirteen puzzles --json`` prints it."""
        return {
            "code": self.code,
            "moves": list(self.moves),
            "seat": self.seat,
            "answer": self.answer,
            "hands": list(self.hands),
            "table": self.table,
            "themes": list(self.themes),
            "difficulty": self.difficulty,
            "line": list(self.line),
            "nodes": self.nodes,
            "source": self.source,
            "round": self.round_number,
        }


@dataclass
class ThirteenCensus:
    """What a generator run looked at: matches played, positions searched (with a choice, few cards),
    those with exactly one winning move, those left out as plain (a move goes out at once), puzzles
    kept, positions searched in all, and the seconds."""

    matches: int = 0
    candidates: int = 0
    unique: int = 0
    plain: int = 0
    unproved: int = 0
    kept: int = 0
    nodes: int = 0
    seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter, repr=False)

    def to_json(self) -> dict[str, Any]:
        """Return the figures (``per_minute``: puzzles kept a minute)."""
        seconds = self.seconds or (time.perf_counter() - self.started)
        return {
            "matches": self.matches,
            "candidates": self.candidates,
            "unique": self.unique,
            "plain": self.plain,
            "unproved": self.unproved,
            "kept": self.kept,
            "nodes": self.nodes,
            "seconds": round(seconds, 3),
            "per_minute": round(self.kept * 60 / seconds, 1) if seconds > 0 else None,
        }


def moves_of(state: Round) -> list[int]:
    """Return the legal moves of the seat to play (masks; 0 = pass)."""
    seat = state.turn
    if seat is None:
        return []
    moves = list(state.legal_plays(seat))
    if state.can_pass(seat):
        moves.append(0)
    return moves


def themes_of(state: Round, answer: int) -> tuple[str, ...]:
    """Return a puzzle's themes: ``lead`` (the table is empty), ``pass`` (the answer is to pass),
    ``bomb`` (the answer is a bomb), ``two`` (it plays a 2), ``keep_two`` (a 2 could be played and is
    not), ``combination`` (it plays more than one card)."""
    found = []
    if state.table_shape is None:
        found.append("lead")
    if answer == 0:
        found.append("pass")
    elif is_bomb(answer):
        found.append("bomb")
    twos = 0xF << (4 * TWO)
    if answer & twos:
        found.append("two")
    elif any(mask & twos for mask in moves_of(state)):
        found.append("keep_two")
    if answer.bit_count() > 1:
        found.append("combination")
    return tuple(found)


def winning_line(state: Round, answer: int) -> list[str]:
    """Return a way the round goes from ``state`` after ``answer`` until its hero goes out: the hero's
    moves proved winning, each other seat's the one that keeps the hero searching longest (its first
    in the search's order)."""
    hero = state.turn
    assert hero is not None
    search = Search(hero)
    line = [answer]
    following = state.copy()
    following.push(answer)
    while not following.finished:
        seat = following.turn
        assert seat is not None
        options = moves_of(following)
        if seat == hero:
            chosen = next(mask for mask in options if _wins_after(search, following, mask))
        else:
            chosen = options[-1] if 0 in options else options[0]  # a defender passes when it may
        line.append(chosen)
        following.push(chosen)
    return ["pass" if mask == 0 else text_of(mask) for mask in line]


def _wins_after(search: Search, state: Round, mask: int) -> bool:
    following = state.copy()
    following.push(mask)
    return search.wins(following)


def candidate(match: Match, source: str, census: ThirteenCensus, judge: Bot) -> ThirteenPuzzle | None:
    """Return the puzzle at ``match``'s position, or None when it is none (somebody out, too many
    cards, fewer than two moves, not exactly one winning move, a move that goes out at once). The
    puzzle is ``hard`` when ``judge`` (a player with no chance in it) would not play the answer."""
    state = match.round
    seat = state.turn
    if seat is None or state.finished or sum(hand.bit_count() for hand in state.hands) > MAX_CARDS:
        return None
    moves = moves_of(state)
    if len(moves) < 2:
        return None
    census.candidates += 1
    if any(mask == state.hands[seat] for mask in moves):
        census.plain += 1
        return None
    try:
        winners, nodes = winning_moves(state)
    except Unproved:
        census.unproved += 1
        return None
    census.nodes += nodes
    if len(winners) != 1:
        return None
    census.unique += 1
    [answer] = winners
    natural_is_answer = judge.choose(match.view(seat)).mask == answer
    difficulty = "hard" if not natural_is_answer else ("medium" if len(moves) >= 4 else "easy")
    return ThirteenPuzzle(
        match.code, tuple(str(move) for move in match.moves), seat,
        "pass" if answer == 0 else text_of(answer),
        tuple(text_of(hand) if hand else "" for hand in state.hands),
        text_of(state.table_mask) if state.table_mask else "",
        themes_of(state, answer), difficulty, tuple(winning_line(state, answer)), nodes, source, state.number,
    )  # fmt: skip


def puzzles_of_match(number: int, census: ThirteenCensus) -> Iterator[ThirteenPuzzle]:
    """Yield the puzzles of the match the computer players play from public number ``number``."""
    bots = [make_bot(name, seed=number * 4 + seat) for seat, name in enumerate(PLAYERS)]
    played = play_match(bots, number)
    census.matches += 1
    replay = Match(number)
    judge = make_bot("heuristic", seed=number)
    for move in played.moves:
        found = candidate(replay, f"match {replay.code}", census, judge)
        if found is not None:
            yield found
        replay.push(move)


def interest(puzzle: ThirteenPuzzle) -> tuple[bool, int, int]:
    """How interesting a puzzle is, to choose one of a round's: a hard one first, then more themes,
    then more positions searched (a deeper problem)."""
    return (puzzle.difficulty == "hard", len(puzzle.themes), puzzle.nodes)


def match_puzzles(count: int, start: int = 1, census: ThirteenCensus | None = None) -> list[ThirteenPuzzle]:
    """Return ``count`` puzzles from the matches of public numbers ``start`` on: at most one from each
    round, the most interesting of its own.

    Raises:
        ValueError: a count below 1.
    """
    if count < 1:
        raise ValueError("the count of puzzles is at least 1")
    census = census if census is not None else ThirteenCensus()
    found: list[ThirteenPuzzle] = []
    number = start
    while len(found) < count:
        by_round: dict[int, list[ThirteenPuzzle]] = {}
        for puzzle in puzzles_of_match(number, census):
            by_round.setdefault(puzzle.round_number, []).append(puzzle)
        for puzzles in by_round.values():
            if len(found) < count:
                found.append(max(puzzles, key=interest))
                census.kept += 1
        number += 1
    census.seconds = time.perf_counter() - census.started
    return found
