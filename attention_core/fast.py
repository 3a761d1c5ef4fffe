"""An optimisation of scaled_dot_product_attention: a softmax in cache-sized chunks, threaded."""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from attention_core.attention import (
    AttentionResult,
    _as_float,
    _check_mask,
    _check_qkv,
    _stable_peak,
)

CHUNK = 1 << 16  # elements per softmax chunk (256 KiB of float32): stays in L2 cache
THREADED_FROM = 1 << 22  # score arrays at least this large are softmaxed by several threads
GROUP = 8  # chunks a thread takes at a time
WORKERS = max(1, min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1))


def _softmax_rows_into(src: np.ndarray, dst: np.ndarray, mask: np.ndarray | None) -> None:
    """dst = softmax(src where mask else -inf) over the last axis, for 2-d (rows, m) arrays."""
    if mask is None:
        np.subtract(src, _stable_peak(np.max(src, axis=-1, keepdims=True)), out=dst)
    else:
        dst.fill(-np.inf)
        np.copyto(dst, src, where=mask)
        np.subtract(dst, _stable_peak(np.max(dst, axis=-1, keepdims=True)), out=dst)
    np.exp(dst, out=dst)
    total = np.sum(dst, axis=-1, keepdims=True)  # (rows, 1)
    np.maximum(total, 1, out=total)  # a row with any unmasked entry sums to ≥ exp(0) = 1
    np.divide(dst, total, out=dst)


def _chunks(shape: tuple[int, ...], chunk: int) -> list[tuple]:
    """Index tuples covering (..., n, m) in blocks of whole rows of about `chunk` elements."""
    n, m = shape[-2:]
    rows = max(1, chunk // max(m, 1))
    return [(*i, slice(r, r + rows)) for i in np.ndindex(shape[:-2]) for r in range(0, n, rows)]


def _fill(scores, scaled, weights, mask, factor, chunk: int, threaded_from: int, workers: int):
    """Fill `scaled` (scores·factor) and `weights` chunk by chunk, so each chunk stays in cache.

    Large inputs are shared between threads (numpy's loops release the GIL): the element-wise
    softmax would otherwise run on one core while the matrix products use all of them. Threads
    take small groups of chunks as they free up, so one descheduled thread does not stall all.
    """

    def run(chunks: list[tuple]) -> None:
        for sl in chunks:
            src = scores[sl]  # (rows, m)
            if factor is not None:
                src = np.multiply(src, factor, out=scaled[sl])
            _softmax_rows_into(src, weights[sl], None if mask is None else mask[sl])

    chunks = _chunks(scores.shape, chunk)
    workers = min(workers, len(chunks)) if scores.size >= threaded_from else 1
    if workers == 1:
        return run(chunks)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        list(pool.map(run, [chunks[i : i + GROUP] for i in range(0, len(chunks), GROUP)]))


def chunked_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    *,
    scale: bool = True,
    mask: np.ndarray | None = None,
    chunk: int = CHUNK,
    threaded_from: int = THREADED_FROM,
    workers: int | None = None,
) -> AttentionResult:
    """scaled_dot_product_attention's result, its softmax run in chunks of `chunk` elements.

    Same arguments, result, dtypes and errors as attention.scaled_dot_product_attention (the
    readable version, tested equal). No (n, m) temporaries beyond scores, scaled and weights;
    score arrays of at least `threaded_from` elements are softmaxed by `workers` threads
    (default WORKERS). On long inputs this is what bench/core.py times.
    """
    q, k, v = _as_float(q, "q"), _as_float(k, "k"), _as_float(v, "v")
    _check_qkv(q, k, v)
    scores = q @ np.swapaxes(k, -1, -2)  # (..., n, m)
    mask = None if mask is None else _check_mask(mask, scores.shape)
    factor = scores.dtype.type(1 / math.sqrt(q.shape[-1])) if scale else None
    scaled = np.empty_like(scores) if scale else scores  # (..., n, m)
    weights = np.empty_like(scores)  # (..., n, m)
    _fill(scores, scaled, weights, mask, factor, chunk, threaded_from, workers or WORKERS)
    output = weights @ v  # (..., n, d_v)
    return AttentionResult(scores=scores, scaled=scaled, weights=weights, output=output)
