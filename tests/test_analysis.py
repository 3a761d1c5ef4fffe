"""Entropy, Jacobian norms, var(q·k) and the d_k sweep, FLOP and KV-cache counts."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import init_params
from attention_core.analysis import (
    attention_cost,
    dk_sweep,
    generate_states,
    generation_cost,
    jacobian_norms,
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


def test_jacobian_matches_finite_differences_and_its_norms():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(5)
    p = np.array(loop_softmax(x))
    J = softmax_jacobian(p)
    eps = 1e-6
    sm = lambda z: np.array(loop_softmax(z))  # noqa: E731
    numeric = np.stack([(sm(x + eps * e) - sm(x - eps * e)) / (2 * eps) for e in np.eye(5)], 1)
    np.testing.assert_allclose(J, numeric, atol=1e-8)
    norms = jacobian_norms(p)
    assert norms.frobenius == pytest.approx(np.linalg.norm(J))
    assert norms.spectral == pytest.approx(np.linalg.norm(J, 2))
    assert jacobian_norms(np.array([1.0, 0, 0])).frobenius == pytest.approx(0)


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


def test_generated_states_are_the_newest_rows_of_causal_attention():
    """Step s's output is the last row of causal attention over the first s stand-in states."""
    t, d = 5, 4
    rng = np.random.default_rng(0)  # generate_states' own draws: x, then W (seed 0)
    x = rng.standard_normal((t, d), dtype=np.float32).astype(float)
    p = init_params(d, 1, 0, dtype=np.float32)
    q, k, v = x @ p.w_q, x @ p.w_k, x @ p.w_v
    _, _, out = loop_attention(q, k, v, True, causal_allowed(t))  # (t, d) row s: keys 0 … s
    np.testing.assert_allclose(generate_states(t, d, cache=True), out @ p.w_o, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="recompute"):
        generate_states(t, d, cache=False, recompute="all")


def test_qk_variance_summarises_qk_samples():
    dots = qk_samples(32, samples=1000, seed=2)
    assert qk_variance(32, samples=1000, seed=2).raw_variance == pytest.approx(np.var(dots, ddof=1))


def test_row_entropy_in_bits_for_the_main_page():
    n = 8
    assert row_entropy(np.full((n, n), 1 / n), base=2) == pytest.approx(np.full(n, 3.0))
    assert row_entropy(np.eye(n), base=2) == pytest.approx(np.zeros(n))
