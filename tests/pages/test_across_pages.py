"""What the teaching pages share, checked on each (AppTest): glossed tokens and upright labels,
tips that point at what is there, the weights and mask in force said, one colour ramp, the
wording."""

from __future__ import annotations

import html

import numpy as np
import pytest

from tests.app_support import (
    chart,
    chart_specs,
    chart_specs_by_key,
    ok,
    shown_app,
    shown_random,
)
from tests.app_support import shown as shown_page
from ui.palette import WEIGHT_SCALE
from ui.text import t


def test_a_page_that_ignores_the_causal_mask_says_so():
    at = ok(shown_app("learned", causal=True))
    assert t("learned.causal_note", "zh") in [c.value for c in at.caption]
    at = ok(shown_app("learned"))
    assert t("learned.causal_note", "zh") not in [c.value for c in at.caption]


UPRIGHT_MAPS = [("scaling", "scaling_tau_map", 0)]


@pytest.mark.parametrize(("page", "key", "step"), UPRIGHT_MAPS)
def test_chinese_key_labels_stand_upright(page, key, step):
    """#23: 13 tokens that do not fit across stand one character under another, not at -90°."""
    at = shown_page(page, weights="random", steps_step=step)
    axis = chart_specs_by_key(at)[key]["layout"]["xaxis"]
    assert axis.get("tickangle", 0) == 0
    assert "小<br>明" in axis["ticktext"] and "桌<br>子" in axis["ticktext"]


def _is_weight_map(spec: dict, t_lang=t) -> None:
    trace, layout = spec["data"][0], spec["layout"]
    stops = [[float(a), b] for a, b in trace["colorscale"]]
    assert [b for _, b in stops] == [b for _, b in WEIGHT_SCALE]
    np.testing.assert_allclose([a for a, _ in stops], [a for a, _ in WEIGHT_SCALE])
    assert trace["colorbar"]["title"]["text"] == html.escape(t_lang("fig.sqrt_ramp"))
    assert layout["xaxis"]["title"]["text"] == html.escape(t_lang("main.key_axis"))
    assert layout["yaxis"]["title"]["text"] == html.escape(t_lang("main.query_axis"))


def test_order_and_tau_weight_maps_use_the_apps_ramp_and_axis_titles():
    order = shown_random("order")
    _is_weight_map(chart_specs(order)[0])
    scaling = shown_random("scaling", lang="en")
    title = t("scaling.tau_map", "en", tau=4.0, model=t("teach.src.random", "en", seed=0))
    _is_weight_map(chart(scaling, html.escape(title)), lambda k: t(k, "en"))


def test_wording_a_teacher_reads_without_stumbling():
    assert "随 d_k 的变化" in t("scaling.jac")
    assert "量变成" not in t("cost.fit_say") and "时间或内存" in t("cost.fit_say")
