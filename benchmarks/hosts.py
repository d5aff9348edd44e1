"""Parlour's deployment on one machine as several hosts: network namespaces joined by a bridge.

- the **data host** runs a PostgreSQL server and a Redis server of its own and HAProxy with the shipped
  configuration (``deploy/haproxy.cfg``);
- each **Parlour host** runs one ``parlour serve`` (port 8000, metrics on 9100), reaching the database
  and Redis over the network;
- the machine itself (the root namespace) is on the bridge too: it plays the people, through the load
  balancer only.

Needs root and Debian's iproute2, PostgreSQL, Redis and HAProxy (``scripts/system-deps.sh``). Every
name has a random tag, so that several runs can coexist; :meth:`Deployment.close` removes everything.
Used by ``benchmarks/failover.py`` and ``tests/server/test_deployment.py``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parents[1]
PARLOUR: Final = str(Path(sys.executable).with_name("parlour"))
HAPROXY_CONFIG: Final = ROOT / "deploy" / "haproxy.cfg"
LB_PORT: Final = 8080
APP_PORT: Final = 8000
METRICS_PORT: Final = 9100
LOOSE_LIMITS: Final = (
    "new_player=100000/minute,new_table=100000/minute,find_table=100000/minute,play_now=100000/minute"
)
"""Every simulated person comes from the machine's one address."""


def run(*command: str) -> None:
    """Run a command that must succeed (its error output is in the exception)."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")


def postgres_bin() -> Path:
    """The folder of Debian's PostgreSQL server programs (the newest installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/postgres"))
    if not found:
        raise RuntimeError("PostgreSQL's server is not installed (scripts/system-deps.sh)")
    return Path(found[-1]).parent


def missing() -> str | None:
    """What this machine lacks to build the hosts, None when nothing."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    for tool in ("ip", "haproxy", "redis-server"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    try:
        postgres_bin()
    except RuntimeError as error:
        return str(error)
    probe = f"plprobe{secrets.token_hex(3)}"
    try:
        run("ip", "netns", "add", probe)
    except (RuntimeError, OSError) as error:
        return f"network namespaces cannot be made here: {error}"
    run("ip", "netns", "delete", probe)
    return None


class Host:
    """One network namespace with an address on the bridge."""

    def __init__(self, namespace: str, address: str) -> None:
        self.namespace = namespace
        self.address = address
        self.started: list[subprocess.Popen[bytes]] = []

    def popen(
        self, command: list[str], log: Path, env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        """Start ``command`` in this host, its output appended to ``log``."""
        with log.open("ab") as out:
            process = subprocess.Popen(
                ["ip", "netns", "exec", self.namespace, *command],
                stdout=out, stderr=subprocess.STDOUT, env={**os.environ, **(env or {})},
                start_new_session=True,
            )  # fmt: skip
        self.started.append(process)
        return process

    def pids(self) -> list[int]:
        listed = subprocess.run(
            ["ip", "netns", "pids", self.namespace], capture_output=True, text=True, timeout=10
        )
        return [int(pid) for pid in listed.stdout.split()]

    def kill_all(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to every process of the host (SIGKILL: the host is gone)."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)


def _exit_on_term(signum: int, _frame: object) -> None:
    """End the run as an interrupted one, so that the hosts are taken down on the way out."""
    raise SystemExit(128 + signum)


class Deployment:
    """A data host (PostgreSQL, Redis, HAProxy) and ``processes`` Parlour hosts, on a bridge of their own."""

    def __init__(self, processes: int = 2, workdir: Path | None = None) -> None:
        if not 1 <= processes <= 4:
            raise ValueError("the shipped HAProxy configuration takes one to four Parlour processes")
        self.tag = secrets.token_hex(3)
        self.subnet = f"10.{100 + secrets.randbelow(100)}.{secrets.randbelow(250)}"
        self.bridge = f"plb{self.tag}"
        self.workdir = workdir or Path(f"/tmp/parlour-hosts-{self.tag}")
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.hosts: list[Host] = []
        self.parlours: list[subprocess.Popen[bytes] | None] = []
        self._closed = False
        # A run stopped from outside (``timeout``, a CI runner) with SIGTERM still takes the hosts down:
        # Python's default would end at once and leave namespaces, PostgreSQL and Parlour running.
        self._on_term: Any = None
        if threading.current_thread() is threading.main_thread():
            self._on_term = signal.signal(signal.SIGTERM, _exit_on_term)
        try:
            run("ip", "link", "add", self.bridge, "type", "bridge")
            run("ip", "addr", "add", f"{self.subnet}.254/24", "dev", self.bridge)
            run("ip", "link", "set", self.bridge, "up")
            self.data = self._host("d", 1)
            self.apps = [self._host(f"a{n}", 10 + n) for n in range(1, processes + 1)]
            self.database = f"postgresql+psycopg://postgres@{self.data.address}:5432/parlour"
            self.redis = f"redis://{self.data.address}:6379/0"
            self._start_postgres()
            self._start_redis()
            self.parlours = [self.start_parlour(n) for n in range(processes)]
            for n in range(processes):
                self.wait_ready(n)
            self._start_haproxy()
        except BaseException:
            self.close()
            raise
        self.url = f"http://{self.data.address}:{LB_PORT}"

    def _host(self, name: str, number: int) -> Host:
        namespace = f"pl{self.tag}{name}"
        outside, inside = f"pl{self.tag}{name}o", f"pl{self.tag}{name}i"
        run("ip", "netns", "add", namespace)
        host = Host(namespace, f"{self.subnet}.{number}")
        self.hosts.append(host)
        run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside)
        run("ip", "link", "set", outside, "master", self.bridge)
        run("ip", "link", "set", outside, "up")
        run("ip", "link", "set", inside, "netns", namespace)
        inns = ("ip", "netns", "exec", namespace)
        run(*inns, "ip", "addr", "add", f"{host.address}/24", "dev", inside)
        run(*inns, "ip", "link", "set", inside, "up")
        run(*inns, "ip", "link", "set", "lo", "up")
        return host

    def _start_postgres(self) -> None:
        binaries = postgres_bin()
        data = self.workdir / "postgres"
        data.mkdir()
        shutil.chown(data, "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
        run(*as_postgres, str(binaries / "initdb"), "-D", str(data / "data"), "-A", "trust", "-U", "postgres",
            "--no-sync", "-E", "UTF8")  # fmt: skip
        with (data / "data" / "pg_hba.conf").open("a") as hba:  # the bridge is the hosts' private network
            hba.write(f"host all all {self.subnet}.0/24 trust\n")
        self.data.popen(
            [*as_postgres, str(binaries / "postgres"), "-D", str(data / "data"),
             "-c", f"listen_addresses={self.data.address}", "-c", "port=5432",
             "-c", f"unix_socket_directories={data}", "-c", "fsync=off", "-c", "max_connections=200"],
            self.workdir / "postgres.log",
        )  # fmt: skip
        ready = [str(binaries / "pg_isready"), "-q", "-h", self.data.address, "-p", "5432"]
        self._wait(lambda: subprocess.run(ready, timeout=5).returncode == 0, "PostgreSQL")
        run(
            str(binaries / "psql"),
            "-h",
            self.data.address,
            "-U",
            "postgres",
            "-qc",
            "create database parlour",
        )

    def _start_redis(self) -> None:
        redis = shutil.which("redis-server")
        assert redis is not None
        self.data.popen(
            [redis, "--bind", self.data.address, "--port", "6379", "--save", "", "--appendonly", "no",
             "--protected-mode", "no"],
            self.workdir / "redis.log",
        )  # fmt: skip

        def answers() -> bool:
            from redis import Redis
            from redis.exceptions import RedisError

            try:
                with Redis.from_url(self.redis, socket_connect_timeout=0.5) as client:
                    return bool(client.ping())
            except RedisError:
                return False

        self._wait(answers, "Redis")

    def _start_haproxy(self) -> None:
        # The load comes from one address: the shipped cap on connections per address is lifted for it.
        env = {
            "PARLOUR_LISTEN": f"{self.data.address}:{LB_PORT}",
            "PARLOUR_CONNECTIONS_PER_ADDRESS": "100000",
        }
        for n, host in enumerate(self.apps, start=1):
            env[f"PARLOUR_BACKEND_{n}"] = f"{host.address}:{APP_PORT}"
        self.data.popen(["haproxy", "-db", "-f", str(HAPROXY_CONFIG)], self.workdir / "haproxy.log", env=env)
        self._wait(lambda: self._get(f"http://{self.data.address}:{LB_PORT}/readyz") == 200, "HAProxy")

    def start_parlour(self, index: int) -> subprocess.Popen[bytes]:
        """Start (or start again) the Parlour process of app host ``index``."""
        host = self.apps[index]
        process = host.popen(
            [PARLOUR, "serve", "--host", "0.0.0.0", "--port", str(APP_PORT), "--database-url", self.database,
             "--redis-url", self.redis, "--metrics-port", str(METRICS_PORT), "--metrics-host", "0.0.0.0",
             "--forwarded-allow-ips", self.data.address],
            self.workdir / f"parlour{index + 1}.log",
            env={"PARLOUR_RATE_LIMITS": LOOSE_LIMITS},
        )  # fmt: skip
        if index < len(self.parlours):
            self.parlours[index] = process
        return process

    def wait_ready(self, index: int, seconds: float = 30) -> None:
        """Wait until Parlour process ``index`` answers ready."""
        address = f"http://{self.apps[index].address}:{APP_PORT}/readyz"
        self._wait(lambda: self._get(address) == 200, f"Parlour {index + 1}", seconds)

    def tables_owned(self, index: int) -> int:
        """How many tables Parlour process ``index`` owns (from its metrics), 0 when it does not answer."""
        return int(self.metric(index, "parlour_tables_owned"))

    def metric(self, index: int, name: str) -> float:
        """One unlabelled figure of Parlour process ``index``'s metrics, 0 when it does not answer."""
        try:
            with urllib.request.urlopen(
                f"http://{self.apps[index].address}:{METRICS_PORT}/metrics", timeout=3
            ) as r:
                for line in r.read().decode().splitlines():
                    if line.startswith(f"{name} "):
                        return float(line.split()[1])
        except OSError:
            pass
        return 0.0

    def log(self, name: str) -> str:
        path = self.workdir / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    @staticmethod
    def _get(url: str) -> int | None:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                return int(answer.status)
        except OSError as error:
            return getattr(error, "code", None)

    def _wait(self, check: object, what: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not check():  # type: ignore[operator]
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not start; logs in {self.workdir}")
            time.sleep(0.1)

    def close(self) -> None:
        """Stop every process of every host and remove the hosts and the bridge."""
        if self._closed:
            return
        self._closed = True
        for host in self.hosts:
            host.kill_all(signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(host.pids() for host in self.hosts) and time.monotonic() < deadline:
            time.sleep(0.05)
        for host in self.hosts:
            for process in host.started:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=5)
            with contextlib.suppress(RuntimeError):
                run("ip", "netns", "delete", host.namespace)
        with contextlib.suppress(RuntimeError):
            run("ip", "link", "delete", self.bridge)
        shutil.rmtree(self.workdir / "postgres", ignore_errors=True)
        if self._on_term is not None:
            signal.signal(signal.SIGTERM, self._on_term)

    def __enter__(self) -> Deployment:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
