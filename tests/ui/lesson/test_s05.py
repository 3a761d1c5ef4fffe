"""§5's measured numbers (ui/lesson/measure.py variance_block) against an independent computation:
a plain loop over the same seeded draws, and the theory var(q·k) = d_k within sampling error; the
gradient step's numbers and words and the why step's own-sentence line against numpy by hand.
The browser's side of §5 (its why, its gradient): tests/browser/test_lesson_s05.py."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from ui.lesson import data, measure
from ui.settings import DEFAULTS
from ui.state import lab_for
from ui.text import t


def loop_variance(d_k: int, samples: int, seed: int) -> float:
    """var(q·k) over `samples` pairs drawn as the lesson draws them, summed and averaged by hand."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((samples, d_k), dtype=np.float32).tolist()
    k = rng.standard_normal((samples, d_k), dtype=np.float32).tolist()
    dots = [sum(a * b for a, b in zip(qs, ks, strict=True)) for qs, ks in zip(q, k, strict=True)]
    mean = sum(dots) / samples
    return sum((x - mean) ** 2 for x in dots) / (samples - 1)


def test_the_block_measures_one_product_and_the_sentences_own_d_k():
    block = measure.variance_block(0, 12)
    assert block["d_k"] == sorted({1, 12, *measure.VAR_DKS})
    assert measure.variance_block(0)["d_k"] == list(measure.VAR_DKS)  # no sentence: the sweep alone


@pytest.mark.parametrize("d_k", [1, 12, 64])
def test_each_variance_is_the_loops_on_the_same_draws(d_k):
    block = measure.variance_block(0, 12)
    at = block["d_k"].index(d_k)
    want = loop_variance(d_k, block["samples"], 0)
    assert block["raw"][at] == pytest.approx(want, rel=1e-4)
    assert block["scaled"][at] == pytest.approx(want / d_k, rel=1e-4)


@pytest.mark.parametrize("d_k", [1, 12, 64])
def test_each_variance_is_d_k_within_five_standard_errors(d_k):
    """var(q·k) = d_k for independent entries of mean 0 and variance 1; the estimate from m
    samples has a standard error of √((E[x⁴] − d_k²) / m), E[x⁴] = 3d_k² + 6d_k for x = q·k."""
    block = measure.variance_block(0, 12)
    at = block["d_k"].index(d_k)
    m = block["samples"]
    error = np.sqrt((3 * d_k**2 + 6 * d_k - d_k**2) / m)
    assert abs(block["raw"][at] - d_k) < 5 * error


# ---- the step "grad": what is measured, with respect to what, and which way it goes -------------

SENTENCE = "小明把书放在了桌子上，然后他走了。"


def own_attention(weights: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(q, k) of every head, (h, n, d_k) each, by hand from the model's X and W_Q, W_K (head i:
    columns i·d_k … (i+1)·d_k), and the tokens; the default settings' model of that kind."""
    lab, _ = lab_for(replace(DEFAULTS, sentence=SENTENCE, weights=weights))
    n, d_model = lab.x.shape
    h = lab.heads
    q = (lab.x @ lab.params.w_q).reshape(n, h, d_model // h).transpose(1, 0, 2)  # (h, n, d_k)
    k = (lab.x @ lab.params.w_k).reshape(n, h, d_model // h).transpose(1, 0, 2)  # (h, n, d_k)
    return q, k, lab.texts


def row_gradients(q: np.ndarray, k: np.ndarray, i: int) -> tuple[int, list[float]]:
    """§5's head (where ÷√d_k changes row i's entropy most) and there ‖∂a/∂(q·k)‖_F with ÷√d_k
    and without: a = softmax(q·k/τ), so ∂a/∂(q·k) = (diag(a) − a·aᵀ)/τ."""
    d_k = q.shape[-1]
    rows = {}
    for tau in (np.sqrt(d_k), 1.0):
        z = np.einsum("hd,hjd->hj", q[:, i], k) / tau  # (h, n)
        e = np.exp(z - z.max(axis=1, keepdims=True))
        rows[tau] = e / e.sum(axis=1, keepdims=True)  # (h, n)

    def bits(a):
        return -np.sum(np.where(a > 0, a * np.log2(np.where(a > 0, a, 1)), 0), axis=1)

    head = int(np.argmax(np.abs(bits(rows[np.sqrt(d_k)]) - bits(rows[1.0]))))
    norms = [
        float(np.linalg.norm(np.diag(a[head]) - np.outer(a[head], a[head])) / tau)
        for tau, a in rows.items()
    ]
    return head, norms


def test_the_gradient_that_reaches_w_q_and_w_k_is_about_half_not_near_zero():
    """The trained model's 他, head 1 (the question's): ∂a/∂(q·k) is 0.108 with ÷√d_k and 0.051
    without, 2.1× (softmax's own Jacobian, 0.375 vs 0.051, leaves out the chain rule's ÷ τ)."""
    q, k, texts = own_attention("trained")
    head, (on, off) = row_gradients(q, k, texts.index("他"))
    assert head == 0
    assert (round(on, 3), round(off, 3), round(on / off, 1)) == (0.108, 0.051, 2.1)
    for lang in ("zh", "en"):
        said = t("lesson.s5.grad_smaller", lang, on=f"{on:.3f}", off=f"{off:.3f}", r="2.1")
        assert "0.108" in said and "q·k" in said and "0.375" not in said
        assert "q·k" in t("lesson.s5.grad_norm", lang, v="0.108")  # with respect to what


def test_the_gradient_words_hold_whichever_way_the_measurement_goes():
    """Random weights (d_k = 16): without ÷√d_k the row is sharper, yet its gradient with respect
    to q·k is larger (÷ 1, not ÷ 4). So the step's title and caption claim no direction and no
    "near 0"; the readout has a line for each way."""
    q, k, texts = own_attention("random")
    _, (on, off) = row_gradients(q, k, texts.index("他"))
    assert off > 2 * on  # larger without the division, here
    q, k, texts = own_attention("trained")
    _, (on, off) = row_gradients(q, k, texts.index("他"))
    assert off < on / 2  # smaller, there
    for lang in ("zh", "en"):
        words = t("lesson.s5.step_grad", lang) + t("lesson.s5.cap.grad", lang)
        assert not any(claim in words for claim in ("几乎为 0", "学不动", "near 0", "no learning"))
        fmt = {"on": "0.1", "off": "0.3", "r": "3"}
        assert ("smaller" if lang == "en" else "1/3") in t("lesson.s5.grad_smaller", lang, **fmt)
        assert ("larger" if lang == "en" else "3 倍") in t("lesson.s5.grad_larger", lang, **fmt)


# ---- the step "why": the condition apart from this sentence --------------------------------------


def test_the_why_keeps_the_condition_apart_from_this_sentences_own_q_and_k():
    """The trained q entries have a variance of 1.6–3.9 per head, k 3.1–5.6, q·k 76–554: not the
    condition's 1, 1 and d_k. The condition's lines speak of random vectors, never of this
    sentence; the sentence's line carries its own numbers (data.qk_spread), by hand here."""
    q, k, _ = own_attention("trained")
    lab, _ = lab_for(replace(DEFAULTS, sentence=SENTENCE))
    got = data.qk_spread(lab)
    h = q.shape[0]
    scores = np.einsum("hid,hjd->hij", q, k).reshape(h, -1)  # (h, n·n) raw q·k
    np.testing.assert_allclose(got["q"], [q[x].var() for x in range(h)], rtol=1e-9)
    np.testing.assert_allclose(got["k"], [k[x].var() for x in range(h)], rtol=1e-9)
    np.testing.assert_allclose(got["s"], scores.var(axis=1), rtol=1e-9)
    np.testing.assert_allclose(got["range"], [scores.min(), scores.max()], rtol=1e-9)
    assert [f"{f(got['q']):.1f}" for f in (min, max)] == ["1.6", "3.9"]
    assert [f"{f(got['s']):.0f}" for f in (min, max)] == ["76", "554"]
    for lang in ("zh", "en"):
        condition = [
            t(f"lesson.s5.why_{x}", lang, d=12, d1="₁₂", root="3.46", m=4000)
            for x in ("sum", "one", "add", "scaled")
        ]
        assert not any(("这句话" if lang == "zh" else "sentence") in line for line in condition)
        here = t(
            "lesson.s5.why_here",
            lang,
            q="1.6–3.9",
            k="3.1–5.6",
            s="76–554",
            lo="-57",
            hi="74",
            d=12,
        )
        assert all(v in here for v in ("1.6–3.9", "3.1–5.6", "76–554"))
