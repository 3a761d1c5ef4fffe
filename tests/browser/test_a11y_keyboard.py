"""Accessibility by keyboard, in Chromium: Tab skips the charts' toolbars and shows a ring on
every stop, the skip link leads to the sentence box, a collapsed sidebar leaves the tab order."""

from __future__ import annotations

import pytest

from tests.browser_support import open_settled
from ui.text import t

pytestmark = pytest.mark.browser


FOCUSED = """() => {
  let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  const key = e.closest('[class*="st-key-"]');
  return {tag: e.tagName.toLowerCase(), testid: e.getAttribute('data-testid') || '',
          key: key ? [...key.classList].find(c => c.startsWith('st-key-')) : '',
          modebar: !!e.closest('.modebar'),
          anchor: !!e.closest('[data-testid="stHeaderActionElements"]'),
          text: (e.textContent || '').trim().slice(0, 40)};
}"""

# The focus indicator of the focused element (or the label that draws a hidden input) and
# its contrast with the nearest opaque background.
RING = """() => {
  let e = document.activeElement;
  if (e.matches('input[type="radio"], input[type="checkbox"], input[type="range"]')) {
    e = e.closest('label') || e.closest('[data-testid="stSlider"] div:has(> div > input)') || e;
  }
  const s = getComputedStyle(e);
  const lum = c => {
    const [r, g, b] = c.match(/[\\d.]+/g).map(Number).slice(0, 3).map(v => {
      v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let p = e.parentElement, bg = 'rgba(0, 0, 0, 0)';
  while (p && /rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) {
    bg = getComputedStyle(p).backgroundColor; p = p.parentElement;
  }
  if (/rgba\\(0, 0, 0, 0\\)|transparent/.test(bg)) bg = 'rgb(255, 255, 255)';
  const a = lum(s.outlineColor), b = lum(bg);
  return {style: s.outlineStyle, width: parseFloat(s.outlineWidth),
          contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)};
}"""

# The main page's sentence row in Tab order: the box, Apply, the examples' button, word/char.
SENTENCE_ROW = ["st-key-sentence", "st-key-sentence_apply", "st-key-examples_menu", "st-key-mode"]


def test_tab_skips_toolbars_and_shows_a_ring_on_every_stop(page, streamlit_server):
    """Toolbars and heading anchors are out of the Tab order; every stop has a ≥ 3 : 1 ring."""
    open_settled(page, f"{streamlit_server}/order", (1280, 800))
    stops = []
    for _ in range(45):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUSED))
        if stops[-1]["tag"] == "body":  # past the last stop: the browser's own UI is next
            break
        if stops[-1]["tag"] != "main":  # the main area itself is a scroller, ringed by Chrome
            ring = page.evaluate(RING)
            assert ring["style"] != "none" and ring["width"] >= 2, (stops[-1], ring)
            assert ring["contrast"] >= 3, (stops[-1], ring)
    assert len(stops) > 20, stops  # the sidebar's widgets and the page's were all visited
    assert not [s for s in stops if s["modebar"] or s["anchor"]], stops
    assert stops[0]["testid"] == "stSkipToContent" and stops[0]["text"] == t("chrome.skip", "zh")


def test_skip_link_then_the_sentence_box_within_five_stops(page, streamlit_server):
    """The frame's share of the 'within 15 stops' rule with the sidebar open: skip link first,
    Enter, then the main page's widgets in reading order (sentence, Apply, examples, mode)."""
    open_settled(page, streamlit_server, (1280, 800))
    page.keyboard.press("Tab")  # the main page's own "跳到注意力图" (browser/test_explorer.py)
    assert page.evaluate(FOCUSED)["testid"] == "explorer-skip"
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)["testid"] == "stSkipToContent"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # the link to the lesson, first on the page
    assert page.evaluate(FOCUSED)["text"] == t("main.lesson_link")[:40]
    keys = []
    for _ in range(4):
        page.keyboard.press("Tab")
        keys.append(page.evaluate(FOCUSED)["key"])
    assert keys == SENTENCE_ROW


def test_a_collapsed_sidebar_leaves_the_tab_order(page, streamlit_server):
    """Classroom mode at 1024 × 768 opens with the sidebar collapsed: its 20 links and widgets
    were invisible Tab stops. Now: skip link, the » button, then the page."""
    open_settled(page, f"{streamlit_server}/?class=1", (1024, 768))
    stops = []
    for _ in range(8):
        page.keyboard.press("Tab")
        stops.append(page.evaluate(FOCUSED))
    stops = stops[1:]  # the first is the main page's own skip link into the attention view
    assert [s["testid"] for s in stops[:2]] == ["stSkipToContent", "stExpandSidebarButton"]
    assert stops[2]["text"] == t("main.lesson_link")[:40]  # the lesson's link, first on the page
    assert [s["key"] for s in stops[3:]] == SENTENCE_ROW
