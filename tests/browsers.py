"""What every browser test shares, wherever it lives: Debian's Chromium through Playwright, and a Parlour
app served on a free port of 127.0.0.1 in a thread."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@contextlib.contextmanager
def launched_browser() -> Iterator[Any]:
    """Launch Debian's Chromium, headless; close it at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextlib.contextmanager
def served(app: Any) -> Iterator[tuple[str, Any, threading.Thread]]:
    """Serve ``app`` on 127.0.0.1 on a free port in a thread; yield its URL, the server and the thread."""
    import uvicorn

    from parlour.cli.serve import bind

    listener = bind("127.0.0.1", 0)
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", server, thread
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()
