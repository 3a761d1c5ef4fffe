"""Issue 23's findings on /steps, /scaling and /library, one test each: what a page shows holds
in the state in force (items 1, 12, 15, 20, 21, 23, 25).

Each test failed on the code before its fix (checked with `git stash`).
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from tests.app_support import EXAMPLE_TOKENS as TEXTS
from tests.app_support import TA, chart_specs_by_key, decode
from tests.app_support import opened as open_page
from tests.app_support import shown as shown_page
from ui.settings import DEFAULT_SENTENCE
from ui.state import compute_lab
from ui.text import t


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(r"-?\d+\.\d+", text)]


def entropy(row) -> float:
    """−Σ p log p, written out term by term."""
    total = 0.0
    for p in row:
        if p > 0:
            total -= float(p) * math.log(float(p))
    return total


# ---- 1. step ④'s variance claim, in the state in force


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


# ---- 12. scaling page: what (b) averages, (a)'s axis, the article's condition


def test_scaling_titles_say_what_is_averaged_and_the_intro_states_the_condition():
    """#12: (b) plots means over rows and says so; (a)'s y axis is not var(q·k) for both lines."""
    at = shown_page("scaling", lang="en")
    specs = chart_specs_by_key(at)
    for key in ("scaling_max", "scaling_entropy"):
        title = specs[key]["layout"]["title"]["text"]
        assert "averaged over 512" in title.replace("<br>", " "), title
    assert specs["scaling_var"]["layout"]["yaxis"]["title"]["text"] == "variance"
    intro = at.markdown[0].value
    assert "independent" in intro and "mean 0" in intro


# ---- 15. one-token sentences and negative maxima


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


# ---- 20. tips that send the reader to the sidebar in classroom mode


SIDE_NOTES = [("steps", "steps.side_class"), ("library", "library.side_class")]


@pytest.mark.parametrize(("page", "key"), SIDE_NOTES)
@pytest.mark.parametrize("classroom", [True, False])
def test_sidebar_tips_say_how_to_open_it_in_classroom_mode(page, key, classroom):
    """#20: a tip that says "在侧栏…" tells a classroom how to open the collapsed sidebar."""
    at = shown_page(page, weights="random", classroom=classroom)
    tips = [i.value for i in at.info]
    assert any("侧栏" in tip for tip in tips)
    assert any(tip.endswith(t(key)) for tip in tips) == classroom


# ---- 21. library defaults: one card takes it all, distances rounded honestly


def test_library_says_when_one_key_takes_it_all_and_draws_distances_honestly():
    """#21: trained, 他, head 1 (one bar ≈ 1): the page says so; the distance bars start at
    ‖output‖ and show no rounding noise (nothing between 0 and 0.0005)."""
    at = shown_page("library", weights="trained")
    specs = chart_specs_by_key(at)
    bars = decode(specs["library_bars"]["data"][0]["y"])
    best = int(np.argmax(bars))
    said = [c for c in captions(at) if f"{bars[best]:.1%}" in c]
    if bars[best] >= 0.99:
        assert said and TEXTS[best] in said[0], captions(at)
    gaps = decode(specs["library_gap"]["data"][0]["y"])
    lab = compute_lab(DEFAULT_SENTENCE, "word", 64, 4, True, False, False, 0, "trained")
    head = at.selectbox(key="library_head").value
    out = lab.result.heads.output[head, TA]
    assert gaps[0] == pytest.approx(math.sqrt(sum(float(x) ** 2 for x in out)), abs=1e-3)
    assert not np.any((gaps > 0) & (gaps < 0.0005)), gaps


def test_library_names_the_head_where_the_query_mixes_most():
    """#21: the head named as spreading 他's weight most is the one with the largest entropy."""
    at = open_page("library", weights="trained")
    lab = compute_lab(DEFAULT_SENTENCE, "word", 64, 4, True, False, False, 0, "trained")
    rows = lab.result.heads.weights[:, TA]  # (h, n)
    best = max(range(len(rows)), key=lambda h: entropy(rows[h]))
    want = t("library.head_there", q="他", best=best + 1) if best else None
    assert want is None or want in captions(at)
    at.selectbox(key="library_head").set_value(best).run()
    assert t("library.head_here", q="他", best=best + 1) in captions(at)


# ---- 23. Chinese key labels stand upright on the teaching pages' maps


UPRIGHT_MAPS = [("steps", "steps_fig_4_0", 4), ("scaling", "scaling_tau_map", 0)]


@pytest.mark.parametrize(("page", "key", "step"), UPRIGHT_MAPS)
def test_chinese_key_labels_stand_upright(page, key, step):
    """#23: 13 tokens that do not fit across stand one character under another, not at -90°."""
    at = shown_page(page, weights="random", steps_step=step)
    axis = chart_specs_by_key(at)[key]["layout"]["xaxis"]
    assert axis.get("tickangle", 0) == 0
    assert "小<br>明" in axis["ticktext"] and "桌<br>子" in axis["ticktext"]


# ---- 25. English: tokens glossed on axes, cards and in sentences


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
