"""Attention core against a plain-loop reference and torch, plus its invariants and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_core import (
    AttentionParams,
    build_inputs,
    causal_mask,
    init_params,
    multi_head_attention,
    scaled_dot_product_attention,
    softmax,
)
from attention_core.attention import merge_heads, split_heads

TOL = {np.float32: dict(rtol=2e-4, atol=2e-5), np.float64: dict(rtol=1e-10, atol=1e-12)}


def loop_attention(q, k, v, scale=True, mask=None):
    """Reference for 2-d q (n, d), k (m, d), v (m, d_v): one query row at a time, pure Python."""
    n, m = len(q), len(k)
    out, weights = [], []
    for i in range(n):
        logits = []
        for j in range(m):
            s = sum(float(q[i][t]) * float(k[j][t]) for t in range(len(q[i])))
            s = s / math.sqrt(len(q[i])) if scale else s
            logits.append(s if mask is None or mask[i][j] else -math.inf)
        peak = max(logits)
        ex = [0.0 if x == -math.inf else math.exp(x - peak) for x in logits]
        total = sum(ex)
        row = [e / total if total else 0.0 for e in ex]
        weights.append(row)
        out.append([sum(row[j] * float(v[j][c]) for j in range(m)) for c in range(len(v[0]))])
    return np.array(weights), np.array(out)


def rand(rng, shape, dtype=np.float64):
    return rng.standard_normal(shape).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("use_mask", [False, True])
@pytest.mark.parametrize("scale", [True, False])
def test_matches_loop_reference_with_batch_dims(dtype, use_mask, scale):
    rng = np.random.default_rng(1)
    q, k, v = (
        rand(rng, (2, 3, 5, 4), dtype),
        rand(rng, (2, 3, 6, 4), dtype),
        rand(rng, (2, 3, 6, 3), dtype),
    )
    mask = rng.random((3, 5, 6)) < 0.7 if use_mask else None
    res = scaled_dot_product_attention(q, k, v, scale=scale, mask=mask)
    for field in ("scores", "scaled", "weights", "output"):
        assert getattr(res, field).dtype == dtype, field
    for b in range(2):
        for h in range(3):
            m = None if mask is None else mask[h]
            w, o = loop_attention(q[b, h], k[b, h], v[b, h], scale, m)
            np.testing.assert_allclose(res.weights[b, h], w, **TOL[dtype])
            np.testing.assert_allclose(res.output[b, h], o, **TOL[dtype])
    np.testing.assert_allclose(res.scores, q @ np.swapaxes(k, -1, -2), **TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mask_kind", [None, "causal", "random"])
def test_matches_torch_sdpa(dtype, mask_kind):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    q, k, v = (
        rand(rng, (2, 4, 7, 8), dtype),
        rand(rng, (2, 4, 7, 8), dtype),
        rand(rng, (2, 4, 7, 5), dtype),
    )
    mask = {None: None, "causal": causal_mask(7), "random": rng.random((2, 1, 7, 7)) < 0.8}[
        mask_kind
    ]
    if mask is not None:
        mask = mask | np.eye(7, dtype=bool)  # torch gives NaN for fully masked rows
    res = scaled_dot_product_attention(q, k, v, mask=mask)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    tm = None if mask is None else torch.from_numpy(np.ascontiguousarray(mask))
    expected = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, attn_mask=tm).numpy()
    np.testing.assert_allclose(res.output, expected, **TOL[dtype])


@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(1, 9),
    m=st.integers(1, 9),
    d=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_rows_sum_to_one_and_masked_weights_are_exactly_zero(n, m, d, seed, dtype):
    rng = np.random.default_rng(seed)
    q, k, v = rand(rng, (n, d), dtype), rand(rng, (m, d), dtype), rand(rng, (m, 2), dtype)
    mask = rng.random((n, m)) < 0.6
    w = scaled_dot_product_attention(q, k, v, mask=mask).weights
    assert np.all(w[~mask] == 0)
    live = mask.any(axis=-1)
    np.testing.assert_allclose(w[live].sum(axis=-1), 1, rtol=1e-5)
    assert np.all(w[~live] == 0)


def test_fully_masked_rows_give_zero_weights_and_output():
    rng = np.random.default_rng(3)
    q, k, v = rand(rng, (4, 3)), rand(rng, (5, 3)), rand(rng, (5, 2))
    mask = np.ones((4, 5), dtype=bool)
    mask[2] = False
    res = scaled_dot_product_attention(q, k, v, mask=mask)
    assert np.all(res.weights[2] == 0) and np.all(res.output[2] == 0)
    assert not np.isnan(res.weights).any()
    assert np.all(softmax(np.full((2, 3), -np.inf)) == 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_extreme_scores_neither_overflow_nor_nan(dtype):
    x = np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4]], dtype=dtype)
    p = softmax(x)
    assert p.dtype == dtype and np.isfinite(p).all()
    np.testing.assert_allclose(p, [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3]], rtol=1e-6)
    q = np.array([[100.0, 100.0]], dtype=dtype)
    k = np.array([[100.0, 100.0], [-100.0, -100.0]], dtype=dtype)  # scores ±2e4
    res = scaled_dot_product_attention(q, k, np.eye(2, dtype=dtype), scale=False)
    np.testing.assert_array_equal(res.weights, [[1, 0]])


def test_scale_false_equals_scaled_with_scores_times_sqrt_dk():
    rng = np.random.default_rng(4)
    q, k, v = rand(rng, (3, 6, 16)), rand(rng, (3, 6, 16)), rand(rng, (3, 6, 4))
    plain = scaled_dot_product_attention(q, k, v, scale=False)
    scaled = scaled_dot_product_attention(q * np.sqrt(16), k, v, scale=True)
    np.testing.assert_allclose(scaled.scores, plain.scores * np.sqrt(16), rtol=1e-12)
    np.testing.assert_allclose(scaled.weights, plain.weights, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(scaled.output, plain.output, rtol=1e-10, atol=1e-14)
    assert plain.scaled is plain.scores


def test_broadcast_masks_and_batch_dims():
    rng = np.random.default_rng(5)
    q, k, v = rand(rng, (2, 1, 4, 3)), rand(rng, (3, 4, 3)), rand(rng, (3, 4, 2))
    res = scaled_dot_product_attention(q, k, v, mask=causal_mask(4))
    assert res.weights.shape == (2, 3, 4, 4) and res.output.shape == (2, 3, 4, 2)
    assert np.all(res.weights[..., np.triu_indices(4, 1)[0], np.triu_indices(4, 1)[1]] == 0)


def mha_reference(x, p: AttentionParams, mask=None):
    """Multi-head attention head by head with the loop reference, as in the text."""
    d_k, outs = p.d_k, []
    q, k, v = x @ p.w_q, x @ p.w_k, x @ p.w_v
    for i in range(p.num_heads):
        cols = slice(i * d_k, (i + 1) * d_k)
        outs.append(loop_attention(q[:, cols], k[:, cols], v[:, cols], True, mask)[1])
    return np.concatenate(outs, axis=-1) @ p.w_o


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_multi_head_matches_per_head_reference(dtype):
    rng = np.random.default_rng(6)
    p = init_params(12, 3, seed=1, dtype=dtype)
    x = rand(rng, (2, 5, 12), dtype)
    res = multi_head_attention(x, p, mask=causal_mask(5))
    assert res.q.shape == (2, 3, 5, 4) and res.heads.weights.shape == (2, 3, 5, 5)
    assert res.concat.shape == (2, 5, 12) and res.output.dtype == dtype
    for b in range(2):
        np.testing.assert_allclose(
            res.output[b], mha_reference(x[b], p, causal_mask(5)), **TOL[dtype]
        )
    np.testing.assert_array_equal(merge_heads(split_heads(x, 3)), x)


def test_float32_input_stays_float32_with_float64_params():
    x = np.ones((4, 8), dtype=np.float32)
    res = multi_head_attention(x, init_params(8, 2, seed=0))
    for a in (res.q, res.heads.scores, res.heads.scaled, res.heads.weights, res.concat, res.output):
        assert a.dtype == np.float32


def test_large_input_takes_the_threaded_chunked_path():
    rng = np.random.default_rng(7)
    q, k, v = (
        rand(rng, (2, 1100, 8), np.float32),
        rand(rng, (2, 1100, 8), np.float32),
        rand(rng, (2, 1100, 4), np.float32),
    )
    res = scaled_dot_product_attention(q, k, v, mask=causal_mask(1100))
    expected = softmax(np.where(causal_mask(1100), res.scores / np.sqrt(8), -np.inf))
    np.testing.assert_allclose(res.weights, expected, rtol=1e-5, atol=1e-7)


def _permutation_case(positions: bool):
    tokens = ["我", "打", "你"]
    perm = [2, 1, 0]  # 你打我
    p = init_params(16, 2, seed=3)
    a = multi_head_attention(build_inputs(tokens, 16, positions=positions), p)
    b = multi_head_attention(build_inputs([tokens[i] for i in perm], 16, positions=positions), p)
    P = np.eye(3)[perm]  # (3, 3): row i picks token perm[i]
    return a, b, P


def test_permutation_equivariance_without_positions():
    a, b, P = _permutation_case(positions=False)
    np.testing.assert_allclose(b.heads.weights, P @ a.heads.weights @ P.T, atol=1e-12)
    np.testing.assert_allclose(b.output, P @ a.output, atol=1e-12)


def test_positions_break_permutation_equivariance():
    a, b, P = _permutation_case(positions=True)
    assert not np.allclose(b.heads.weights, P @ a.heads.weights @ P.T, atol=1e-6)
    assert not np.allclose(b.output, P @ a.output, atol=1e-6)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: init_params(10, 3), ValueError, "not divisible"),
        (lambda: init_params(0, 1), ValueError, "d_model"),
        (lambda: init_params(8, 0), ValueError, "num_heads"),
        (lambda: init_params(8, 2, dtype=int), ValueError, "float dtype"),
        (
            lambda: scaled_dot_product_attention(np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 4))),
            ValueError,
            "d_k",
        ),
        (
            lambda: scaled_dot_product_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 3))),
            ValueError,
            "positions",
        ),
        (
            lambda: scaled_dot_product_attention(np.ones(3), np.ones((4, 3)), np.ones((4, 3))),
            ValueError,
            "shape",
        ),
        (
            lambda: scaled_dot_product_attention(
                np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 3)), mask=np.ones((2, 4))
            ),
            TypeError,
            "bool",
        ),
        (
            lambda: scaled_dot_product_attention(
                np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 3)), mask=np.ones((3, 4), bool)
            ),
            ValueError,
            "broadcast",
        ),
        (
            lambda: scaled_dot_product_attention(
                np.ones((2, 2, 3)), np.ones((3, 4, 3)), np.ones((3, 4, 3))
            ),
            ValueError,
            "batch",
        ),
        (
            lambda: scaled_dot_product_attention(
                np.array([["a"]]), np.ones((1, 1)), np.ones((1, 1))
            ),
            TypeError,
            "real numbers",
        ),
        (lambda: softmax(np.array([1.0, np.nan])), ValueError, "NaN"),
        (lambda: multi_head_attention(np.ones((3, 5)), init_params(4, 2)), ValueError, "expected"),
        (lambda: causal_mask(-1), ValueError, "non-negative"),
    ],
)
def test_bad_inputs_get_clear_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
