"""Markup typed as a sentence in Chromium: no element created, no script run, shown as text."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

pytestmark = pytest.mark.browser

LOAD_MS = 90_000
IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "<script>window.__pwned=1</script>"
GRID = ".st-key-head_grid .js-plotly-plot"
# True once the page has drawn its head maps for the current sentence and stopped running.
READY = f"""marker => {{
  const ticks = document.querySelectorAll('{GRID} g.xtick text');
  const chips = document.querySelector('.st-key-token_chips');
  return ticks.length > 0 && chips && chips.textContent.includes(marker)
    && !document.querySelector('[data-testid="stStatusWidget"]');
}}"""
# Every plotly figure's data and layout as JSON: what plotly may render as HTML.
FIGURE_JSON = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .map(gd => JSON.stringify({data: gd.data, layout: gd.layout})).join('\\n')"""
INJECTED = """() => ({
  pwned: typeof window.__pwned,
  imgs: document.querySelectorAll('img[src="x"], img[onerror], svg img').length,
  scripts: Array.from(document.scripts).filter(s => s.textContent.includes('__pwned')).length,
})"""


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


def labels(page) -> str:
    return " ".join(page.locator(f"{GRID} g.xtick text, {GRID} g.ytick text").all_text_contents())


@pytest.mark.parametrize(("sentence", "word"), [(IMG, "onerror"), (SCRIPT, "pwned")])
def test_markup_from_a_share_link_is_text(watched, streamlit_server, sentence: str, word: str):
    page, events = watched
    page.goto(f"{streamlit_server}/?{urlencode({'s': sentence, 'h': 2, 'd': 16})}")
    wait_drawn(page, word)
    assert_inert(page, events)
    chips = " ".join(page.locator(".st-key-token_chips").all_text_contents())
    assert "<" in chips and word in chips, chips  # jieba splits the tags; chips show them
    ticks = labels(page)
    assert "<" in ticks and ">" in ticks and word in ticks, ticks
    assert page.locator("textarea").first.input_value() == sentence


def test_markup_typed_into_the_box_and_hovered_is_text(watched, streamlit_server):
    page, events = watched
    page.goto(f"{streamlit_server}/?{urlencode({'h': 1, 'd': 8, 'mode': 'char'})}")
    wait_drawn(page, "小")
    box = page.locator("textarea").first
    box.fill(f"他{IMG}{SCRIPT}")
    box.press("Control+Enter")  # Streamlit's submit shortcut for text areas
    wait_drawn(page, "<")
    assert_inert(page, events)
    plot = page.locator(f"{GRID} .nsewdrag").first
    plot.scroll_into_view_if_needed()
    area = plot.bounding_box()
    page.mouse.move(area["x"] + area["width"] * 0.3, area["y"] + area["height"] * 0.3, steps=5)
    hover = page.locator(f"{GRID} .hoverlayer .hovertext").first
    hover.wait_for(timeout=LOAD_MS)
    text = hover.text_content() or ""
    assert "→" in text, text  # "他 → 小明: 61%"-style hover, as plain text
    assert page.locator(f"{GRID} .hoverlayer img, {GRID} .hoverlayer script").count() == 0
    assert_inert(page, events)
