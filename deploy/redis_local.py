"""A redis-server of our own for `make serve` and the tests: loopback only, a free port, its
append-only file in a folder of the run (never the repository), stopped with the run.

Debian's package (`make serve` and `make test` install it as root). Standard library only.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from deploy.children import find_binary, free_port, stop_group

REDIS_CANDIDATES = ("/usr/sbin/redis-server", "/usr/bin/redis-server", "redis-server")
START_TIMEOUT_S = 20.0
Spawn = Callable[..., subprocess.Popen]


def find_redis(explicit: str | None = None) -> str | None:
    """Path of the redis-server binary, or None when it is not installed."""
    return find_binary(REDIS_CANDIDATES, explicit)


def redis_command(binary: str, port: int, data_dir: Path, *, persist: bool = True) -> list[str]:
    """redis-server on 127.0.0.1:port; with `persist`, every write goes to an append-only file in
    data_dir (fsync once a second; a clean stop writes everything), no snapshots."""
    return [
        binary, "--bind", "127.0.0.1", "--port", str(port), "--protected-mode", "yes",
        "--dir", str(data_dir), "--daemonize", "no", "--save", "",
        "--appendonly", "yes" if persist else "no", "--appendfsync", "everysec",
    ]  # fmt: skip


def pinged(port: int, timeout: float = 1.0) -> bool:
    """True when a Redis on 127.0.0.1:port answers PING (and has loaded its data)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class LocalRedis:
    """One redis-server child: `url` is what REDIS_URL should say."""

    binary: str
    port: int
    data_dir: Path
    log: Path
    persist: bool
    spawn: Spawn
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = START_TIMEOUT_S) -> None:
        """Start it (again, on the same port and data) and wait until it answers."""
        command = redis_command(self.binary, self.port, self.data_dir, persist=self.persist)
        with self.log.open("ab") as sink:
            self.process = self.spawn(command, stdout=sink, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while not pinged(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = self.log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"redis-server did not start on port {self.port}:\n{tail}")
            time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM (it writes its append-only file out), SIGKILL after 10 s."""
        if self.process is not None:
            stop_group(self.process)

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


def _plain_spawn(command: list[str], **kwargs) -> subprocess.Popen:
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs)


def start_redis(
    data_dir: Path,
    *,
    binary: str | None = None,
    persist: bool = True,
    spawn: Spawn = _plain_spawn,
    attempts: int = 3,
) -> LocalRedis:
    """A redis-server on a free loopback port with its data and log in data_dir; another port
    if the one chosen is taken before it binds."""
    found = find_redis(binary)
    if found is None:
        raise FileNotFoundError(
            "redis-server is not installed: run `make serve` as root (it installs Debian's "
            "redis-server with apt-get), or `apt-get install --no-install-recommends redis-server`"
        )
    data_dir.mkdir(parents=True, exist_ok=True)
    for attempt in range(attempts):
        redis = LocalRedis(found, free_port(), data_dir, data_dir / "redis.log", persist, spawn)
        try:
            redis.start()
            return redis
        except RuntimeError:
            if attempt == attempts - 1:
                raise
    raise ValueError("attempts must be at least 1")
