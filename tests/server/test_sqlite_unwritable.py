"""An SQLite database made unwritable under a running server (``chattr +i`` on its files): SQLite maps its
``-shm`` file into memory, and a write the file system refuses there kills the process with SIGBUS.
The store refuses to touch such files: the move is answered ``not_saved``, the server lives on, and
play resumes once the files are writable again."""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from conftest import helper

_processes = helper("cluster_processes")
pytestmark = pytest.mark.slow


def immutable(files: list[Path], on: bool) -> None:
    for path in files:
        subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True, capture_output=True)


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Path]:
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed")
    probe = tmp_path / "probe"
    probe.touch()
    try:
        immutable([probe], True)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"this file system or user cannot make files immutable: {error.stderr!r}")
    immutable([probe], False)
    path = tmp_path / "parlour.sqlite3"
    yield path
    with contextlib.suppress(subprocess.CalledProcessError):
        immutable([file for file in tmp_path.iterdir() if file.name.startswith(path.name)], False)


def ask(socket: ClientConnection, ref: int, action: dict[str, Any]) -> dict[str, Any]:
    socket.send(json.dumps({"type": "action", "action": action, "ref": ref}))
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=15))
        if message.get("ref") == ref:
            return message


def test_an_sqlite_file_made_immutable_gives_not_saved_and_no_crash(database: Path) -> None:
    server = _processes.Server(f"sqlite:///{database}", redis=None)
    try:
        http = httpx.Client(base_url=server.url, timeout=15)
        game_id = http.post("/api/games/tripeaks", json={"code": "TP1-E-AAAAAAB"}).json()["game"]
        cookie = f"parlour_token={http.cookies['parlour_token']}"
        with connect(f"{server.ws}/ws/{game_id}", additional_headers={"Cookie": cookie}) as socket:
            socket.send(json.dumps({"type": "hello", "v": None}))
            socket.recv(timeout=15)
            assert ask(socket, 1, {"move": "draw"})["type"] == "ack"
            files = [file for file in database.parent.iterdir() if file.name.startswith(database.name)]
            assert any(file.name.endswith("-shm") for file in files)
            immutable(files, True)
            try:
                refused = ask(socket, 2, {"move": "draw"})
                assert refused["type"] == "error" and refused["code"] == "not_saved"
                assert http.get("/tripeaks").status_code == 503
                assert server.process.poll() is None  # alive
            finally:
                immutable(files, False)
            assert ask(socket, 3, {"move": "draw"})["type"] == "ack"
        http.close()
    finally:
        server.stop()
    assert server.process.returncode in (0, -15)
    assert "Traceback" not in "\n".join(server.log)
