"""The heads page in Chromium: its map rows leave no blank band under the square maps."""

from __future__ import annotations

from demo_model import load_demo_history

BANDS_JS = """() => [...document.querySelectorAll('[class*="st-key-sqmap_heads_cmp"]')].map(box => {
  const gd = box.querySelector('.js-plotly-plot');
  const m = gd._fullLayout.margin;
  return {box: box.getBoundingClientRect().height, plot: gd._fullLayout._size.h, t: m.t, b: m.b};
})"""


def test_26_heads_maps_leave_no_blank_band_under_the_square(page, streamlit_server):
    """/heads at 1024 × 768: each compare map's box is as tall as its square plus the figure's
    own title and tick-label margins (Streamlit's 240 px floor aside), not a fixed 400 px."""
    from tests.browser_support import open_settled

    open_settled(page, f"{streamlit_server}/heads?w=random", (1024, 768))
    bands = page.evaluate(BANDS_JS)
    assert len(bands) == 2 * load_demo_history().config.num_heads
    for b in bands:
        assert b["box"] <= max(240, b["plot"] + b["t"] + b["b"]) + 2, b
