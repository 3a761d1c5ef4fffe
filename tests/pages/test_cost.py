"""The cost page (AppTest): what it says about the fit, memory and the KV cache holds for the
numbers it measured."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from attention_core import (
    analysis,  # attributes looked up in each test: one fails alone
)
from attention_core.experiments import FIT_FROM, fit_slope, measure_cost
from tests.app_support import (
    captions,
    chart,
    open_random,
)
from tests.app_support import opened as open_page
from tests.app_support import shown as shown_page
from ui.text import TEXT, t


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


@pytest.mark.slow  # times attention up to large n: make test
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


def test_cost_page_says_which_points_were_fitted_and_that_tiled_memory_grows():
    at = open_random("cost")
    at.select_slider(key="cost_range").set_value((64, 512)).run()
    at.button(key="cost_run").click().run()
    res = at.session_state["cost_results"]
    said = captions(at)
    assert t("cost.fit_say_all", n=256, k=4) in said  # only two points have n ≥ 256
    slope = float(next(m.value for m in at.metric if m.label == t("cost.slope.tiled_bytes")))
    assert slope == pytest.approx(fit_slope(res["n"], res["tiled_bytes"]), abs=0.006)
    assert slope > 0.3, "tiled memory grows with n (the n × d output)"
    tiled = [c for c in said if "O(n)" in c]
    assert len(tiled) == 1 and f"{slope:.2f}" in tiled[0]
    for key in ("cost.try", "cost.intro"):
        for lang in ("zh", "en"):
            assert "平的" not in t(key, lang).replace("不是平的", "")
            assert "flat" not in t(key, lang).replace("not flat", "")


def test_cost_page_fit_on_large_n_says_so():
    at = open_random("cost")
    at.select_slider(key="cost_range").set_value((128, 1024)).run()
    at.button(key="cost_run").click().run()
    assert t("cost.fit_say", n=256, k=3) in captions(at)


@pytest.mark.slow  # measures memory at large n: make test
def test_cost_page_quotes_the_memory_plain_attention_really_holds():
    at = open_random("cost")
    at.select_slider(key="cost_range").set_value((64, 4096)).run()
    big = [c for c in captions(at) if "MiB" in c]
    assert big, captions(at)
    quoted = float(re.search(r"([\d,]+) MiB", big[0]).group(1).replace(",", ""))
    measured = measure_cost(1024, timing=False)["plain_bytes"] * 16 / 2**20  # n² growth
    assert quoted == pytest.approx(measured, rel=0.15)


def test_generation_cost_counts_the_kv_only_baseline():
    n, d = 256, 64
    per_step = [2 * 2 * s * d * d + 2 * 2 * d * d + 2 * 2 * s * d + 5 * s for s in range(1, n + 1)]
    g = analysis.generation_cost(n, d, 1)
    assert g.flops_recompute_kv == sum(per_step)
    assert g.speedup == pytest.approx(150.0, abs=0.1) and g.speedup_kv == pytest.approx(32.5, 0.01)
    np.testing.assert_allclose(
        analysis.generate_states(10, 16, cache=False, recompute="kv"),
        analysis.generate_states(10, 16, cache=True),
        atol=1e-5,
    )


@pytest.mark.slow  # times 5 lengths × 3 ways × 5 runs: a minute of CPU under load
def test_cost_page_kv_panel_shows_three_ways():
    at = open_random("cost")
    at.button(key="cost_kv_run").click().run()
    res = at.session_state["cost_kv"]
    names = [tr["name"] for tr in chart(at, html.escape(t("cost.kv_time")))["data"]]
    assert len(names) == 3 and names[1].startswith(html.escape(t("cost.kvonly")))
    ratio_kv = res["kvonly_flops"][-1] / res["cache_flops"][-1]
    assert any(f"{ratio_kv:.1f}" in c for c in captions(at))
    assert "整层" in t("cost.kv_intro") and "whole attention layer" in t("cost.kv_intro", "en")
