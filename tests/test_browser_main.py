"""The main page in Chromium: Chinese tick labels, live scaling, share link, screenshots."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
LOAD_MS = 90_000
HEAD_Z = """() => {
  const gd = document.querySelector('.st-key-head_grid .js-plotly-plot');
  const z = gd && gd.data && gd.data[0] && gd.data[0].z;
  if (!z) return null;
  return z.bdata ? z.bdata : JSON.stringify(Array.from(z, r => Array.from(r)));
}"""


def open_main(page, url: str, width: int = 1280, height: int = 720) -> None:
    """Load a main-page URL and wait until the first heatmap has tick labels."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(".st-key-head_grid .js-plotly-plot g.xtick text", timeout=LOAD_MS)
    page.wait_for_function(f"({HEAD_Z})() !== null", timeout=LOAD_MS)


def tick_labels(page) -> list[str]:
    return page.locator(".st-key-head_grid .js-plotly-plot g.xtick text").all_text_contents()


def shot(page, name: str, maps: bool = False) -> None:
    """Save a screenshot; with maps=True, first scroll the head grid into view."""
    ARTIFACTS.mkdir(exist_ok=True)
    if maps:
        page.locator(".st-key-head_grid").scroll_into_view_if_needed()
        page.wait_for_timeout(300)
    page.screenshot(path=str(ARTIFACTS / name))


def test_chinese_ticks_scaling_toggle_and_address_bar(page, streamlit_server):
    open_main(page, streamlit_server)
    labels = tick_labels(page)
    assert {"小明", "他", "桌子"} <= set(labels)
    shot(page, "main_desktop_1280x720.png")
    before = page.evaluate(HEAD_Z)
    page.locator(".st-key-scale label").first.click()
    page.wait_for_function(f"({HEAD_Z})() !== {before!r}", timeout=LOAD_MS)
    page.wait_for_url("**scale=0**", timeout=LOAD_MS)
    assert "scale=0" in page.url
    assert "d=64" in page.url and "h=4" in page.url  # the other controls kept their values
    page.locator(".st-key-classroom label").first.click()
    page.wait_for_url("**class=1**", timeout=LOAD_MS)
    assert page.locator(".st-key-scale input").is_checked() is False
    assert not page.locator("[data-testid='stException']").count()


PLOT_AREAS = """() => Array.from(document.querySelectorAll('.st-key-head_grid .js-plotly-plot'))
  .map(gd => {
    const area = gd.querySelector('.nsewdrag').getBoundingClientRect();
    return {w: area.width, h: area.height, bar: !!gd.querySelector('.colorbar'),
            pushed: gd._fullLayout.margin.r !== gd._fullLayout._size.r};
  })"""


@pytest.mark.parametrize(
    ("query", "bars"),
    [("", [False, True, False, True]), ("?class=1", [True, True, True, True])],
)
def test_head_maps_are_equal_squares_with_one_colour_bar_per_row(
    page, streamlit_server, query, bars
):
    open_main(page, f"{streamlit_server}/{query}")
    maps = page.evaluate(PLOT_AREAS)
    assert len(maps) == 4
    assert [m["bar"] for m in maps] == bars  # two to a row at 1280 px, one in classroom mode
    assert max(m["w"] for m in maps) - min(m["w"] for m in maps) <= 1
    assert all(abs(m["w"] - m["h"]) <= 1 for m in maps)
    assert not any(m["pushed"] for m in maps)  # the reserved room held the bar: one layout pass


def test_classroom_mode_screenshot(page, streamlit_server):
    open_main(page, f"{streamlit_server}/?class=1")
    size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector("
        "'.st-key-head_grid g.xtick text')).fontSize)"
    )
    assert size >= 16
    shot(page, "main_classroom_1280x720.png")
    shot(page, "main_classroom_1280x720_maps.png", maps=True)


def test_phone_layout_has_no_sideways_scroll(page, streamlit_server):
    open_main(page, streamlit_server, 390, 844)
    page.wait_for_timeout(500)  # let the columns settle after the first paint
    overflow = page.evaluate(
        "() => document.querySelector('[data-testid=\"stMain\"]').scrollWidth - window.innerWidth"
    )
    assert overflow <= 1
    widths = page.evaluate(
        "() => Array.from(document.querySelectorAll('.st-key-head_grid .js-plotly-plot'))"
        ".map(e => e.getBoundingClientRect().width)"
    )
    assert widths and min(widths) > 300  # one map per row, not four squeezed ones
    shot(page, "main_phone_390x844.png")
    shot(page, "main_phone_390x844_maps.png", maps=True)


def test_markup_in_the_sentence_stays_text(page, streamlit_server):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sentence = "<img src=x onerror=alert(1)><script>alert(2)</script>他"
    open_main(page, f"{streamlit_server}/?s={quote(sentence)}")
    assert page.locator("img[src='x']").count() == 0
    assert not any("alert" in (s or "") for s in page.locator("script").all_text_contents())
    labels = tick_labels(page)
    assert "<" in labels and "img" in labels  # jieba splits the markup; it shows as text
    chips = " ".join(page.locator(".st-key-token_chips").all_text_contents())
    assert "<" in chips and "script" in chips
    assert dialogs == []


def test_fresh_server_opens_a_sub_page_link_through_the_router(page, streamlit_factory):
    """A link such as /learned written on the board, opened first on a new server, gets the
    app's sidebar and titles, not Streamlit's bare pages/-folder listing (app, cost, …)."""
    server = streamlit_factory("app.py")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server.url}/order")
    nav = page.locator("[data-testid='stSidebarNav']")
    nav.get_by_text("词序与位置编码").wait_for(timeout=LOAD_MS)
    links = nav.locator("a").all_text_contents()
    assert not any(link.strip() in {"app", "order", "main"} for link in links), links
    assert page.locator(".st-key-d_model").count() == 1  # the shared settings are there
    assert not page.locator("[data-testid='stException']").count()
