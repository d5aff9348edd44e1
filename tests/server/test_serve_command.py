"""``parlour serve`` starts the app and logs one line with its address."""

from __future__ import annotations

import gc
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from parlour.cli.serve import GC_THRESHOLD, tune_collector

ROOT = Path(__file__).resolve().parents[2]


def test_serve_logs_its_address_and_serves_the_home_page(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PARLOUR_DATABASE_URL=f"sqlite:///{tmp_path}/p.db")
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stderr is not None
        line = process.stderr.readline().strip()
        found = re.search(r"Parlour is running on (http://127\.0\.0\.1:\d+) ", line)
        assert found, line
        address = found.group(1)
        with urllib.request.urlopen(address + "/", timeout=10) as response:
            assert response.status == 200
            assert "Parlour" in response.read().decode()
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stderr is not None:
            process.stderr.close()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_and_sigterm_stop_the_server_cleanly(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl+C (SIGINT) and SIGTERM are stops asked for: the server drains (stops accepting, finishes
    its writes), exits with status 0, and says neither "Aborted!" nor a traceback."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), PARLOUR_DATABASE_URL=f"sqlite:///{tmp_path}/c.db")
    process = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", "0"], stderr=subprocess.PIPE, text=True, env=env
    )
    assert process.stderr is not None
    try:
        found = re.search(r"running on (http://\S+) ", process.stderr.readline())
        assert found
        with urllib.request.urlopen(found.group(1) + "/healthz", timeout=10) as answer:
            assert answer.status == 200  # serving, and listening for signals
        process.send_signal(stop)
        assert process.wait(timeout=20) == 0
        rest = process.stderr.read()
        assert "Aborted" not in rest and "Traceback" not in rest, rest
        assert "drained in" in rest
    finally:
        if process.poll() is None:
            process.kill()
        process.stderr.close()


def test_serve_explains_a_busy_port() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "parlour", "serve", "--port", str(port)],
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
            timeout=30,
        )
    assert result.returncode != 0 and f"cannot listen on 127.0.0.1:{port}" in result.stderr


def test_the_server_tunes_the_collector_for_many_short_lived_messages() -> None:
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == GC_THRESHOLD
        assert GC_THRESHOLD[0] > before[0]
    finally:
        gc.set_threshold(*before)
