"""Browser-test helpers: Debian's Chromium, skips that say what to install, and page waits.

The servers themselves come from deploy/local.py (shared with bench/). Every wait here waits for
a condition and is capped: a page that never settles fails with what it was waiting for.

- `open_settled(page, url, size)`: any page, once Streamlit is idle, its charts are drawn and
  its main area has stopped changing.
- `open_view(page, url, width, height)`: the main page, once the attention view has drawn.
- `wait_still(page, value_js)`: until a JS expression gives the same value frame after frame
  (a layout after a scroll, a canvas after a redraw); returns that value.
- `wait_changed(page, value_js, before)`: until it gives anything else.
"""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import TimeoutError as PageTimeout

from deploy.local import (  # noqa: F401 — re-exported for the tests
    CHROMIUM,
    CHROMIUM_FLAGS,
    REPO_ROOT,
    StreamlitServer,
    chromium_available,
    start_streamlit,
)

INSTALL_HINT = "run `make test` as root to install chromium and fonts-noto-cjk with apt-get"
WAITS = itertools.count()
LOAD_MS = 120_000  # one page load on a busy 2-core machine; a cap, never a measurement
SHADOW = """document.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot"""
VIEW = f"""{SHADOW}?.querySelector('[data-testid="explorer"]')"""
MAP = '[data-testid="explorer-map"]'
RENDERS = f"Number({VIEW}?.dataset.renders || 0)"  # how often the view has drawn itself
# Streamlit has finished: no script running, nothing stale, no skeleton, charts drawn, the frame
# script (assets/frame.js) loaded, web fonts in.
IDLE = """(!document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]')
  && !document.querySelector('[data-stale="true"]')
  && Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'))
       .every(c => c.querySelector('.main-svg'))
  && !!window.__attentionLabFrame && document.fonts.status === 'loaded')"""
# What changes while a page is still building: elements in the main area, drawn chart layers.
MAIN_SHAPE = """[document.querySelectorAll('[data-testid="stMain"] *').length,
  document.querySelectorAll('.js-plotly-plot .main-svg').length].join()"""
# A value that must stay the same, while `ready` holds, `n` more times in a row (window.__still
# keeps the last one per key; a poll where `ready` fails starts the count again).
STILL = """([key, n]) => {{
  const v = String({value}), ready = !!({ready});
  const s = (window.__still ||= {{}});
  s[key] = ready && s[key] && s[key].v === v ? {{v, k: s[key].k + 1}} : {{v, k: 0}};
  return ready && s[key].k >= n ? {{v}} : false;
}}"""


def cjk_fonts() -> list[str]:
    """Fonts that fontconfig offers for Chinese (`fc-list :lang=zh`); empty without fc-list."""
    if shutil.which("fc-list") is None:
        return []
    out = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True, check=False)
    return [line for line in out.stdout.splitlines() if line.strip()]


def in_ci() -> bool:
    """True on the CI runner, where a skip is a failure (tests/conftest.py)."""
    return os.environ.get("CI", "").lower() == "true"


def skip_missing(reason: str, hint: str = INSTALL_HINT) -> None:
    """Skip a test whose tool is missing, naming the install command (a failure under CI=true)."""
    pytest.skip(f"{reason}; {hint}")


def wait_still(page, value_js: str, *, frames: int = 3, ready_js: str = "true", **wait) -> str:
    """Until `value_js` (a JS expression) has given the same value on `frames` more animation
    frames in a row while `ready_js` holds; that value, as a string."""
    key = next(WAITS)  # a fresh count for every wait: nothing carried over from an earlier one
    script = STILL.format(value=value_js, ready=ready_js)
    wait.setdefault("timeout", LOAD_MS)
    wait.setdefault("polling", "raf")
    return page.wait_for_function(script, arg=[key, frames], **wait).json_value()["v"]


def wait_changed(page, value_js: str, before: str, what: str, timeout: float = LOAD_MS) -> str:
    """Until `value_js` gives something other than `before`; fail saying `what` did not change."""
    try:
        handle = page.wait_for_function(
            f"before => {{ const v = String({value_js}); return v !== before && {{v}}; }}",
            arg=before,
            timeout=timeout,
        )
    except PageTimeout as err:
        pytest.fail(f"{what} did not change within {timeout / 1000:.0f} s ({err})")
    return handle.json_value()["v"]


def wait_settled(page, timeout: float = LOAD_MS) -> None:
    """Until Streamlit is idle and the main area has not changed for three polls 0.4 s apart
    (a fresh server reruns a first visit), at most `timeout` ms."""
    try:
        wait_still(page, MAIN_SHAPE, ready_js=IDLE, polling=400, timeout=timeout)
    except PageTimeout as err:
        shape = page.evaluate(f"() => [{IDLE}, {MAIN_SHAPE}]")
        pytest.fail(f"{page.url} never settled in {timeout / 1000:.0f} s: {shape} ({err})")


def open_settled(page, url: str, size: tuple[int, int], timeout: float = LOAD_MS) -> None:
    """Load `url` at `size` (width, height) and wait until it has settled (`wait_settled`)."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(url)
    page.wait_for_selector("h1", timeout=timeout)
    wait_settled(page, timeout)


def open_view(page, url: str, width: int = 1280, height: int = 800) -> None:
    """Load a main-page URL and wait until the attention view has drawn and Streamlit is idle."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(MAP, timeout=LOAD_MS)
    wait_still(page, RENDERS, ready_js=f"{RENDERS} > 0 && {IDLE}")


def map_pixels(page, head: int = 0) -> str:
    """Scroll head map `head` to the middle of the window and return its pixels once the view
    has drawn it there (maps off screen are drawn when they scroll in)."""
    page.locator(MAP).nth(head).evaluate("c => c.scrollIntoView({block: 'center'})")
    return wait_still(page, map_pixels_js(head))


def map_pixels_js(head: int = 0) -> str:
    """A JS expression: head map `head`'s pixels as a data URL."""
    return f"{SHADOW}.querySelectorAll('{MAP}')[{head}].toDataURL()"


# The accessibility audit's engine: axe-core as vendored in tests/vendor/axe-core (its README says
# why not the 4.12 that axe-playwright-python bundles), run through that package's Axe.
AXE_DIR = Path(__file__).resolve().parent / "vendor" / "axe-core"
AXE_VERSION = "4.14.1"


def axe() -> Axe:
    """An Axe that injects the vendored axe-core (tests check it reports AXE_VERSION)."""
    return Axe.from_file(AXE_DIR / "axe.min.js")


def url_of(base: str, page: str, lang: str = "zh", classroom: bool = False) -> str:
    """A page's link (page: a stem of app.PAGES) in a language, in classroom mode or not."""
    query = [f"lang={lang}"] if lang != "zh" else []
    query += ["class=1"] if classroom else []
    path = "" if page == "main" else page
    return f"{base}/{path}" + (f"?{'&'.join(query)}" if query else "")
