"""Markup typed as a sentence in Chromium: no element created, no script run, shown as text."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

pytestmark = pytest.mark.browser

LOAD_MS = 90_000
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>window.__pwned=1</script>"
MAP = '[data-testid="explorer-map"]'
SHADOW = """document.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot"""
# True once the view has drawn the current sentence and the page stopped running.
READY = f"""marker => {{
  const root = {SHADOW}?.querySelector('[data-testid="explorer"]');
  const tokens = root && root.querySelector('[data-testid="explorer-tokens"]');
  return !!root && Number(root.dataset.renders || 0) > 0 && tokens.textContent.includes(marker)
    && !document.querySelector('[data-stale="true"]');
}}"""
# Every plotly figure's data and layout as JSON (other charts on the page), and the view's DOM.
FIGURE_JSON = f"""() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .map(gd => JSON.stringify({{data: gd.data, layout: gd.layout}})).join('\\n')
  + ({SHADOW}?.innerHTML || '')"""
INJECTED = f"""() => ({{
  pwned: typeof window.__pwned,
  imgs: document.querySelectorAll('img[src="x"], img[onerror], svg img').length
    + ({SHADOW}?.querySelectorAll('img').length || 0),
  scripts: Array.from(document.scripts).filter(s => s.textContent.includes('__pwned')).length
    + ({SHADOW}?.querySelectorAll('script').length || 0),
}})"""


@pytest.fixture
def watched(page):
    """The page, with every dialog (alert/confirm/prompt) and page error recorded."""
    events: list[str] = []
    page.on("dialog", lambda d: (events.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: events.append(f"pageerror: {e}"))
    page.set_viewport_size({"width": 1280, "height": 900})
    return page, events


def wait_drawn(page, marker: str) -> None:
    page.wait_for_function(READY, arg=marker, timeout=LOAD_MS)


def assert_inert(page, events: list[str]) -> None:
    """No injected element or script, no dialog, nothing raw in the figures."""
    assert page.evaluate(INJECTED) == {"pwned": "undefined", "imgs": 0, "scripts": 0}
    figures = page.evaluate(FIGURE_JSON).lower()
    assert "<img" not in figures and "<script" not in figures
    assert not page.locator("[data-testid='stException']").count()
    assert events == []


def words(page) -> str:
    return " ".join(page.locator('[data-testid="explorer-tokens"] .word').all_text_contents())


@pytest.mark.parametrize(("sentence", "word"), [(IMG, "onerror"), (SCRIPT, "pwned")])
def test_markup_from_a_share_link_is_text(watched, streamlit_server, sentence: str, word: str):
    page, events = watched
    page.goto(f"{streamlit_server}/?{urlencode({'s': sentence, 'h': 2, 'd': 16})}")
    wait_drawn(page, word)
    assert_inert(page, events)
    shown = words(page)
    assert "<" in shown and ">" in shown and word in shown, shown  # jieba splits the tags
    # the box may be drawn once more after the view: wait for its value, do not race it
    page.wait_for_function("s => document.querySelector('textarea')?.value === s", arg=sentence)


def test_markup_typed_into_the_box_and_hovered_is_text(watched, streamlit_server):
    page, events = watched
    page.goto(f"{streamlit_server}/?{urlencode({'h': 1, 'd': 8, 'mode': 'char'})}")
    wait_drawn(page, "小")
    box = page.locator("textarea").first
    box.fill(f"他{IMG}{SCRIPT}")
    box.press("Control+Enter")  # Streamlit's submit shortcut for text areas
    wait_drawn(page, "<")
    assert_inert(page, events)
    canvas = page.locator(MAP).first
    canvas.scroll_into_view_if_needed()
    area = canvas.bounding_box()
    page.mouse.move(area["x"] + area["width"] * 0.6, area["y"] + area["height"] * 0.4, steps=5)
    tip = page.locator('[data-testid="explorer-tip"]')
    tip.wait_for(state="visible", timeout=LOAD_MS)
    text = tip.text_content() or ""
    assert "→" in text and "%" in text, text  # "他 → <: 61%"-style hover, as plain text
    assert tip.evaluate("t => t.children.length") == 0
    assert_inert(page, events)
