"""Attention core against a plain-loop reference and torch, plus its invariants and errors."""

from __future__ import annotations

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
from attention_core.attention import merge_heads, reweight, split_heads
from tests.reference import causal_allowed, loop_attention, loop_multi_head, loop_softmax

TOL = {np.float32: dict(rtol=2e-4, atol=2e-5), np.float64: dict(rtol=1e-10, atol=1e-12)}


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
            m = None if mask is None else mask[h].tolist()
            scores, w, o = loop_attention(q[b, h], k[b, h], v[b, h], scale, m)
            np.testing.assert_allclose(res.scores[b, h], scores, **TOL[dtype])
            np.testing.assert_allclose(res.scaled[b, h], scores / (2 if scale else 1), **TOL[dtype])
            np.testing.assert_allclose(res.weights[b, h], w, **TOL[dtype])
            np.testing.assert_allclose(res.output[b, h], o, **TOL[dtype])


# slow: importing torch takes ~5 s of CPU, the longest single test of `make check`; there,
# test_matches_loop_reference_with_batch_dims checks the same masks and dtypes against a loop.
@pytest.mark.slow
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
    random = rng.random((2, 1, 7, 7)) < 0.8
    random |= np.eye(7, dtype=bool)  # torch gives NaN for fully masked rows
    mask = {None: None, "causal": causal_mask(7), "random": random}[mask_kind]
    res = scaled_dot_product_attention(q, k, v, mask=mask)
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    tm = {None: None, "random": torch.from_numpy(random)}.get(mask_kind)
    causal = mask_kind == "causal"  # torch builds its own lower-triangular mask
    expected = torch.nn.functional.scaled_dot_product_attention(
        tq, tk, tv, attn_mask=tm, is_causal=causal
    ).numpy()
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


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("causal", [False, True])
def test_multi_head_matches_per_head_reference(dtype, causal):
    rng = np.random.default_rng(6)
    p = init_params(12, 3, seed=1, dtype=dtype)
    x = rand(rng, (2, 5, 12), dtype)
    res = multi_head_attention(x, p, mask=causal_mask(5) if causal else None)
    assert res.q.shape == (2, 3, 5, 4) and res.heads.weights.shape == (2, 3, 5, 5)
    assert res.concat.shape == (2, 5, 12) and res.output.dtype == dtype
    allowed = causal_allowed(5) if causal else None  # the reference's own mask
    for b in range(2):
        w, out = loop_multi_head(x[b], p.w_q, p.w_k, p.w_v, p.w_o, 3, allowed=allowed)
        np.testing.assert_allclose(res.heads.weights[b], w, **TOL[dtype])
        np.testing.assert_allclose(res.output[b], out, **TOL[dtype])
    np.testing.assert_array_equal(merge_heads(split_heads(x, 3)), x)


def test_split_heads_gives_head_i_columns_i_dk_to_i_plus_1_dk():
    x = np.arange(2 * 6).reshape(2, 6)  # (n=2, d_model=6), h = 3, d_k = 2
    np.testing.assert_array_equal(split_heads(x, 3)[1], [[2, 3], [8, 9]])
    np.testing.assert_array_equal(merge_heads(split_heads(x, 3)), x)


def test_float32_input_stays_float32_with_float64_params():
    x = np.ones((4, 8), dtype=np.float32)
    res = multi_head_attention(x, init_params(8, 2, seed=0))
    for a in (res.q, res.heads.scores, res.heads.scaled, res.heads.weights, res.concat, res.output):
        assert a.dtype == np.float32


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


# ---- the mask, softmax and the temperature against the loop reference


@pytest.mark.parametrize("n", [0, 1, 4, 7])
def test_causal_mask_lets_query_i_see_keys_up_to_i(n):
    mask = causal_mask(n)
    assert mask.dtype == bool and mask.shape == (n, n)
    assert mask.tolist() == causal_allowed(n)


def test_softmax_matches_the_loop_on_any_axis_and_keeps_float32():
    rng = np.random.default_rng(8)
    x = rand(rng, (3, 4, 5), np.float32)
    for axis in (0, 1, -1):
        got = softmax(x, axis=axis)
        assert got.dtype == np.float32
        moved = np.moveaxis(x, axis, -1)
        want = np.array([loop_softmax(row) for row in moved.reshape(-1, moved.shape[-1])])
        np.testing.assert_allclose(np.moveaxis(got, axis, -1).reshape(want.shape), want, rtol=1e-5)
    assert softmax(np.array([1, 2, 3])).dtype == np.float64  # integers become float64


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_masked_row_with_extreme_scores(dtype):
    """The largest scores are masked: the row's weight goes to the allowed keys, even when they
    are all hugely negative, and never to a masked one; no overflow, no NaN."""
    big = np.finfo(dtype).max / 4
    x = np.array([[big, -big, -big / 2, big], [-1e4, 1e4, -1e4, 1e4]], dtype=dtype)
    allowed = np.array([[False, True, True, False], [True, False, True, False]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):  # no overflow escapes
        w = reweight(x, 1.0, allowed)
    assert w.dtype == dtype and np.isfinite(w).all()
    np.testing.assert_array_equal(w, [[0, 0, 1, 0], [0.5, 0, 0.5, 0]])


@pytest.mark.parametrize("tau", [0.25, 1.0, 3.0])
def test_reweight_is_the_softmax_of_scores_over_tau_with_the_mask(tau):
    rng = np.random.default_rng(9)
    scores = rand(rng, (2, 4, 4))  # (h, n, n)
    got = reweight(scores, tau, causal_mask(4))
    for h in range(2):
        for i in range(4):
            want = loop_softmax(scores[h, i] / tau, causal_allowed(4)[i])
            np.testing.assert_allclose(got[h, i], want, rtol=1e-12)
    np.testing.assert_allclose(reweight(scores, tau)[0, 1], loop_softmax(scores[0, 1] / tau))
    assert reweight(scores.astype(np.float32), tau).dtype == np.float32


@pytest.mark.parametrize("tau", [0, -1.0, float("nan"), float("inf")])
def test_reweight_refuses_a_temperature_that_is_not_positive(tau):
    with pytest.raises(ValueError, match="positive"):
        reweight(np.zeros((2, 2)), tau)


def test_multi_head_attention_computes_its_heads_with_the_given_attend():
    seen = []

    def attend(q, k, v, *, scale, mask):
        seen.append((q.shape, scale, mask))
        return scaled_dot_product_attention(q, k, v, scale=scale, mask=mask)

    p = init_params(8, 2, seed=0)
    multi_head_attention(np.ones((3, 8)), p, scale=False, mask=None, attend=attend)
    assert seen == [((2, 3, 4), False, None)]


# ---- the shapes and sizes the layer accepts, and what it says when they are wrong


def test_params_name_the_bad_matrix_and_the_expected_shape():
    w = np.zeros((4, 4))
    with pytest.raises(
        ValueError, match=r"^w_q must be a \(d_model, d_model\) matrix, got shape \(4,\)$"
    ):
        AttentionParams(np.zeros(4), w, w, w, 1)
    with pytest.raises(ValueError, match=r"^w_q has shape \(3, 4\); expected \(4, 4\)$"):
        AttentionParams(np.zeros((3, 4)), w, w, w, 1)
    with pytest.raises(ValueError, match=r"^w_o has shape \(4, 3\); expected \(4, 4\)$"):
        AttentionParams(w, w, w, np.zeros((4, 3)), 1)
    p = AttentionParams(w, w, w, w, 2)
    assert (p.d_model, p.d_k) == (4, 2)


def test_one_head_and_width_one_are_allowed_and_the_error_lists_the_divisors():
    assert init_params(8, 1).num_heads == 1 and init_params(1, 1).w_q.shape == (1, 1)
    with pytest.raises(ValueError, match=r"^d_model=10 is not divisible by num_heads=3; "
                       r"choose h among \[1, 2, 5, 10\]$"):  # fmt: skip
        init_params(10, 3)
    with pytest.raises(ValueError, match=r"^num_heads must be a positive integer, got 0$"):
        init_params(8, 0)
    with pytest.raises(ValueError, match=r"^num_heads must be a positive integer, got True$"):
        init_params(8, True)
    for d_model in (0, -8, 8.0, "8"):
        with pytest.raises(ValueError, match=r"^d_model must be a positive integer"):
            init_params(d_model, 1)


def test_init_params_is_seeded_and_scaled_by_one_over_root_d_model():
    a, b = init_params(64, 4, seed=5), init_params(64, 4, seed=5)
    np.testing.assert_array_equal(a.w_v, b.w_v)
    assert not np.array_equal(a.w_q, init_params(64, 4, seed=6).w_q)
    ws = np.stack([a.w_q, a.w_k, a.w_v, a.w_o])  # four different draws of N(0, 1/d_model)
    assert len({w.tobytes() for w in ws}) == 4
    assert abs(ws.var() * 64 - 1) < 0.05 and abs(ws.mean()) < 0.01
    assert init_params(8, 2, dtype=np.float32).w_o.dtype == np.float32


def test_errors_name_the_argument_that_was_wrong():
    with pytest.raises(TypeError, match=r"^scores must hold real numbers, got dtype <U1$"):
        reweight(np.array([["a"]]), 1.0)
    with pytest.raises(TypeError, match=r"^k must hold real numbers"):
        scaled_dot_product_attention(np.ones((1, 1)), np.array([[1j]]), np.ones((1, 1)))
    with pytest.raises(ValueError, match=r"^q has shape \(3,\); expected \(\.\.\., positions"):
        scaled_dot_product_attention(np.ones(3), np.ones((4, 3)), np.ones((4, 3)))
    with pytest.raises(ValueError, match=r"^q has d_k=3 but k has d_k=4$"):
        scaled_dot_product_attention(np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 4)))
    with pytest.raises(ValueError, match=r"^k has 4 positions but v has 5$"):
        scaled_dot_product_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 3)))
    with pytest.raises(ValueError, match=r"^attention needs at least one query"):
        scaled_dot_product_attention(np.ones((0, 3)), np.ones((4, 3)), np.ones((4, 3)))
    with pytest.raises(ValueError, match=r"^causal_mask needs a non-negative integer n, got 2.0$"):
        causal_mask(2.0)


def test_multi_head_result_keeps_each_heads_q_k_v_and_the_default_seed_is_0():
    p = init_params(8, 2)
    np.testing.assert_array_equal(p.w_q, init_params(8, 2, seed=0).w_q)
    x = np.random.default_rng(10).standard_normal((3, 8))
    res = multi_head_attention(x, p)
    for name, w in (("q", p.w_q), ("k", p.w_k), ("v", p.w_v)):
        full = x @ w  # (n, d_model)
        heads = getattr(res, name)  # (h, n, d_k): head i is columns 4i … 4i+3
        np.testing.assert_allclose(heads[1], full[:, 4:], rtol=1e-12, err_msg=name)
    np.testing.assert_allclose(res.concat @ p.w_o, res.output, rtol=1e-12)
    with pytest.raises(TypeError, match=r"^x must hold real numbers"):
        multi_head_attention(np.array([["a"] * 8]), p)
