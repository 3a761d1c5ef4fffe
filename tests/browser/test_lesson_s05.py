"""§5 in Chromium: why var(q·k) ≈ d_k with the measured numbers at the sentence's own d_k (the
chart's readout agrees), the reveal as one map that a tap switches, softmax's gradient on the
row with and without ÷√d_k against numpy, on a projector and a phone. The rules every step
meets (no spoilers, the phone's screen, the maps' cells): tests/browser/test_lesson_rules.py;
the measurement itself against a plain loop: tests/ui/lesson/test_s05.py."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import softmax
from attention_core.analysis import row_entropy
from demo_model import load_demo_model
from tests.lesson_support import (
    ROOT,
    SENTENCE,
    drawn,
    map_problems,
    open_lesson,
    phone_page,
    phone_problems,
    phone_shot,
    phone_walk,
    press,
    run_together,
    settle,
    shot,
    step_id,
    values,
)
from tests.ui.lesson.test_s05 import loop_variance
from ui.text import t

pytestmark = pytest.mark.browser


def maps_shown(page) -> int:
    return page.evaluate(
        f"() => [...{ROOT}.querySelectorAll('[data-testid=\"lesson-figure\"] canvas[data-cell]')]"
        ".filter((c) => c.getClientRects().length).length"
    )


def test_why_var_is_d_k_shows_the_measured_numbers_of_this_sentences_d_k(page, streamlit_server):
    """The chart and the why speak of one d_k, the maps' (12 for the trained model's heads), and
    their numbers are a plain loop's over the same seeded draws."""
    open_lesson(page, streamlit_server, "?at=5&lang=en")
    chart = page.locator('[data-testid="lesson-readout"]').inner_text()
    assert chart.startswith("d_k = 12:")
    press(page, "ArrowRight")
    assert step_id(page) == "why"
    got = values(page)
    samples = got["samples"]
    assert got["d_k"] == 12
    assert got["one"] == pytest.approx(loop_variance(1, samples, 0), rel=1e-4)
    raw = loop_variance(12, samples, 0)
    assert got["raw"] == pytest.approx(raw, rel=1e-4)
    assert got["scaled"] == pytest.approx(raw / 12, rel=1e-4)
    alt = page.locator('[data-testid="lesson-canvas"]').get_attribute("aria-label")
    assert f"{raw:.1f}" in alt and f"{got['one']:.2f}" in alt
    assert f"{raw:.1f}" in chart  # the chart's readout: the same measurement
    # apart from the condition (the readout, not the canvas): this sentence's own q and k
    att = load_demo_model().run(SENTENCE).attention
    span = [f"{min(v):.{p}f}–{max(v):.{p}f}" for v, p in (
        ([x.var() for x in att.q], 1), ([x.var() for x in att.k], 1),
        ([x.var() for x in att.heads.scores], 0))]  # fmt: skip
    assert span == ["1.6–3.9", "3.1–5.6", "76–554"]
    readout = page.locator('[data-testid="lesson-readout"]').inner_text()
    assert all(v in got["here"] for v in span) and readout == got["here"] and "−57" in readout


def row_of(head_scores: np.ndarray, i: int, tau: float) -> np.ndarray:
    return softmax(head_scores[i] / tau)


def test_the_gradient_step_is_the_shares_gradient_with_respect_to_the_raw_score(
    page, streamlit_server
):
    """‖∂a/∂(q·k)‖_F = ‖diag(a) − a·aᵀ‖_F / τ for 他's row in the head the question is about,
    with ÷√d_k (τ = √d_k) and without (τ = 1), against numpy: 0.108 and 0.051, 2.1× (softmax's
    own Jacobian, 0.375 and 0.051, left out the ÷ τ on the way to W_Q and W_K)."""
    attention = load_demo_model().run(SENTENCE).attention
    scores, d_k = attention.heads.scores, attention.q.shape[-1]  # (h, n, n)
    i = scores.shape[1] - 4  # 他
    on = softmax(scores[:, i] / np.sqrt(d_k))  # (h, n)
    off = softmax(scores[:, i])  # (h, n)
    head = int(np.argmax(np.abs(row_entropy(on, base=2) - row_entropy(off, base=2))))
    open_lesson(page, streamlit_server, "?at=5&step=grad")
    got = values(page)
    assert (got["head"], got["row"]) == (head, i)
    np.testing.assert_allclose(got["on"], on[head], rtol=1e-5, atol=1e-9)
    np.testing.assert_allclose(got["off"], off[head], rtol=1e-5, atol=1e-9)
    norms = [np.linalg.norm(np.diag(a) - np.outer(a, a)) / tau
             for a, tau in ((on[head], np.sqrt(d_k)), (off[head], 1.0))]  # fmt: skip
    np.testing.assert_allclose(got["norms"], norms, rtol=1e-5)
    assert [f"{v:.3f}" for v in norms] == ["0.108", "0.051"]
    readout = page.locator('[data-testid="lesson-readout"]').inner_text()
    ratio = f"{norms[0] / norms[1]:.1f}"
    said = t("lesson.s5.grad_smaller", "zh", on="0.108", off="0.051", r=ratio)
    assert readout == said and "1/2.1" in said


def caption(page) -> str:
    return page.locator('[data-testid="lesson-figure"] figcaption').first.inner_text()


@pytest.mark.parametrize("size", [(1024, 680), (1024, 768)])
def test_the_reveal_is_one_map_and_the_button_switches_it(page, streamlit_server, size):
    open_lesson(page, streamlit_server, "?at=5&step=reveal", size)
    assert maps_shown(page) == 1 and t("lesson.scale_off", "zh") in caption(page)
    assert map_problems(page) == []
    shot(page, f"s05_reveal_{size[1]}.png")
    page.locator('[data-testid="s5-flip"]').click()
    settle(page)
    assert maps_shown(page) == 1 and t("lesson.scale_on", "zh") in caption(page)
    assert map_problems(page) == []
    page.locator('[data-testid="s5-flip"]').focus()
    press(page, "Enter")  # the keyboard switches it too
    assert t("lesson.scale_off", "zh") in caption(page)


def test_on_a_phone_a_tap_switches_the_one_map_and_it_fits(browser, streamlit_server):
    page = phone_page(browser, streamlit_server, "?at=5&step=reveal&lang=en")
    assert maps_shown(page) == 1 and phone_problems(page) == []
    page.locator('[data-testid="s5-flip"]').tap()
    settle(page)
    assert maps_shown(page) == 1 and t("lesson.scale_on", "en") in caption(page)
    assert phone_shot(page, "s05_phone_reveal_en.png") == []
    page.context.close()


def test_tau_comes_back_to_root_d_k_after_the_reveal(page, streamlit_server):
    """The reveal turns ÷√d_k off; the τ step starts from it on again (its switch, its τ)."""
    open_lesson(page, streamlit_server, "?at=5&step=reveal")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    assert step_id(page) == "tau"
    assert page.locator('[data-testid="s5-scale"]').is_checked()
    assert "τ = 3.46" in page.locator('[data-testid="lesson-readout"]').inner_text()


TERMS = (
    f"() => [...{ROOT}.querySelectorAll('[data-testid=\"lesson-caption\"] [data-term]')]"
    ".map((b) => b.dataset.term)"
)
SAID = f"() => {ROOT}.querySelector('[data-testid=\"lesson\"]').innerText"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_a_phone_every_step_fits_with_maps_a_finger_reads_and_terms_taught_first(
    browser, streamlit_server, lang
):
    """Issue 39 on a phone (390 × 844), every step: one screen, nothing under the step bar (the
    question's takeaway and Reveal were, by up to 108 px in English), map cells ≥ 10 px (8 px
    once answered), no text under 14 px (phone_walk); the d_k axis's ticks apart (they read
    "812", "64128"); τ not seen before the step that teaches it (the question's map read
    "· τ = 3.46"), and 熵 / entropy, which the answer gives, a marked term in its caption."""

    def taught(page, step: int) -> list[str]:
        out = run_together(page) if step == 0 else []
        seen = page.evaluate(SAID) + " ".join(drawn(page))
        if step_id(page) not in ("tau",) and "τ" in seen:
            out.append(f"τ before its step: …{seen[seen.index('τ') - 30 : seen.index('τ') + 10]}")
        if step_id(page) == "reveal":
            verdict = page.locator('[data-testid="lesson-verdict"]').inner_text()
            assert ("熵" if lang == "zh" else "entropy") in verdict
            if "entropy" not in page.evaluate(TERMS):
                out.append("the reveal's entropy is not a marked term of its caption")
        return out

    phone_walk(browser, streamlit_server, 5, lang, taught)
