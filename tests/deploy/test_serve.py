"""`make serve`: app processes behind nginx — own state per browser, websocket reruns through
the proxy, a page that outlives its process, and Ctrl+C leaving nothing running."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import pytest

from deploy import serve
from deploy.children import REPO_ROOT, free_port
from deploy.nginx_conf import find_nginx, render_config, server_lines, user_line
from tests.browser_support import LOAD_MS, REDUCED_MOTION, open_view, skip_missing

STARTUP_TIMEOUT_S = 240.0  # two cold app processes on a busy 2-core machine
PORT_ATTEMPTS = 3  # `make serve` on a free port; another if something takes it meanwhile
TAKEN = ("is in use", "Address already in use")  # serve.py's refusal, nginx's bind error
TOKENS = '[data-testid="explorer-tokens"]'  # the attention view's token strip (shadow DOM)
NGINX_HINT = "run `make test` as root to install nginx with apt-get"


def nginx_or_skip() -> str:
    """The nginx binary; skip without it (a failure under CI=true, tests/conftest.py)."""
    binary = find_nginx()
    if binary is None:
        skip_missing("nginx is not installed", NGINX_HINT)
    return binary


# ---- the process tree -----------------------------------------------------------------------


def proc_table() -> dict[int, tuple[int, str, str]]:
    """pid → (parent pid, start time in ticks, command line) of every process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        table[int(entry.name)] = (int(stat[1]), stat[19], cmd.strip())
    return table


def descendants(root: int) -> dict[int, tuple[str, str]]:
    """Every process below `root`: pid → (start time, command line)."""
    table, found, todo = proc_table(), {}, [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, started, cmd) in table.items():
            if ppid == parent and pid not in found:
                found[pid] = (started, cmd)
                todo.append(pid)
    return found


def still_running(processes: dict[int, tuple[str, str]]) -> list[str]:
    """Those of `processes` alive now (same pid and start time; zombies count as gone)."""
    table, alive = proc_table(), []
    for pid, (started, cmd) in processes.items():
        if pid in table and table[pid][1] == started:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z":
                alive.append(f"{pid} {cmd}")
    return alive


def listeners() -> dict[int, int]:
    """Socket inode → port of every listening TCP socket (IPv4 and IPv6)."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                found[int(fields[9])] = int(fields[1].rsplit(":", 1)[1], 16)
    return found


def listening(port: int) -> bool:
    """True when some socket listens on `port`."""
    return port in listeners().values()


def ports_of(pid: int) -> list[int]:
    """The ports process `pid` listens on (its socket file descriptors among the listeners)."""
    ports, table = [], listeners()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            found = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(fd))
            if found and int(found.group(1)) in table:
                ports.append(table[int(found.group(1))])
    return ports


# ---- `make serve` ---------------------------------------------------------------------------


@dataclass
class Served:
    """A running `make serve WORKERS=2`: its make process, URL and app process URLs."""

    process: subprocess.Popen
    url: str
    port: int
    log: Path
    apps: dict[int, str] = field(default_factory=dict)  # app pid → its loopback URL

    def output(self) -> str:
        """The whole log so far (a tail could miss a line written before a burst of others)."""
        return self.log.read_text(errors="replace")

    def wait_for_output(self, text: str, timeout: float = 30) -> None:
        """Poll the log until `text` is in it: serve.py announces events as they happen."""
        deadline = time.monotonic() + timeout
        while text not in self.output():
            if time.monotonic() > deadline:
                pytest.fail(f"{text!r} not in the make serve log: …{self.output()[-2000:]}")
            time.sleep(0.2)

    def sessions(self) -> dict[int, int]:
        """Active sessions per live app process (its /_stcore/metrics gauge)."""
        counts = {}
        for pid, url in self.apps.items():
            try:
                with urllib.request.urlopen(f"{url}/_stcore/metrics", timeout=10) as response:
                    text = response.read().decode()
            except OSError:
                continue
            counts[pid] = int(re.search(r"^active_sessions (\d+)", text, re.M).group(1))
        return counts

    def stop(self) -> None:
        """Ctrl+C as a terminal sends it: SIGINT to the whole foreground process group."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)
            self.process.wait(timeout=60)


def wait_served(served: Served) -> bool:
    """Until nginx answers health on the port: True; False when `make serve` exited because
    its port was taken meanwhile (make's output in any other failure's message)."""
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if served.process.poll() is not None:
            if any(taken in served.output() for taken in TAKEN):
                return False
            pytest.fail(f"make serve exited:\n{served.output()[-4000:]}")
        if "behind nginx at" in served.output():
            with urllib.request.urlopen(f"{served.url}/_stcore/health", timeout=10) as response:
                assert response.read().strip() == b"ok"
            return True
        time.sleep(0.5)  # polling a starting server, not waiting on the UI
    pytest.fail(
        f"make serve did not start in {STARTUP_TIMEOUT_S:.0f} s:\n{served.output()[-4000:]}"
    )


def start_make_serve(folder: Path) -> Served:
    """`make serve WORKERS=2` on a free port, as a terminal's foreground job; another port if
    something else takes that one before nginx binds it."""
    command = ["make", "--no-print-directory", "serve", "WORKERS=2", "HOST=127.0.0.1"]
    for attempt in range(1, PORT_ATTEMPTS + 1):
        port, log = free_port(), folder / f"make-serve-{attempt}.log"
        with log.open("wb") as sink:
            process = subprocess.Popen(
                [*command, f"PORT={port}"],
                cwd=REPO_ROOT,
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, as a terminal's foreground job
            )
        server = Served(process, f"http://127.0.0.1:{port}", port, log)
        try:
            if wait_served(server):
                return server
        except BaseException:
            server.stop()
            raise
    pytest.fail(f"make serve found no free port in {PORT_ATTEMPTS} attempts")


@contextlib.contextmanager
def make_serve(folder: Path) -> Iterator[Served]:
    """A running `make serve WORKERS=2` with its app processes' URLs; Ctrl+C at the end."""
    nginx_or_skip()
    server = start_make_serve(folder)
    try:
        for pid, (_, cmd) in descendants(server.process.pid).items():
            if "streamlit run" in cmd:  # app processes bind port 0: ask the kernel which
                (port,) = ports_of(pid)
                server.apps[pid] = f"http://127.0.0.1:{port}"
        assert len(server.apps) == 2, descendants(server.process.pid)
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    """One `make serve` shared by the browser tests (the failover test kills one process)."""
    with make_serve(tmp_path_factory.mktemp("serve")) as server:
        yield server


def open_marked(page, url: str, mark: str) -> None:
    """Open a share link whose sentence carries `mark`; the view drawn, its tokens showing it."""
    open_view(page, f"{url}/?s={quote('小明把书放在了桌子上' + mark)}&h=2&w=random")
    assert mark in page.locator(TOKENS).inner_text()


def wait_sessions(served: Served, page, wanted, what: str, timeout: float = 60) -> dict:
    """Poll the app processes' session counts until `wanted(counts)`; return the counts."""
    deadline = time.monotonic() + timeout
    while not wanted(counts := served.sessions()):
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: sessions per app process {counts}")
        page.wait_for_timeout(250)
    return counts


# The positions switch: a sidebar widget on the main page (√d_k and causal belong to the view
# there), whose change reruns the page over the websocket and lands in the address bar.
SETTLED = """() => {
  const box = document.querySelector('.st-key-pos input');
  const link = new URLSearchParams(location.search).get('pos');
  return box && !document.querySelector('[data-testid=stStatusWidget]')
    && link === (box.checked ? '1' : '0');
}"""


def click_positions(page) -> str:
    """Flip the sidebar's positions switch; wait until the server's run answered (switch and
    address bar agree again); return the address bar's new value."""
    page.locator(".st-key-pos label").first.click()
    page.wait_for_function(SETTLED, timeout=LOAD_MS)
    return re.search(r"pos=(\d)", page.url).group(1)


# ---- tests ----------------------------------------------------------------------------------


def test_config_renders_and_nginx_accepts_it(tmp_path):
    binary = nginx_or_skip()
    values = {
        "USER_LINE": user_line(),
        "RUN_DIR": str(tmp_path),
        "ERROR_LOG": "stderr",
        "ACCESS_LOG": "off",
        "LISTEN": f"127.0.0.1:{free_port()}",
        "SERVERS": server_lines([free_port(), free_port()]),
        "OPEN_FILES": "1024",
        "CONNECTIONS": "896",
    }
    conf = tmp_path / "nginx.conf"
    conf.write_text(render_config(values), encoding="utf-8")
    text = conf.read_text(encoding="utf-8")
    body = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "@" not in body, "a placeholder was left in the config"
    assert "hash $route_key consistent" in body and "$http_upgrade" in body
    tmp_path.chmod(0o711)  # as serve.py does: nginx's workers (nobody) reach their temp folders
    checked = subprocess.run(
        [binary, "-t", "-p", str(tmp_path), "-c", str(conf), "-e", "stderr"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr


RAISE = """
import resource, sys
from deploy.serve import raise_open_files
print(raise_open_files(int(sys.argv[1])), resource.getrlimit(resource.RLIMIT_NOFILE)[1])
"""


def _raised(start: int, wanted: int) -> tuple[int, int]:
    """raise_open_files(wanted) in a child whose soft open-file limit starts at `start`."""
    import resource

    def lower() -> None:
        resource.setrlimit(
            resource.RLIMIT_NOFILE, (start, resource.getrlimit(resource.RLIMIT_NOFILE)[1])
        )

    said = subprocess.run(
        [sys.executable, "-c", RAISE, str(wanted)],
        cwd=REPO_ROOT,
        text=True,
        capture_output=True,
        check=True,
        preexec_fn=lower,
    )
    soft, hard = (int(n) for n in said.stdout.split())
    return soft, hard


def test_make_serve_raises_the_open_file_limit_towards_the_hard_one():
    soft, hard = _raised(256, 1 << 30)
    assert soft == hard, "raised to the hard limit"
    assert _raised(256, 600)[0] == min(600, hard), "no further than asked"
    assert _raised(900, 300)[0] == 900, "never lowered"


@pytest.mark.parametrize(
    ("open_files", "workers", "connections", "per_app"),
    [(20000, 2, 16384, 3072), (1024, 2, 1024, 192), (4096, 4, 3968, 372), (100000, 1, 16384, 6144)],
)
def test_the_app_processes_streams_take_at_most_three_quarters_of_nginx_s_connections(
    open_files, workers, connections, per_app
):
    assert serve.stream_budget(open_files, workers) == (connections, per_app)
    assert 2 * per_app * workers <= connections * 3 // 4


def test_a_lan_address_prints_the_same_warning_as_make_run():
    out = subprocess.run(
        [sys.executable, "deploy/serve.py", "--host", "0.0.0.0", "--nginx", "no-such-nginx"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "WARNING: HOST=0.0.0.0 exposes the app to every machine" in out.stdout
    assert out.returncode == 1 and "nginx is not installed" in out.stderr


def test_a_port_in_use_is_refused_before_anything_starts():
    nginx_or_skip()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "deploy/serve.py", "--workers", "1", "--port", str(port)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert out.returncode == 1 and f"port {port} on 127.0.0.1 is in use" in out.stderr
    assert "[app" not in out.stdout  # refused before any app process started


def test_two_browsers_keep_their_own_state_through_the_proxy(served, browser):
    contexts = [
        browser.new_context(reduced_motion=REDUCED_MOTION, viewport={"width": 1280, "height": 800})
        for _ in range(2)
    ]
    try:
        tabs = [c.new_page() for c in contexts]
        wait_sessions(served, tabs[0], lambda n: sum(n.values()) == 0, "sessions left over")
        for tab, mark in zip(tabs, ("mk801", "mk802"), strict=True):
            open_marked(tab, served.url, mark)
        chips = [tab.locator(TOKENS).inner_text() for tab in tabs]
        assert "mk801" in chips[0] and "mk802" not in chips[0]
        assert "mk802" in chips[1] and "mk801" not in chips[1]
        routes = [
            {c["name"]: c["value"] for c in ctx.cookies()}.get("attention_lab_route")
            for ctx in contexts
        ]
        assert all(routes) and routes[0] != routes[1], routes  # one sticky key per browser
        wait_sessions(served, tabs[0], lambda n: sum(n.values()) == 2, "two sessions")
        for tab in tabs:
            assert tab.locator("[data-testid='stException']").count() == 0
    finally:
        for context in contexts:
            context.close()


def test_a_widget_change_reruns_over_the_websocket_through_nginx(served, page):
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    open_marked(page, served.url, "mk803")
    assert click_positions(page) == "1"
    assert click_positions(page) == "0"
    assert "mk803" in page.locator(TOKENS).inner_text()
    assert sockets and all(u.startswith(f"ws://127.0.0.1:{served.port}/") for u in sockets)
    assert page.locator("[data-testid='stException']").count() == 0


def test_an_open_page_reconnects_when_its_app_process_dies(served, browser):
    context = browser.new_context(
        reduced_motion=REDUCED_MOTION, viewport={"width": 1280, "height": 800}
    )
    try:
        page = context.new_page()
        # Earlier tests' pages must be gone, so that the one session counted is this page's.
        wait_sessions(served, page, lambda n: sum(n.values()) == 0, "sessions left over")
        open_marked(page, served.url, "mk804")
        counts = wait_sessions(served, page, lambda n: sum(n.values()) == 1, "no session")
        holder = next(pid for pid, n in counts.items() if n == 1)
        other = next(pid for pid in served.apps if pid != holder)
        os.kill(holder, signal.SIGKILL)  # a crash, not a polite stop
        served.apps.pop(holder)
        wait_sessions(served, page, lambda n: n.get(other) == 1, "no reconnection")
        first = click_positions(page)  # the first run there rebuilds the page from its link
        assert "mk804" in page.locator(TOKENS).inner_text()
        assert click_positions(page) != first  # and the page answers changes again
        assert page.locator("[data-testid='stException']").count() == 0
        served.wait_for_output("exited with code")  # serve.py said so and kept serving
    finally:
        context.close()


@pytest.mark.slow
def test_ctrl_c_stops_nginx_and_every_app_process(tmp_path):
    # Its own `make serve`: pytest groups the Playwright tests, so this one may run before them.
    with make_serve(tmp_path) as served:
        tree = descendants(served.process.pid)
        commands = " ".join(cmd for _, cmd in tree.values())
        assert "nginx: master process" in commands and "streamlit run" in commands
        run_dir = re.search(r"nginx -p (\S+)", commands).group(1)
        ports = [int(u.rsplit(":", 1)[1]) for u in served.apps.values()]
        served.stop()
    assert still_running(tree) == []
    assert not any(listening(p) for p in [served.port, *ports])
    assert not Path(run_dir).exists(), "the temporary nginx folder was left behind"
    assert "stopped nginx and every app process" in served.output()
