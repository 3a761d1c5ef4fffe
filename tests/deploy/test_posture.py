"""Server posture: loopback by default, XSRF on, no statistics, no uploads, no stray writes."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from deploy.local import REPO_ROOT, start_streamlit

CONFIG = REPO_ROOT / ".streamlit" / "config.toml"
# Our own code: everything Python outside the venv, tests and caches.
SKIP_DIRS = {".venv", ".git", "tests", "test-artifacts", ".ruff_cache", ".pytest_cache", "tmp"}
UPLOAD_CALLS = re.compile(r"\b(file_uploader|camera_input|audio_input)\s*\(|accept_file\s*=")
LISTEN = "0A"  # TCP state in /proc/net/tcp*


def own_python_files() -> list[Path]:
    """Every .py file of the app, core and benchmarks (not tests, not the venv)."""
    found = []
    for folder, dirs, files in os.walk(REPO_ROOT):  # pruned: never walks into .venv
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        found += [Path(folder, name) for name in sorted(files) if name.endswith(".py")]
    return found


def test_config_binds_loopback_with_xsrf_and_no_statistics():
    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    server = config.get("server", {})
    assert server.get("address") == "127.0.0.1"
    assert server.get("enableXsrfProtection") is True
    # XSRF needs CORS protection on too (Streamlit silently turns XSRF off otherwise).
    assert server.get("enableCORS", True) is True
    assert config.get("browser", {}).get("gatherUsageStats") is False
    assert config.get("client", {}).get("showErrorDetails") in ("none", "stacktrace", False)


def test_no_upload_widgets_in_the_code():
    offenders = [
        f"{path.relative_to(REPO_ROOT)}:{n}: {line.strip()}"
        for path in own_python_files()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if UPLOAD_CALLS.search(line)
    ]
    assert own_python_files(), "found no app code to check"
    assert offenders == [], "file uploads are not allowed:\n" + "\n".join(offenders)


def test_make_run_defaults_to_loopback_and_documents_the_lan_address():
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^HOST\s*\?=\s*127\.0\.0\.1\s*$", makefile, re.M)
    assert "HOST=0.0.0.0" in makefile  # the explicit, documented way to serve a classroom LAN


def listening_addresses(port: int) -> list[str]:
    """Local addresses (hex, as in /proc/net/tcp*) with a socket listening on `port`."""
    found = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not os.path.exists(table):
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if fields[3] == LISTEN and int(hex_port, 16) == port:
                found.append(address)
    return found


@pytest.fixture(scope="module")
def default_server(tmp_path_factory):
    """`streamlit run launcher.py` with only a port given (0: the OS picks one): address, XSRF
    etc. come from config.toml.

    HOME is an empty folder, so a test can check that serving writes nothing there.
    """
    home = tmp_path_factory.mktemp("home")
    env = {"HOME": str(home), "PYTHONDONTWRITEBYTECODE": "1"}
    with start_streamlit("launcher.py", env=env, bare=True) as server:
        yield server.port, server.url, home


@pytest.mark.slow
def test_default_server_listens_only_on_loopback(default_server):
    port, _, _ = default_server
    addresses = listening_addresses(port)
    assert addresses, f"nothing listens on port {port}"
    loopback = {"0100007F", "00000000000000000000000001000000"}  # 127.0.0.1 and ::1
    assert set(addresses) <= loopback, f"listening on {addresses}, not only loopback"


@pytest.mark.slow
def test_default_server_sets_xsrf_cookie_and_refuses_unsigned_uploads(default_server):
    _, url, _ = default_server
    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=5) as response:
        cookies = response.headers.get_all("Set-Cookie") or []
    assert any(c.startswith("_streamlit_xsrf=") for c in cookies), cookies
    request = urllib.request.Request(
        f"{url}/_stcore/upload_file/session/file", data=b"x", method="PUT"
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code in (403, 404, 405)


def run_probe(script: str, env: dict[str, str] | None = None) -> str:
    """Run `script` in a fresh Python from the repository root; its last line of output."""
    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.strip().splitlines()[-1]


# Runs in a child: records every file opened for writing (audit hook) while the app renders.
WRITE_PROBE = textwrap.dedent(
    """
    import json, os, sys
    written = set()
    WRITE = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    def hook(event, args):
        if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            mode, flags = args[1], args[2] or 0
            if (isinstance(mode, str) and set(mode) & set("wax+")) or flags & WRITE:
                written.add(os.path.abspath(os.fsdecode(args[0])))
        elif event in ("os.mkdir", "os.rename", "os.replace", "os.remove", "shutil.rmtree"):
            written.add(os.path.abspath(os.fsdecode(args[0])))
    sys.addaudithook(hook)
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file("app.py", default_timeout=120)
    at.query_params["s"] = "小明把书放在了桌子上，然后他走了。"
    at.run()
    at.run()
    print(json.dumps({"written": sorted(written), "exceptions": len(at.exception)}))
    """
)


@pytest.mark.slow
def test_rendering_writes_only_to_temporary_and_cache_folders(tmp_path):
    home, tmp, cache = tmp_path / "home", tmp_path / "tmp", tmp_path / "cache"
    for folder in (home, tmp, cache):
        folder.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "TMPDIR": str(tmp),
        "XDG_CACHE_HOME": str(cache),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    report = json.loads(run_probe(WRITE_PROBE, env))
    allowed = (str(tmp), str(cache), "/dev/", "/proc/")
    stray = [p for p in report["written"] if not p.startswith(allowed)]
    assert stray == [], f"written outside temporary and cache folders: {stray}"


@pytest.mark.slow
def test_serving_a_session_writes_nothing_to_home(default_server):
    """A full page run over the websocket (as a browser does) leaves the server's HOME empty."""
    from bench.st_client import StreamlitSession

    _, url, home = default_server

    async def one_session() -> int:
        async with StreamlitSession(url, query_string="s=他走了&h=2") as session:
            run = await session.connect(timeout=120)
            await session.set_widgets(timeout=120, pos=True)
            return len(run.of_kind("bidi_component"))  # the attention view was sent

    # Playwright's sync API may already run an event loop in this thread (browser tests
    # before this one), and asyncio.run refuses to nest: give the client its own thread.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(asyncio.run, one_session()).result(timeout=120) > 0
    written = [str(p.relative_to(home)) for p in home.rglob("*")]
    assert written == [], f"the server wrote into HOME: {written}"


# Runs in a fresh child: N sessions tokenizing at the same moment on a cold server.
COLD_START_PROBE = textwrap.dedent(
    """
    import threading
    import jieba
    built = []
    original = jieba.Tokenizer.__init__  # one per build (restored from a snapshot or not)
    def counting(self, *args, **kwargs):
        built.append(1)
        return original(self, *args, **kwargs)
    jieba.Tokenizer.__init__ = counting
    from attention_core import tokenize
    barrier = threading.Barrier(6)
    def open_page(i):
        barrier.wait()
        tokenize(f"小明把书放在了桌子上，然后他走了。{i}")
    threads = [threading.Thread(target=open_page, args=(i,)) for i in range(6)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    print(len(built))
    """
)


@pytest.mark.slow
def test_a_class_opening_the_link_at_once_builds_jieba_once():
    """40 students on a fresh server must not each rebuild jieba's dictionary in turn.

    functools.lru_cache does not stop concurrent first calls: each thread built its own
    jieba Tokenizer under a lock, one after another (1–3 s each), so the load test's 40
    simultaneous opens waited up to 2 minutes for their first page.
    """
    built = run_probe(COLD_START_PROBE)
    assert built == "1", f"jieba dictionary built {built} times"
