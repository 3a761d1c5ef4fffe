"""Shared pytest fixtures: a live `streamlit run` server and Playwright on Debian's Chromium.

Fixtures for browser tests (mark them `@pytest.mark.browser`; tests that use `page`,
`browser` or `context` are marked automatically):

- `streamlit_server` (session): starts `streamlit run app.py` on a free 127.0.0.1 port, waits
  for `/_stcore/health`, yields its base URL such as "http://127.0.0.1:41234", stops it at the end.
  Example: `page.goto(streamlit_server)`; share links: `page.goto(f"{streamlit_server}/?h=2")`.
- `streamlit_factory` (function): `streamlit_factory("bench/baseline_app.py")` starts another
  script the same way and returns a `StreamlitServer` (`.url`, `.log_tail()`), stopped after
  the test.
- `page`, `browser`, `context`: pytest-playwright's, launched from /usr/bin/chromium with the
  flags in DESIGN.md (`browser_type_launch_args` below).

Outside pytest fixtures use `tests.browser_support.start_streamlit(script, port=None)`.
Without /usr/bin/chromium, browser tests skip with the install command; with CI=true they fail.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from tests.browser_support import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    REPO_ROOT,
    StreamlitServer,
    chromium_available,
    skip_or_fail,
    start_streamlit,
)

BROWSER_FIXTURES = {"page", "browser", "context", "new_context"}


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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that uses a Playwright fixture as `browser`."""
    for item in items:
        if uses_playwright(item):
            item.add_marker(pytest.mark.browser)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before any fixture launches Chromium: skip (or fail in CI) when it is not installed."""
    if item.get_closest_marker("browser") and not chromium_available():
        skip_or_fail(f"{CHROMIUM} is not installed")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright launch options: Debian's Chromium (never Playwright's download)."""
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture(scope="session")
def streamlit_server() -> Iterator[str]:
    """Base URL of `streamlit run app.py` on a free loopback port, shared by the session."""
    with start_streamlit(REPO_ROOT / "app.py") as server:
        yield server.url


@pytest.fixture
def streamlit_factory() -> Iterator[Callable[..., StreamlitServer]]:
    """Start other Streamlit scripts: `streamlit_factory(script, port=None)`; all stopped after."""
    started: list[StreamlitServer] = []

    def start(script: str | os.PathLike[str], port: int | None = None) -> StreamlitServer:
        server = start_streamlit(script, port)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
