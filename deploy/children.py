"""The children `make serve` and the tests start: spawned in their own process group (dying with
their parent), the port an app process announces, its health, and waiting for it."""

from __future__ import annotations

import contextlib
import ctypes
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PR_SET_PDEATHSIG = 1  # linux/prctl.h
STOP_TIMEOUT_S = 10.0  # a child told to stop gets this long before SIGKILL
# How an app process told to bind port 0 says which port it got (its log line and its banner).
ANNOUNCED = re.compile(r"Uvicorn server started on \S+:(\d+)|URL: https?://[^\s/]+:(\d+)")


def find_binary(candidates: tuple[str, ...], explicit: str | None = None) -> str | None:
    """Path of the first of `candidates` (or of `explicit`, when given) installed, else None."""
    for candidate in (explicit,) if explicit else candidates:
        if path := shutil.which(candidate):
            return path
    return None


def announced_port(output: str) -> int | None:
    """The port an app process started with `--server.port 0` says it listens on, if it has."""
    found = ANNOUNCED.search(output)
    return int(found.group(1) or found.group(2)) if found else None


def spawn(
    command: list[str],
    *,
    stdout,
    stderr=subprocess.STDOUT,
    env: dict[str, str] | None = None,
    orphan_dies: bool = True,
) -> subprocess.Popen:
    """A child in its own process group (a terminal's Ctrl+C reaches only serve.py, which
    stops the children in order) that gets SIGTERM if serve.py itself dies, even by SIGKILL.

    serve.py starts no threads, so the pre-exec hook (one prctl call) is safe there; the tests'
    and benchmarks' servers (deploy/local.py, from processes with threads) go without it.
    """
    die_with_parent = None
    if sys.platform == "linux" and orphan_dies:
        libc = ctypes.CDLL(None, use_errno=True)

        def die_with_parent() -> None:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)

    return subprocess.Popen(
        command,
        cwd=REPO_ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
        preexec_fn=die_with_parent,
    )


def healthy(url: str) -> bool:
    """True when a Streamlit health endpoint (direct or through nginx) answers `ok`."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except (urllib.error.URLError, OSError):
        return False


@dataclass
class Child:
    """One process serve.py started: an app process (its URL once it has announced its port)
    or nginx."""

    name: str
    process: subprocess.Popen
    url: str = ""
    log: Path | None = None  # its output file, or None when it goes to the terminal
    reported: bool = False  # its exit has been announced
    tag: str = ""  # "app K": the prefix of its lines on the terminal

    def log_tail(self, chars: int = 3000) -> str:
        """The end of its log file, for error messages."""
        if self.log is None:
            return "(output went to the terminal)"
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def heard(self, output: str) -> None:
        """Take the port an app process announces in `output` (a line, or its whole log)."""
        port = None if self.url else announced_port(output)
        if port is not None:
            self.url = f"http://127.0.0.1:{port}"
            self.name = f"{self.name} (127.0.0.1:{port})"

    def served_url(self) -> str:
        """Its URL, or "" while it has not announced one (its log is read for it)."""
        if not self.url and self.log is not None:
            self.heard(self.log_tail(chars=1 << 20))
        return self.url


def signal_group(process: subprocess.Popen, sig: int) -> None:
    """Send a signal to a child's process group (it leads its own, see `spawn`)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, sig)


def stop_group(process: subprocess.Popen) -> None:
    """SIGTERM to a running child's group (redis-server then writes its append-only file out),
    SIGKILL if it is still there after STOP_TIMEOUT_S."""
    if process.poll() is not None:
        return
    signal_group(process, signal.SIGTERM)
    try:
        process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        signal_group(process, signal.SIGKILL)
        process.wait(timeout=STOP_TIMEOUT_S)


def wait_until_healthy(
    name: str,
    process: subprocess.Popen,
    url: Callable[[], str],
    log_tail: Callable[[], str],
    timeout: float,
    idle: Callable[[], object],
) -> str:
    """Poll the health endpoint of `url()` ("" until the process has said where it listens),
    calling `idle` in between; return the URL, or raise with the log's tail if the process exits
    or never answers (make serve here, the test and bench servers in deploy/local.py too)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            where = url() or "(it had not announced its port)"
            raise RuntimeError(
                f"{name} exited with code {process.returncode} before serving {where}:\n"
                f"{log_tail()}"
            )
        found = url()
        if found and healthy(found):
            return found
        idle()
    where = url() or "(it has not announced its port)"
    raise RuntimeError(f"{name} did not serve {where} within {timeout:.0f} s:\n{log_tail()}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now (nginx's: it cannot bind port 0
    and report it, so its caller retries another when one is taken meanwhile)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
