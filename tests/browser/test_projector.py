"""The main page on a 1024 × 768 projector in classroom mode: scrolled down to a map, the view's
√d_k switch is still on screen, uncovered, above the whole map — the switch and the 他 row it
changes are seen together (they were ~1,000 px apart: 1½ rows of one map showed beside it)."""

from __future__ import annotations

import pytest

from tests.browser_support import MAP, SHADOW, open_view, wait_settled

pytestmark = pytest.mark.browser

# Scroll the first map's bottom edge to the window's bottom; once the view has settled there,
# measure the switch and the map (its top: the first row label's, as the view publishes its label
# boxes).
SCROLL = f"""() => {{
  const map = {SHADOW}.querySelector('{MAP}');
  const main = document.querySelector('[data-testid="stMain"]');
  main.scrollTop += map.getBoundingClientRect().bottom - innerHeight + 4;
}}"""
MEASURE = f"""() => {{
  const root = {SHADOW};
  const map = root.querySelector('{MAP}');
  const sw = root.querySelector('[data-testid="explorer-scale"]').getBoundingClientRect();
  const bar = root.querySelector('[role="toolbar"]').getBoundingClientRect();
  const m = map.getBoundingClientRect();
  const rows = JSON.parse(map.dataset.labels || '[]');  // label boxes [x, y, w, h] in the canvas
  const hit = root.elementFromPoint(sw.x + sw.width / 2, sw.y + sw.height / 2);
  return {{switchTop: sw.top, switchBottom: sw.bottom, barBottom: bar.bottom, labels: rows.length,
          mapTop: m.top + Math.min(...rows.map(b => b[1])),
          mapBottom: m.bottom, height: innerHeight, hit: hit && hit.dataset.testid}};
}}"""


@pytest.mark.parametrize("query", ["?class=1", "?class=1&lang=en", ""])
def test_the_switch_stays_in_sight_above_the_whole_map(page, streamlit_server, query):
    open_view(page, f"{streamlit_server}/{query}", 1024, 768)
    page.evaluate(SCROLL)
    wait_settled(page)
    got = page.evaluate(MEASURE)
    assert got["switchTop"] >= 0 and got["switchBottom"] <= got["height"], got
    assert got["hit"] == "explorer-scale", got  # on top: a click reaches it
    assert got["labels"] >= 26, got  # 13 rows and 13 columns of the example sentence
    assert got["mapBottom"] <= got["height"], got
    # 他 is row 10 of 13: whatever the bar covers stays above the map's middle
    assert got["barBottom"] <= (got["mapTop"] + got["mapBottom"]) / 2, got
    if query == "?class=1":  # the projector in Chinese: the bar is one line, no row under it
        assert got["barBottom"] <= got["mapTop"], got
