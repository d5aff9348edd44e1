"""Reading a page's socket in tests: the messages up to the answer of one request."""

from __future__ import annotations

from typing import Any

from starlette.testclient import WebSocketTestSession


def until_reply(socket: WebSocketTestSession, ref: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Collect messages until the ack or error of ``ref``; return (the events before it, the reply)."""
    events: list[dict[str, Any]] = []
    while True:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] in ("ack", "error") and message.get("ref") == ref:
            return events, message
        events.append(message)
