"""The steps page (AppTest): each step says what it computes in the state in force, against the
core and plain loops."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

from demo_model import load_demo_model
from tests.app_support import EXAMPLE_TOKENS as TEXTS
from tests.app_support import (
    TA,
    captions,
    chart,
    chart_specs,
    chart_specs_by_key,
    decode,
    lab,
    open_app,
    shown_random,
)
from tests.app_support import opened as open_page
from tests.app_support import shown as shown_page
from ui.settings import DEFAULT_SENTENCE
from ui.state import compute_lab
from ui.text import t


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


@pytest.mark.parametrize("weights", ["trained", "random"])
def test_step4_states_the_variance_of_the_scores_it_shows(weights):
    """#1: the caption's variances are those of the map shown, and "about 1" only when so."""
    at = shown_page("steps", weights=weights, steps_step=3)
    shown = decode(chart_specs_by_key(at)["steps_fig_3_0"]["data"][0]["z"])  # ÷√d_k scores
    var = float(np.var(shown))
    said = [c for c in captions(at) if "1/" in c]
    assert len(said) == 1, captions(at)
    v_raw, v_scaled = numbers(said[0])[:2]
    assert v_scaled == pytest.approx(var, abs=0.01)
    d_k = compute_lab(DEFAULT_SENTENCE, "word", 64, 4, True, False, False, 0, weights).record.d_k
    assert v_raw / v_scaled == pytest.approx(d_k, rel=0.01)
    assert all("方差约为 1 的范围" not in c for c in captions(at))  # the old, unconditional claim
    near_one = 0.5 <= var <= 2.0  # what "about 1" may mean
    assert ("同一个量级" in said[0]) == near_one and ("离 1 还远" in said[0]) == (not near_one)


def test_one_token_sentence_says_there_is_nothing_to_compare():
    """#15: 他 alone: no "他·他 … 100.0% 对 100.0%", the weight of 1 explained."""
    at = shown_page("steps", weights="random", sentence="他")
    assert "steps_compare" not in chart_specs_by_key(at)
    assert all("100.0% 对 100.0%" not in m.value for m in at.markdown)
    assert t("steps.compare_one") in captions(at) and t("steps.one_key") in captions(at)


def test_a_negative_max_is_subtracted_in_brackets():
    """#15: e^{s' − max} with max < 0 reads "− (−0.353)", never "- -0.353"."""
    at = open_page("steps", weights="random", sentence="他")
    at.selectbox(key="steps_head").set_value(1).run()  # head 2: its one score is negative
    assert (
        compute_lab("他", "word", 64, 4, True, False, False, 0, "random").result.heads.scaled[
            1, 0, 0
        ]
        < 0
    )
    latex = " ".join(x.value for x in at.latex)
    assert "- -" not in latex and re.search(r"- \(-\d", latex), latex


def test_two_token_sentence_compares_two_different_keys():
    """#15: with two tokens the compared keys differ (the query itself is the other one)."""
    at = shown_page("steps", weights="random", sentence="他走")
    assert at.selectbox(key="steps_j").value != at.selectbox(key="steps_j2").value
    assert "steps_compare" in chart_specs_by_key(at)


def test_the_steps_comparison_tells_two_of_the_same_word_apart():
    """Item 9, on the steps page's comparison: keys 了 and 了 (positions 4 and 11) were both
    named “了”; each now carries its number, as every other sentence of the app names it."""
    from tests.app_support import chart_specs_by_key

    at = open_app("steps", lang="en", weights="random", steps_step=3, steps_j=4, steps_j2=11)
    assert not at.exception
    names = [tr["name"] for tr in chart_specs_by_key(at)["steps_compare"]["data"]]
    assert len(names) == 2 and "了₁" in names[0] and "了₂" in names[1], names


def test_steps_step4_without_scaling_says_it_is_skipped_everywhere():
    at = shown_random("steps", scale=False, steps_step=3)
    assert "sqrt" not in at.latex[0].value and "S' = S" in at.latex[0].value
    assert t("steps.say3_off") in captions(at)
    chart(at, html.escape(t("steps.name3_off")))  # the figure's title
    assert t("steps.name3_off") in at.radio(key="steps_step").options
    marked = [line for line in at.code[0].value.splitlines() if "◀" in line]
    assert len(marked) == 1 and "sqrt" not in marked[0] and t("steps.skipped") in marked[0]
    assert [i.value for i in at.info][-1] == t("steps.try_off")


def test_steps_step4_with_scaling_divides():
    at = shown_random("steps", scale=True, steps_step=3)
    assert "sqrt{d_k}" in at.latex[0].value
    chart(at, html.escape(t("steps.name3")))
    marked = [line for line in at.code[0].value.splitlines() if "◀" in line]
    assert "np.sqrt(d_k)" in marked[0]


@pytest.mark.parametrize(
    ("pos", "weights"), [(False, "random"), (True, "random"), (True, "trained")]
)
def test_steps_step1_says_what_x_is_in_each_state(pos, weights):
    at = shown_random("steps", pos=pos, weights=weights)
    key = {False: "steps.say0", True: "steps.say0_pos"}[pos]
    key = "steps.say0_trained" if weights == "trained" else key
    assert t(key, n=len(TEXTS), unit=t("unit.word")) in captions(at)  # word mode: 词
    x = lab(pos=pos, weights=weights).x  # 了 is token 4 and token 11
    same = np.allclose(x[4], x[11])
    assert same == (key == "steps.say0"), "the caption's claim about the two 了 rows"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_steps_step1_calls_characters_characters_in_char_mode(lang):
    """Issue 23 item 16: split by character, step ① counts 字 (characters), not 词 (tokens)."""
    at = shown_random("steps", mode="char", lang=lang)
    said = [c for c in captions(at) if c.startswith(t("steps.say0", lang).split("{")[0][:2])]
    assert said, captions(at)
    assert ("每个字" if lang == "zh" else "characters") in said[0]
    assert ("每个词" if lang == "zh" else " tokens ") not in said[0]


def test_steps_step2_says_q_k_v_come_from_the_same_sentence():
    at = shown_random("steps", steps_step=1)
    assert t("steps.say1", n=len(TEXTS), d_k=16) in captions(at)
    titles = [c["layout"]["title"]["text"] for c in chart_specs(at)[:3]]
    assert titles == ["Q = X·W_Q", "K = X·W_K", "V = X·W_V"]
    assert "自注意力" in t("steps.say1") and "同时" in t("steps.say1")


@pytest.mark.parametrize("causal", [True, False])
def test_steps_code_skeleton_has_the_causal_mask_and_explains_it(causal):
    at = shown_random("steps", causal=causal, steps_step=4)
    marked = [line for line in at.code[0].value.splitlines() if "◀" in line]
    assert len(marked) == 2 and ("causal_mask(n)" in marked[0]) == causal
    assert t("steps.say4_causal" if causal else "steps.say4") in captions(at)
    weights = decode(chart_specs(at)[0]["data"][0]["z"])
    assert (np.triu(weights, 1) == 0).all() == causal


def test_steps_page_closes_with_why_attention_won():
    at = shown_random("steps")
    assert at.header[-1].value == t("steps.why")
    assert t("steps.why2", n=len(TEXTS), d_k=16) in [m.value for m in at.markdown]


def test_steps_trained_drill_down_shows_ta_against_xiaoming_and_zhuozi():
    model = load_demo_model()
    att = model.run(DEFAULT_SENTENCE).attention
    at = shown_random("steps", weights="trained")
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
