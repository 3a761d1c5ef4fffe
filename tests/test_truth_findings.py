"""Issue 13's findings on the teaching pages, one test each: what a page says holds in that state.

Each test failed on the code before its fix (checked with `git stash`).
"""

from __future__ import annotations

import html
import json
import re
from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import analysis  # attributes looked up in each test: one fails alone
from attention_core.__main__ import main as cli_main
from attention_core.experiments import fit_slope, measure_cost
from demo_model import load_demo_model
from tests.app_support import EXAMPLE_TOKENS as TEXTS
from tests.app_support import TA, chart_specs, decode, opened, shown, unwrapped
from ui.figures import WEIGHT_SCALE
from ui.gloss import token_names
from ui.settings import DEFAULT_SENTENCE
from ui.state import compute_lab
from ui.text import md_escape, t

# test_pages_teach's openers: the random weights unless a test says `weights=…`
open_page = partial(opened, weights="random")
shown_page = partial(shown, weights="random")
charts = chart_specs


def chart(at: AppTest, title: str) -> dict:
    found = [
        c
        for c in charts(at)
        if unwrapped(c["layout"].get("title", {}).get("text")) == unwrapped(title)
    ]
    assert found, f"no chart titled {title!r}: {[c['layout'].get('title') for c in charts(at)]}"
    return found[0]


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def lab(scale=True, causal=False, pos=False, weights="random", mode="word", seed=0):
    return compute_lab(DEFAULT_SENTENCE, mode, 64, 4, scale, causal, pos, seed, weights)


# ---- 1. steps ④ with √d_k off


def test_steps_step4_without_scaling_says_it_is_skipped_everywhere():
    at = shown_page("steps", scale=False, steps_step=3)
    assert "sqrt" not in at.latex[0].value and "S' = S" in at.latex[0].value
    assert t("steps.say3_off") in captions(at)
    chart(at, html.escape(t("steps.name3_off")))  # the figure's title
    assert t("steps.name3_off") in at.radio(key="steps_step").options
    marked = [line for line in at.code[0].value.splitlines() if "◀" in line]
    assert len(marked) == 1 and "sqrt" not in marked[0] and t("steps.skipped") in marked[0]
    assert [i.value for i in at.info][-1] == t("steps.try_off")


def test_steps_step4_with_scaling_divides():
    at = shown_page("steps", scale=True, steps_step=3)
    assert "sqrt{d_k}" in at.latex[0].value
    chart(at, html.escape(t("steps.name3")))
    marked = [line for line in at.code[0].value.splitlines() if "◀" in line]
    assert "np.sqrt(d_k)" in marked[0]


# ---- 2. library cards


@pytest.mark.parametrize("scale", [True, False])
def test_library_cards_show_what_the_softmax_used_and_masked_keys(scale):
    at = shown_page("library", scale=scale, causal=True)
    want = lab(scale=scale, causal=True).result.heads
    assert t("library.cards" if scale else "library.cards_raw", q="他") in captions(at)
    cards = at.metric[: len(TEXTS)]
    assert [m.label for m in cards] == [md_escape(x) for x in token_names(TEXTS)]  # 了₁, 了₂
    for j, card in enumerate(cards):
        if j > TA:  # a future key under the causal mask: −∞ before the softmax
            assert card.value == "−∞" and card.proto.delta == t("library.masked")
        else:
            raw = want.scores[0, TA, j] / (4.0 if scale else 1.0)  # d_k = 16
            assert float(card.value) == pytest.approx(raw, abs=0.006)
    best = [j for j, card in enumerate(cards) if card.proto.delta == t("library.best")]
    assert best == [int(np.argmax(want.scaled[0, TA, : TA + 1]))]
    assert want.weights[0, TA, best[0]] == want.weights[0, TA].max() > 0


# ---- 6. cost page: tiled memory is O(n), what the fit used, plain keeps three n×n arrays


def test_cost_page_says_which_points_were_fitted_and_that_tiled_memory_grows():
    at = open_page("cost")
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
    at = open_page("cost")
    at.select_slider(key="cost_range").set_value((128, 1024)).run()
    at.button(key="cost_run").click().run()
    assert t("cost.fit_say", n=256, k=3) in captions(at)


def test_cost_page_quotes_the_memory_plain_attention_really_holds():
    at = open_page("cost")
    at.select_slider(key="cost_range").set_value((64, 4096)).run()
    big = [c for c in captions(at) if "MiB" in c]
    assert big, captions(at)
    quoted = float(re.search(r"([\d,]+) MiB", big[0]).group(1).replace(",", ""))
    measured = measure_cost(1024, timing=False)["plain_bytes"] * 16 / 2**20  # n² growth
    assert quoted == pytest.approx(measured, rel=0.15)


# ---- 7. KV cache: the no-cache baseline, and the K/V-only one beside it


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
    at = open_page("cost")
    at.button(key="cost_kv_run").click().run()
    res = at.session_state["cost_kv"]
    names = [tr["name"] for tr in chart(at, html.escape(t("cost.kv_time")))["data"]]
    assert len(names) == 3 and names[1].startswith(html.escape(t("cost.kvonly")))
    ratio_kv = res["kvonly_flops"][-1] / res["cache_flops"][-1]
    assert any(f"{ratio_kv:.1f}" in c for c in captions(at))
    assert "整层" in t("cost.kv_intro") and "whole attention layer" in t("cost.kv_intro", "en")


# ---- 8. scaling page


def test_scaling_tau_curve_has_the_sentences_keys_and_two_labelled_axes():
    at = shown_page("scaling")
    spec = chart(at, html.escape(t("scaling.tau_curve")))
    entropy, top = spec["data"]
    assert top["yaxis"] == "y2" and entropy.get("yaxis", "y") == "y"
    assert top["name"] == html.escape(t("scaling.tau_max", n=len(TEXTS)))
    assert spec["layout"]["yaxis"]["title"]["text"] == html.escape(t("scaling.entropy_axis"))
    assert spec["layout"]["yaxis2"]["title"]["text"] == html.escape(t("scaling.max_axis"))


def test_scaling_gradient_chart_shows_the_median_and_says_q():
    at = shown_page("scaling")
    sweep = analysis.dk_sweep()
    spec = chart(at, html.escape(t("scaling.jac")))
    med = next(tr for tr in spec["data"] if tr["name"] == html.escape(t("scaling.med_raw")))
    np.testing.assert_allclose(decode(med["y"]), sweep.jacobian_median_raw, rtol=1e-9)
    say = [c for c in captions(at) if f"{sweep.jacobian_median_raw[-1]:.1e}" in c]
    assert len(say) == 1 and f"{sweep.grad_q_median_raw[-1]:.1e}" in say[0] and " q" in say[0]
    assert sweep.jacobian_small_raw[-1] > 0.5 > sweep.jacobian_small_scaled[-1]


# ---- 9. steps say0


@pytest.mark.parametrize(
    ("pos", "weights"), [(False, "random"), (True, "random"), (True, "trained")]
)
def test_steps_step1_says_what_x_is_in_each_state(pos, weights):
    at = shown_page("steps", pos=pos, weights=weights)
    key = {False: "steps.say0", True: "steps.say0_pos"}[pos]
    key = "steps.say0_trained" if weights == "trained" else key
    assert t(key, n=len(TEXTS), unit=t("unit.word")) in captions(at)  # word mode: 词
    x = lab(pos=pos, weights=weights).x  # 了 is token 4 and token 11
    same = np.allclose(x[4], x[11])
    assert same == (key == "steps.say0"), "the caption's claim about the two 了 rows"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_steps_step1_calls_characters_characters_in_char_mode(lang):
    """Issue 23 item 16: split by character, step ① counts 字 (characters), not 词 (tokens)."""
    at = shown_page("steps", mode="char", lang=lang)
    said = [c for c in captions(at) if c.startswith(t("steps.say0", lang).split("{")[0][:2])]
    assert said, captions(at)
    assert ("每个字" if lang == "zh" else "characters") in said[0]
    assert ("每个词" if lang == "zh" else " tokens ") not in said[0]


# ---- 11. one colour ramp, labelled axes


def _is_weight_map(spec: dict, t_lang=t) -> None:
    trace, layout = spec["data"][0], spec["layout"]
    stops = [[float(a), b] for a, b in trace["colorscale"]]
    assert [b for _, b in stops] == [b for _, b in WEIGHT_SCALE]
    np.testing.assert_allclose([a for a, _ in stops], [a for a, _ in WEIGHT_SCALE])
    assert trace["colorbar"]["title"]["text"] == html.escape(t_lang("fig.sqrt_ramp"))
    assert layout["xaxis"]["title"]["text"] == html.escape(t_lang("main.key_axis"))
    assert layout["yaxis"]["title"]["text"] == html.escape(t_lang("main.query_axis"))


def test_steps_order_and_tau_weight_maps_use_the_apps_ramp_and_axis_titles():
    _is_weight_map(charts(shown_page("steps", steps_step=4))[0])
    order = shown_page("order")
    _is_weight_map(charts(order)[0])
    scaling = shown_page("scaling", lang="en")
    title = t("scaling.tau_map", "en", tau=4.0, model=t("teach.src.random", "en", seed=0))
    _is_weight_map(chart(scaling, html.escape(title)), lambda k: t(k, "en"))


# ---- 12. seed and positions: the CLI's trained run says what it used


def test_cli_trained_run_reports_its_own_positions_and_no_seed(capsys):
    assert cli_main([DEFAULT_SENTENCE, "--weights", "trained", "--json"]) == 0
    settings = json.loads(capsys.readouterr().out)["settings"]
    assert settings["source"] == "trained"
    assert settings["pos"] is True and settings["seed"] is None
    assert settings["causal"] is False and settings["step"] == load_demo_model().step
    assert cli_main([DEFAULT_SENTENCE, "--weights", "trained", "--seed", "3", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["settings"]["seed"] is None  # the app greys the seed out: ignored
    assert "ignored --seed" in err


# ---- 13. wording


def test_wording_a_teacher_reads_without_stumbling():
    assert "随 d_k 的变化" in t("scaling.jac")
    assert "量变成" not in t("cost.fit_say") and "时间或内存" in t("cost.fit_say")
    for key in ("library.try", "library.try_off"):
        assert "“书”" not in t(key) and "“book”" not in t(key, "en")
    for lang in ("zh", "en"):
        assert not t("library.gap", lang).rstrip().endswith(("？", "?"))
    assert "多远" not in t("library.gap")


# ---- 4. the teaching pages follow the sidebar's weights, or say why not


def test_steps_and_library_show_the_trained_model_when_the_sidebar_says_so():
    model = load_demo_model()
    run = model.run(DEFAULT_SENTENCE)
    at = shown_page("steps", weights="trained", steps_step=4)
    head = at.selectbox(key="steps_head").value
    shown = decode(charts(at)[0]["data"][0]["z"])
    np.testing.assert_allclose(shown, run.attention.heads.weights[head], atol=1e-4)
    name = t("teach.src.trained", step=model.step)
    d_model = model.config.d_model  # the shipped model's own width, whatever it is
    assert any(name in c and f"d_model = {d_model}" in c for c in captions(at))
    at = shown_page("library", weights="trained")
    bars = decode(charts(at)[0]["data"][0]["y"])
    np.testing.assert_allclose(bars, run.attention.heads.weights[0, TA], atol=1e-4)


def test_order_page_says_it_uses_random_weights():
    at = shown_page("order", weights="trained", d_model=32, heads=2, seed=7)
    assert t("order.random", d=32, h=2, seed=7) in captions(at)
    assert t("order.random_trained") in [i.value for i in at.info]


# ---- the article: §1 RNN, §2/§3 self-attention, §9 causal mask, §10 why attention won


def test_library_contrasts_the_rnn_state_with_the_row_of_ta():
    at = shown_page("library")
    assert t("library.rnn") in [h.value for h in at.header]
    spec = chart(at, html.escape(t("library.rnn_states")))
    states = decode(spec["data"][0]["z"])
    np.testing.assert_allclose(states, analysis.rnn_states(lab().x)[: TA + 1], atol=1e-4)
    x = lab().x
    changed = x.copy()
    changed[TA + 1 :] += 1.0  # the state at 他 cannot depend on what comes later
    np.testing.assert_array_equal(analysis.rnn_states(changed)[TA], analysis.rnn_states(x)[TA])


def test_steps_step2_says_q_k_v_come_from_the_same_sentence():
    at = shown_page("steps", steps_step=1)
    assert t("steps.say1", n=len(TEXTS), d_k=16) in captions(at)
    titles = [c["layout"]["title"]["text"] for c in charts(at)[:3]]
    assert titles == ["Q = X·W_Q", "K = X·W_K", "V = X·W_V"]
    assert "自注意力" in t("steps.say1") and "同时" in t("steps.say1")


@pytest.mark.parametrize("causal", [True, False])
def test_steps_code_skeleton_has_the_causal_mask_and_explains_it(causal):
    at = shown_page("steps", causal=causal, steps_step=4)
    marked = [line for line in at.code[0].value.splitlines() if "◀" in line]
    assert len(marked) == 2 and ("causal_mask(n)" in marked[0]) == causal
    assert t("steps.say4_causal" if causal else "steps.say4") in captions(at)
    weights = decode(charts(at)[0]["data"][0]["z"])
    assert (np.triu(weights, 1) == 0).all() == causal


def test_steps_page_closes_with_why_attention_won():
    at = shown_page("steps")
    assert at.header[-1].value == t("steps.why")
    assert t("steps.why2", n=len(TEXTS), d_k=16) in [m.value for m in at.markdown]


# ---- issue 14: q of 他 against the k of 小明 and of 桌子, as arithmetic


def test_steps_trained_drill_down_shows_ta_against_xiaoming_and_zhuozi():
    model = load_demo_model()
    att = model.run(DEFAULT_SENTENCE).attention
    at = shown_page("steps", weights="trained")
    head = at.selectbox(key="steps_head").value
    assert head == int(np.argmax(att.heads.weights[:, TA, 0])), "the head that looks at 小明"
    assert at.selectbox(key="steps_j").value == 0 and at.selectbox(key="steps_j2").value == 5
    spec = chart(at, html.escape(t("steps.prod_title", h=head + 1)))
    for trace, j in zip(spec["data"], (0, 5), strict=True):
        prod = decode(trace["y"])
        np.testing.assert_allclose(prod, att.q[head, TA] * att.k[head, j], atol=1e-12)
        assert f"{prod.sum():.3f}" in html.unescape(trace["name"])
    first = load_demo_model(step=0).run(DEFAULT_SENTENCE).attention  # before training
    a0, b0 = (float(first.q[head, TA] @ first.k[head, j]) for j in (0, 5))
    sa, sb = (float(att.q[head, TA] @ att.k[head, j]) for j in (0, 5))
    wa, wb = att.heads.weights[head, TA, 0], att.heads.weights[head, TA, 5]
    key = "steps.trained_grew" if sa - sb > a0 - b0 and wa > wb else "steps.trained_not"
    fmt = {"q": "他", "a": "小明", "b": "桌子", "h": head + 1}
    said = [m.value for m in at.markdown]
    assert t(key, step0=0, a0=a0, b0=b0, d0=a0 - b0, d1=sa - sb, **fmt) in said
    assert t("steps.compare_say", sa=sa, sb=sb, wa=wa, wb=wb, **fmt) in said
    assert key == "steps.trained_grew", "training made the K of 小明 match the Q of 他"
