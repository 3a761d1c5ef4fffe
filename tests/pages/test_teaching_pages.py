"""AppTest checks of the teaching pages: they render, survive bad input, show the core's numbers."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import app
from attention_core import experiments as ex
from attention_core.analysis import qk_variance
from tests.app_support import chart_specs, open_app, shown_app
from ui.text import t

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds: a shared 2-core machine; never a timing assertion
# The teaching pages: app.PAGES but the main page, the lesson and the learned page (their own
# files test them), each with the plotly charts it draws on first load with the default settings.
TEACHING = tuple(stem for stem, *_ in app.PAGES if stem not in ("main", "lesson", "learned"))
PAGES = {"scaling": 7, "cost": 0, "order": 7}
TITLES = {  # page → its title's text key
    "scaling": "scaling.title",
    "cost": "cost.title",
    "order": "order.title",
}


# The app through its router, switched to pages/<page>.py, with session values set; these
# tests are about the random playground unless they say `weights=…`.
open_page = partial(open_app, weights="random")
shown_page = partial(shown_app, weights="random")  # the same first run, shared: read only
charts = chart_specs


def unwrapped(title: str) -> str:
    """A chart title without the line breaks and spaces its wrapping may put or take away."""
    return re.sub(r"<br>|\s", "", title)


def metric(at: AppTest, label: str) -> float:
    found = [m.value for m in at.metric if m.label == label]
    assert found, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return float(found[0].replace(",", ""))


def test_every_teaching_page_of_the_router_is_counted_here():
    assert set(PAGES) == set(TITLES) == set(TEACHING)


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_with_its_charts(name):
    at = shown_page(name)
    assert not at.exception, [e.value for e in at.exception]
    assert len(charts(at)) == PAGES[name]
    assert at.title[0].value == t(TITLES[name])


@pytest.mark.parametrize("name", [*PAGES, "learned"])
def test_every_teaching_chart_holds_still(name):
    """No drag-zoom on any chart: the config removes double-click and the reset button, so a
    chart zoomed by a stray drag on a projector's laptop could not be put back."""
    for spec in charts(shown_page(name)):
        layout = spec["layout"]
        axes = [k for k in layout if re.fullmatch(r"[xy]axis\d*", k)]
        assert layout.get("dragmode") is False, layout.get("title")
        assert axes and all(layout[k].get("fixedrange") is True for k in axes), axes


@pytest.mark.parametrize("name", TEACHING)
@pytest.mark.parametrize("sentence", ["   ", "<script>alert(1)</script>", "。。！"])
def test_bad_sentences_give_a_notice_not_a_traceback(name, sentence):
    at = open_page(name, sentence=sentence)
    assert not at.exception, [e.value for e in at.exception]
    if not sentence.strip():
        assert at.warning, "an empty sentence must say so"


def test_english_page_text():
    at = shown_page("scaling", lang="en")
    assert at.title[0].value == t("scaling.title", "en")


@pytest.mark.slow
def test_cost_page_fits_plain_memory_slope_near_two():
    at = open_page("cost")
    at.select_slider(key="cost_range").set_value((128, 1024)).run()
    at.button(key="cost_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    slope = metric(at, t("cost.slope.plain_bytes"))
    assert 1.8 <= slope <= 2.2
    res = at.session_state["cost_results"]
    assert res["n"] == [128, 256, 512, 1024]
    fitted = ex.fit_slope(res["n"], res["plain_bytes"], ex.FIT_FROM)
    assert fitted == pytest.approx(slope, abs=0.006)
    assert ex.fit_slope(res["n"], res["tiled_bytes"], ex.FIT_FROM) < 1.2  # no n² term
    assert len(charts(at)) == 2


@pytest.mark.slow
def test_cost_page_kv_cache_panel():
    at = open_page("cost")
    at.button(key="cost_kv_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    res = at.session_state["cost_kv"]
    assert max(res["max_diff"]) < 1e-3  # cached and uncached generation agree
    assert all(a > b for a, b in zip(res["nocache_flops"], res["cache_flops"], strict=True))
    assert len(charts(at)) == 1
    ways = ("nocache", "kvonly", "cache")
    assert all(f <= m for w in ways for f, m in zip(res[f"{w}_s"], res[f"{w}_median_s"],
                                                     strict=True))  # fmt: skip
    fit = {w: ex.fit_slope(res["t"], res[f"{w}_s"], ex.KV_FIT_FROM) for w in ways}
    flops = {w: ex.fit_slope(res["t"], res[f"{w}_flops"], ex.KV_FIT_FROM) for w in ways}
    noise = max(max(res[f"{w}_noise"]) for w in ways)
    said = t("cost.kv_noise", r=ex.KV_REPEATS, noise=noise, t0=64, a=fit["nocache"],
             b=fit["kvonly"], c=fit["cache"], fa=flops["nocache"], fb=flops["kvonly"],
             fc=flops["cache"])  # fmt: skip
    assert said in [c.value for c in at.caption]
    assert t("cost.timed") in [c.value for c in at.caption]  # which attention is timed


def test_scaling_page_variance_at_256_matches_d_k():
    at = open_page("scaling")
    at.select_slider(key="scaling_dk").set_value(256).run()
    raw = metric(at, t("scaling.var_raw"))
    assert abs(raw - 256) <= 0.1 * 256
    assert raw == pytest.approx(qk_variance(256).raw_variance, abs=0.05)


def test_match_perm_pairs_repeated_tokens_in_order():
    assert ex.match_perm(["我", "打", "你"], ["你", "打", "我"]) == [2, 1, 0]
    assert ex.match_perm(["了", "a", "了"], ["了", "了", "a"]) == [0, 2, 1]
    assert ex.match_perm(["我"], ["你"]) is None
