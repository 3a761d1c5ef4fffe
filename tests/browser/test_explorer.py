"""The main page's attention view (ui/explorer) in Chromium: its switches, the share link, the
keyboard, long sentences (its JavaScript alone: tests/browser/test_view_js.py)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import numpy as np
import pytest

from attention_core import (
    build_inputs,
    causal_mask,
    init_params,
    multi_head_attention,
    tokenize,
)
from tests import browser_support as waits
from ui.text import t

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LOAD_MS = 90_000
SENTENCE = "小明把书放在了桌子上，然后他走了。"
LONG = (
    "小明把书放在了桌子上，然后他走了。小红拿起那本书，看了看封面，又把它放回了桌子上。"
    "老师走进教室，看见书在桌子上，就问这是谁的书。小明回来以后，发现书不见了，他很着急，到处寻找。"
)
MAP = '[data-testid="explorer-map"]'
SHADOW = """document.querySelector('[data-testid="stBidiComponentIsolated"]').shadowRoot"""
RENDERS = """() => Number(document.querySelector('[data-testid="stBidiComponentIsolated"]')
  .shadowRoot.querySelector('[data-testid="explorer"]').dataset.renders || 0)"""
ROOT = f"{SHADOW}.querySelector('[data-testid=\"explorer\"]')"
# Python has applied the view's latest change and its rerun's payload has reached the view.
CAUGHT_UP = f"() => {{ const r = {ROOT}; return r && r.dataset.ack === (r.dataset.seq || '0'); }}"


def reference(scale: bool, causal: bool, d_model: int = 64, heads: int = 4, text=SENTENCE):
    """The core's weights (h, n, n) for the default random-weight settings."""
    tokens = tokenize(text, mode="word")
    x = build_inputs(tokens, d_model, positions=False)  # (n, d_model)
    mask = causal_mask(len(tokens)) if causal else None
    return multi_head_attention(x, init_params(d_model, heads, 0), scale=scale, mask=mask)


def open_view(page, url: str, width: int = 1280, height: int = 800) -> None:
    """Load a main-page URL and wait until the view has settled and caught up with Python."""
    waits.open_view(page, url, width, height)
    settle(page)


def settle(page) -> None:
    """The view caught up with Python (no change of its own pending), Streamlit idle and the view
    drawn for it (browser_support.wait_settled)."""
    page.wait_for_function(CAUGHT_UP, timeout=LOAD_MS, polling=50)
    waits.wait_settled(page, LOAD_MS)


def wait_live(page, needle: str = "") -> None:
    """Until the view's live region says something (that holds `needle`)."""
    page.wait_for_function(
        f"""(needle) => {{
          const text = {ROOT}.querySelector('[data-testid="explorer-live"]').textContent;
          return text.length > 0 && text.includes(needle); }}""",
        arg=needle,
        timeout=LOAD_MS,
    )


def renders(page) -> int:
    return page.evaluate(RENDERS)


def wait_renders(page, above: int) -> None:
    """Until the view has committed a frame after the one counted `above`."""
    page.wait_for_function(f"({RENDERS})() > {above}", timeout=LOAD_MS, polling="raf")


def map_pixels(page, head: int = 0) -> str:
    """Head map `head`'s pixels, once it is on screen and drawn there (a map that scrolled out of
    sight, say while the head picker under the maps was clicked, is drawn when it comes back)."""
    return waits.map_pixels(page, head)


def table_weights(page, head: int, n: int) -> np.ndarray:
    """The inspected head's weights as the view's data table holds them (data-w)."""
    page.locator(f'[data-testid="explorer-heads"] [data-head="{head}"]').click()
    box = page.locator(".table-box")
    if not box.evaluate("d => d.open"):
        box.locator("summary").click()
    cells = page.locator('[data-testid="explorer-table"] td[data-w]')
    page.wait_for_function(
        """([n, head]) => {
          const root = document.querySelector('[data-testid="stBidiComponentIsolated"]').shadowRoot;
          const cap = root.querySelector('[data-testid="explorer-table"] caption');
          return root.querySelectorAll('[data-testid="explorer-table"] td[data-w]').length === n * n
            && cap && cap.textContent.includes(String(head + 1));
        }""",
        arg=[n, head],
        timeout=LOAD_MS,
    )
    return np.array(cells.evaluate_all("els => els.map(e => Number(e.dataset.w))")).reshape(n, n)


# ---- the view on the main page -----------------------------------------------------------------


def test_in_view_switches_change_pixels_and_the_table_holds_the_cores_weights(
    page, streamlit_server
):
    open_view(page, f"{streamlit_server}/?w=random")
    n = 13
    seen = {map_pixels(page)}
    for scale, causal in ((True, False), (False, False), (False, True), (True, True)):
        # The first map in sight (the table below took the page down), so the switches redraw it
        # at once; the sticky toolbar keeps them in reach.
        page.locator(MAP).first.evaluate("c => c.scrollIntoView({block: 'center'})")
        for name, want in (("scale", scale), ("causal", causal)):
            switch = page.locator(f'[data-testid="explorer-{name}"]')
            if switch.is_checked() != want:
                count = renders(page)
                switch.click()
                wait_renders(page, count)
        seen.add(map_pixels(page))
        want = reference(scale, causal).heads.weights
        for head in range(4):
            np.testing.assert_allclose(table_weights(page, head, n), want[head], atol=1e-4)
    assert len(seen) == 4, "every switch combination draws different pixels"
    assert not page.locator("[data-testid='stException']").count()


def test_a_switch_answers_in_the_browser_and_its_rerun_draws_nothing(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    before = renders(page)
    page.locator('[data-testid="explorer-scale"]').click()
    page.wait_for_function(f"({RENDERS})() === {before + 1}", timeout=5_000)
    page.wait_for_url("**scale=0**", timeout=LOAD_MS)  # Python followed (component state)
    settle(page)  # the rerun's payload has reached the view
    assert renders(page) == before + 1, "the rerun after the click redrew the view"
    live = page.locator('[data-testid="explorer-live"]')
    expect_text = t("explorer.tau_off", "zh", s="4.00")
    wait_live(page)
    assert expect_text in live.inner_text()  # a screen reader hears what changed


def test_the_main_page_has_one_pair_of_switches_and_says_where(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    sidebar = page.locator('[data-testid="stSidebar"]')
    assert not sidebar.locator(".st-key-scale, .st-key-causal").count()
    assert t("explorer.side_owned", "zh") in sidebar.inner_text()
    bar = page.locator('[data-testid="explorer"] [role="toolbar"]')
    assert bar.get_attribute("aria-label") == t("explorer.toolbar", "zh")
    assert page.locator('[data-testid="explorer-story"]').get_attribute("aria-live") == "polite"


def test_sidebar_change_reaches_the_view_updated_in_place(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    page.evaluate(f"() => {{ window.__root = {ROOT}; }}")
    before = page.locator(MAP).count()
    page.locator(".st-key-heads input").first.press("ArrowLeft")  # h 4 → 2
    maps = f"() => {SHADOW}.querySelectorAll('{MAP}').length === 2"
    page.wait_for_function(maps, timeout=LOAD_MS)
    assert before == 4
    same = page.evaluate(f"() => window.__root === {ROOT} && window.__root.isConnected")
    assert same, "the view was torn down and rebuilt instead of updated in place"


def test_a_link_copied_after_in_view_changes_restores_the_view(page, streamlit_server, browser):
    open_view(page, f"{streamlit_server}/?w=random&shared=0&nums=1")
    page.locator('[data-testid="explorer-causal"]').click()
    page.locator('[data-testid="explorer-tokens"] [data-i="11"]').click()  # the second 了
    page.locator('[data-testid="explorer-heads"] [data-head="2"]').click()  # head 3
    tau = page.locator('[data-testid="explorer-tau"]')
    tau.focus()
    for _ in range(40):
        tau.press("ArrowRight")
    page.wait_for_url("**tau=**", timeout=LOAD_MS)
    page.wait_for_url("**head=3**", timeout=LOAD_MS)
    settle(page)
    shown = page.locator('[data-testid="explorer-tau-value"]').inner_text()
    # The address follows the slider a moment later (written once the keys stop): wait for the
    # τ on screen, not for the first tau= (on a loaded machine that was an earlier value).
    value = float(shown.split("=")[-1])

    def says_shown(url: str) -> bool:
        tau = parse_qs(urlparse(url).query).get("tau")
        return bool(tau) and f"{float(tau[0]):.2f}" == f"{value:.2f}"

    page.wait_for_url(says_shown)
    link = page.url
    query = parse_qs(urlparse(link).query)
    assert query["causal"] == ["1"] and query["focus"] == ["了"] and query["nth"] == ["2"]
    assert query["head"] == ["3"] and query["shared"] == ["0"] and query["nums"] == ["1"]
    other = browser.new_page(reduced_motion=waits.REDUCED_MOTION)
    open_view(other, link)
    assert other.locator('[data-testid="explorer-causal"]').is_checked()
    chosen = other.locator('[data-testid="explorer-tokens"] [aria-checked="true"]')
    assert chosen.get_attribute("data-i") == "11" and chosen.inner_text().startswith("了₂")
    head = other.locator('[data-testid="explorer-heads"] [aria-checked="true"]')
    assert head.get_attribute("data-head") == "2"
    assert other.locator('[data-testid="explorer-tau-value"]').inner_text() == shown
    assert other.locator('[data-testid="explorer-range"]').first.inner_text()  # own scales
    other.close()


def test_own_colour_scales_say_each_maps_range(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random&shared=0")
    want = reference(True, False).heads.weights.max(axis=(1, 2))  # (h,) each map's top
    ranges = page.locator('[data-testid="explorer-range"]').all_inner_texts()
    assert ranges == [t("explorer.map_range", "zh", max=f"{100 * w:.1f}%") for w in want]
    open_view(page, f"{streamlit_server}/?w=random&shared=1")
    assert not any(page.locator('[data-testid="explorer-range"]').all_inner_texts())


def test_numbers_that_do_not_fit_are_said_to_be_left_out(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random&nums=1&s={quote(LONG)}", 1280, 800)
    note = page.locator('[data-testid="explorer-no-numbers"]')
    note.wait_for(state="visible", timeout=LOAD_MS)
    n = page.locator('[data-testid="explorer-tokens"] .token').count()
    assert note.inner_text() == t("explorer.no_numbers", "zh", n=n)
    open_view(page, f"{streamlit_server}/?w=random&nums=1")
    assert page.locator('[data-testid="explorer-no-numbers"]').is_hidden()  # 13 tokens fit


def test_keyboard_moves_a_cell_cursor_and_the_live_region_reads_it(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    first = page.locator(MAP).first
    first.focus()
    live = page.locator('[data-testid="explorer-live"]')
    wait_live(page)
    first.press("PageUp")  # row 0: 小明
    first.press("Home")  # key 0: 小明
    wait_live(page, "小明 → 小明")
    first.press("ArrowRight")  # key 1: 把
    w = reference(True, False).heads.weights[0, 0, 1]
    wait_live(page, "把")
    assert live.inner_text() == f"头 1：小明 → 把：{100 * w:.1f}%"
    first.press("End")  # key 12: the second 了 is named apart from the first
    wait_live(page, "。")
    first.press("ArrowLeft")
    wait_live(page, "了₂")
    first.press("Enter")  # inspect head 1 with 小明 as the focus
    page.wait_for_url("**focus=%E5%B0%8F%E6%98%8E**", timeout=LOAD_MS)


def test_long_sentence_sixteen_heads_draws_without_console_errors(page, streamlit_server):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    open_view(page, f"{streamlit_server}/?w=random&h=16&s={quote(LONG)}", 1280, 800)
    assert page.locator(MAP).count() == 16
    sizes = page.locator(MAP).evaluate_all("cs => cs.map(c => [c.width, c.height])")
    assert all(w > 300 and h > 300 for w, h in sizes), sizes
    count = renders(page)
    page.locator('[data-testid="explorer-scale"]').click()
    wait_renders(page, count)
    settle(page)
    own = [e for e in errors if "ERR_NAME_NOT_RESOLVED" not in e]
    assert not own, own
    swatches = page.locator('[data-testid="explorer"] .legend .swatch').evaluate_all(
        "els => els.map(e => getComputedStyle(e).backgroundColor)"
    )
    assert len(set(swatches)) == 16, "sixteen heads, sixteen colours"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "explorer_64x16_1280x800.png"))


def test_phone_layout_one_map_per_row_and_no_sideways_scroll(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random", 390, 844)
    lefts = page.locator(MAP).evaluate_all("cs => cs.map(c => c.getBoundingClientRect().left)")
    assert len(set(round(x) for x in lefts)) == 1, "one map per row"
    wide = page.evaluate(
        """() => [document.scrollingElement.scrollWidth,
                  document.querySelector('[data-testid="stMain"]').scrollWidth]"""
    )
    assert max(wide) <= 390, wide
    right = page.locator(MAP).evaluate_all("cs => cs.map(c => c.getBoundingClientRect().right)")
    assert max(right) <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "explorer_phone_390.png"))


def test_a_tap_shows_the_tooltip_briefly_and_the_words_say_tap(browser, streamlit_server):
    size = {"width": 390, "height": 844}
    phone = browser.new_context(
        reduced_motion=waits.REDUCED_MOTION, viewport=size, has_touch=True, is_mobile=True
    )
    page = phone.new_page()
    open_view(page, f"{streamlit_server}/?w=random&lang=en", 390, 844)
    caption = t("explorer.heads_caption_touch", "en")
    assert caption in page.locator('[data-testid="explorer"]').inner_text()
    story = page.locator('[data-testid="explorer-story"]').inner_text()
    assert "“他 (he)”" in story  # English readers get the token's gloss
    canvas = page.locator(MAP).first
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    canvas.tap(position={"x": box["width"] * 0.6, "y": box["height"] * 0.4})
    tip = page.locator('[data-testid="explorer-tip"]')
    tip.wait_for(state="visible", timeout=5_000)
    tip.wait_for(state="hidden", timeout=10_000)  # it does not stay up after the finger left
    phone.close()


def test_maps_off_screen_are_drawn_when_they_scroll_in(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random&h=8", 1280, 800)
    last = page.locator(MAP).nth(7)
    before = last.evaluate("c => c.toDataURL()")
    count = renders(page)
    page.locator('[data-testid="explorer-scale"]').click()  # at the top: map 8 is off screen
    wait_renders(page, count)
    assert last.evaluate("c => c.toDataURL()") == before, "drawn while off screen"
    assert last.get_attribute("data-stale") == "1"  # put off until it is seen
    assert waits.map_pixels(page, 7) != before  # scrolled in: drawn with the switch off


def test_png_export_is_the_whole_view_at_projector_width(page, streamlit_server, tmp_path):
    open_view(page, f"{streamlit_server}/?w=random")
    with page.expect_download(timeout=LOAD_MS) as info:
        page.locator('[data-testid="explorer-png"]').click()
    path = tmp_path / "view.png"
    info.value.save_as(path)
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
    assert width == 1920 and height > 1080, (width, height)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "explorer_export.png").write_bytes(path.read_bytes())


DEEP_FOCUS = """() => { let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return e && (e.dataset.testid || e.closest('[data-testid]')?.dataset.testid || e.tagName); }"""


@pytest.mark.parametrize("query", ["", "?class=1", "?lang=en"])
def test_tab_from_the_top_reaches_the_switch_tokens_and_head_picker(page, streamlit_server, query):
    open_view(page, f"{streamlit_server}/{query}", 1280, 800)
    page.locator("body").focus()
    reached: dict[str, int] = {}
    for stop in range(1, 16):
        page.keyboard.press("Tab")
        where = page.evaluate(DEEP_FOCUS)
        if where == "explorer-skip":  # the first stop: "跳到注意力图" jumps into the view
            page.keyboard.press("Enter")
            where = page.evaluate(DEEP_FOCUS)
        reached.setdefault(where, stop)
    for wanted in ("explorer-scale", "explorer-tokens", "explorer-heads"):
        assert wanted in reached, reached
    chosen = page.locator('[data-testid="explorer-tokens"] [tabindex="0"]').inner_text()
    assert chosen.startswith("他")  # the selected token is the one the Tab lands on


def test_clicking_a_row_label_picks_that_token(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    canvas = page.locator(MAP).nth(1)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + 8, box["y"] + 10)  # left of the cells, in row 0: its label
    page.wait_for_url("**head=2**", timeout=LOAD_MS)
    page.wait_for_url("**focus=%E5%B0%8F%E6%98%8E**", timeout=LOAD_MS)  # 小明, the first row


PAGE_RUN = f"() => {ROOT}.dataset.pageRun"


def test_a_view_change_reruns_only_the_views_fragment_and_the_export_follows_it(
    page, streamlit_server
):
    open_view(page, f"{streamlit_server}/?w=random")
    runs = page.evaluate(PAGE_RUN)
    page.locator('[data-testid="explorer-scale"]').click()
    page.locator('[data-testid="explorer-causal"]').click()
    page.locator('[data-testid="explorer-tokens"] [data-i="11"]').click()  # the second 了
    page.locator('[data-testid="explorer-heads"] [data-head="2"]').click()  # head 3
    page.wait_for_url("**head=3**", timeout=LOAD_MS)
    settle(page)
    query = parse_qs(urlparse(page.url).query)
    assert query["scale"] == ["0"] and query["causal"] == ["1"]  # the fragment wrote them
    assert query["focus"] == ["了"] and query["nth"] == ["2"] and query["head"] == ["3"]
    assert page.evaluate(PAGE_RUN) == runs, "a view change reran the whole page"
    with page.expect_download(timeout=LOAD_MS) as got:  # built now, from what the view shows
        page.locator(".st-key-settings_json button").click()
    saved = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert (saved["scale"], saved["causal"], saved["head"]) == (False, True, 3)
    assert saved["in_force"]["scale"] is False and saved["in_force"]["causal"] is True
    page.locator(".st-key-heads input").first.press("ArrowLeft")  # a sidebar change: h 4 → 2
    page.wait_for_function(f"() => {SHADOW}.querySelectorAll('{MAP}').length === 2")
    settle(page)
    assert int(page.evaluate(PAGE_RUN)) > int(runs)  # … reruns the page, and the counter moves


def test_open_matrices_follow_the_views_head_and_switches(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    page.locator('[data-testid="explorer-scale"]').click()  # √d_k off while the matrices are shut
    page.wait_for_url("**scale=0**", timeout=LOAD_MS)
    settle(page)
    page.locator(".st-key-matrices_open summary").click()
    code = page.locator(".st-key-matrices_open [data-testid=stCode]")
    out = code.filter(has_text="out = ")
    out.wait_for(timeout=LOAD_MS)
    assert "np.sqrt(d_k)" not in out.inner_text()  # drawn with the view's setting, not the old
    page.locator('[data-testid="explorer-heads"] [data-head="2"]').click()  # head 3
    title = t("main.m.q", "zh", i=3)
    page.locator(".st-key-matrices_open").get_by_text(title).wait_for(timeout=LOAD_MS)
    settle(page)


# The view's code as the page fetched it: (URL path, bytes over the network; 0 from the cache).
BUNDLE_FETCHES = """() => performance.getEntriesByType('resource')
  .filter((e) => new URL(e.name).pathname.startsWith('/_lab/'))
  .map((e) => [new URL(e.name).pathname, e.transferSize])"""


def test_the_views_code_comes_from_its_cached_url_not_the_websocket(page, streamlit_server):
    """Under launcher.py the view imports its bundle from /_lab/view.<hash>.js (ui/bundles.py):
    the first page fetches it, a new page (a new session) takes it from the browser's cache."""
    from ui import bundles

    open_view(page, f"{streamlit_server}/?w=random")
    [(path, size)] = page.evaluate(BUNDLE_FETCHES)
    assert path == bundles.url("view") and size > 0, "the first page fetched it"
    open_view(page, f"{streamlit_server}/?w=random&h=2")  # a new document, a new session
    # transferSize 0: from the browser's cache, not even revalidated (Resource Timing)
    assert page.evaluate(BUNDLE_FETCHES) == [[bundles.url("view"), 0]], "fetched it again"
    # One isolated element (the view); the bundle ran once.
    assert page.locator('[data-testid="stBidiComponentIsolated"]').count() == 1
    assert page.evaluate("globalThis.__attentionLab.mounts()") == 1


@pytest.mark.browser_context_args(reduced_motion="no-preference")
def test_the_switch_knob_slides_unless_the_user_asked_for_less_motion(page, streamlit_server):
    """explorer.css: the √d_k switch's knob slides in 0.1 s; with prefers-reduced-motion: reduce
    (the other tests' setting, tests/conftest.py) it jumps."""
    scale = f"{waits.VIEW}.querySelector('[data-testid=\"explorer-scale\"]')"
    knob = f"() => getComputedStyle({scale}, '::before').transitionDuration"
    open_view(page, f"{streamlit_server}/?w=random")
    assert page.evaluate(knob) == "0.1s"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(knob) == "0s"
