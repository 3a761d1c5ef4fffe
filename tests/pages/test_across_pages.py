"""What the teaching pages share, checked on each (AppTest): glossed tokens and upright labels,
tips that point at what is there, the weights and mask in force said, one colour ramp, the
wording."""

from __future__ import annotations

import html

import numpy as np
import pytest

from demo_model import load_demo_model
from tests.app_support import (
    TA,
    captions,
    chart,
    chart_specs,
    chart_specs_by_key,
    decode,
    ok,
    open_app,
    shown_app,
    shown_random,
)
from tests.app_support import shown as shown_page
from ui.palette import WEIGHT_SCALE
from ui.settings import DEFAULT_SENTENCE
from ui.text import t


def test_8_pages_that_ignore_the_causal_mask_say_so():
    at = ok(shown_app("heads", weights="random", causal=True))
    assert t("heads.causal_note", "zh") in [c.value for c in at.caption]
    at = ok(shown_app("learned", causal=True))
    assert t("learned.causal_note", "zh") in [c.value for c in at.caption]
    at = ok(shown_app("learned"))
    assert t("learned.causal_note", "zh") not in [c.value for c in at.caption]


SIDE_NOTES = [("steps", "steps.side_class"), ("library", "library.side_class")]


UPRIGHT_MAPS = [("steps", "steps_fig_4_0", 4), ("scaling", "scaling_tau_map", 0)]


@pytest.mark.parametrize(("page", "key"), SIDE_NOTES)
@pytest.mark.parametrize("classroom", [True, False])
def test_sidebar_tips_say_how_to_open_it_in_classroom_mode(page, key, classroom):
    """#20: a tip that says "在侧栏…" tells a classroom how to open the collapsed sidebar."""
    at = shown_page(page, weights="random", classroom=classroom)
    tips = [i.value for i in at.info]
    assert any("侧栏" in tip for tip in tips)
    assert any(tip.endswith(t(key)) for tip in tips) == classroom


@pytest.mark.parametrize(("page", "key", "step"), UPRIGHT_MAPS)
def test_chinese_key_labels_stand_upright(page, key, step):
    """#23: 13 tokens that do not fit across stand one character under another, not at -90°."""
    at = shown_page(page, weights="random", steps_step=step)
    axis = chart_specs_by_key(at)[key]["layout"]["xaxis"]
    assert axis.get("tickangle", 0) == 0
    assert "小<br>明" in axis["ticktext"] and "桌<br>子" in axis["ticktext"]


def test_english_teaching_pages_gloss_tokens():
    """#25: steps' sentence and axes, library's cards, titles and bars gloss Chinese tokens."""
    at = shown_page("steps", lang="en", weights="random")
    assert any("他 \\(he\\)" in m.value for m in at.markdown)  # the comparison sentence
    rows = chart_specs_by_key(at)["steps_fig_0_0"]["layout"]["yaxis"]["ticktext"]
    assert any(r.startswith("书") and "book" in r for r in rows), rows
    at = shown_page("library", lang="en", weights="random")
    assert "he" in captions(at) and "book" in captions(at)  # under the cards
    specs = chart_specs_by_key(at)
    assert "他 (he)" in specs["library_bars"]["layout"]["title"]["text"]
    ticks = specs["library_bars"]["layout"]["xaxis"]["ticktext"]
    assert any("book" in x for x in ticks), ticks


def test_chinese_pages_carry_no_glosses():
    """#25's other side: in Chinese nothing is glossed."""
    at = shown_page("library", weights="random")
    specs = chart_specs_by_key(at)
    assert all("<span" not in x for x in specs["library_bars"]["layout"]["xaxis"]["ticktext"])
    assert "book" not in captions(at)


@pytest.mark.parametrize(
    ("page", "key", "lang", "want"),
    [
        ("steps", "steps_i", "en", "他 (he)"),
        ("steps", "steps_j2", "en", "了₂ (aspect particle)"),
        ("library", "library_query", "en", "他 (he)"),
        ("steps", "steps_i", "zh", "他"),
        ("library", "library_query", "zh", "了₂"),
    ],
)
def test_token_pickers_gloss_chinese_tokens_in_english(page, key, lang, want):
    """Item 25 (English): the teaching pages' token pickers listed 他, 小明 … without a word of
    English; in English each option carries its gloss, in Chinese the bare token; repeats are
    numbered as every page names them (item 9: 了₂, where the pickers said 了#2)."""
    at = open_app(page, lang=lang, weights="random")
    assert not at.exception
    assert want in at.selectbox(key=key).options


def _is_weight_map(spec: dict, t_lang=t) -> None:
    trace, layout = spec["data"][0], spec["layout"]
    stops = [[float(a), b] for a, b in trace["colorscale"]]
    assert [b for _, b in stops] == [b for _, b in WEIGHT_SCALE]
    np.testing.assert_allclose([a for a, _ in stops], [a for a, _ in WEIGHT_SCALE])
    assert trace["colorbar"]["title"]["text"] == html.escape(t_lang("fig.sqrt_ramp"))
    assert layout["xaxis"]["title"]["text"] == html.escape(t_lang("main.key_axis"))
    assert layout["yaxis"]["title"]["text"] == html.escape(t_lang("main.query_axis"))


def test_steps_order_and_tau_weight_maps_use_the_apps_ramp_and_axis_titles():
    _is_weight_map(chart_specs(shown_random("steps", steps_step=4))[0])
    order = shown_random("order")
    _is_weight_map(chart_specs(order)[0])
    scaling = shown_random("scaling", lang="en")
    title = t("scaling.tau_map", "en", tau=4.0, model=t("teach.src.random", "en", seed=0))
    _is_weight_map(chart(scaling, html.escape(title)), lambda k: t(k, "en"))


def test_wording_a_teacher_reads_without_stumbling():
    assert "随 d_k 的变化" in t("scaling.jac")
    assert "量变成" not in t("cost.fit_say") and "时间或内存" in t("cost.fit_say")
    for key in ("library.try", "library.try_off"):
        assert "“书”" not in t(key) and "“book”" not in t(key, "en")
    for lang in ("zh", "en"):
        assert not t("library.gap", lang).rstrip().endswith(("？", "?"))
    assert "多远" not in t("library.gap")


def test_steps_and_library_show_the_trained_model_when_the_sidebar_says_so():
    model = load_demo_model()
    run = model.run(DEFAULT_SENTENCE)
    at = shown_random("steps", weights="trained", steps_step=4)
    head = at.selectbox(key="steps_head").value
    shown = decode(chart_specs(at)[0]["data"][0]["z"])
    np.testing.assert_allclose(shown, run.attention.heads.weights[head], atol=1e-4)
    name = t("teach.src.trained", step=model.step)
    d_model = model.config.d_model  # the shipped model's own width, whatever it is
    assert any(name in c and f"d_model = {d_model}" in c for c in captions(at))
    at = shown_random("library", weights="trained")
    bars = decode(chart_specs(at)[0]["data"][0]["y"])
    np.testing.assert_allclose(bars, run.attention.heads.weights[0, TA], atol=1e-4)
