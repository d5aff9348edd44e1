"""A TCP relay for fault tests: it passes bytes between its clients and a target (the machine's
PostgreSQL) and can be *stalled*: every connection stays open, and nothing more passes either way, as
when a database server hangs or a proxy on the way stops forwarding. Resuming passes on what waited.

Load it by path (the test folders have conftest modules of the same name).
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator


class Relay:
    """Listens on 127.0.0.1 (``port``) and relays every connection to ``target``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.flowing = threading.Event()
        self.flowing.set()
        self.stopped = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, name="relay-accept", daemon=True).start()

    def stall(self) -> None:
        """Stop passing bytes on every connection, old and new (they stay open)."""
        self.flowing.clear()

    def resume(self) -> None:
        """Pass bytes again."""
        self.flowing.set()

    def close(self) -> None:
        self.stopped.set()
        self.flowing.set()
        with self._lock:
            for sock in [self.listener, *self._sockets]:
                with contextlib.suppress(OSError):
                    sock.close()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                self._sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, client: socket.socket, server: socket.socket) -> None:
        peers = {client: server, server: client}
        try:
            while not self.stopped.is_set():
                if not self.flowing.wait(timeout=0.2):
                    continue  # stalled: read nothing, so nothing passes and the kernel buffers fill
                ready, _, _ = select.select(list(peers), [], [], 0.2)
                for sock in ready:
                    if not self.flowing.is_set():
                        break
                    data = sock.recv(65536)
                    if not data:
                        return
                    peers[sock].sendall(data)
        except OSError:
            return
        finally:
            for sock in peers:
                with contextlib.suppress(OSError):
                    sock.close()


@contextlib.contextmanager
def relay_to(host: str, port: int) -> Iterator[Relay]:
    """A relay to ``host:port`` for the length of the block."""
    relay = Relay((host, port))
    try:
        yield relay
    finally:
        relay.close()
