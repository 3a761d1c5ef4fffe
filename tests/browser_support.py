"""Start `streamlit run` on a free loopback port for browser tests; stop it by process group."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from deploy.serve import wait_until_healthy  # the one health wait, shared with make serve

REPO_ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# Debian's Chromium in a container: no sandbox, no GPU, no network chatter (see DESIGN.md).
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
INSTALL_HINT = "run `make test` as root to install chromium and fonts-noto-cjk with apt-get"
STARTUP_TIMEOUT_S = 60.0


def chromium_available() -> bool:
    """True when Debian's Chromium is installed where the tests expect it."""
    return os.access(CHROMIUM, os.X_OK)


def cjk_fonts() -> list[str]:
    """Fonts that fontconfig offers for Chinese (`fc-list :lang=zh`); empty without fc-list."""
    if shutil.which("fc-list") is None:
        return []
    out = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True, check=False)
    return [line for line in out.stdout.splitlines() if line.strip()]


def in_ci() -> bool:
    """True on the CI runner, where a missing browser or font is a failure, not a skip."""
    return os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip locally (naming the install command); fail under CI=true so nothing goes untested."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: browser tests must run; {INSTALL_HINT})", pytrace=False)
    pytest.skip(f"{reason}; {INSTALL_HINT}")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class StreamlitServer:
    """A running `streamlit run` child; `url` is its base URL, `log` its stdout+stderr file."""

    url: str
    port: int
    process: subprocess.Popen
    log: Path
    started: float = 0.0  # time.perf_counter() just before Popen (the cold-start bench reads it)

    def log_tail(self, chars: int = 3000) -> str:
        """The end of the server's output, for failure messages."""
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        """Terminate the whole process group; kill it if it ignores SIGTERM for 10 s."""
        if self.process.poll() is not None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        except ProcessLookupError:
            pass

    def __enter__(self) -> StreamlitServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _command(script: Path, port: int) -> list[str]:
    """The `streamlit run` command line: loopback, headless, no statistics, no file watcher."""
    return [
        sys.executable, "-m", "streamlit", "run", str(script),
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--server.headless", "true",
        "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


def wait_healthy(server: StreamlitServer, timeout: float, poll: float = 0.25) -> None:
    """Poll the health endpoint until it answers; raise with the log if the child dies or hangs."""
    try:
        wait_until_healthy(
            "streamlit", server.process, server.url, server.log_tail, timeout,
            lambda: time.sleep(poll),
        )  # fmt: skip
    except RuntimeError:
        server.stop()
        raise


def spawn_streamlit(
    script: str | os.PathLike[str] = "app.py",
    port: int | None = None,
    *,
    env: dict[str, str] | None = None,
) -> StreamlitServer:
    """Start `streamlit run script` (relative paths are from the repo root) without waiting.

    Runs with the repo root as working directory, so `.streamlit/config.toml` applies; the
    child runs in its own process group, stopped by `.stop()` or the context manager.
    """
    path = Path(script)
    path = path if path.is_absolute() else REPO_ROOT / path
    if not path.is_file():
        raise FileNotFoundError(f"streamlit script {path} does not exist")
    port = port or free_port()
    child_env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
    log = Path(tempfile.mkstemp(prefix=f"streamlit-{port}-", suffix=".log")[1])
    started = time.perf_counter()
    with log.open("wb") as sink:
        process = subprocess.Popen(
            _command(path, port),
            cwd=REPO_ROOT,
            env=child_env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return StreamlitServer(f"http://127.0.0.1:{port}", port, process, log, started)


def start_streamlit(
    script: str | os.PathLike[str] = "app.py",
    port: int | None = None,
    *,
    env: dict[str, str] | None = None,
    timeout: float = STARTUP_TIMEOUT_S,
) -> StreamlitServer:
    """spawn_streamlit, then wait until its health endpoint answers (use as a context manager,
    or call `.stop()`)."""
    server = spawn_streamlit(script, port, env=env)
    wait_healthy(server, timeout)
    return server
