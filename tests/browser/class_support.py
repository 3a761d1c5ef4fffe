"""The live class in Chromium, shared: the projector's and the phones' windows and how to wait
for them (tests/browser/test_class.py; the fixtures that start one class for a test module,
`redis`, `server` and `teacher`, are tests/browser/conftest.py's)."""

from __future__ import annotations

from pathlib import Path

from tests.browser_support import REDUCED_MOTION
from tests.lesson_support import LOAD_MS, PHONE, ROOT, SCENE, open_lesson, settle

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "docs" / "screenshots"  # CLASS_DOCS=1 writes the screenshots there
PROJECTOR = (1024, 768)
STATUS = f"{ROOT}.querySelector('[data-testid=\"class-status\"]')"


def by_id(page, name: str):
    return page.locator(f'[data-testid="{name}"]')


def status(page) -> dict:
    return page.evaluate(f"() => ({{...{STATUS}.dataset, text: {STATUS}.textContent}})")


def wait_status(page, js: str, what: str) -> None:
    """Until class-status's dataset (s) satisfies `js`, e.g. "s.state === 'joined'"."""
    page.wait_for_function(
        f"() => {{ const e = {STATUS}; if (!e) return false; const s = e.dataset; return {js}; }}",
        timeout=LOAD_MS,
        polling=100,
    )


def wait_place(page, scene: int, step: int) -> None:
    """Until the deck shows §scene at step (0-based), and rests."""
    page.wait_for_function(
        f"() => {{ const s = {SCENE}; return !!s && s.dataset.scene === '{scene}'"
        f" && s.dataset.step === '{step}'; }}",
        timeout=LOAD_MS,
        polling=100,
    )
    settle(page)


def projector(browser, server, query: str):
    """The teacher's projector (1024 × 768), a browser context of its own, on /lesson`query`."""
    context = browser.new_context(
        reduced_motion=REDUCED_MOTION, viewport={"width": PROJECTOR[0], "height": PROJECTOR[1]}
    )
    page = context.new_page()
    open_lesson(page, server, query, PROJECTOR)
    return page


def new_class(browser, server, query: str = ""):
    """A projector that made a class of its own (/lesson?room=new`query`): (page, code)."""
    page = projector(browser, server, f"?room=new{query}")
    wait_status(page, "s.state === 'joined' && !!s.code", "a class of its own")
    return page, status(page)["code"]


def phone(browser, server, query: str, lang: str = "zh"):
    context = browser.new_context(
        reduced_motion=REDUCED_MOTION,
        viewport={"width": PHONE[0], "height": PHONE[1]},
        has_touch=True,
        locale=lang,
    )
    page = context.new_page()
    open_lesson(page, server, query, PHONE)
    return page


def joined(browser, server, code: str):
    page = phone(browser, server, f"?join={code}")
    wait_status(page, "s.state === 'joined' && s.v !== ''", "the phone joined")
    return page
