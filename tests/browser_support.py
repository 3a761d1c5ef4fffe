"""Browser-test helpers: Debian's Chromium, skips that say what to install, and page waits.

The servers themselves come from deploy/local.py (shared with bench/). Every wait here waits for
a condition and is capped: a page that never settles fails with what it was waiting for.

- `wait_settled(page)`: until Streamlit is idle, its charts are drawn, and the attention view and
  the lesson deck (every one on the page) have laid out and drawn for the window's size and
  their data: each root's `data-settled` names its `data-generation` (ui/explorer/view.js,
  ui/lesson/stage.js; a resize or new data starts the next generation).
- `open_settled(page, url, size)`: any page, loaded at a size, then `wait_settled`.
- `open_view(page, url, width, height)`: the main page, once the attention view has settled.
- `wait_still(page, value_js)`: `wait_settled`, then the value of a JS expression (a layout after
  a scroll, a canvas once drawn); returns it.
- `wait_changed(page, value_js, before)`: until it gives anything else.
No wait here counts frames or polls of an unchanged value, and none sleeps.
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
# Every test's browser context asks for reduced motion, as a user may (prefers-reduced-motion:
# reduce): the deck then draws an animation's last frame at once (ui/lesson/animate.js), so no
# test waits out a motion it does not check. Tests of the motion itself ask for "no-preference"
# (tests/browser/test_lesson_animate.py). tests/conftest.py gives it to pytest-playwright's `page`.
REDUCED_MOTION = "reduce"
SHADOW = """document.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot"""
VIEW = f"""{SHADOW}?.querySelector('[data-testid="explorer"]')"""
MAP = '[data-testid="explorer-map"]'
# Streamlit has finished: no script running (its app root's own data-test-script-state), nothing
# stale, no skeleton, charts drawn, the frame script (assets/frame.js) loaded, web fonts in.
IDLE = """(document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
  && !document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]')
  && !document.querySelector('[data-stale="true"]')
  && Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"]'))
       .every(c => c.querySelector('.main-svg'))
  && !!window.__attentionLabFrame && document.fonts.status === 'loaded')"""
# The views' and decks' layout generations (view.js, stage.js), joined, when every one of them has
# settled (data-settled = data-generation: laid out and drawn for its size and data, no draw
# pending) and every component on the page has mounted one; else null. A deck's own views are
# among them. In a bare page (no Streamlit: a view mounted by a test) the views in the document.
GENERATIONS = """(() => {
  const hosts = [...document.querySelectorAll('[data-testid="stBidiComponentIsolated"]')];
  const roots = hosts.map((h) => [...(h.shadowRoot?.querySelectorAll('[data-generation]') || [])]);
  if (!document.querySelector('[data-testid="stApp"]')) {
    roots.push([...document.querySelectorAll('[data-generation]')]);
  }
  if (roots.some((r) => !r.length)) return null;
  const all = roots.flat();
  const settled = all.every((e) => e.dataset.settled === e.dataset.generation);
  return settled ? all.map((e) => e.dataset.generation).join() : null;
})()"""
# Streamlit idle, or no Streamlit at all (a bare page).
IDLE_OR_BARE = f"""(!document.querySelector('[data-testid="stApp"]') || {IDLE})"""
# Settled, and still so at two animation frames after with the same generations: a change made
# just before a frame reaches the views' ResizeObservers only in that frame's rendering, after
# its animation-frame callbacks (the HTML event loop's order). The first poll runs at once, not
# in a frame; so the first frame's callback can still see the old generations, and only the
# second comes after that frame's rendering (a fresh clone's `make test` once returned one frame
# early, before a refit). window.__settled keeps each wait's generations and how many polls in a
# row saw them.
SETTLED = f"""key => {{
  const gens = {IDLE_OR_BARE} ? {GENERATIONS} : null;
  const s = (window.__settled ||= {{}});
  const seen = gens !== null && s[key]?.gens === gens ? s[key].seen + 1 : 0;
  s[key] = {{ gens, seen }};
  return seen >= 2;
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


def wait_still(page, value_js: str, timeout: float = LOAD_MS) -> str:
    """`wait_settled`, then the value of `value_js` (a JS expression), as a string: a layout, a
    box or pixels once every view and deck on the page has drawn for its size and data."""
    wait_settled(page, timeout)
    return str(page.evaluate(f"() => String({value_js})"))


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
    """Until Streamlit is idle and every attention view and lesson deck on the page has settled
    (data-settled = data-generation) at three polls in a row (two frames), at most `timeout` ms.
    A bare page (a view a test mounted, no Streamlit): its views."""
    try:
        page.wait_for_function(SETTLED, arg=next(WAITS), polling="raf", timeout=timeout)
    except PageTimeout as err:
        state = page.evaluate(f"() => [{IDLE_OR_BARE}, {GENERATIONS}, {VIEW}?.dataset.generation]")
        pytest.fail(f"{page.url} never settled in {timeout / 1000:.0f} s: {state} ({err})")


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
    wait_settled(page)


def map_pixels(page, head: int = 0) -> str:
    """Scroll head map `head` to the middle of the window and return its pixels once the view
    has drawn it there (a map off screen is drawn when it scrolls in; until then it is marked
    data-stale)."""
    page.locator(MAP).nth(head).evaluate("c => c.scrollIntoView({block: 'center'})")
    return wait_drawn(page, head)


def wait_drawn(page, head: int = 0) -> str:
    """Head map `head`'s pixels (a data URL) once the view has settled and that map holds its
    latest drawing (not data-stale: a map off screen is drawn when it scrolls in)."""
    map_js = f"{SHADOW}.querySelectorAll('{MAP}')[{head}]"
    page.wait_for_function(f"() => !{map_js}.dataset.stale", timeout=LOAD_MS, polling="raf")
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
