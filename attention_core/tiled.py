"""Tiled attention with an online softmax (FlashAttention's idea in numpy): memory O(n·block)."""

from __future__ import annotations

import numpy as np

from attention_core.attention import _as_float, _check_qkv


def _check_block(block) -> int:
    if not isinstance(block, (int, np.integer)) or isinstance(block, bool) or block < 1:
        raise ValueError(f"block must be an integer ≥ 1, got {block!r}")
    return int(block)


class _Running:
    """Online-softmax state of one query block: running row max m, sum l and weighted sum acc."""

    def __init__(self, lead: tuple[int, ...], bq: int, d_v: int, dtype) -> None:
        self.m = np.full((*lead, bq, 1), -np.inf, dtype=dtype)  # max of scores seen so far
        self.l = np.zeros((*lead, bq, 1), dtype=dtype)  # Σ exp(s − m)
        self.acc = np.zeros((*lead, bq, d_v), dtype=dtype)  # Σ exp(s − m)·v

    def add(self, s: np.ndarray, v_blk: np.ndarray) -> None:
        """Fold a block of scaled scores s (..., bq, bk) in, overwriting s.

        m' = max(m, rowmax s); p = exp(s − m'); α = exp(m − m'); l' = α·l + Σp; acc' = α·acc + p·v.
        Every row sees key 0 in the first block, so m' is finite and α = 0 the first time.
        """
        peak = np.maximum(self.m, np.max(s, axis=-1, keepdims=True))  # (..., bq, 1)
        p = np.exp(np.subtract(s, peak, out=s), out=s)  # (..., bq, bk)
        alpha = np.exp(self.m - peak)  # (..., bq, 1)
        self.l *= alpha
        self.l += np.sum(p, axis=-1, keepdims=True)
        self.acc *= alpha
        self.acc += p @ v_blk  # (..., bq, d_v)
        self.m = peak


def _query_block(q_blk, k, v, start: int, block: int, causal: bool) -> np.ndarray:
    """Output rows start … start+bq−1 from key blocks of `block` columns; O(bq·block) scores."""
    bq, m = q_blk.shape[-2], k.shape[-2]
    lead = np.broadcast_shapes(q_blk.shape[:-2], k.shape[:-2], v.shape[:-2])
    state = _Running(lead, bq, v.shape[-1], np.result_type(q_blk, k, v))
    stop = min(m, start + bq) if causal else m  # keys j ≤ i only, when causal
    for j in range(0, stop, block):
        s = q_blk @ np.swapaxes(k[..., j : j + block, :], -1, -2)  # (..., bq, bk)
        if s.shape[:-2] != lead:  # batch axes on v alone: every batch shares these scores
            s = np.broadcast_to(s, (*lead, *s.shape[-2:])).copy()  # (*lead, bq, bk)
        if causal and j + s.shape[-1] - 1 > start:
            rows = np.arange(start, start + bq)[:, None]  # (bq, 1)
            cols = np.arange(j, j + s.shape[-1])[None, :]  # (1, bk)
            s[..., cols > rows] = -np.inf
        state.add(s, v[..., j : j + block, :])
    return state.acc / state.l  # (..., bq, d_v); l ≥ 1 (each row's max contributes exp(0))


def tiled_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    *,
    block: int = 128,
    scale: bool = True,
    causal: bool = False,
) -> np.ndarray:
    """softmax(Q·Kᵀ/√d_k)·V computed in (block × block) tiles, never holding an (n, m) array.

    q (..., n, d_k), k (..., m, d_k), v (..., m, d_v) → output (..., n, d_v), equal to
    scaled_dot_product_attention(...).output within float tolerance. Each query block keeps a
    running row max m, sum l and weighted sum acc, rescaled by exp(m_old − m_new) whenever a
    new key block raises the max; output = acc / l. causal: query i sees keys j ≤ i.
    Peak extra memory is a few (block, block) and (block, d_v) arrays per batch element.
    """
    block = _check_block(block)
    q, k, v = _as_float(q, "q"), _as_float(k, "k"), _as_float(v, "v")
    lead = _check_qkv(q, k, v)
    for name, a in (("q", q), ("k", k), ("v", v)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} holds NaN or infinite values")
    n, dt = q.shape[-2], np.result_type(q, k, v)
    factor = dt.type(1 / np.sqrt(q.shape[-1]) if scale else 1)
    out = np.empty((*lead, n, v.shape[-1]), dtype=dt)  # (..., n, d_v)
    for start in range(0, n, block):
        rows = slice(start, start + block)
        q_blk = q[..., rows, :] * factor  # (..., bq, d_k): scale queries, not bq·m scores
        out[..., rows, :] = _query_block(q_blk, k, v, start, block, causal)
    return out
