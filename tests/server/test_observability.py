"""What an operator sees: Prometheus metrics on a port of their own, one log line a request and a socket
session (text or JSON), and nothing secret in any line."""

from __future__ import annotations

import json
import logging
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest
from websockets.sync.client import connect

from conftest import helper
from parlour.server.edge.logs import Redact

if TYPE_CHECKING:
    import cluster_processes as _processes  # (for the types: at run time it is loaded by its path)
else:
    _processes = helper("cluster_processes")
pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Served(_processes.Server):
    """``parlour serve`` on its own SQLite file with metrics on a port of their own."""

    def __init__(self, tmp_path: Path, *extra: str) -> None:
        self.metrics_port = free_port()
        flags = ["--metrics-port", str(self.metrics_port), *extra]
        super().__init__(f"sqlite:///{tmp_path}/o.db", redis=None, extra=flags)

    def metrics(self) -> str:
        return httpx.get(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=10).text

    def stopped_log(self) -> str:
        """Stop the server (killed if it will not stop); return everything it logged."""
        self.stop()
        return "\n".join(self.log)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path, "--log-format", "json")
    try:
        yield server
    finally:
        server.stop()


def test_metrics_and_json_logs_count_routes_and_keep_secrets_out(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=10) as client:
        assert client.get("/").status_code == 200
        assert client.post("/api/player").status_code == 201
        token = client.cookies["parlour_token"]
        table = client.post("/api/tables", json={"name": "Ada"}).json()
        assert client.get(table["url"]).status_code == 200
        assert client.get("/tripeaks?code=TP1-E-AAAAAAB", follow_redirects=True).status_code == 200
        page = client.get("/player")
        csrf = client.cookies["parlour_csrf"]
        shown = client.post("/player/recovery-code", data={"csrf": csrf}, follow_redirects=True)
        code = re.search(r"[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3}", shown.text)
        assert page.status_code == 200 and code, "no recovery code shown"
        assert client.get("/metrics").status_code == 404  # not on the public port
        assert client.get("/static/css/parlour.css").status_code == 200
        assert client.get("/no/such/page").status_code == 404
        head = client.head("/healthz")  # uvicorn itself checks a HEAD's answer against its length
        assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 0
        assert "server" not in head.headers  # the server software is not named
        with connect(
            served.url.replace("http", "ws") + f"/ws/table/{table['table']}",
            additional_headers={"Cookie": f"parlour_token={token}", "Origin": served.url},
            open_timeout=10,
        ) as page_socket:
            page_socket.send(json.dumps({"type": "hello", "v": None, "seat_token": table["seat_token"]}))
            assert json.loads(page_socket.recv(timeout=10))["type"] == "state"
            add = {"type": "action", "action": {"type": "add_bot", "seat": 1}, "ref": 1}
            page_socket.send(json.dumps(add))
            while json.loads(page_socket.recv(timeout=10)).get("type") != "ack":
                pass
    deadline = time.monotonic() + 10
    while "parlour_websocket_sessions_total" not in (text := served.metrics()):
        assert time.monotonic() < deadline, text
        time.sleep(0.1)
    assert 'parlour_http_requests_total{method="GET",route="/thirteen/t/{code}",status="200"} 1.0' in text
    assert 'route="/api/player",status="201"' in text
    # the static files are counted under their mount, and what nothing served under "unmatched"
    assert 'parlour_http_requests_total{method="GET",route="/static",status="200"} 1.0' in text
    assert 'route="unmatched",status="404"' in text
    assert 'parlour_http_requests_total{method="HEAD",route="/healthz",status="200"} 1.0' in text
    assert 'parlour_websocket_sessions_total{close="1000",route="/ws/table/{table_id}"} 1.0' in text
    assert re.search(r"parlour_action_duration_seconds_count\{game=\"[a-z_]+\"\} 1\.0", text), text
    assert re.search(r"parlour_database_write_duration_seconds_count [1-9]", text)
    assert "parlour_tables_owned 1.0" in text and "parlour_draining 0.0" in text
    assert table["table"] not in text and token not in text
    log = served.stopped_log()
    records = [json.loads(line) for line in log.splitlines() if line.strip()]
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")], log
    requests = [r for r in records if r.get("event") == "request"]
    assert {"GET", "POST"} <= {r["method"] for r in requests}
    # Times in ISO 8601 with the zone; no line for the probe answered well (HEAD /healthz).
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", r["time"]) for r in records)
    assert not [r for r in requests if r["route"] == "/healthz"]
    assert any(r["route"] == "/static/css/parlour.css" for r in requests)
    # The standard process and Python series are scraped beside Parlour's own.
    assert "process_cpu_seconds_total" in text and "python_gc_collections_total" in text
    assert all({"time", "level", "logger", "route", "status", "ms", "client"} <= set(r) for r in requests)
    assert any(r["route"] == "/thirteen/t/{code}" for r in requests)
    [session] = [r for r in records if r.get("event") == "socket"]
    assert session["route"] == "/ws/table/{table_id}" and session["frames_in"] == 2
    for secret in (token, code.group(0), table["table"], table["seat_token"], csrf, "AAAAAAB"):
        assert secret not in log, secret


def test_the_text_log_has_a_line_a_request_and_the_level_quiets_it(tmp_path: Path) -> None:
    loud = Served(tmp_path)
    try:
        httpx.get(f"{loud.url}/rules/tripeaks", timeout=10)
        httpx.get(f"{loud.url}/healthz", timeout=10)
        httpx.get(f"{loud.url}/readyz", timeout=10)
        httpx.get(f"{loud.url}/static/css/parlour.css", timeout=10)
    finally:
        loud_log = loud.stopped_log()
    quiet = Served(tmp_path, "--log-level", "warning")
    try:
        httpx.get(f"{quiet.url}/rules/tripeaks", timeout=10)
    finally:
        quiet_log = quiet.stopped_log()
    debug = Served(tmp_path, "--log-level", "debug")
    try:
        httpx.get(f"{debug.url}/readyz", timeout=10)
    finally:
        debug_log = debug.stopped_log()
    iso = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00"
    line = rf"^{iso} INFO parlour\.access GET /rules/{{game}} 200 [\d.]+ ms 127\.0\.0\.1$"
    assert re.search(line, loud_log, re.MULTILINE), loud_log
    # The probes a load balancer makes every few seconds, answered well, are debug lines only.
    assert "/healthz" not in loud_log and "/readyz" not in loud_log
    assert re.search(r"DEBUG parlour\.access GET /readyz 200", debug_log), debug_log
    # A static file is named by its path in the log (the metrics count it under its mount).
    assert re.search(r"INFO parlour\.access GET /static/css/parlour\.css 200", loud_log), loud_log
    assert "/rules/" not in quiet_log and "Parlour is running" in quiet_log


def test_the_redaction_filter_blanks_every_secret_shape() -> None:
    record = logging.LogRecord(
        "parlour.server", logging.WARNING, __file__, 1,
        "cookie parlour_token=abcDEF123_-xyz0987 code K7QX2-9MZTB-4HRWD-PE8NA url "
        "postgresql+psycopg://parlour:s3cret@db/parlour path /tripeaks?code=TP1-E-AAAAAAB "
        "match TH2-AAAQEAYEAUDAOCAJBIFQYDIOB4Y deal TP2-C-AAAQEAYEAUDAOCAJBIFQYDIOB4Y-JO", None, None,
    )  # fmt: skip
    assert Redact().filter(record)
    text = record.getMessage()
    for secret in ("abcDEF123_-xyz0987", "K7QX2-9MZTB-4HRWD-PE8NA", "s3cret", "TP1-E-AAAAAAB", "AAAQEAYEAU"):
        assert secret not in text
    assert "match TH2-[hidden] deal TP2-C-[hidden]-JO" in text
    assert "postgresql+psycopg://parlour:[hidden]@db/parlour" in text and "/tripeaks?[hidden]" in text


def test_the_api_description_is_not_public_unless_asked(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from parlour.server.app import create_app
    from parlour.store import Store

    store = Store(f"sqlite:///{tmp_path / 'api.db'}")
    with TestClient(create_app(store)) as client:
        assert client.get("/openapi.json").status_code == 404
        assert client.get("/docs").status_code == 404
    with TestClient(create_app(store, api_docs=True)) as client:
        described = client.get("/openapi.json")
        assert described.status_code == 200 and "/api/games/{game_id}/review" in described.json()["paths"]
        assert client.get("/docs").status_code == 404  # its page would load a script from the internet
