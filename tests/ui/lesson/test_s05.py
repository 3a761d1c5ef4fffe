"""§5's measured numbers (ui/lesson/measure.py variance_block) against an independent computation:
a plain loop over the same seeded draws, and the theory var(q·k) = d_k within sampling error.
The browser's side of §5 (its why, its gradient): tests/browser/test_lesson_s05.py."""

from __future__ import annotations

import numpy as np
import pytest

from ui.lesson import measure


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
