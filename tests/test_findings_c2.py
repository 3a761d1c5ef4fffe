"""Issue 23's findings on the order and cost pages, the sidebar, the README and the figure kit.

One test per finding, named by its item number; each asserts what a person sees (AppTest
elements, the chart specs the browser receives, or Chromium itself) against an independent
reference (tests/reference.py's loops), and failed on the code before its fix.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import init_params
from attention_core.embed import embed_tokens
from attention_core.experiments import FIT_FROM
from demo_model import load_demo_model
from tests import browser_support as waits
from tests.app_support import chart_specs_by_key, decode, open_app
from tests.app_support import opened as open_page
from tests.app_support import shown as shown_page
from tests.browser_support import LOAD_MS
from tests.reference import causal_allowed, loop_multi_head, sinusoid
from ui import figures
from ui.figures.base import NARROW_PX, plotly_config
from ui.text import TEXT, t

ROOT = Path(__file__).resolve().parent.parent
PAIR = (["我", "打", "你"], ["你", "打", "我"])  # the order page's default sentences A and B


def reference_weights(texts: list[str], *, scale: bool, causal: bool, pos: bool) -> np.ndarray:
    """Head 1's (n, n) weights by the loops of tests/reference.py, on the page's random weights
    (d_model 64, h 4, seed 0) and token vectors."""
    x = embed_tokens(texts, 64) + (sinusoid(len(texts), 64) if pos else 0)  # (n, 64)
    p = init_params(64, 4, 0)
    allowed = causal_allowed(len(texts)) if causal else None
    weights, _ = loop_multi_head(x, p.w_q, p.w_k, p.w_v, p.w_o, 4, scale, allowed)
    return weights[0]


def maps(at: AppTest, part: str = "pair") -> tuple[np.ndarray, np.ndarray]:
    """The order page's two maps of a part: A's, and B's put back in A's order."""
    by_key = chart_specs_by_key(at)
    return tuple(decode(by_key[f"order_{part}_{k}"]["data"][0]["z"]) for k in ("a", "back"))


# ---- 2. the order page computes with the settings in force and says which


STATES = [  # (scale, causal, pos): the audit's /order?w=random&causal=1 among them
    (True, False, False),
    (False, False, False),
    (True, True, False),
    (True, False, True),
    (False, True, True),
]


@pytest.mark.parametrize(("scale", "causal", "pos"), STATES)
def test_2_order_page_computes_with_the_settings_in_force(scale, causal, pos):
    """Item 2: both maps are the loops' weights under the sidebar's scaling, the mask and the
    positions; the page names them; it claims identical outputs only where they are."""
    at = shown_page("order", weights="random", scale=scale, causal=causal, pos=pos)
    a, back = maps(at)
    np.testing.assert_allclose(a, reference_weights(PAIR[0], scale=scale, causal=causal, pos=pos),
                               atol=1e-4)  # fmt: skip
    b = reference_weights(PAIR[1], scale=scale, causal=causal, pos=pos)
    where = [PAIR[1].index(tok) for tok in PAIR[0]]  # each of A's tokens in B
    np.testing.assert_allclose(back, b[np.ix_(where, where)], atol=1e-4)
    line = " · ".join([t("teach.scale_on" if scale else "teach.scale_off"),
                       t("teach.causal_on" if causal else "teach.causal_off"),
                       t("teach.pos_True" if pos else "teach.pos_False")])  # fmt: skip
    assert any(line in c.value for c in at.caption), [c.value for c in at.caption]
    start = t("order.same").split("{")[0]
    same = [s.value for s in at.success if s.value.startswith(start)]
    differ = [w.value for w in at.warning if w.value.startswith(start)]
    if causal or pos:
        assert not same and len(differ) == 2  # the pair and the shuffled sentence
        assert np.abs(a - back).max() > 0.01
    else:
        assert len(same) == 2 and not differ
        np.testing.assert_allclose(a, back, atol=1e-4)


def test_2_order_page_switches_are_the_settings():
    """Item 2: the page's positions and mask switches are the settings themselves (their keys
    are the sidebar's), so a link's values show on them; the old local switch is gone."""
    at = open_page("order", weights="random", pos=True, causal=True)
    assert at.toggle(key="pos").value is True and at.toggle(key="causal").value is True
    assert "order_pos" not in [tg.key for tg in at.toggle]
    at.toggle(key="pos").set_value(False).run()
    assert at.session_state["pos"] is False  # the shared setting moved, not a copy


def sidebar_app() -> None:
    """The shared sidebar alone, drawn after a page that owns positions and the mask."""
    from ui import sidebar

    sidebar.init_state()
    sidebar.own_settings("pos", "causal", note="NOTE")
    sidebar.draw(fixed_weights="random")


def test_2_the_sidebar_leaves_out_what_the_page_owns():
    """Item 2: one control per setting on a screen: none of the sidebar's own, and a line
    saying where they are instead."""
    at = AppTest.from_function(sidebar_app, default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    keys = [tg.key for tg in at.sidebar.toggle]
    assert "pos" not in keys and "causal" not in keys and "scale" in keys
    assert "NOTE" in [c.value for c in at.sidebar.caption]


# ---- 22. the order page shows its point


def test_22_order_page_puts_b_back_beside_a_and_draws_no_round_off():
    """Item 22: 你打我's map un-permuted beside 我打你's, equal cell by cell; the outputs' change in
    percent of their length on an axis of at least 10 %, every bar labelled 0.0 — not 1e-16
    drawn on a 0–0.001 axis. With positions the same chart shows real change."""
    at = shown_page("order", weights="random")
    a, back = maps(at)
    np.testing.assert_allclose(a, back, atol=1e-4)
    moved = chart_specs_by_key(at)["order_pair_moved"]
    assert moved["layout"]["yaxis"]["range"][1] >= 10
    assert moved["layout"]["yaxis"]["title"]["text"] == t("order.moved_y")
    assert moved["data"][0]["text"] == ["0.0"] * 3
    at = shown_page("order", weights="random", pos=True)
    moved = chart_specs_by_key(at)["order_pair_moved"]
    assert min(decode(moved["data"][0]["y"])) > 1  # percent of the output's length


def test_order_page_shuffle_button_gives_a_new_order_and_the_same_numbers():
    """The shuffle button: each click a new order of the sentence, never its own; B's map put
    back still matches A's cell for cell (no positions, no mask)."""
    at = open_page("order", weights="random")
    start = t("order.b_is").split("{")[0]
    orders = []
    for _ in range(3):
        said = [c.value for c in at.caption if c.value.startswith(start)]
        assert len(said) == 2  # the pair's line, then the shuffled sentence's
        orders.append(said[1])
        a, back = maps(at, "shuffle")
        np.testing.assert_allclose(a, back, atol=1e-4)
        at.button(key="order_shuffle").click().run()
    texts = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]
    own = t("order.b_is", b=" / ".join(texts), unit=t("unit.word"))
    assert len(set(orders)) == 3 and own not in orders
    assert at.session_state["order_shuffle_seed"] == 4


# ---- 4. ratios said as ratios


def test_4_cells_ratio_is_said_as_times_as_many():
    """Item 4: "是按词的 1.71 倍（289 对 169）" from the counts shown, and "一样多" when both splits
    count the same (s=他), never "多算 1.0 倍"; no table says 多算 or "times more"."""
    at = shown_page("cost", weights="random")
    words, chars = (int(m.value.replace(",", "")) for m in at.metric)
    assert t("cost.cells_say", ratio=chars / words, chars=chars, words=words) in [
        c.value for c in at.caption]  # fmt: skip
    assert "1.71 倍（289 对 169）" in t("cost.cells_say", ratio=289 / 169, chars=289, words=169)
    at = shown_page("cost", weights="random", sentence="他")
    captions = [c.value for c in at.caption]
    assert t("cost.cells_same", n=1, cells=1) in captions
    assert not any("倍" in c and "1.0" in c for c in captions)
    for key, entry in TEXT.items():
        assert "多算" not in entry["zh"] and "times more" not in entry["en"], key


# ---- 5. timings: the doubling ratio on the fitted points only


def test_5_doubling_ratio_leaves_out_the_overhead_points():
    """Item 5: "时间 ×…（中位数）" is the median over the doublings the slopes were fitted on
    (n ≥ FIT_FROM), not over the small n the fit caption calls overhead-dominated."""
    at = open_page("cost", weights="random")
    at.select_slider(key="cost_range").set_value((64, 1024)).run()
    at.button(key="cost_run").click().run()
    res = at.session_state["cost_results"]
    ns = res["n"]
    big = [i for i in range(1, len(ns)) if ns[i - 1] >= FIT_FROM]  # doublings among n ≥ 256
    time = float(np.median([res["plain_s"][i] / res["plain_s"][i - 1] for i in big]))
    mem = [res["plain_bytes"][i] / res["plain_bytes"][i - 1] for i in big]
    want = t("cost.double", mem=float(np.median(mem)), time=time, n=FIT_FROM, last_n=ns[-1],
             mem_last=mem[-1])  # fmt: skip
    assert [s.value for s in at.success] == [want]


# ---- 11. the d=20 link notice names the real reason


def test_11_link_d_20_says_it_is_not_a_multiple_of_the_step():
    """Item 11: 20 is in range; the slider takes multiples of 8, so the notice says that (and
    a head count that does not divide the result gets its own line)."""
    at = open_app("main", query={"d": "20"}, weights="random")
    said = [w.value for w in at.warning]
    assert t("notice.param_stepped", name="d", value="20", step=8, used=16) in said
    assert not any("超出范围" in w for w in said)
    at = open_app("main", query={"d": "20", "h": "3"}, weights="random")
    assert t("notice.heads_adjusted", h=3, d=16, used=2) in [w.value for w in at.warning]


# ---- 16. characters are not words


def test_16_char_mode_order_page_says_characters():
    """Item 16: split by character, the order page's lines say 字 / character, not 词."""
    for lang, unit in (("zh", "字"), ("en", "character")):
        at = shown_page("order", weights="random", mode="char", lang=lang)
        why = t("order.why_none", lang, unit=unit)
        assert why in [c.value for c in at.caption]
    assert "每个字" in t("order.why_none", unit="字")


# ---- 17. the README


def layout_paths(readme: str) -> list[str]:
    """The files and folders the README's layout block names, as repository paths."""
    block = readme.split("## Layout", 1)[1].split("```")[1]
    paths, top = [], ""
    for line in block.splitlines():
        if len(line) - len(line.lstrip()) > 6:  # a description's second line
            continue
        field = re.split(r"\s{2,}", line.strip())[0] if line.strip() else ""
        names = re.findall(r"[\w.]+(?:\.py|/)|\.streamlit/config\.toml", field)
        if not line.startswith(" ") and names:
            top = names[0] if names[0].endswith("/") else ""
            paths.append(names[0])
        elif names:
            paths += [top + n for n in names]
    return paths


def test_17_readme_names_the_shipped_model_and_the_files_that_exist():
    """Item 17: the trained model's width as shipped; every path of the layout exists, and it
    lists the core's modules and the ui packages (text/, figures/) that do."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    cfg = load_demo_model().config
    assert f"d_model {cfg.d_model}, {cfg.num_heads} heads" in readme
    paths = layout_paths(readme)
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, missing
    core = {f"attention_core/{p.name}" for p in (ROOT / "attention_core").glob("*.py")}
    assert core - {"attention_core/__init__.py"} <= set(paths)
    assert {"ui/text/", "ui/figures/", "ui/state.py", "ui/widgets.py"} <= set(paths)
    assert "ui/teach.py" not in readme and "text.py" not in readme.split("## Layout")[1]


# ---- 13. classroom mode collapses the sidebar; the order page's switches in the browser

SIDEBAR = "[data-testid='stSidebar']"
COLLAPSED = f"document.querySelector(\"{SIDEBAR}\").getAttribute('data-collapsed') === 'true'"


@pytest.mark.browser
def test_13_classroom_mode_collapses_the_sidebar_whenever_switched_on(page, streamlit_server):
    """Item 13: the help promises 收起侧栏; switching classroom mode on collapses the sidebar,
    again after a person has opened it by hand (Streamlit then keeps their choice)."""
    assert "收起侧栏" in t("side.classroom_help")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{streamlit_server}/order?w=random&pos=1")
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("课堂投影模式").wait_for(timeout=LOAD_MS)
    # the order page owns positions: checked from the link, and no second switch in the sidebar
    assert page.locator(".st-key-pos input").is_checked()
    assert sidebar.locator(".st-key-pos").count() == 0
    assert sidebar.get_by_text(t("order.side_owned")).count() == 1
    for _ in range(2):
        sidebar.get_by_text("课堂投影模式").click()
        page.wait_for_url("**class=1**", timeout=LOAD_MS)
        page.wait_for_function(COLLAPSED, timeout=LOAD_MS)
        page.locator("[data-testid='stExpandSidebarButton']").click()
        page.wait_for_function(f"!({COLLAPSED})", timeout=LOAD_MS)
        sidebar.get_by_text("课堂投影模式").click()  # off again: the sidebar stays open
        page.wait_for_url("**class=0**", timeout=LOAD_MS)
        waits.wait_settled(page)
        assert page.evaluate(COLLAPSED) is False


# ---- 23. legends and axis titles never overlap


BOXES = """() => {
  const box = e => e.getBoundingClientRect();
  const svg = box(document.querySelector('.main-svg'));
  const title = box(document.querySelector('.g-xtitle text'));
  const legend = box(document.querySelector('.legend'));
  const ticks = [...document.querySelectorAll('.xtick text')].map(box);
  return {svg: [svg.top, svg.bottom], title: [title.top, title.bottom],
          legend: [legend.top, legend.bottom], ticks: ticks.map(b => [b.left, b.right])};
}"""


def kit_charts(classroom: bool):
    """The charts the audit saw overlapping: a fit (∝ n^1.99), the KV chart (t), a d_k sweep."""
    ns, ts, dk = (
        [64, 128, 256, 512, 1024, 2048],
        [16, 32, 64, 128, 256],
        [4, 8, 16, 32, 64, 128, 256, 512, 1024],
    )
    yield figures.loglog_fit(ns, {"普通注意力": np.square(ns), "分块注意力": np.array(ns)},
                             {"普通注意力": 1.99, "分块注意力": 1.0}, title="时间（对数坐标）",
                             y_title="毫秒", classroom=classroom, across=2)  # fmt: skip
    yield figures.loglog_fit(ts, {"① 整层重算": np.power(ts, 3.0), "② 只重算 K、V": np.square(ts),
                                  "③ KV 缓存": np.array(ts, float)}, {"① 整层重算": 2.9,
                             "② 只重算 K、V": 2.0, "③ KV 缓存": 1.1}, title="生成 t 个词的总时间",
                             x_title="t", y_title="毫秒", classroom=classroom)  # fmt: skip
    yield figures.sweep_lines(dk, {"var(q·k)": dk, "var(q·k/√d_k)": [1.0] * 9, "var = d_k": dk},
                              title="实测方差 vs d_k", x_title="d_k", y_title="var(q·k)",
                              dashed=("var = d_k",), log_y=True, classroom=classroom,
                              across=2)  # fmt: skip


@pytest.mark.browser
@pytest.mark.parametrize("classroom", [False, True])
def test_23_legends_sit_below_axis_titles_and_ticks_stay_apart(page, classroom):
    """Item 23: at the narrowest width a chart gets and at a desktop half page, the legend lies
    wholly below the x-axis title and inside the figure, and no two x tick labels touch."""
    for fig in kit_charts(classroom):
        for width in (NARROW_PX, 460, 920):
            html = fig.to_html(include_plotlyjs=True, full_html=True,
                               config=plotly_config("zh"), default_width=f"{width}px")  # fmt: skip
            page.set_viewport_size({"width": width + 20, "height": 1000})
            page.set_content(html)
            page.wait_for_selector(".legend", timeout=LOAD_MS)
            box = page.evaluate(BOXES)
            where = (classroom, width, fig.layout.title.text)
            assert box["title"][1] <= box["legend"][0] + 1, where
            assert box["legend"][1] <= box["svg"][1] + 1, where
            edges = sorted(box["ticks"])
            assert all(a[1] <= b[0] for a, b in itertools.pairwise(edges)), where
