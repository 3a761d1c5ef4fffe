"""Shared pytest fixtures and rules: a live `streamlit run`, Playwright on Debian's Chromium, no
hidden skips in CI.

Fixtures for browser tests (tests that use `page`, `browser` or `context` are marked `browser`
automatically; mark others by hand):

- `streamlit_server` (session): `streamlit run launcher.py` (app.py with the class's routes) on a
  loopback port, healthy; its base URL such as "http://127.0.0.1:41234".
  `page.goto(f"{streamlit_server}/?h=2")`.
- `streamlit_factory` (function): `streamlit_factory("bench/baseline_app.py")` starts another
  script the same way and returns a `deploy.local.StreamlitServer` (`.url`, `.log_tail()`),
  stopped after the test.
- `page`, `browser`, `context`: pytest-playwright's, launched from /usr/bin/chromium with the
  flags of deploy/local.py CHROMIUM_FLAGS (`browser_type_launch_args` below), its contexts with
  reduced motion (`browser_context_args`; contexts made by hand pass
  `reduced_motion=REDUCED_MOTION` from tests.browser_support).

Shared helpers are plain functions, importable from module-level code and module fixtures:
`tests.app_support` (AppTest: `open_app`; `shown_app`, a first run shared read-only by the tests
that only read it; `chart_specs`) and `tests.browser_support` (`open_view`, `open_settled`,
`wait_still`, `wait_changed`: Chromium). Outside pytest, start servers with
`deploy.local.start_streamlit(script)`.

Every test has a time limit (pytest-timeout, `[tool.pytest.ini_options] timeout`), so a page
that never settles fails instead of hanging the run. Without /usr/bin/chromium or nginx the
tests that need them skip, naming the install command; with CI=true every skip is a failure
unless the test is marked `may_skip("why skipping is right here")`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bench.rerun import scan_components_once, share_script_cache
from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    REDUCED_MOTION,
    REPO_ROOT,
    StreamlitServer,
    chromium_available,
    in_ci,
    skip_missing,
    start_streamlit,
)

if TYPE_CHECKING:
    from streamlit.testing.v1 import AppTest

BROWSER_FIXTURES = {"page", "browser", "context", "new_context"}
# Time limits in s: a slow test may train the model; a browser test may start a server first.
LIMITS_S = {"slow": 1800, "browser": 600}
BROWSER_TESTS = Path(__file__).resolve().parent / "browser"  # every test in it drives Chromium


def uses_playwright(item: pytest.Item) -> bool:
    """True when a test requests pytest-playwright's own `page`/`browser`/`context` fixture.

    A test module may define its own fixture called `page` (an AppTest, say); that one does not
    need Chromium, so the fixture's defining module is checked, not just its name.
    """
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for name in BROWSER_FIXTURES.intersection(info.names_closure):
        defs = info.name2fixturedefs.get(name, ())
        if defs and defs[-1].func.__module__.startswith("pytest_playwright"):
            return True
    return False


def pytest_configure(config: pytest.Config) -> None:
    """AppTest compiles the router and the page again on every run (a new ScriptCache each
    time); a server compiles each file once. One shared cache, as bench/rerun.py's reruns use,
    runs the same code: opening /steps costs 237 ms of CPU instead of 319 (measured, 8 opens).
    Each new AppTest also scans every installed package for components (~120 ms, a server does
    it once): scanned once per process, a page test's first run costs ~30 ms instead of ~150.

    pytest-xdist's controller runs no test: it skips this, and Streamlit is imported only where
    tests run (this module imports it lazily), so the workers start ~1 s sooner."""
    if config.getoption("numprocesses", None) and not hasattr(config, "workerinput"):
        return
    if hasattr(config, "workerinput"):
        one_blas_thread(config)
    share_script_cache()
    scan_components_once()


def one_blas_thread(config: pytest.Config) -> None:
    """An xdist worker's numpy uses one OpenBLAS thread. `make check` runs a worker per core;
    with OpenBLAS's default of a thread per core besides, each worker's threads spin waiting for
    cores the other holds: measure_cost(1024) took 2.6 s instead of 0.19 s (load 14, 2 cores),
    and the cost page's tests most of a minute. (Timed figures the tests check are ratios; the
    lesson's own measurement already takes one thread: ui/lesson/measure.py.)"""
    from threadpoolctl import threadpool_limits

    config._blas_limit = threadpool_limits(limits=1, user_api="blas")  # held for the session


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test in tests/browser/ or using a Playwright fixture as `browser`; give browser
    and slow tests a longer time limit than pyproject.toml's (unless they set their own); put the
    files that take longest first (below)."""
    for item in items:
        if uses_playwright(item) or BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("timeout") is None:
            for marker, seconds in LIMITS_S.items():
                if item.get_closest_marker(marker):
                    item.add_marker(pytest.mark.timeout(seconds))
                    break
    longest_files_first(items)


# Seconds a test takes, about (measured at idle: a browser test 5 s on average, a slow one 1 s, a
# page's under AppTest 0.15 s — a process's first run of a page computes what the page caches, the
# scaling page's sweep 1.1 s — any other 0.04 s); `@pytest.mark.slow(s=40)` says it of one test
# that takes far longer. Without the pages' own figure their files started last, and
# test_scaling.py's three tests (2 s) held one process alone at the end of `make check`.
ABOUT_S = {"browser": 5.0, "slow": 1.0}
PAGE_S = 0.15
PAGE_TESTS = Path(__file__).resolve().parent / "pages"
OTHER_S = 0.04


def about_s(item: pytest.Item) -> float:
    slow = item.get_closest_marker("slow")
    if slow is not None and "s" in slow.kwargs:
        return float(slow.kwargs["s"])
    marked = next((s for m, s in ABOUT_S.items() if item.get_closest_marker(m)), None)
    if marked is not None:
        return marked
    return PAGE_S if PAGE_TESTS in item.path.parents else OTHER_S


def longest_files_first(items: list[pytest.Item]) -> None:
    """Order the files by the time their tests take, longest first, each file's tests kept in
    order. The Makefile's xdist processes take whole files in this order (--dist loadfile
    --no-loadscope-reorder), so the long ones start first and the short ones fill in at the end:
    xdist's own order (most tests first) started the model's training file, 4 tests and most of a
    minute, last, while the other process had finished."""
    took: dict[Path, float] = {}
    for item in items:
        took[item.path] = took.get(item.path, 0.0) + about_s(item)
    items.sort(key=lambda item: -took[item.path])  # stable: a file's tests stay in order


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture launches Chromium: skip (a failure in CI) when it is not installed."""
    if item.get_closest_marker("browser") and not chromium_available():
        skip_missing(f"{CHROMIUM} is not installed")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> pytest.TestReport:
    """Under CI=true a skipped test fails, saying why it skipped: CI exists to run everything."""
    report = yield
    allowed = hasattr(report, "wasxfail") or item.get_closest_marker("may_skip") is not None
    if report.skipped and in_ci() and not allowed:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = (
            f"skipped under CI=true, where every test must run: {reason}\n"
            "(install what it needs, or mark it @pytest.mark.may_skip(why) if skipping is right)"
        )
    return report


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright launch options: Debian's Chromium (never Playwright's download). Not
    --disable-frame-rate-limit: it spared a window behind another Chromium's ~2 frames a second,
    but every window then drew unthrottled and cost more CPU than it saved (TESTING.md)."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    """pytest-playwright context options: reduced motion (browser_support.REDUCED_MOTION); a test
    of the motion itself: @pytest.mark.browser_context_args(reduced_motion="no-preference")."""
    return {**browser_context_args, "reduced_motion": REDUCED_MOTION}


@pytest.fixture(scope="session")
def streamlit_server() -> Iterator[str]:
    """Base URL of `streamlit run launcher.py` on a loopback port, shared by the session."""
    with start_streamlit(REPO_ROOT / "launcher.py") as server:
        yield server.url


@pytest.fixture
def streamlit_factory() -> Iterator[Callable[..., StreamlitServer]]:
    """Start other Streamlit scripts: `streamlit_factory(script)`; all stopped after the test."""
    started: list[StreamlitServer] = []

    def start(script: str | os.PathLike[str]) -> StreamlitServer:
        server = start_streamlit(script)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


# ---- the main page under AppTest --------------------------------------------------------------

# AppTest resets PagesManager.uses_pages_directory before every run; with a pages/ folder next
# to app.py, reruns after the first then execute the page file alone (the v1 multipage path),
# skipping the router and its sidebar. Running app.py from a folder without pages/ avoids that.
ENTRY = f"import runpy\nrunpy.run_path({str(REPO_ROOT / 'app.py')!r}, run_name='__main__')\n"


@pytest.fixture(scope="module")
def entry(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("entry") / "entry.py"
    path.write_text(ENTRY, encoding="utf-8")
    return str(path)


@pytest.fixture
def run_app(entry):
    """run_app(**query) → an AppTest of app.py after its first run with those link parameters."""

    from streamlit.testing.v1 import AppTest

    from tests.app_support import TIMEOUT_S

    def start(**query: str) -> AppTest:
        at = AppTest.from_file(entry, default_timeout=TIMEOUT_S)
        for name, value in query.items():
            at.query_params[name] = value
        return at.run()

    return start
