"""The main page in Chromium: Chinese in the view, the sidebar in sync, rooms, markup, router."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from tests import browser_support as waits
from tests.browser_support import LOAD_MS, MAP, SHADOW, VIEW

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
# The README's screenshot and docs/screenshots/ (MAIN_DOCS=1 writes them there, as LESSON_DOCS=1
# does the lesson's): file, window, link, what is shown: the first screen as it loads ("top"), the
# first map in the middle ("map"), the first map with the keyboard's cell cursor on it ("keys").
DOC_SHOTS = [
    ("screenshot.png", (1280, 900), "", "top"),
    ("screenshots/main_1024x768_laptop_top.png", (1024, 768), "", "top"),
    ("screenshots/main_1024x768_classroom_top.png", (1024, 768), "?class=1", "top"),
    ("screenshots/main_1024x768_classroom_map.png", (1024, 768), "?class=1", "map"),
    ("screenshots/main_1280x800_keyboard_en.png", (1280, 800), "?lang=en", "keys"),
    ("screenshots/main_1920x1080_classroom_top.png", (1920, 1080), "?class=1", "top"),
    ("screenshots/main_1920x1080_classroom_map.png", (1920, 1080), "?class=1", "map"),
    ("screenshots/main_390x844_phone_en_top.png", (390, 844), "?lang=en", "top"),
    ("screenshots/main_390x844_phone_en_map.png", (390, 844), "?lang=en", "map"),
]
DEEP_FOCUS = """() => { let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return e ? e.dataset.testid || e.tagName : ''; }"""
# Where the first head map sits in the window, once the layout has stopped moving.
FIRST_MAP_BOX = f"""JSON.stringify((r => [r.x, r.y, r.width, r.height].map(Math.round))(
  {SHADOW}.querySelector('{MAP}').getBoundingClientRect()))"""


# The first head map and the view's √d_k switch as boxes in the window, and whether each is what
# the window shows there (the topmost element at the map's corners, at the switch's middle):
# nothing, such as Streamlit's header, drawn over them.
FIRST_SCREEN = f"""() => {{
  const root = {SHADOW};
  const seen = (e, points) => {{
    const r = e.getBoundingClientRect();
    const box = [r.left, r.top, r.right, r.bottom].map(Math.round);
    return {{ box, shown: points(r).every(([x, y]) => root.elementFromPoint(x, y) === e) }};
  }};
  const corners = (r) => [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3],
    [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
  const middle = (r) => [[(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
  return {{
    map: seen(root.querySelector('{MAP}'), corners),
    scale: seen(root.querySelector('[data-testid="explorer-scale"]'), middle),
  }};
}}"""

SUBSCRIPTS = str.maketrans("", "", "₀₁₂₃₄₅₆₇₈₉")


def tokens(page) -> list[str]:
    """The token chips' texts, without the subscripts that tell repeated tokens apart (了₁)."""
    chips = page.locator('[data-testid="explorer-tokens"] .word').all_text_contents()
    return [chip.translate(SUBSCRIPTS) for chip in chips]


def shot(page, name: str, maps: bool = False) -> None:
    """Save a screenshot; with maps=True, first bring the first head map into the middle."""
    ARTIFACTS.mkdir(exist_ok=True)
    if maps:
        waits.map_pixels(page)  # scrolled there and drawn
    page.screenshot(path=str(ARTIFACTS / name))


def first_map_centred(page) -> dict:
    """Scroll the first head map to the middle; its box once the layout holds still."""
    page.locator(MAP).first.evaluate("c => c.scrollIntoView({block: 'center'})")
    x, y, width, height = json.loads(waits.wait_still(page, FIRST_MAP_BOX))
    return {"x": x, "y": y, "width": width, "height": height}


def test_chinese_tokens_the_views_scaling_reaches_the_address_bar_and_survives(
    page, streamlit_server
):
    """On the main page the view's switch is the √d_k setting (the sidebar shows no second one):
    the maps change, the link follows, and a rerun for another setting keeps it off."""
    waits.open_view(page, f"{streamlit_server}/?w=random", 1280, 720)
    assert {"小明", "他", "桌子"} <= set(tokens(page))
    assert page.locator("[data-testid='stSidebar'] .st-key-scale").count() == 0
    shot(page, "main_desktop_1280x720.png")
    before = waits.map_pixels(page)
    page.locator('[data-testid="explorer-scale"]').click()
    page.wait_for_url("**scale=0**", timeout=LOAD_MS)
    # The click scrolled the switch into view; maps off screen are drawn when they scroll in.
    page.locator(MAP).first.evaluate("c => c.scrollIntoView({block: 'center'})")
    what = "the first head map after the view's √d_k switch"
    waits.wait_changed(page, waits.map_pixels_js(), before, what)
    assert "d=64" in page.url and "h=4" in page.url  # the other controls kept their values
    page.locator(".st-key-classroom label").first.click()
    page.wait_for_url("**class=1**", timeout=LOAD_MS)
    assert "scale=0" in page.url
    page.wait_for_function(
        f"() => !{SHADOW}.querySelector('[data-testid=\"explorer-scale\"]').checked",
        timeout=LOAD_MS,
    )
    assert not page.locator("[data-testid='stException']").count()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)], ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("room", ["0", "1"], ids=["laptop", "classroom"])
def test_the_first_map_and_its_scaling_switch_are_on_the_first_screen(
    page, streamlit_server, size, lang, room
):
    """Issue 31, item 10: the main page is the browser demo, yet at 1024 × 768 its first map began
    at y ≈ 1350, under the title, the examples and the sentence box. Now, on load and without
    scrolling, the whole first map and the √d_k switch that changes it are in the window, with
    the sidebar as it opens (open on a laptop, closed in classroom mode) and in both languages."""
    width, height = size
    waits.open_view(page, f"{streamlit_server}/?lang={lang}&class={room}", width, height)
    where = json.loads(waits.wait_still(page, f"JSON.stringify(({FIRST_SCREEN})())"))
    for name in ("map", "scale"):
        left, top, right, bottom = where[name]["box"]
        assert 0 <= left < right <= width and 0 <= top < bottom <= height, (name, where)
        assert where[name]["shown"], (name, where)  # nothing drawn over it
    if room == "1":  # the projector's room: the first map still read from the back
        assert page.evaluate(f"() => Number({VIEW}.dataset.labelPx)") >= 24


@pytest.mark.parametrize("query", ["", "?class=1"])
def test_head_maps_are_equal_squares_two_to_a_row_on_a_laptop(page, streamlit_server, query):
    waits.open_view(page, f"{streamlit_server}/{query}", 1280, 800)
    # The view fits its first row to the first screen once it knows where that row starts on
    # the page (a layout after the first paint): open_view waited until it settled after that.
    boxes = page.locator(MAP).evaluate_all(
        "cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.width]; })"
    )
    assert len(boxes) == 4
    assert max(w for _, w in boxes) - min(w for _, w in boxes) <= 1
    columns = len({round(x) for x, _ in boxes})
    assert columns == (1 if query else 2)  # classroom: one map per screen width at 1280


def test_classroom_1024x768_shows_a_whole_head_map_with_24px_labels(page, streamlit_server):
    waits.open_view(page, f"{streamlit_server}/?class=1", 1024, 768)
    box = first_map_centred(page)
    header = page.locator("[data-testid='stHeader']").bounding_box() or {"height": 0}
    assert box["y"] >= header["height"] - 1 and box["y"] + box["height"] <= 768, box
    assert page.evaluate(f"() => Number({VIEW}.dataset.labelPx)") >= 24
    shot(page, "main_classroom_1024x768_maps.png")


def test_projector_1920x1080_classroom(page, streamlit_server):
    waits.open_view(page, f"{streamlit_server}/?class=1", 1920, 1080)
    box = first_map_centred(page)
    assert box["y"] >= 0 and box["y"] + box["height"] <= 1080 and box["width"] > 600, box
    assert page.evaluate(f"() => Number({VIEW}.dataset.labelPx)") >= 24
    shot(page, "main_classroom_1920x1080_maps.png")


def test_phone_layout_has_no_sideways_scroll(page, streamlit_server):
    waits.open_view(page, streamlit_server, 390, 844)
    waits.wait_settled(page)  # the columns settle after the first paint
    overflow = page.evaluate(
        "() => document.querySelector('[data-testid=\"stMain\"]').scrollWidth - window.innerWidth"
    )
    assert overflow <= 1
    widths = page.locator(MAP).evaluate_all("cs => cs.map(c => c.getBoundingClientRect().width)")
    assert widths and min(widths) > 300  # one map per row, not four squeezed ones
    shot(page, "main_phone_390x844.png")
    shot(page, "main_phone_390x844_maps.png", maps=True)


def test_markup_in_the_sentence_stays_text(page, streamlit_server):
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    sentence = "<img src=x onerror=alert(1)><script>alert(2)</script>他"
    waits.open_view(page, f"{streamlit_server}/?s={quote(sentence)}", 1280, 720)
    assert page.locator("img[src='x']").count() == 0
    assert not any("alert" in (s or "") for s in page.locator("script").all_text_contents())
    words = tokens(page)
    assert "<" in words and "img" in words  # jieba splits the markup; it shows as text
    assert dialogs == []


def test_fresh_server_opens_a_sub_page_link_through_the_router(page, streamlit_factory):
    """A link such as /learned written on the board, opened first on a new server, gets the
    app's sidebar and titles, not Streamlit's bare pages/-folder listing (app, cost, …)."""
    server = streamlit_factory("launcher.py")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server.url}/order")
    nav = page.locator("[data-testid='stSidebarNav']")
    nav.get_by_text("词序与位置编码").wait_for(timeout=LOAD_MS)
    links = nav.locator("a").all_text_contents()
    assert not any(link.strip() in {"app", "order", "main"} for link in links), links
    page.locator(".st-key-d_model").wait_for(timeout=LOAD_MS)  # the shared settings are there
    assert page.locator(".st-key-d_model").count() == 1
    assert not page.locator("[data-testid='stException']").count()


def keyboard_on_the_first_map(page) -> None:
    """The view's skip link (the page's first Tab stop) to its toolbar, Tab on to the first map,
    then its cell cursor: up to the last row, right twice, as a keyboard user reads a weight."""
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # "跳到注意力图": the √d_k switch has the keyboard
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate(DEEP_FOCUS) == "explorer-map":
            break
    assert page.evaluate(DEEP_FOCUS) == "explorer-map"
    for key in ("ArrowUp", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    waits.wait_still(page, waits.map_pixels_js())


@pytest.mark.parametrize(
    ("name", "size", "query", "what"), DOC_SHOTS, ids=[s[0] for s in DOC_SHOTS]
)
def test_the_docs_screenshots_of_the_main_page(page, streamlit_server, name, size, query, what):
    """The README's screenshot and docs/screenshots/, taken as a reader meets the page; each in
    test-artifacts/docs/, and with MAIN_DOCS=1 in docs/ itself."""
    waits.open_view(page, f"{streamlit_server}/{query}", *size)
    if what == "map":
        waits.map_pixels(page)  # scrolled to the middle and drawn there
    elif what == "keys":
        keyboard_on_the_first_map(page)
    assert not page.locator("[data-testid='stException']").count()
    path = ARTIFACTS / "docs" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path))
    if os.environ.get("MAIN_DOCS") == "1":
        (REPO / "docs" / name).write_bytes(path.read_bytes())
