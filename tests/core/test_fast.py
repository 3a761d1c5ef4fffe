"""fast.chunked_attention equals the loop reference and the readable version, threaded or not."""

from __future__ import annotations

import tracemalloc
from typing import ClassVar

import numpy as np
import pytest

from attention_core import causal_mask, fast, scaled_dot_product_attention
from attention_core.fast import chunked_attention
from tests.reference import causal_allowed, loop_attention

TOL = {np.float32: dict(rtol=2e-5, atol=2e-6), np.float64: dict(rtol=1e-12, atol=1e-14)}


class CountingPool(fast.ThreadPoolExecutor):
    """The real thread pool, counting how many were started (the threaded path taken)."""

    started: ClassVar[list[int]] = []

    def __init__(self, max_workers: int) -> None:
        CountingPool.started.append(max_workers)
        super().__init__(max_workers=max_workers)


@pytest.fixture
def pools(monkeypatch) -> list[int]:
    CountingPool.started = []
    monkeypatch.setattr(fast, "ThreadPoolExecutor", CountingPool)
    return CountingPool.started


def qkv(rng, lead, n, m, d, dtype):
    shapes = ((*lead, n, d), (*lead, m, d), (*lead, m, 3))
    return tuple(rng.standard_normal(s).astype(dtype) for s in shapes)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("scale", [True, False])
def test_threaded_path_equals_the_loop_reference_row_for_row(pools, dtype, causal, scale):
    """Small chunks and no size threshold: 2 batches × 40 rows in chunks of 3 rows are 28
    chunks in 4 groups of 8, spread over 3 threads. A thread that skips a group, a chunk or a
    row leaves np.empty's memory in those rows, which no loop reference matches."""
    rng = np.random.default_rng(11)
    q, k, v = qkv(rng, (2,), 40, 17, 5, dtype)
    mask = causal_mask(40)[:, :17] if causal else None
    res = chunked_attention(q, k, v, scale=scale, mask=mask, chunk=3 * 17, threaded_from=0,
                            workers=3)  # fmt: skip
    assert pools == [3], "the threaded path was not taken"
    allowed = causal_allowed(40, 17) if causal else None
    for b in range(2):
        scores, w, out = loop_attention(q[b], k[b], v[b], scale, allowed)
        np.testing.assert_allclose(res.scores[b], scores, **TOL[dtype])
        np.testing.assert_allclose(res.scaled[b], scores / (np.sqrt(5) if scale else 1),
                                   **TOL[dtype])  # fmt: skip
        np.testing.assert_allclose(res.weights[b], w, **TOL[dtype])
        np.testing.assert_allclose(res.output[b], out, **TOL[dtype])
    assert all(getattr(res, f).dtype == dtype for f in ("scores", "scaled", "weights", "output"))
    assert (res.scaled is res.scores) == (not scale)


@pytest.mark.slow
def test_default_threshold_is_the_threaded_one_for_a_large_input(pools):
    """At the shipped THREADED_FROM (2²² elements) a large enough input really is threaded."""
    n = 2048  # 2048² = 4.2 M elements = THREADED_FROM
    rng = np.random.default_rng(12)
    q, k, v = qkv(rng, (), n, n, 8, np.float32)
    res = chunked_attention(q, k, v, mask=causal_mask(n), workers=2)
    assert pools == [2] and n * n >= fast.THREADED_FROM
    plain = scaled_dot_product_attention(q, k, v, mask=causal_mask(n))
    np.testing.assert_allclose(res.weights, plain.weights, **TOL[np.float32])
    np.testing.assert_allclose(res.output, plain.output, **TOL[np.float32])
    rows = [0, 1, 777, n - 1]  # a few rows against the loop itself
    _, w, _ = loop_attention(q[rows], k, v, True, [causal_allowed(n)[i] for i in rows])
    np.testing.assert_allclose(res.weights[rows], w, **TOL[np.float32])


def test_small_inputs_stay_on_one_thread(pools):
    rng = np.random.default_rng(13)
    q, k, v = qkv(rng, (), 6, 6, 4, np.float64)
    res = chunked_attention(q, k, v)
    assert pools == []
    np.testing.assert_allclose(res.weights, loop_attention(q, k, v)[1], **TOL[np.float64])


def test_fully_masked_rows_give_zeros_on_every_path(pools):
    rng = np.random.default_rng(14)
    q, k, v = qkv(rng, (), 9, 5, 4, np.float64)
    mask = np.ones((9, 5), dtype=bool)
    mask[[2, 7]] = False
    for threaded_from in (0, fast.THREADED_FROM):
        res = chunked_attention(q, k, v, mask=mask, chunk=10, threaded_from=threaded_from)
        assert np.all(res.weights[[2, 7]] == 0) and np.all(res.output[[2, 7]] == 0)
        assert not np.isnan(res.weights).any()


def test_holds_the_same_three_n_by_n_arrays_as_the_readable_version():
    """Scores, scaled scores and weights: the chunks add no (n, n) temporary."""
    n, d = 1024, 16
    rng = np.random.default_rng(15)
    q, k, v = qkv(rng, (), n, n, d, np.float32)
    tracemalloc.start()
    chunked_attention(q, k, v)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert 3 * n * n * 4 <= peak < 3.2 * n * n * 4


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((np.ones((2, 3)), np.ones((2, 4)), np.ones((2, 4))), ValueError, "d_k"),
        ((np.ones((2, 3)), np.ones((4, 3)), np.ones((5, 3))), ValueError, "positions"),
        ((np.array([["a"]]), np.ones((1, 1)), np.ones((1, 1))), TypeError, "real numbers"),
    ],
)
def test_the_same_clear_errors_as_the_readable_version(args, error, match):
    with pytest.raises(error, match=match):
        chunked_attention(*args)
    with pytest.raises(TypeError, match="bool"):
        chunked_attention(np.ones((2, 3)), np.ones((4, 3)), np.ones((4, 3)), mask=np.ones((2, 4)))
    with pytest.raises(ValueError, match="NaN"):
        chunked_attention(np.full((2, 3), np.nan), np.ones((4, 3)), np.ones((4, 3)))


@pytest.mark.parametrize(
    ("shape", "chunk"),
    [((10, 4), 8), ((2, 3, 7, 5), 10), ((2, 5, 3, 4), 8), ((1, 4), 1), ((5, 1), 3)],
)
def test_the_chunks_cover_every_row_exactly_once(shape, chunk):
    """Whole rows of about `chunk` elements; every (batch…, row) in exactly one chunk."""
    seen = np.zeros(shape[:-1], dtype=int)
    for index in fast._chunks(shape, chunk):
        seen[index] += 1
        rows = index[-1]
        assert rows.stop - rows.start == max(1, chunk // shape[-1])
    assert (seen == 1).all()


def test_the_size_threshold_is_inclusive(pools):
    rng = np.random.default_rng(16)
    q, k, v = qkv(rng, (), 12, 12, 4, np.float64)  # 144 elements in 12 one-row chunks
    chunked_attention(q, k, v, chunk=12, threaded_from=145, workers=2)
    assert pools == []  # below the threshold: one thread, however many chunks
    res = chunked_attention(q, k, v, chunk=12, threaded_from=144, workers=2)
    assert pools == [2]
    np.testing.assert_allclose(res.weights, loop_attention(q, k, v)[1], **TOL[np.float64])


@pytest.mark.parametrize("name", ["q", "k", "v"])
def test_errors_name_the_input(name):
    args = {"q": np.ones((2, 3)), "k": np.ones((4, 3)), "v": np.ones((4, 3))}
    args[name] = np.array([["a"] * 3] * len(args[name]))
    with pytest.raises(TypeError, match=rf"^{name} must hold real numbers"):
        chunked_attention(**args)


def test_the_threaded_path_softmaxes_each_chunk_once(monkeypatch, pools):
    """Groups of GROUP chunks, one after another: no chunk skipped, none done twice."""
    done: list[tuple] = []
    real = fast._softmax_rows_into

    def counted(src, dst, mask):
        done.append(src.shape)  # list.append is atomic under the GIL
        real(src, dst, mask)

    monkeypatch.setattr(fast, "_softmax_rows_into", counted)
    rng = np.random.default_rng(17)
    q, k, v = qkv(rng, (3,), 20, 6, 4, np.float64)
    chunked_attention(q, k, v, chunk=12, threaded_from=0, workers=2)  # 3 × 10 chunks of 2 rows
    assert pools == [2] and done == [(2, 6)] * 30
