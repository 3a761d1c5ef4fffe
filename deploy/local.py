"""The app on this machine for tests and benchmarks: one `streamlit run` on a loopback port, and
Debian's Chromium to look at it.

    with start_streamlit("launcher.py") as server:  # waits until /_stcore/health answers
        page.goto(server.url)                      # "http://127.0.0.1:41234"

The server binds port 0: the OS picks a free port at bind time and the process announces it
(deploy/serve.py's `announced_port`), so two servers started at once (pytest-xdist, a bench next
to a test run) never race for one port. It runs in its own process group with the repository as
working directory (`.streamlit/config.toml` applies) and is stopped with its whole group.
tests/browser_support.py, tests/conftest.py and bench/ import this module; it imports nothing
of theirs.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from deploy.children import REPO_ROOT, Child, spawn, stop_group, wait_until_healthy
from deploy.serve import STARTUP_TIMEOUT_S, worker_command

CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium in a container: no sandbox, no GPU, no network chatter (ARCHITECTURE.md,
# "Fixed names").
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_available() -> bool:
    """True when Debian's Chromium is installed where the tests and benchmarks expect it."""
    return os.access(CHROMIUM, os.X_OK)


@dataclass
class StreamlitServer(Child):
    """A `streamlit run` child: `url` is its base URL ("" until it has announced its port), `log`
    its stdout + stderr."""

    started: float = 0.0  # time.perf_counter() just before Popen (the cold-start bench reads it)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1]) if self.url else 0

    def wait_ready(self, timeout: float = STARTUP_TIMEOUT_S, poll: float = 0.25) -> None:
        """Until its health endpoint answers; stop it and raise with its log if it exits or
        does not answer within `timeout` s."""
        try:
            idle = partial(time.sleep, poll)
            wait_until_healthy(
                self.name, self.process, self.served_url, self.log_tail, timeout, idle
            )
        except RuntimeError:
            self.stop()
            raise

    def stop(self) -> None:
        """SIGTERM to its process group, SIGKILL if it is still there after 10 s; its log goes."""
        stop_group(self.process)
        self.log.unlink(missing_ok=True)

    def __enter__(self) -> StreamlitServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def spawn_streamlit(
    script: str | os.PathLike[str] = "launcher.py",
    *,
    env: dict[str, str] | None = None,
    bare: bool = False,
) -> StreamlitServer:
    """Start `streamlit run script` (relative to the repository) on port 0, without waiting.

    `make serve`'s command line (loopback, headless, no statistics); `bare=True` gives only
    `--server.port 0`, so that everything else comes from `.streamlit/config.toml`.
    """
    path = Path(script)
    path = path if path.is_absolute() else REPO_ROOT / path
    if not path.is_file():
        raise FileNotFoundError(f"streamlit script {path} does not exist")
    if bare:
        command = [sys.executable, "-m", "streamlit", "run", str(path), "--server.port", "0"]
    else:
        command = worker_command(str(path))
    log = Path(tempfile.mkstemp(prefix=f"streamlit-{path.stem}-", suffix=".log")[1])
    started = time.perf_counter()
    with log.open("wb") as sink:
        process = spawn(command, stdout=sink, env=env, orphan_dies=False)
    return StreamlitServer("streamlit", process, log=log, started=started)


def start_streamlit(
    script: str | os.PathLike[str] = "launcher.py",
    *,
    env: dict[str, str] | None = None,
    bare: bool = False,
) -> StreamlitServer:
    """`spawn_streamlit`, then wait until it serves (use it as a context manager, or `.stop()`)."""
    server = spawn_streamlit(script, env=env, bare=bare)
    server.wait_ready()
    return server
