"""Every command the README and docs/ show: each `parlour …` line names a command that exists, with options
it has; each concrete example runs and exits as the docs say. An example that cannot run here is listed
in :data:`NOT_RUN` with the reason (and still has its command and options checked)."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from parlour.cli import main

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PARLOUR = str(Path(sys.executable).with_name("parlour"))
PROGRAMS = ("parlour", "make", ".venv/bin/python", "haproxy", "python3", "/opt/parlour/bin/pip")

NOT_RUN: dict[str, str] = {
    "census --from 1 --to 50000": "the census of all numbered games takes hours",
    "census --deals-file deals.txt": "a file of the reader's own deals",
    "autoplay --player greedy --from 1 --to 2000": "two thousand games take minutes",
    'solve "2C AD … QC 7H …"': "the deal is elided on the page",
    "db.internal": "the example hosts of a real deployment",
    "db.example": "the example hosts of a real deployment",
    "postgresql://postgres@127.0.0.1/parlour": "a database of the reader's own",
    "make run": "the web app runs until stopped: test_serve_command runs `parlour serve`",
    "make test": "the suite itself",
    "benchmarks/failover.py": "a benchmark of minutes: tests/server/test_deployment.py runs it smaller",
    "python3 -m venv /opt/parlour": "tests/test_wheel.py installs the same way, in a folder of its own",
    "/opt/parlour/bin/pip": "tests/test_wheel.py installs the same way, in a folder of its own",
    "thirteen_golden.py --write": "it rewrites the golden files",
    "scripts/train_tripeaks.py": "training takes 40 minutes of PyTorch, which the suite does not install",
    "scripts/train_thirteen.py": "training takes 45 minutes of PyTorch, which the suite does not install",
    "scripts/plot_learning.py": "it draws a training curve with matplotlib, which the suite does not install",
}


@dataclass(frozen=True)
class Shown:
    """One command line of the docs: where it is and its words (comments, `&` and continuations gone)."""

    where: str
    line: str

    @property
    def words(self) -> list[str]:
        return shlex.split(self.line, comments=True)

    @property
    def synopsis(self) -> bool:
        """A usage line (``[--json]``, ``CODE``, ``…``) rather than an example to run."""
        return bool(re.search(r"\[|…\]|\b[A-Z][A-Z_]{2,}\b(?!-)|\|", self.line.split("#")[0])) and not (
            re.search(r"\bTP1-|\bTH1-", self.line) and "[" not in self.line
        )

    def not_run(self) -> str | None:
        return next((why for marker, why in NOT_RUN.items() if marker in self.line), None)


def shown() -> list[Shown]:
    """Every command line in the fenced blocks of the README and docs/."""
    found = []
    for path in DOCS:
        text = path.read_text()
        for block in re.finditer(r"```(\w*)\n(.*?)```", text, re.S):
            if block.group(1) not in ("", "sh", "console"):
                continue
            for number, raw in enumerate(block.group(2).replace("\\\n", " ").splitlines()):
                line = raw.strip().removesuffix("&").strip()
                bare = re.sub(r"^(?:[A-Z_]+=\S*\s+)+", "", line)
                if bare.startswith(PROGRAMS) and not re.search(r"\(host \d\)", line):
                    found.append(Shown(f"{path.name}:{number}", line))
    return found


SHOWN = shown()


def test_the_docs_show_commands() -> None:
    assert len([s for s in SHOWN if s.words and s.words[0] == "parlour"]) >= 30


def command_path(words: list[str]) -> tuple[list[str], list[str]]:
    """The sub-commands a `parlour …` line names, and every option it uses."""
    path = []
    for word in words[1:]:
        if not re.fullmatch(r"[a-z][a-z-]*", word):
            break
        path.append(word)
    options = re.findall(r"(?<![\w-])--[a-z][a-z-]*", " ".join(words))
    return path, options


@pytest.mark.parametrize("shown", [s for s in SHOWN if s.words[0] == "parlour"], ids=lambda s: s.where)
def test_each_parlour_line_names_a_command_and_options_it_has(shown: Shown) -> None:
    path, options = command_path(shown.words)
    helped = CliRunner().invoke(main, [*path, "--help"], terminal_width=200)
    assert helped.exit_code == 0, f"{shown.line}: {helped.output}"
    for option in options:
        assert re.search(rf"(?<![\w-]){re.escape(option)}\b", helped.output), f"{shown.line}: no {option}"


RUNNABLE = [s for s in SHOWN if not s.synopsis and s.words[0] == "parlour" and s.words[1] != "serve"]


@pytest.mark.parametrize("shown", RUNNABLE, ids=lambda s: s.where)
def test_each_example_runs(shown: Shown, tmp_path: Path) -> None:
    why = shown.not_run()
    if why:
        pytest.skip(why)
    from parlour.store import Store

    database = f"sqlite:///{tmp_path}/docs.db"
    store = Store(database)
    store.upgrade()
    store.create_player("Ada")
    store.close()
    done = subprocess.run(
        [PARLOUR, *shown.words[1:]], capture_output=True, text=True, timeout=300, cwd=tmp_path,
        env={**os.environ, "PARLOUR_DATABASE_URL": database},
    )  # fmt: skip
    assert done.returncode == 0, f"{shown.line}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr


SERVES = [s for s in SHOWN if not s.synopsis and s.words[:2] == ["parlour", "serve"]]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def on_free_ports(words: list[str]) -> list[str]:
    """Return a serve example's words with its ports (the docs' 8000, 8001, 9100 …) on free ones, and a
    free ``--port`` where it names none: the suite passes while ``make run`` serves on 8000."""
    moved = list(words)
    for option in ("--port", "--metrics-port"):
        if option in moved:
            moved[moved.index(option) + 1] = str(free_port())
    return moved if "--port" in moved else [*moved, "--port", str(free_port())]


@pytest.mark.slow
@pytest.mark.parametrize("shown", SERVES, ids=lambda s: s.where)
def test_each_serve_example_starts_and_stops_cleanly(shown: Shown, tmp_path: Path) -> None:
    why = shown.not_run()
    if why:
        pytest.skip(why)
    process = subprocess.Popen(
        [PARLOUR, *on_free_ports(shown.words[1:])], stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**{k: v for k, v in os.environ.items() if k != "PARLOUR_REDIS_URL"},
             "PARLOUR_DATABASE_URL": f"sqlite:///{tmp_path}/serve.db", "XDG_DATA_HOME": str(tmp_path)},
    )  # fmt: skip
    assert process.stderr is not None
    try:
        first = process.stderr.readline()
        assert "Parlour is running on" in first, f"{shown.line}: {first}{process.stderr.read()}"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        process.stderr.close()


def test_every_other_line_is_run_elsewhere_or_here() -> None:
    """Lines of other programs: the HAProxy check runs; the rest are in NOT_RUN with their reason."""
    for line in [s for s in SHOWN if s.words and s.words[0] != "parlour"]:
        if "haproxy -c" in line.line:
            env = dict(re.findall(r"([A-Z_0-9]+)=(\S+)", line.line.split("haproxy")[0]))
            done = subprocess.run(
                ["haproxy", "-c", "-f", str(ROOT / "deploy" / "haproxy.cfg")], capture_output=True,
                text=True, timeout=30, env={**os.environ, **env},
            )  # fmt: skip
            assert done.returncode == 0, done.stdout + done.stderr
            continue
        assert line.not_run(), f"{line.where}: {line.line} is neither run nor listed in NOT_RUN"
