"""What the load test drives and reads: one `streamlit run` or `make serve`'s nginx and app
processes (a `Target`), their CPU, memory and sessions, and the errors in their logs."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import tempfile
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from deploy.local import start_streamlit


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB, from /proc/PID/status (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def process_tree(pid: int) -> list[int]:
    """A process and its children (nginx: master and workers), from /proc."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return [pid]
    return [pid, *(int(c) for c in children)]


@dataclass
class Target:
    """What the clients drive: one `streamlit run`, or nginx in front of several (--proxy)."""

    url: str
    apps: list[tuple[str, int]]  # (base URL, pid) of every app process
    logs: list[Path]  # their output
    nginx_pid: int | None = None
    nginx_log: Path | None = None
    killed: dict = field(default_factory=dict)  # --kill-after: which process, when, its usage

    def sample(self) -> dict[int, tuple[float, float]]:
        """(RSS MB, CPU s) of every app process that was not killed, by pid."""
        gone = {self.killed.get("pid")}
        return {pid: (rss_mb(pid), cpu_seconds(pid)) for _, pid in self.apps if pid not in gone}

    def nginx_cpu(self) -> float:
        """CPU seconds of nginx's master and workers so far (0 without a proxy)."""
        return sum(cpu_seconds(p) for p in process_tree(self.nginx_pid)) if self.nginx_pid else 0


def active_sessions(url: str) -> int | None:
    """Sessions an app process holds now (its /_stcore/metrics `active_sessions` gauge)."""
    try:
        with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=10) as response:
            text = response.read().decode()
    except OSError:
        return None
    found = re.search(r"^active_sessions (\d+)", text, re.M)
    return int(found.group(1)) if found else None


@contextlib.contextmanager
def serve(args: argparse.Namespace) -> Iterator[Target]:
    """One `streamlit run` on loopback, or (--proxy) deploy/serve.py's nginx + app processes."""
    if not args.proxy:
        with start_streamlit("launcher.py") as server:
            yield Target(server.url, [(server.url, server.process.pid)], [server.log])
        return
    from deploy.serve import start_cluster

    with (
        tempfile.TemporaryDirectory(prefix="attention-lab-load-") as logs,
        start_cluster(args.workers, log_dir=Path(logs)) as cluster,
    ):
        yield Target(
            cluster.url,
            [(w.url, w.process.pid) for w in cluster.workers],
            [w.log for w in cluster.workers],
            cluster.nginx.process.pid,
            cluster.nginx.log,
        )


NGINX_ERROR = re.compile(r"\[(error|crit|alert|emerg)\]")


def server_errors(target: Target) -> tuple[list[str], int]:
    """Uncaught script errors and tracebacks in every app process's log and nginx's error lines,
    less those about the process --kill-after killed (counted apart)."""
    errors = [
        line
        for log in target.logs
        for line in log.read_text(errors="replace").splitlines()
        if "Traceback" in line or "Uncaught" in line
    ]
    if target.nginx_log is None or not target.nginx_log.exists():
        return errors, 0
    lines = target.nginx_log.read_text(errors="replace").splitlines()
    nginx = [line for line in lines if NGINX_ERROR.search(line)]
    killed = f"127.0.0.1:{target.killed['port']}" if target.killed else None
    about_kill = [line for line in nginx if killed and killed in line]
    return errors + [f"nginx: {line}" for line in nginx if line not in about_kill], len(about_kill)
