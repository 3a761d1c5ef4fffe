"""Run N `streamlit run launcher.py` processes on loopback ports behind one nginx (`make serve`).

Glue, not a balancer: it starts a redis-server for the live class (unless REDIS_URL names a
shared one; deploy/redis_local.py), then the app processes with REDIS_URL, waits until each
answers /_stcore/health, writes nginx's config from deploy/nginx.conf.template into a
temporary folder, runs nginx there as a non-daemon child, and on Ctrl+C (or SIGTERM/SIGHUP)
stops nginx, every app process and Redis, then deletes the folder (Redis's append-only file
with it). A Redis that exits meanwhile is started again on its port and data. nginx does the
proxying, the sticky sessions and the (passive) health checks.

    .venv/bin/python deploy/serve.py --workers 2 --port 8501
    .venv/bin/python deploy/serve.py --workers 4 --host 0.0.0.0     # a classroom LAN

The app processes always listen on 127.0.0.1, on ports the OS picks (they announce them);
only nginx listens on --host. bench/load.py uses `start_cluster` (with log files instead of the
terminal); deploy/local.py starts one app process the same way for the tests and benchmarks.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):  # run as a script (`make serve`): import as the package would
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from deploy.children import (
    STOP_TIMEOUT_S,
    Child,
    free_port,
    signal_group,
    spawn,
    wait_until_healthy,
)
from deploy.nginx_conf import find_nginx, listen_address, render_config, server_lines, user_line
from deploy.redis_local import LocalRedis, start_redis

STARTUP_TIMEOUT_S = 120.0  # a cold app process on a busy 2-core machine
# Streamlit's start-up banner names the app process's own loopback URL; serve.py prints the one
# URL browsers should open instead.
BANNER = re.compile(r"\s*(You can now view your Streamlit app in your browser\.|URL: \S*)?\s*$")
NGINX_ATTEMPTS = 3  # ports tried when the caller left nginx's port to us and another took it
OPEN_FILES_WANTED = 65536  # the open-file limit make serve asks for (up to the hard limit)
NGINX_CONNECTIONS = (1024, 16384)  # nginx's worker_connections: at least, at most
NGINX_FILE_SPARE = 128  # nginx's own files (logs, temp files) beside its connections


def is_loopback(host: str) -> bool:
    """The addresses `make run` treats as this machine only (the Makefile's case pattern)."""
    return host.startswith("127.") or host in ("localhost", "::1")


def port_taken(host: str, port: int) -> bool:
    """True when something already listens on host:port (binding as nginx does would fail)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as nginx: TIME_WAIT is fine
        try:
            sock.bind((host, port))
        except OSError:
            return True
    return False


def raise_open_files(wanted: int = OPEN_FILES_WANTED) -> int:
    """This process's soft limit on open files raised towards `wanted`, never past the hard
    limit (the app processes, nginx and Redis inherit it); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:  # a container may forbid it: the limits then follow the soft limit
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def stream_budget(open_files: int, workers: int) -> tuple[int, int]:
    """(nginx's worker_connections, event streams per app process) for this open-file limit:
    every stream takes two of nginx's connections, and all the app processes' streams together
    at most three quarters of what nginx can hold (the rest: page loads, websockets). Each app
    process also keeps its own streams below its own open-file limit (classroom/limits.py)."""
    least, most = NGINX_CONNECTIONS
    connections = max(least, min(most, open_files - NGINX_FILE_SPARE))
    return connections, max(16, connections // 2 * 3 // 4 // max(1, workers))


def worker_command(app: str = "launcher.py") -> list[str]:
    """One app process: `make run`'s posture (headless, no statistics), loopback only; port 0
    lets the OS pick a free port at bind time (no window in which another process takes it)."""
    return [
        sys.executable, "-m", "streamlit", "run", app,
        "--server.address", "127.0.0.1",
        "--server.port", "0",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


@dataclass
class Cluster:
    """App processes + nginx; `url` is what browsers open. Stop with `.stop()` or `with`."""

    url: str
    run_dir: Path
    workers: list[Child] = field(default_factory=list)
    nginx: Child | None = None
    redis: LocalRedis | None = None  # ours (None when REDIS_URL names a shared one)
    env: dict[str, str] = field(default_factory=dict)  # REDIS_URL, SERVE_HOST of the app processes
    open_files: int = 1024  # the soft open-file limit every child inherits (raise_open_files)
    connections: int = 1024  # nginx's worker_connections
    _selector: selectors.BaseSelector | None = None
    _partial: dict[int, bytes] = field(default_factory=dict)  # output fd → unfinished line

    @property
    def children(self) -> list[Child]:
        return [*([self.nginx] if self.nginx else []), *self.workers]

    def pump(self, timeout: float) -> None:
        """Wait up to `timeout` s, copying app output (terminal mode) as `[app K] line`."""
        if self._selector is None or not self._selector.get_map():
            time.sleep(timeout)
            return
        for key, _ in self._selector.select(timeout):
            chunk = os.read(key.fd, 65536)
            pending = self._partial.pop(key.fd, b"") + chunk
            if not chunk:  # the process closed its output: it is gone
                self._selector.unregister(key.fileobj)
                pending += b"\n" if pending else b""
            *lines, self._partial[key.fd] = pending.split(b"\n")
            for line in (raw.decode(errors="replace") for raw in lines):
                key.data.heard(line)
                if not BANNER.match(line):
                    sys.stdout.write(f"[{key.data.tag}] {line}\n")
        sys.stdout.flush()

    def stop(self) -> None:
        """nginx first (no new connections), then every app process (SIGKILL after 10 s), then
        Redis (it writes its append-only file out)."""
        for child in self.children:
            signal_group(child.process, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for child in self.children:
            try:
                child.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                signal_group(child.process, signal.SIGKILL)
                child.process.wait(timeout=STOP_TIMEOUT_S)
        for child in self.workers:  # a stopped app's leftovers in its group, if any
            signal_group(child.process, signal.SIGKILL)
        if self.redis is not None:
            self.redis.stop()
        if self._selector is not None:
            self._selector.close()
        shutil.rmtree(self.run_dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _wait_healthy(cluster: Cluster, child: Child, timeout: float) -> None:
    """A child of the cluster healthy, its output copied to the terminal meanwhile."""
    idle = functools.partial(cluster.pump, 0.25)
    wait_until_healthy(child.name, child.process, child.served_url, child.log_tail, timeout, idle)


def start_cluster(
    workers: int,
    *,
    host: str = "127.0.0.1",
    port: int | None = None,
    app: str = "launcher.py",
    nginx: str | None = None,
    log_dir: Path | None = None,
    timeout: float = STARTUP_TIMEOUT_S,
    redis_url: str | None = None,
    env: dict[str, str] | None = None,
) -> Cluster:
    """Start `workers` app processes, wait for their health, then nginx on host:port.

    With `log_dir`, each child writes to a file there (app-K.log, nginx-error.log); without,
    app output is copied to this terminal by `Cluster.pump` and nginx logs to stderr. Without
    `port`, nginx gets a free one, and another if that one is taken before nginx binds it.
    The app processes share `redis_url` (default: REDIS_URL), else a redis-server of its own;
    `env` adds settings of theirs (classroom/README.md "Settings", e.g. CLASS_TTL_S). The soft
    open-file limit is raised to the hard one first (every child inherits it), and each app
    process holds at most its share of the event streams nginx can carry (CLASS_MAX_STREAMS,
    unless set).
    """
    binary = find_nginx(nginx)
    if binary is None:
        raise FileNotFoundError(
            "nginx is not installed: run `make serve` as root (it installs Debian's nginx with "
            "apt-get), or `apt-get install --no-install-recommends nginx`"
        )
    if port is not None and port_taken(host, port):  # a clear message, not nginx's bind error
        raise RuntimeError(f"port {port} on {host} is in use (another `make run`?): pick PORT=…")
    run_dir = Path(tempfile.mkdtemp(prefix="attention-lab-serve-"))
    run_dir.chmod(0o711)  # nginx's workers (nobody, when started as root) create temp files
    cluster = Cluster("", run_dir)
    try:
        _start_redis(cluster, host, redis_url or os.environ.get("REDIS_URL", "").strip())
        cluster.open_files = raise_open_files()
        cluster.connections, streams = stream_budget(cluster.open_files, workers)
        cluster.env["CLASS_MAX_STREAMS"] = os.environ.get("CLASS_MAX_STREAMS") or str(streams)
        cluster.env.update(env or {})
        _start_workers(cluster, workers, app, log_dir)
        for child in cluster.workers:
            _wait_healthy(cluster, child, timeout)
        _serve_nginx(cluster, binary, host, port, log_dir, timeout)
    except BaseException:
        cluster.stop()
        raise
    return cluster


def _start_redis(cluster: Cluster, host: str, url: str) -> None:
    """The class store the app processes share: `url`'s, else a redis-server of our own."""
    if not url:
        cluster.redis = start_redis(cluster.run_dir / "redis", spawn=spawn)
        url = cluster.redis.url
    cluster.env = {"REDIS_URL": url, "SERVE_HOST": host}


def _start_workers(cluster: Cluster, count: int, app: str, log_dir: Path | None) -> None:
    """Spawn the app processes on loopback ports the OS picks (output: a file each, or a pipe)."""
    if log_dir is None:
        cluster._selector = selectors.DefaultSelector()
    for k in range(1, count + 1):
        log = log_dir / f"app-{k}.log" if log_dir else None
        if log is None:
            process = spawn(worker_command(app), stdout=subprocess.PIPE, env=cluster.env)
        else:
            with log.open("wb") as sink:
                process = spawn(worker_command(app), stdout=sink, env=cluster.env)
        child = Child(f"app process {k}", process, log=log, tag=f"app {k}")
        if log is None:
            cluster._selector.register(process.stdout, selectors.EVENT_READ, child)
        cluster.workers.append(child)


def _serve_nginx(
    cluster: Cluster, binary: str, host: str, port: int | None, log_dir: Path | None, timeout: float
) -> None:
    """nginx on host:port, healthy; a port we chose is chosen again if nginx cannot bind it."""
    for attempt in range(1, NGINX_ATTEMPTS + 1):
        chosen = port or free_port()
        _start_nginx(cluster, binary, listen_address(host, chosen), log_dir)
        cluster.url = f"http://{listen_address(host, chosen)}"
        local = "127.0.0.1" if host == "0.0.0.0" else host
        cluster.nginx.url = f"http://{listen_address(local, chosen)}"
        try:
            _wait_healthy(cluster, cluster.nginx, timeout)
            return
        except RuntimeError:
            exited = cluster.nginx.process.poll() is not None
            if port is not None or not exited or attempt == NGINX_ATTEMPTS:
                raise
            cluster.nginx = None  # it could not bind the port we chose: someone took it meanwhile


def _start_nginx(cluster: Cluster, binary: str, listen: str, log_dir: Path | None) -> None:
    """Write nginx.conf into the run folder and start nginx in the foreground."""
    error_log = str(log_dir / "nginx-error.log") if log_dir else "stderr"
    values = {
        "USER_LINE": user_line(),
        "RUN_DIR": str(cluster.run_dir),
        "ERROR_LOG": error_log,
        "ACCESS_LOG": "off",
        "LISTEN": listen,
        "SERVERS": server_lines([int(c.url.rsplit(":", 1)[1]) for c in cluster.workers]),
        "OPEN_FILES": str(cluster.open_files),
        "CONNECTIONS": str(cluster.connections),
    }
    conf = cluster.run_dir / "nginx.conf"
    conf.write_text(render_config(values), encoding="utf-8")
    command = [binary, "-p", str(cluster.run_dir), "-c", str(conf), "-e", error_log]
    log = log_dir / "nginx-error.log" if log_dir else None
    if log is None:
        process = spawn(command, stdout=None, stderr=None)  # nginx writes little: the terminal
    else:
        with log.open("ab") as sink:
            process = spawn(command, stdout=sink)
    cluster.nginx = Child(f"nginx on {listen}", process, log=log)


def watch(cluster: Cluster) -> int:
    """Serve until nginx or the last app process exits; announce each app process that dies."""
    while True:
        cluster.pump(1.0)
        if cluster.nginx.process.poll() is not None:
            print(f"nginx exited with code {cluster.nginx.process.returncode}", file=sys.stderr)
            return 1
        _keep_redis(cluster)
        alive = [c for c in cluster.workers if c.process.poll() is None]
        for child in cluster.workers:
            if child.process.poll() is not None and not child.reported:
                child.reported = True
                print(
                    f"WARNING: {child.name} exited with code {child.process.returncode}; "
                    f"nginx sends its browsers to the other {len(alive)} (they reconnect).",
                    file=sys.stderr,
                )
        if not alive:
            print("every app process has exited; stopping nginx", file=sys.stderr)
            return 1


def _keep_redis(cluster: Cluster) -> None:
    """Start our Redis again if it exited: same port, same append-only file, nothing lost."""
    if cluster.redis is None or cluster.redis.alive():
        return
    code = cluster.redis.process.returncode
    print(f"WARNING: redis-server exited with code {code}; starting it again", file=sys.stderr)
    try:
        cluster.redis.start()
    except RuntimeError as err:
        print(f"WARNING: {err}", file=sys.stderr)


class Stop(Exception):
    """Raised by the signal handler: Ctrl+C, SIGTERM or SIGHUP."""


def _on_signal(signum: int, _frame: object) -> None:
    raise Stop(signal.Signals(signum).name)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 2,
        help="app processes (default: number of cores)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address nginx listens on")
    parser.add_argument("--port", type=int, default=8501, help="port nginx listens on")
    parser.add_argument("--app", default="launcher.py", help="Streamlit script (repo root)")
    parser.add_argument("--nginx", default=None, help="nginx binary (default: /usr/sbin/nginx)")
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 64 or not 1 <= args.port <= 65535:
        parser.error("need 1 <= --workers <= 64 and a port in 1..65535")
    return args


def _redis_note(cluster: Cluster) -> str:
    if cluster.redis is None:
        return f"Redis at REDIS_URL ({cluster.env['REDIS_URL'].split('@')[-1]})"
    return f"redis-server on {cluster.redis.url}, append-only file in {cluster.redis.data_dir}"


def main(argv: list[str] | None = None) -> int:
    """`make serve`: start everything, print where to open it, stop everything on Ctrl+C."""
    args = parse_args(argv)
    if not is_loopback(args.host):
        print(
            f"WARNING: HOST={args.host} exposes the app to every machine that can reach this "
            f"one on port {args.port}."
        )
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    cluster = None
    try:
        cluster = start_cluster(
            args.workers, host=args.host, port=args.port, app=args.app, nginx=args.nginx
        )
        shown = cluster.url.replace("0.0.0.0", "<this machine's address>")
        count = f"{args.workers} app process" + ("es" if args.workers > 1 else "")
        print(f"Attention Lab: {count} behind nginx at {shown}")
        print(f"Class store: {_redis_note(cluster)}")
        print(
            f"Open files: {cluster.open_files} per process; event streams: "
            f"{cluster.env['CLASS_MAX_STREAMS']} per app process"
        )
        print("Press Ctrl+C to stop nginx, every app process and Redis.", flush=True)
        return watch(cluster)
    except Stop:
        return 0
    except (RuntimeError, FileNotFoundError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # a second Ctrl+C must not cut the cleanup short
        if cluster is not None:
            cluster.stop()
            print("stopped nginx and every app process, then Redis", flush=True)


if __name__ == "__main__":
    sys.exit(main())
