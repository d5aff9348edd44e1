"""The wheel is complete: built from the checkout, installed in a new virtual environment outside it, it
serves the web app (templates and static files), runs both terminal apps (their stylesheets) and the
solver with its compiled core."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a new virtual environment with Parlour installed from its wheel."""
    where = tmp_path_factory.mktemp("wheel")
    dist = where / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(dist),
         str(ROOT)],
        capture_output=True, text=True, cwd=where,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    [wheel] = dist.glob("parlour-*.whl")
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # What a deployment does: the locked dependencies, each checked against its hash, then the wheel.
    python = str(venv / "bin" / "python")
    for step in (
        ["--require-hashes", "--only-binary", ":all:", "-r", str(ROOT / "requirements" / "main.lock")],
        ["--no-deps", str(wheel)],
    ):
        install = subprocess.run(
            [python, "-m", "pip", "install", "--quiet", *step], capture_output=True, text=True, cwd=where
        )
        assert install.returncode == 0, install.stderr[-3000:]
    return venv / "bin"


def outside(tmp_path: Path) -> dict[str, str]:
    """An environment that knows nothing of the checkout."""
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }


def test_the_installed_solver_uses_its_compiled_core(installed: Path, tmp_path: Path) -> None:
    solved = subprocess.run(
        [str(installed / "parlour"), "tripeaks", "solve", "TP1-E-AAAAAAB", "--json"],
        capture_output=True, text=True, cwd=tmp_path, env=outside(tmp_path), timeout=120,
    )  # fmt: skip
    assert solved.returncode == 0, solved.stderr
    answer = json.loads(solved.stdout)
    assert answer["winnable"] is True and answer["core"] == "c"


def test_the_installed_learned_player_reads_its_shipped_weights(installed: Path, tmp_path: Path) -> None:
    played = subprocess.run(
        [str(installed / "parlour"), "thirteen", "simulate", "--players", "learned,sampler,strong,keeper",
         "--games", "1", "--json"],
        capture_output=True, text=True, cwd=tmp_path, env=outside(tmp_path), timeout=120,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    names = [player["name"] for player in json.loads(played.stdout)["players"]]
    assert names == ["learned", "sampler", "strong", "keeper"]


def test_the_installed_server_serves_its_pages(installed: Path, tmp_path: Path) -> None:
    server = subprocess.Popen(
        [str(installed / "parlour"), "serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path}/w.db"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path, env=outside(tmp_path),
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        assert found, line
        base = f"http://127.0.0.1:{found.group(1)}"
        assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200
        with httpx.Client(base_url=base, timeout=10) as client:
            for path in ("/", "/tripeaks", "/thirteen", "/rules/tripeaks", "/static/js/tripeaks.js"):
                assert client.get(path).status_code == 200, path
    finally:
        server.terminate()
        server.wait(timeout=15)
        if server.stdout is not None:
            server.stdout.close()


@pytest.mark.parametrize("game", ["tripeaks", "thirteen"])
def test_the_installed_terminal_apps_open_and_quit(installed: Path, tmp_path: Path, game: str) -> None:
    """Each terminal app starts in a pseudo-terminal (its stylesheet loaded), draws its footer, quits on
    Q and exits with status 0."""
    main, child = pty.openpty()
    os.set_blocking(main, False)
    app = subprocess.Popen(
        [str(installed / "parlour"), game, "tui", "--no-record"],
        stdin=child, stdout=child, stderr=child, cwd=tmp_path, env=outside(tmp_path), close_fds=True,
    )  # fmt: skip
    os.close(child)
    seen = b""
    try:
        deadline = time.monotonic() + 60
        while b"Quit" not in seen:
            assert time.monotonic() < deadline and app.poll() is None, seen.decode(errors="replace")[-2000:]
            ready, _, _ = select.select([main], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:
                    break
        os.write(main, b"q")
        assert app.wait(timeout=30) == 0, seen.decode(errors="replace")[-2000:]
    finally:
        if app.poll() is None:
            app.kill()
        os.close(main)
