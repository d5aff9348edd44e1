"""The terminal app as a person meets it: the real ``parlour`` command in an 80×24 tmux pane, with a
256-colour terminal and no true colour (``TERM=screen-256color``, no ``COLORTERM``), as over plain SSH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (scripts/system-deps.sh)"),
]

PARLOUR = str(Path(sys.executable).with_name("parlour"))


class Pane:
    """One detached tmux session running one command."""

    def __init__(self, command: list[str], home: Path) -> None:
        self.name = f"parlour-{uuid.uuid4().hex[:8]}"
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "LANG": "C.UTF-8",
            "TERM": "screen-256color",
        }
        subprocess.run(["tmux", "-L", self.name, "-f", "/dev/null", "new-session", "-d", "-s", self.name,
                        "-x", "80", "-y", "24", "env", "-i", *(f"{k}={v}" for k, v in env.items()),
                        *command], check=True)  # fmt: skip

    def text(self) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.name, "capture-pane", "-p", "-t", self.name],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        return done.stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "-L", self.name, "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, found: Callable[[str], bool], seconds: float = 30.0) -> str:
        """Return the pane's text once ``found`` accepts it (fail after ``seconds``)."""
        deadline = time.monotonic() + seconds
        text = ""
        while time.monotonic() < deadline:
            text = self.text()
            if found(text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"the pane never showed what was awaited:\n{text}")

    def alive(self) -> bool:
        done = subprocess.run(["tmux", "-L", self.name, "has-session", "-t", self.name], capture_output=True)
        return done.returncode == 0

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True)


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Callable[[list[str]], Pane]]:
    opened: list[Pane] = []

    def open_pane(arguments: list[str]) -> Pane:
        opened.append(Pane([PARLOUR, *arguments], tmp_path))
        return opened[-1]

    yield open_pane
    for each in opened:
        each.close()


def test_tripeaks_plays_in_tmux_without_true_colour(
    pane: Callable[[list[str]], Pane], tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'tmux.db'}"
    tui = pane(["tripeaks", "tui", "123", "--database-url", database])
    board = tui.wait_for(lambda text: "Game #123" in text and "Draw pile: 23" in text)
    assert "Score: 500" in board and "Moves: 0" in board
    tui.keys("d")
    tui.wait_for(lambda text: "Draw pile: 22" in text and "Moves: 1" in text)
    tui.keys("u")
    tui.wait_for(lambda text: "Draw pile: 23" in text)
    tui.keys("q")
    deadline = time.monotonic() + 15
    while tui.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not tui.alive(), "Q did not quit"


def test_thirteen_speaks_hungarian_in_tmux(pane: Callable[[list[str]], Pane]) -> None:
    tui = pane(["thirteen", "tui", "TH1-AAAAAAC", "--lang", "hu", "--no-record", "--speed", "instant"])
    text = tui.wait_for(lambda text: "Kilépés" in text)
    assert "Quit" not in text and "Szabályok" in text
    tui.keys("?")
    tui.wait_for(lambda text: "Billentyűk" in text and "Bezárás" in text)
    tui.keys("Escape")
    tui.wait_for(lambda text: "Billentyűk" not in text)
    tui.keys("q")


def _terminal_width(line: str) -> int:
    """The cells ``line`` takes in the terminal: glibc's ``wcswidth``, which tmux follows."""
    import ctypes
    import ctypes.util
    import locale

    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    previous = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    try:
        return int(libc.wcswidth(ctypes.c_wchar_p(line), len(line) + 1))
    finally:
        locale.setlocale(locale.LC_CTYPE, previous)


def test_hindi_is_drawn_whole_in_tmux(pane: Callable[[list[str]], Pane]) -> None:
    """The footer keeps every vowel sign and its gaps; the help's lines stay inside their box."""
    tui = pane(["tripeaks", "tui", "123", "--lang", "hi", "--no-record"])
    text = tui.wait_for(lambda text: "निकलें" in text)
    footer = text.rstrip("\n").splitlines()[-1]
    assert "n नई बाज़ी " in footer and "q निकलें" in footer, footer
    tui.keys("?")
    text = tui.wait_for(lambda text: "कुंजियाँ" in text)
    boxed = [line for line in text.splitlines() if line.lstrip().startswith("│")]
    assert boxed, text
    edges = {_terminal_width(line.rstrip()) for line in boxed}
    assert len(edges) == 1 and edges.pop() <= 80, text  # every right border in one column
    assert all(line.rstrip().endswith("│") for line in boxed), text
    tui.keys("Escape", "q")
