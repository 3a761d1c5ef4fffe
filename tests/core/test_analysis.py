"""Entropy, Jacobian norms, var(q·k) and the d_k sweep, FLOP and KV-cache counts."""

from __future__ import annotations

import inspect
import math
import re

import numpy as np
import pytest

from attention_core import analysis, init_params
from attention_core.analysis import (
    attention_cost,
    dk_sweep,
    generate_states,
    generation_cost,
    max_weight,
    qk_samples,
    qk_variance,
    row_entropy,
    softmax_jacobian,
)
from tests.reference import causal_allowed, loop_attention, loop_softmax


def test_entropy_and_max_weight_of_uniform_and_one_hot_rows():
    p = np.array([[0.25] * 4, [1.0, 0, 0, 0]])
    np.testing.assert_allclose(row_entropy(p), [np.log(4), 0.0])
    np.testing.assert_allclose(max_weight(p), [0.25, 1.0])


def test_jacobian_matches_finite_differences():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(5)
    p = np.array(loop_softmax(x))
    J = softmax_jacobian(p)
    eps = 1e-6
    sm = lambda z: np.array(loop_softmax(z))  # noqa: E731
    numeric = np.stack([(sm(x + eps * e) - sm(x - eps * e)) / (2 * eps) for e in np.eye(5)], 1)
    np.testing.assert_allclose(J, numeric, atol=1e-8)
    np.testing.assert_allclose(softmax_jacobian(np.array([1.0, 0, 0])), 0)  # one-hot: no gradient


def test_qk_variance_is_about_d_k_raw_and_1_scaled():
    est = qk_variance(64, samples=20_000, seed=1)
    assert est.raw_variance == pytest.approx(64, rel=0.05)
    assert est.scaled_variance == pytest.approx(1, rel=0.05)
    assert qk_variance(64, samples=500, seed=1) == qk_variance(64, samples=500, seed=1)


def test_dk_sweep_shows_saturation_without_scaling():
    s = dk_sweep((4, 64, 1024), n_keys=8, trials=256, seed=0)
    np.testing.assert_allclose(s.variance_raw / s.d_k, 1, rtol=0.2)
    np.testing.assert_allclose(s.variance_scaled, 1, rtol=0.2)
    assert s.max_weight_raw[-1] > 0.9 > s.max_weight_scaled[-1]
    assert s.entropy_raw[-1] < 0.3 * s.entropy_scaled[-1] <= s.max_entropy
    assert s.jacobian_raw[-1] < 0.5 * s.jacobian_scaled[-1]
    assert len(s.as_dict()["entropy_raw"]) == 3


def test_attention_cost_counts_and_equal_flops_across_heads():
    c = attention_cost(10, 8, 2)
    assert c.projections == 3 * 2 * 10 * 64 and c.scores == 2 * 100 * 8
    assert c.weighted_sum == c.scores and c.output_projection == 2 * 10 * 64
    assert c.score_bytes("float32") == 2 * 100 * 4 and c.as_dict()["score_bytes"]["float16"] == 400
    assert attention_cost(10, 8, 1).scores == attention_cost(10, 8, 8).scores
    big, small = attention_cost(200, 8, 2), attention_cost(100, 8, 2)
    assert big.scores == 4 * small.scores and big.score_elements == 4 * small.score_elements


def counted_layer(t: int, d: int, h: int) -> int:
    """FLOPs of one layer on t tokens, counted step by step from the text (multiply + add)."""
    projections = 3 * t * d * (2 * d)  # Q, K, V: t rows · d columns · d products and sums
    scores = h * t * t * (2 * (d // h))  # every head: t² dot products of length d_k
    softmax_ops = 5 * h * t * t  # max, subtract, exp, sum, divide per score
    mix = h * t * (d // h) * (2 * t)  # weights · V
    return projections + scores + softmax_ops + mix + t * d * (2 * d)  # + concat · W_O


def test_generation_cost_with_and_without_cache():
    g = generation_cost(8, 4, 2)
    assert g.flops_without_cache == sum(counted_layer(t, 4, 2) for t in range(1, 9))
    one_row = [4 * 2 * 4 * 4 + 2 * 2 * t * 4 + 5 * 2 * t for t in range(1, 9)]  # q,k,v,W_O; q·K, ·V
    assert g.flops_with_cache == sum(one_row)
    kv = [2 * 2 * t * 4 * 4 + 2 * 2 * 4 * 4 + 2 * 2 * t * 4 + 5 * 2 * t for t in range(1, 9)]
    assert g.flops_recompute_kv == sum(kv)
    assert g.cache_bytes == 2 * 8 * 4 * 4 and g.speedup == g.flops_without_cache / sum(one_row)
    assert g.speedup_kv == sum(kv) / sum(one_row)
    assert attention_cost(8, 4, 2).total == counted_layer(8, 4, 2)


@pytest.mark.parametrize(
    "call",
    [
        lambda: qk_variance(0),
        lambda: attention_cost(4, 6, 4),
        lambda: dk_sweep((0,)),
        lambda: generation_cost(0, 4, 2),
    ],
)
def test_bad_arguments_are_value_errors(call):
    with pytest.raises(ValueError):
        call()


def test_kv_cache_generation_gives_the_same_states_as_recomputing_the_prefix():
    with_cache = generate_states(12, 16, cache=True)  # (t, d)
    np.testing.assert_allclose(with_cache, generate_states(12, 16, cache=False), atol=1e-5)
    kv = generate_states(12, 16, cache=False, recompute="kv")
    np.testing.assert_allclose(with_cache, kv, atol=1e-5)
    assert with_cache.shape == (12, 16) and with_cache.dtype == np.float32


@pytest.mark.parametrize("seed", [0, 3])
def test_generated_states_are_the_newest_rows_of_causal_attention(seed):
    """Step s's output is the last row of causal attention over the first s stand-in states."""
    t, d = 5, 4
    rng = np.random.default_rng(seed)  # generate_states' own draws: x, then W (same seed)
    x = rng.standard_normal((t, d), dtype=np.float32).astype(float)
    p = init_params(d, 1, seed, dtype=np.float32)
    q, k, v = x @ p.w_q, x @ p.w_k, x @ p.w_v
    _, _, out = loop_attention(q, k, v, True, causal_allowed(t))  # (t, d) row s: keys 0 … s
    got = generate_states(t, d, cache=True, seed=seed)
    np.testing.assert_allclose(got, out @ p.w_o, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="recompute"):
        generate_states(t, d, cache=False, recompute="all")


def test_qk_variance_summarises_qk_samples():
    dots = qk_samples(32, samples=1000, seed=2)
    assert qk_variance(32, samples=1000, seed=2).raw_variance == pytest.approx(np.var(dots, ddof=1))


def test_row_entropy_in_bits_for_the_main_page():
    n = 8
    assert row_entropy(np.full((n, n), 1 / n), base=2) == pytest.approx(np.full(n, 3.0))
    assert row_entropy(np.eye(n), base=2) == pytest.approx(np.zeros(n))


# ---- mutation-testing round: exact messages, smallest sizes, batches, defaults, the sweep by loop


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: qk_samples(0), "d_k must be an integer ≥ 1, got 0"),
        (lambda: qk_samples(2, samples=1), "samples must be an integer ≥ 2, got 1"),
        (lambda: qk_variance(2.0), "d_k must be an integer ≥ 1, got 2.0"),
        (lambda: qk_variance(True), "d_k must be an integer ≥ 1, got True"),
        (lambda: dk_sweep((4,), n_keys=0), "n_keys must be an integer ≥ 1, got 0"),
        (lambda: dk_sweep((4,), trials=1), "trials must be an integer ≥ 2, got 1"),
        (lambda: dk_sweep((0,)), "d_k must be an integer ≥ 1, got 0"),
        (lambda: attention_cost(0, 4, 2), "n must be an integer ≥ 1, got 0"),
        (lambda: attention_cost(4, 0, 2), "d_model must be an integer ≥ 1, got 0"),
        (lambda: attention_cost(4, 4, 0), "num_heads must be an integer ≥ 1, got 0"),
        (lambda: attention_cost(4, 6, 4), "d_model=6 is not divisible by num_heads=4"),
        (lambda: generate_states(0, 4, cache=True), "t must be an integer ≥ 1, got 0"),
        (lambda: generate_states(2, 0, cache=True), "d must be an integer ≥ 1, got 0"),
    ],
)
def test_bad_arguments_name_themselves(call, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


def test_the_smallest_sizes_work():
    assert qk_samples(1, samples=2).shape == (2,)
    assert dk_sweep((1,), n_keys=1, trials=2).max_entropy == 0.0
    assert attention_cost(1, 1, 1).total > 0 and generation_cost(1, 1, 1).n == 1
    assert generate_states(1, 1, cache=True).shape == (1, 1)


def test_row_statistics_work_on_batches_and_integer_rows():
    p = np.full((2, 3, 4), 0.25)  # (batch, rows, keys)
    np.testing.assert_allclose(row_entropy(p), np.full((2, 3), np.log(4)))
    np.testing.assert_allclose(max_weight(p), np.full((2, 3), 0.25))
    np.testing.assert_array_equal(row_entropy(np.array([[1, 0], [0, 1]])), [0.0, 0.0])
    rows = np.array([[0.7, 0.2, 0.1], [1 / 3, 1 / 3, 1 / 3]])
    for row, jac in zip(rows, softmax_jacobian(rows), strict=True):
        np.testing.assert_allclose(jac, np.diag(row) - np.outer(row, row))
    np.testing.assert_allclose(softmax_jacobian([[0.5, 0.5]]), [[[0.25, -0.25], [-0.25, 0.25]]])


def test_defaults_are_the_documented_ones():
    np.testing.assert_array_equal(qk_samples(4), qk_samples(4, samples=20_000, seed=0))
    est = qk_variance(4)
    assert (est.d_k, est.samples) == (4, 20_000) and est == qk_variance(4, 20_000, 0)
    s = dk_sweep((4,))
    assert (s.n_keys, s.d_k.tolist()) == (16, [4]) and s.variance_raw == dk_sweep((4,)).variance_raw
    default_d_ks = inspect.signature(dk_sweep).parameters["d_ks"].default  # not the whole sweep
    assert list(default_d_ks) == [4, 8, 16, 32, 64, 128, 256, 512, 1024]
    assert dk_sweep((4,), trials=512, seed=0).entropy_raw == s.entropy_raw
    c = attention_cost(10, 8, 2)
    assert (c.n, c.d_model, c.num_heads) == (10, 8, 2)
    assert c.score_bytes() == 2 * 100 * 4 and c.as_dict()["total"] == c.total
    g = generation_cost(5, 4, 2)
    assert (g.n, g.d_model, g.num_heads) == (5, 4, 2)
    assert all(isinstance(x, int) for x in (g.flops_with_cache, g.flops_without_cache))
    assert isinstance(s.as_dict()["d_k"], list) and s.as_dict()["n_keys"] == 16


def test_the_sweep_against_a_row_by_row_loop():
    """dk_sweep's statistics recomputed from the same seeded draws, one softmax row at a time."""
    d_ks, m, trials = (2, 16), 5, 40
    s = dk_sweep(d_ks, n_keys=m, trials=trials, seed=4)
    rng = np.random.default_rng(4)
    for i, d in enumerate(d_ks):
        q, k = rng.standard_normal((trials, 1, d)), rng.standard_normal((trials, m, d))
        for tau, kind in ((1.0, "raw"), (np.sqrt(d), "scaled")):
            fro, grad = [], []
            for t in range(trials):
                p = np.array(loop_softmax([q[t, 0] @ k[t, j] / tau for j in range(m)]))
                jac = np.diag(p) - np.outer(p, p)
                fro.append(np.linalg.norm(jac))
                grad.append(np.linalg.norm(jac @ k[t]) / tau)
            got = {
                f: getattr(s, f"{f}_{kind}")[i]
                for f in ("jacobian", "jacobian_median", "jacobian_small", "grad_q_median")
            }
            assert got["jacobian"] == pytest.approx(np.mean(fro), rel=1e-9)
            assert got["jacobian_median"] == pytest.approx(np.median(fro), rel=1e-9)
            assert got["jacobian_small"] == np.mean(np.array(fro) < 0.01)
            assert got["grad_q_median"] == pytest.approx(np.median(grad), rel=1e-9)
    assert s.n_keys == m and s.max_entropy == pytest.approx(np.log(m))


def test_generation_ways_recompute_what_they_say(monkeypatch):
    """ "layer" reruns multi-head attention on the prefix at every step; "kv" and the cache only
    attend from the new token. The seed reaches the weights."""
    calls = []
    real = analysis.multi_head_attention
    monkeypatch.setattr(analysis, "multi_head_attention",
                        lambda *a, **kw: calls.append(1) or real(*a, **kw))  # fmt: skip
    generate_states(5, 4, cache=False, recompute="layer")
    assert len(calls) == 5
    generate_states(5, 4, cache=False, recompute="kv")
    generate_states(5, 4, cache=True)
    assert len(calls) == 5
    assert not np.allclose(generate_states(3, 4, cache=True, seed=3),
                           generate_states(3, 4, cache=True, seed=0))  # fmt: skip


def test_rnn_states_against_a_loop_over_one_unit_at_a_time():
    """h_t[u] = tanh(Σ_i x_t[i]·W_x[i, u] + Σ_i h_{t−1}[i]·W_h[i, u]), W ~ N(0, 1/d) seeded."""
    x = np.random.default_rng(5).standard_normal((4, 3))
    rng = np.random.default_rng(2)  # rnn_states' own draws: W_x, then W_h
    w_x, w_h = rng.standard_normal((3, 3)) / np.sqrt(3), rng.standard_normal((3, 3)) / np.sqrt(3)
    h, want = [0.0] * 3, []
    for t in range(4):
        h = [math.tanh(sum(x[t][i] * w_x[i][u] + h[i] * w_h[i][u] for i in range(3)))
             for u in range(3)]  # fmt: skip
        want.append(h)
    np.testing.assert_allclose(analysis.rnn_states(x, seed=2), want, rtol=1e-12)
    assert not np.allclose(analysis.rnn_states(x), analysis.rnn_states(x, seed=2))
    np.testing.assert_allclose(analysis.rnn_states(x.tolist(), seed=2), want, rtol=1e-12)
    np.testing.assert_array_equal(analysis.rnn_states(x), analysis.rnn_states(x, seed=0))
    np.testing.assert_array_equal(generate_states(3, 4, cache=True),
                                  generate_states(3, 4, cache=True, seed=0))  # fmt: skip


def test_as_dicts_hold_every_field_and_the_derived_ones():
    g = generation_cost(4, 4, 2)
    assert g.as_dict() == {"n": 4, "d_model": 4, "num_heads": 2,
                           "flops_with_cache": g.flops_with_cache,
                           "flops_without_cache": g.flops_without_cache,
                           "cache_bytes": 128, "flops_recompute_kv": g.flops_recompute_kv,
                           "speedup": g.speedup, "speedup_kv": g.speedup_kv}  # fmt: skip
    est = qk_variance(2, samples=10, seed=1)
    assert est.as_dict() == {"d_k": 2, "samples": 10, "raw_variance": est.raw_variance,
                             "scaled_variance": est.scaled_variance}  # fmt: skip
