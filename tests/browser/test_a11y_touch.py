"""Accessibility on a touch screen, in Chromium: a swipe over a chart scrolls the page, tap
targets are 44 px and charts carry no toolbar on a phone."""

from __future__ import annotations

import pytest

from tests.browser_support import LOAD_MS, REDUCED_MOTION, open_settled, url_of

pytestmark = pytest.mark.browser


TOKEN_MAP = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .findIndex(gd => gd.layout && gd.layout.yaxis && gd.layout.yaxis.scaleanchor === 'x')"""


DRAGGABLE = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .findIndex(gd => gd._fullLayout && gd._fullLayout.dragmode !== false)"""


STATE = """i => {
  const gd = document.querySelectorAll('.js-plotly-plot')[i];
  return {x: gd._fullLayout.xaxis.range.map(v => +v.toFixed(3)),
          y: gd._fullLayout.yaxis.range.map(v => +v.toFixed(3)),
          top: document.querySelector('[data-testid="stMain"]').scrollTop};
}"""


def swipe_up(context, page, index: int) -> tuple[dict, dict]:
    """A finger swipe up (and a little sideways) from inside chart `index`; state before/after."""
    chart = page.locator(".js-plotly-plot").nth(index)
    chart.scroll_into_view_if_needed()
    before = page.evaluate(STATE, index)
    box = chart.locator(".nsewdrag").first.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.7
    cdp = context.new_cdp_session(page)
    moves = [(-40 * k, -20 * k) for k in range(5)]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for dy, dx in moves[1:]:
        point = {"x": x + dx, "y": y + dy}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function(f"({STATE})({index}).top !== {before['top']}", timeout=LOAD_MS)
    return before, page.evaluate(STATE, index)


TAP_TARGETS = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const sel = 'button, a[href], textarea, summary, [data-testid="stRadioOption"], '
    + '[data-testid="stCheckbox"] label, .react-aria-ComboBox > [role="group"], '
    + '[data-testid="stNumberInputContainer"]';
  const small = [];
  for (const e of main.querySelectorAll(sel)) {
    if (e.closest('.modebar, svg, [data-testid="stSkipToContent"]')) continue;
    if (e.closest('.react-aria-ComboBox')?.contains(e) && e.tagName === 'BUTTON')
      continue;  // the select's arrow: part of the whole select, which is measured
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(e).visibility === 'hidden') continue;
    if (r.width < 44 || r.height < 44)
      small.push(`${e.tagName} ${Math.round(r.width)}x${Math.round(r.height)} `
        + (e.getAttribute('aria-label') || e.textContent || '').trim().slice(0, 16));
  }
  return small;
}"""


def test_a_swipe_over_a_chart_on_a_phone_scrolls_the_page(browser, streamlit_server):
    """Issue 15: a swipe over a heatmap zoomed it (x [-0.5, 12.5] → [5.96, 12.79])."""
    context = browser.new_context(
        reduced_motion=REDUCED_MOTION,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    page = context.new_page()
    try:
        open_settled(page, f"{streamlit_server}/order", (390, 844))
        index = page.evaluate(TOKEN_MAP)
        assert index >= 0, "no token map on /order"
        before, after = swipe_up(context, page, index)
        assert after["top"] > before["top"]  # the page moved under the finger
        assert (after["x"], after["y"]) == (before["x"], before["y"])  # the map did not
        # A chart whose figure still has a drag mode (another builder's) is held by the frame.
        other = page.evaluate(DRAGGABLE)
        if other >= 0:
            before, after = swipe_up(context, page, other)
            assert after["top"] > before["top"]
            assert (after["x"], after["y"]) == (before["x"], before["y"])
    finally:
        context.close()


@pytest.mark.parametrize("name", ["main", "scaling", "order"])
def test_phone_tap_targets_are_44_px_and_charts_have_no_toolbar(browser, streamlit_server, name):
    context = browser.new_context(
        reduced_motion=REDUCED_MOTION,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    page = context.new_page()
    try:
        open_settled(page, url_of(streamlit_server, name), (390, 844))
        assert page.evaluate(TAP_TARGETS) == []
        visible_bars = page.locator(".modebar-container").evaluate_all(
            "bars => bars.filter(b => getComputedStyle(b).display !== 'none').length"
        )
        assert visible_bars == 0
    finally:
        context.close()
