"""The scaling page (AppTest): what its charts average and show, and the article's condition."""

from __future__ import annotations

import html

import numpy as np

from attention_core import analysis  # attributes looked up in each test: one fails alone
from tests.app_support import EXAMPLE_TOKENS as TEXTS
from tests.app_support import (
    captions,
    chart,
    chart_specs_by_key,
    decode,
    shown_random,
)
from tests.app_support import shown as shown_page
from ui.text import t


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


def test_scaling_tau_curve_has_the_sentences_keys_and_two_labelled_axes():
    at = shown_random("scaling")
    spec = chart(at, html.escape(t("scaling.tau_curve")))
    entropy, top = spec["data"]
    assert top["yaxis"] == "y2" and entropy.get("yaxis", "y") == "y"
    assert top["name"] == html.escape(t("scaling.tau_max", n=len(TEXTS)))
    assert spec["layout"]["yaxis"]["title"]["text"] == html.escape(t("scaling.entropy_axis"))
    assert spec["layout"]["yaxis2"]["title"]["text"] == html.escape(t("scaling.max_axis"))


def test_scaling_gradient_chart_shows_the_median_and_says_q():
    at = shown_random("scaling")
    sweep = analysis.dk_sweep()
    spec = chart(at, html.escape(t("scaling.jac")))
    med = next(tr for tr in spec["data"] if tr["name"] == html.escape(t("scaling.med_raw")))
    np.testing.assert_allclose(decode(med["y"]), sweep.jacobian_median_raw, rtol=1e-9)
    say = [c for c in captions(at) if f"{sweep.jacobian_median_raw[-1]:.1e}" in c]
    assert len(say) == 1 and f"{sweep.grad_q_median_raw[-1]:.1e}" in say[0] and " q" in say[0]
    assert sweep.jacobian_small_raw[-1] > 0.5 > sweep.jacobian_small_scaled[-1]
