"""The cost page's claims about plain attention hold for the code it times (no timed asserts)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import experiments


@pytest.mark.parametrize("n", [512, 1024])
def test_plain_attention_holds_plain_copies_n_by_n_arrays(n):
    """PLAIN_COPIES (the page's "3 n×n float32 matrices") against tracemalloc's peak of the
    readable scaled_dot_product_attention that the page times: scores, scaled, weights and
    the (n, d) output, nothing more."""
    fns = experiments.attention_fns(n)
    fns["plain"]()  # warm-up: first-call allocations are not the algorithm's
    peak = experiments.peak_bytes(fns["plain"])
    floor = experiments.PLAIN_COPIES * n * n * 4
    assert floor <= peak <= floor + n * experiments.COST_D * 4 + 64 * 1024
    assert experiments.plain_bytes(n) == floor


@pytest.mark.slow  # traces memory at large n: make test
def test_tiled_attention_holds_no_n_by_n_array():
    fns = experiments.attention_fns(1024)
    assert experiments.peak_bytes(fns["tiled"]) < 1024 * 1024 * 4 / 4


def test_generation_is_repeated_and_reports_fastest_median_and_noise():
    out = experiments.measure_generation(8, d=8, repeats=3)
    for way in experiments.GENERATION:
        fastest, median = out[f"{way}_s"], out[f"{way}_median_s"]
        assert 0 < fastest <= median
        assert out[f"{way}_noise"] == pytest.approx(median / fastest - 1)
    assert out["max_diff"] < 1e-5 and out["cache_bytes"] == 2 * 8 * 8 * 4


def test_interleaved_times_take_turns():
    calls: list[str] = []
    times = experiments.interleaved_times({"a": lambda: calls.append("a"),
                                     "b": lambda: calls.append("b")}, 3)  # fmt: skip
    assert calls == ["a", "b"] * 3 and {k: len(v) for k, v in times.items()} == {"a": 3, "b": 3}


def test_fit_points_and_slope_use_only_the_large_n_when_three_qualify():
    ns = [64, 128, 256, 512, 1024]
    ys = [1.0, 1.0, 256.0**2, 512.0**2, 1024.0**2]  # flat where overheads rule, then n²
    assert experiments.fit_points(ns, 256).tolist() == [False, False, True, True, True]
    assert experiments.fit_slope(ns, ys, 256) == pytest.approx(2.0)
    assert experiments.fit_points(ns, 512).tolist() == [True] * 5  # only two qualify: all are used
    assert experiments.doubling_ratios([64, 128, 512], [1.0, 4.0, 8.0]) == [4.0]
    np.testing.assert_allclose(experiments.fit_slope([1, 2, 4], [3, 12, 48]), 2.0)
