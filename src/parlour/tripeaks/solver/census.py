"""The census: solve many deals on every core, resumably, and summarise the results.

Each deal gives one JSON object per line: ``code`` (or ``deal`` for an explicit layout), ``winnable``,
``moves`` (fewest moves of a win, null without one), ``best`` (``left``, ``moves``), ``proved``,
``nodes`` and ``seconds``. A census writes each line as soon as its deal is solved, so an interrupted run
loses nothing: run it again with the same output file and it solves only the deals still missing.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.errors import InvalidInput
from parlour.intervals import wilson
from parlour.tripeaks.codes import DealCode
from parlour.tripeaks.deal import Deal
from parlour.tripeaks.rules import Rules
from parlour.tripeaks.solver.position import Position
from parlour.tripeaks.solver.solve import DEFAULT_NODE_LIMIT, solve_position


@dataclass(frozen=True, slots=True)
class Job:
    """One deal to solve: a code, or an explicit layout with its rules."""

    key: str  # the code, or the layout text
    is_code: bool
    rules: Rules

    def position(self) -> Position:
        """The starting position of this deal."""
        if self.is_code:
            code = DealCode.parse(self.key)
            return Position.of_deal(Deal.from_code(code), code.rules)
        return Position.of_deal(Deal.parse(self.key), self.rules)


def solve_job(job: Job, node_limit: int = DEFAULT_NODE_LIMIT, core_name: str | None = None) -> dict[str, Any]:
    """Solve one deal and return its census record."""
    started = time.perf_counter()
    solution = solve_position(job.position(), node_limit=node_limit, core_name=core_name)
    seconds = time.perf_counter() - started
    record: dict[str, Any] = {"code": job.key} if job.is_code else {"deal": job.key}
    record.update(
        winnable=solution.winnable,
        moves=solution.moves,
        best={"left": solution.best_left, "moves": solution.best_moves},
        proved=solution.proved,
        nodes=solution.nodes,
        seconds=round(seconds, 6),
    )
    return record


def record_key(record: dict[str, Any]) -> str:
    """The deal a record is about: its code or its layout."""
    return str(record.get("code") or record.get("deal"))


def jobs_for_numbers(first: int, last: int, rules: Rules) -> list[Job]:
    """The jobs of deals ``first``..``last`` (inclusive) under ``rules``.

    Raises:
        InvalidInput: the range is empty or outside the deal numbers.
    """
    if first > last:
        raise InvalidInput(f"--from {first} is after --to {last}")
    try:
        return [Job(str(DealCode(n, rules)), True, rules) for n in range(first, last + 1)]
    except ValueError as error:
        raise InvalidInput(str(error)) from error


def jobs_for_file(path: Path, rules: Rules) -> list[Job]:
    """The jobs of a file with one deal per line: a code or a 52/53-card layout (``#`` starts a comment).

    Raises:
        InvalidInput: a line is neither (the message gives its number).
    """
    jobs = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            jobs.append(job_for_text(line, rules))
        except InvalidInput as error:
            raise InvalidInput(f"{path}:{number}: {error}") from error
    return jobs


def job_for_text(text: str, rules: Rules) -> Job:
    """A job for a deal code or an explicit layout.

    Raises:
        InvalidInput: the text is neither.
    """
    text = text.strip()
    if len(text.split()) > 1:
        deal = Deal.parse(text)
        return Job(deal.to_text(), False, rules)
    code = DealCode.parse(text)
    return Job(str(code), True, code.rules)


def read_done(path: Path) -> dict[str, dict[str, Any]]:
    """The records already in an output file, by deal; a torn last line is cut off (it is redone)."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with path.open("r+b") as handle:
            handle.truncate(cut)
        data = data[:cut]
    for line in data.decode("utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            done[record_key(record)] = record
    return done


WorkItem = tuple[Job, int, str | None]
Mapper = Callable[[Callable[[WorkItem], dict[str, Any]], list[WorkItem]], Iterable[dict[str, Any]]]
"""Something like ``map`` or a process pool's ``imap_unordered``: it may yield in any order."""


def census_worker(item: WorkItem) -> dict[str, Any]:
    """Solve one ``(job, node_limit, core_name)`` (a top-level function, for worker processes)."""
    job, node_limit, core_name = item
    return solve_job(job, node_limit, core_name)


def run_census(
    jobs: list[Job],
    out: Path,
    *,
    mapper: Mapper | None = None,
    node_limit: int = DEFAULT_NODE_LIMIT,
    core_name: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Solve every job not yet in ``out``, appending each record as it comes; return all records of
    ``jobs`` (old and new) in job order. ``mapper`` runs the work (``map`` by default; the command line
    passes a process pool's ``imap_unordered``). ``progress(done, total)`` is called after each deal.
    """
    done = read_done(out)
    todo = [job for job in jobs if job.key not in done]
    total = len(jobs)
    count = total - len(todo)
    if progress:
        progress(count, total)
    with out.open("a", encoding="utf-8") as handle:
        work = [(job, node_limit, core_name) for job in todo]
        for record in (mapper or map)(census_worker, work):
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
            handle.flush()
            done[record_key(record)] = record
            count += 1
            if progress:
                progress(count, total)
    return [done[job.key] for job in jobs]


@dataclass(slots=True)
class Summary:
    """What a census found: counts, the share winnable with its interval, shortest wins, slow deals."""

    deals: int = 0
    winnable: int = 0
    unproved: int = 0
    interval: tuple[float, float] = (0.0, 1.0)
    mean_moves: float | None = None
    moves: Counter[int] = field(default_factory=Counter)
    best_left: Counter[int] = field(default_factory=Counter)
    slowest: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def share(self) -> float:
        """The share of winnable deals (0 without deals)."""
        return self.winnable / self.deals if self.deals else 0.0

    def to_json(self) -> dict[str, Any]:
        """Return the summary as JSON (``parlour tripeaks census --json``)."""
        return {
            "deals": self.deals,
            "winnable": self.winnable,
            "unproved": self.unproved,
            "share": self.share,
            "interval": list(self.interval),
            "mean_moves": self.mean_moves,
            "moves": {str(moves): count for moves, count in sorted(self.moves.items())},
            "best_left": {str(left): count for left, count in sorted(self.best_left.items())},
            "slowest": self.slowest,
            "seconds": self.seconds,
        }


def summarise(records: Iterable[dict[str, Any]], slowest: int = 5) -> Summary:
    """Summarise census records."""
    summary = Summary()
    items = list(records)
    for record in items:
        summary.deals += 1
        summary.seconds += float(record.get("seconds", 0.0))
        if not record.get("proved", True):
            summary.unproved += 1
        if record["winnable"]:
            summary.winnable += 1
            summary.moves[int(record["moves"])] += 1
        else:
            summary.best_left[int(record["best"]["left"])] += 1
    summary.interval = wilson(summary.winnable, summary.deals)
    wins = sum(summary.moves.values())
    if wins:
        summary.mean_moves = sum(m * c for m, c in summary.moves.items()) / wins
    summary.slowest = sorted(items, key=lambda r: -float(r.get("seconds", 0.0)))[:slowest]
    return summary
