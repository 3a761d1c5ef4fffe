"""The main page's attention view (ui/explorer) in Chromium: its arithmetic against the core, its
switches, sync with the sidebar and the share link, the keyboard, and long sentences."""

from __future__ import annotations

import math
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import numpy as np
import pytest

from attention_core import (
    build_inputs,
    causal_mask,
    init_params,
    multi_head_attention,
    scaled_dot_product_attention,
    tokenize,
)
from ui.explorer import HERE

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
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
IDLE = """() => !document.querySelector('[data-stale="true"]')
  && !(document.querySelector('[data-testid="stStatusWidget"]')?.innerText?.length > 0)"""


def reference(scale: bool, causal: bool, d_model: int = 64, heads: int = 4, text=SENTENCE):
    """The core's weights (h, n, n) for the default random-weight settings."""
    tokens = tokenize(text, mode="word")
    x = build_inputs(tokens, d_model, positions=False)  # (n, d_model)
    mask = causal_mask(len(tokens)) if causal else None
    return multi_head_attention(x, init_params(d_model, heads, 0), scale=scale, mask=mask)


def open_view(page, url: str, width: int = 1280, height: int = 800) -> None:
    """Load a main-page URL and wait until the view has drawn and Streamlit is idle."""
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(MAP, timeout=LOAD_MS)
    page.wait_for_function(f"({RENDERS})() > 0", timeout=LOAD_MS)
    settle(page)


def settle(page) -> None:
    page.wait_for_function(IDLE, timeout=LOAD_MS, polling=100)
    page.wait_for_timeout(400)
    page.wait_for_function(IDLE, timeout=LOAD_MS, polling=100)


def map_pixels(page, head: int = 0) -> str:
    return page.locator(MAP).nth(head).evaluate("c => c.toDataURL()")


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


# ---- the arithmetic: softmax.js against the core, no server ----------------------------------


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("causal", [False, True])
def test_softmax_js_equals_scaled_dot_product_attention(page, scale, causal):
    page.set_content(f"<script>{(HERE / 'softmax.js').read_text(encoding='utf-8')}</script>")
    rng = np.random.default_rng(7)
    for n, d_k in ((1, 4), (13, 16), (40, 8), (64, 64)):
        q, k, v = rng.standard_normal((3, n, d_k)) * 3  # large scores: saturated rows too
        mask = causal_mask(n) if causal else None
        core = scaled_dot_product_attention(q, k, v, scale=scale, mask=mask)
        scores = core.scores.astype(np.float32)  # what Python sends the view
        got = page.evaluate(
            """([s, n, d, c]) => Array.from(attentionWeights(
                 new Float32Array(s), 0, n, d, c, new Float64Array(n * n)))""",
            [scores.ravel().tolist(), n, math.sqrt(d_k) if scale else 1.0, causal],
        )
        np.testing.assert_allclose(np.reshape(got, (n, n)), core.weights, atol=1e-4, rtol=0)
        if causal:
            assert np.all(np.reshape(got, (n, n))[~causal_mask(n)] == 0)


def test_row_stats_js_equal_numpy(page):
    from attention_core.analysis import row_entropy

    page.set_content(f"<script>{(HERE / 'softmax.js').read_text(encoding='utf-8')}</script>")
    w = np.random.default_rng(3).dirichlet(np.ones(9) * 0.3, size=9)  # (9, 9) rows sum to 1
    got = page.evaluate("([w, n]) => rowStats(new Float64Array(w), n)", [w.ravel().tolist(), 9])
    assert got["entropy"] == pytest.approx(row_entropy(w, base=2).mean(), abs=1e-9)
    assert got["max"] == pytest.approx(w.max(-1).mean(), abs=1e-12)


# ---- the view on the main page -----------------------------------------------------------------


def test_in_view_switches_change_pixels_and_the_table_holds_the_cores_weights(
    page, streamlit_server
):
    open_view(page, f"{streamlit_server}/?w=random")
    n = 13
    page.locator(MAP).first.evaluate("c => c.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)  # maps off screen are drawn when they scroll in
    seen = {map_pixels(page)}
    for scale, causal in ((True, False), (False, False), (False, True), (True, True)):
        if page.locator('[data-testid="explorer-scale"]').is_checked() != scale:
            page.locator('[data-testid="explorer-scale"]').click()
        if page.locator('[data-testid="explorer-causal"]').is_checked() != causal:
            page.locator('[data-testid="explorer-causal"]').click()
        page.wait_for_timeout(100)
        seen.add(map_pixels(page))
        want = reference(scale, causal).heads.weights
        for head in range(4):
            np.testing.assert_allclose(table_weights(page, head, n), want[head], atol=1e-4)
    assert len(seen) == 4, "every switch combination draws different pixels"
    assert not page.locator("[data-testid='stException']").count()


def test_a_switch_answers_in_the_browser_and_its_rerun_draws_nothing(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    before = page.evaluate(RENDERS)
    page.locator('[data-testid="explorer-scale"]').click()
    page.wait_for_function(f"({RENDERS})() === {before + 1}", timeout=5_000)
    page.wait_for_url("**scale=0**", timeout=LOAD_MS)  # Python followed (component state)
    settle(page)
    assert page.evaluate(RENDERS) == before + 1, "the rerun after the click redrew the view"
    assert page.locator(".st-key-scale input").is_checked() is False  # the sidebar followed


def test_sidebar_switch_reaches_the_view_updated_in_place(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    page.evaluate(
        """() => { window.__root = document.querySelector('[data-testid="stBidiComponentIsolated"]')
          .shadowRoot.querySelector('[data-testid="explorer"]'); }"""
    )
    page.locator(".st-key-causal label").first.click()
    page.wait_for_function(
        """() => document.querySelector('[data-testid="stBidiComponentIsolated"]').shadowRoot
          .querySelector('[data-testid="explorer-causal"]').checked""",
        timeout=LOAD_MS,
    )
    settle(page)
    before = page.locator(MAP).count()
    page.locator(".st-key-heads input").first.press("ArrowLeft")  # h 4 → 2
    maps = f"() => {SHADOW}.querySelectorAll('{MAP}').length === 2"
    page.wait_for_function(maps, timeout=LOAD_MS)
    assert before == 4
    same = page.evaluate(
        """() => window.__root === document.querySelector('[data-testid="stBidiComponentIsolated"]')
          .shadowRoot.querySelector('[data-testid="explorer"]') && window.__root.isConnected"""
    )
    assert same, "the view was torn down and rebuilt instead of updated in place"


def test_a_link_copied_after_in_view_changes_restores_the_view(page, streamlit_server, browser):
    open_view(page, f"{streamlit_server}/?w=random")
    page.locator('[data-testid="explorer-causal"]').click()
    page.locator('[data-testid="explorer-tokens"] [data-i="0"]').click()  # 小明
    page.locator('[data-testid="explorer-heads"] [data-head="2"]').click()  # head 3
    tau = page.locator('[data-testid="explorer-tau"]')
    tau.focus()
    for _ in range(40):
        tau.press("ArrowRight")
    page.wait_for_url("**tau=**", timeout=LOAD_MS)
    page.wait_for_url("**head=3**", timeout=LOAD_MS)
    settle(page)
    shown = page.locator('[data-testid="explorer-tau-value"]').inner_text()
    link = page.url
    query = parse_qs(urlparse(link).query)
    assert query["causal"] == ["1"] and query["focus"] == ["小明"] and query["head"] == ["3"]
    other = browser.new_page()
    open_view(other, link)
    assert other.locator('[data-testid="explorer-causal"]').is_checked()
    assert (
        other.locator('[data-testid="explorer-tokens"] [aria-checked="true"]').inner_text()[:2]
        == "小明"
    )
    assert (
        other.locator('[data-testid="explorer-heads"] [aria-checked="true"]').get_attribute(
            "data-head"
        )
        == "2"
    )
    assert other.locator('[data-testid="explorer-tau-value"]').inner_text() == shown
    other.close()


def test_keyboard_moves_a_cell_cursor_and_the_live_region_reads_it(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    first = page.locator(MAP).first
    first.focus()
    live = page.locator('[data-testid="explorer-live"]')
    page.wait_for_function(
        """() => document.querySelector('[data-testid="stBidiComponentIsolated"]').shadowRoot
          .querySelector('[data-testid="explorer-live"]').textContent.length > 0"""
    )
    first.press("PageUp")  # row 0: 小明
    first.press("Home")  # key 0: 小明
    first.press("ArrowRight")  # key 1: 把
    w = reference(True, False).heads.weights[0, 0, 1]
    assert live.inner_text() == f"头 1：小明 → 把：{100 * w:.1f}%"
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
    page.locator('[data-testid="explorer-scale"]').click()
    page.wait_for_timeout(300)
    own = [e for e in errors if "ERR_NAME_NOT_RESOLVED" not in e]
    assert not own, own
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


def test_maps_off_screen_are_drawn_when_they_scroll_in(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random&h=8", 1280, 800)
    last = page.locator(MAP).nth(7)
    before = last.evaluate("c => c.toDataURL()")
    page.locator('[data-testid="explorer-scale"]').click()  # at the top: map 8 is off screen
    page.wait_for_timeout(300)
    last.evaluate("c => c.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(500)
    assert last.evaluate("c => c.toDataURL()") != before


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


def test_the_sidebar_switches_are_answered_in_the_browser_too(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    before = page.evaluate(RENDERS)
    page.locator(".st-key-scale label").first.click()  # the sidebar's √d_k, not the view's
    page.wait_for_function(f"({RENDERS})() === {before + 1}", timeout=5_000)
    assert not page.locator('[data-testid="explorer-scale"]').is_checked()  # before the server
    page.wait_for_url("**scale=0**", timeout=LOAD_MS)
    settle(page)
    assert page.evaluate(RENDERS) == before + 1, "the rerun after the sidebar click redrew"
    page.locator(".st-key-causal label").first.click()
    page.wait_for_function(
        f"() => {SHADOW}.querySelector('[data-testid=\"explorer-causal\"]').checked", timeout=5_000
    )
    want = reference(False, True).heads.weights
    np.testing.assert_allclose(table_weights(page, 0, 13), want[0], atol=1e-4)


def test_clicking_a_row_label_picks_that_token(page, streamlit_server):
    open_view(page, f"{streamlit_server}/?w=random")
    canvas = page.locator(MAP).nth(1)
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + 8, box["y"] + 10)  # left of the cells, in row 0: its label
    page.wait_for_url("**head=2**", timeout=LOAD_MS)
    page.wait_for_url("**focus=%E5%B0%8F%E6%98%8E**", timeout=LOAD_MS)  # 小明, the first row
