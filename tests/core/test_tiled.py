"""Tiled (online-softmax) attention equals the plain result and never holds an (n, n) array."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from attention_core import causal_mask, scaled_dot_product_attention, tiled_attention
from tests.reference import causal_allowed, loop_attention


def _plain(q, k, v, scale, causal):
    """The readable version (itself checked against the loop in test_attention), for large n."""
    mask = np.tril(np.ones((q.shape[-2], k.shape[-2]), dtype=bool)) if causal else None
    return scaled_dot_product_attention(q, k, v, scale=scale, mask=mask).output


def _loop(q, k, v, scale, causal):
    """The loop reference on 2-d q, k, v, with its own causal rule (j ≤ i)."""
    return loop_attention(q, k, v, scale, causal_allowed(len(q), len(k)) if causal else None)[2]


@pytest.mark.parametrize("seed", range(6))
def test_tiled_equals_plain_for_random_sizes(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 4097)) if seed == 0 else int(rng.integers(1, 300))  # one long row
    block = int(rng.integers(max(1, n // 16), n + 40))
    causal, scale = bool(seed % 2), seed != 3
    dtype = np.float32 if seed % 3 == 0 else np.float64
    q, k, v = (rng.standard_normal((n, d)).astype(dtype) for d in (16, 16, 8))
    out = tiled_attention(q, k, v, block=block, scale=scale, causal=causal)
    assert out.dtype == dtype
    tol = dict(rtol=1e-4, atol=1e-5) if dtype == np.float32 else dict(rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(out, _plain(q, k, v, scale, causal), **tol)


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("block", [1, 3, 64])
def test_tiled_with_batch_dims_and_unequal_lengths(block, causal):
    rng = np.random.default_rng(block)
    q, k, v = (
        rng.standard_normal((2, 3, 7, 4)),
        rng.standard_normal((3, 10, 4)),
        rng.standard_normal((3, 10, 5)),
    )
    out = tiled_attention(q, k, v, block=block, causal=causal)
    assert out.shape == (2, 3, 7, 5)
    for b, h in np.ndindex(2, 3):
        want = _loop(q[b, h], k[h], v[h], True, causal)
        np.testing.assert_allclose(out[b, h], want, rtol=1e-10, atol=1e-12)


def test_large_scores_are_rescaled_without_overflow():
    q = np.array([[30.0, 0.0]] * 4)
    k = np.array([[-30.0, 0.0], [0.0, 1.0], [30.0, 0.0], [31.0, 0.0]])
    v = np.eye(4)
    out = tiled_attention(q, k, v, block=1, scale=False)  # max rises across blocks
    np.testing.assert_allclose(out, _loop(q, k, v, False, False), rtol=1e-12)
    assert np.isfinite(out).all()


def test_tiled_peak_memory_stays_far_below_n_squared():
    n, d = 2048, 16
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((n, d)).astype(np.float32) for _ in range(3))
    tracemalloc.start()
    tiled_attention(q, k, v, block=128, causal=True)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < n * n * 4 / 8  # an (n, n) float32 would be 16 MiB; tiles are ~0.3 MiB


@pytest.mark.parametrize("block", [0, -3, 2.5, True, "8"])
def test_bad_block_is_a_clear_error(block):
    q = np.ones((3, 2))
    with pytest.raises(ValueError, match="block must be an integer"):
        tiled_attention(q, q, q, block=block)


def test_bad_shapes_are_clear_errors():
    with pytest.raises(ValueError, match="d_k"):
        tiled_attention(np.ones((3, 2)), np.ones((3, 4)), np.ones((3, 4)))
    assert causal_mask(3).dtype == bool


def test_non_finite_inputs_are_a_clear_error():
    q = np.ones((3, 2))
    with pytest.raises(ValueError, match="NaN or infinite"):
        tiled_attention(q, q, np.full((3, 2), np.nan))


@pytest.mark.parametrize("block", [1, 2, 5])
def test_small_causal_tiles_against_the_loop(block):
    """Every block boundary against the loop: rows whose keys end inside or at a block."""
    rng = np.random.default_rng(20 + block)
    q, k, v = (rng.standard_normal((6, 3)) for _ in range(3))
    for causal in (False, True):
        out = tiled_attention(q, k, v, block=block, causal=causal)
        np.testing.assert_allclose(out, _loop(q, k, v, True, causal), rtol=1e-12, atol=1e-14)


def test_rows_with_far_smaller_scores_than_another_row_keep_their_own_max():
    """Each row is shifted by its own maximum: one row's 1600 must not underflow another's."""
    q = np.array([[40.0], [0.01]])
    k = np.array([[40.0], [-40.0]])  # scores: row 0 [1600, −1600], row 1 [0.4, −0.4]
    out = tiled_attention(q, k, np.eye(2), block=2, scale=False)
    np.testing.assert_allclose(out, _loop(q, k, np.eye(2), False, False), rtol=1e-12)


@pytest.mark.parametrize("batched", ["k", "v"])
def test_batch_dimensions_of_k_or_v_alone(batched):
    rng = np.random.default_rng(30)
    q = rng.standard_normal((7, 4))
    k = rng.standard_normal((3, 10, 4) if batched == "k" else (10, 4))
    v = rng.standard_normal((3, 10, 5) if batched == "v" else (10, 5))
    out = tiled_attention(q, k, v, block=4, causal=True)
    assert out.shape == (3, 7, 5)
    for b in range(3):
        kb, vb = (k[b] if k.ndim == 3 else k), (v[b] if v.ndim == 3 else v)
        np.testing.assert_allclose(out[b], _loop(q, kb, vb, True, True), rtol=1e-10, atol=1e-12)


def test_one_head_batch_masks_the_future_keys_of_a_later_query_block():
    """(1, 1, 8, d) in blocks of 4: the second query block must still mask keys 5 … 7."""
    rng = np.random.default_rng(31)
    q, k, v = (rng.standard_normal((1, 1, 8, 3)) for _ in range(3))
    out = tiled_attention(q, k, v, block=4, causal=True)
    np.testing.assert_allclose(out[0, 0], _loop(q[0, 0], k[0, 0], v[0, 0], True, True),
                               rtol=1e-10, atol=1e-12)  # fmt: skip


@pytest.mark.parametrize("wide", ["q", "k", "v"])
def test_mixed_precision_computes_in_the_widest_dtype(wide):
    """One float64 input makes the whole computation float64 (float32 state would lose ~1e-7)."""
    rng = np.random.default_rng(32)
    arrays = {name: rng.standard_normal((9, 4)) for name in "qkv"}
    cast = {n: a if n == wide else a.astype(np.float32) for n, a in arrays.items()}
    out = tiled_attention(cast["q"], cast["k"], cast["v"], block=2, causal=True)
    assert out.dtype == np.float64
    want = _loop(*(cast[n].astype(np.float64) for n in "qkv"), True, True)
    np.testing.assert_allclose(out, want, rtol=1e-12, atol=1e-13)


@pytest.mark.parametrize("name", ["q", "k", "v"])
def test_errors_name_the_input(name):
    args = {"q": np.ones((3, 2)), "k": np.ones((3, 2)), "v": np.ones((3, 2))}
    bad = dict(args, **{name: np.full((3, 2), np.inf)})
    with pytest.raises(ValueError, match=rf"^{name} holds NaN or infinite values$"):
        tiled_attention(**bad)
    bad = dict(args, **{name: np.array([["a", "b"]] * 3)})
    with pytest.raises(TypeError, match=rf"^{name} must hold real numbers"):
        tiled_attention(**bad)


def test_k_and_v_with_different_batch_axes():
    rng = np.random.default_rng(33)
    q, k, v = (
        rng.standard_normal((7, 4)),
        rng.standard_normal((3, 10, 4)),
        rng.standard_normal((2, 3, 10, 5)),
    )
    out = tiled_attention(q, k, v, block=4)
    assert out.shape == (2, 3, 7, 5)
    np.testing.assert_allclose(out[1, 2], _loop(q, k[2], v[1, 2], True, False), rtol=1e-10)
