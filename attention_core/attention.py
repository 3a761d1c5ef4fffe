"""Scaled dot-product and multi-head self-attention in numpy, returning every intermediate."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class AttentionResult:
    """Every step of softmax(Q·Kᵀ/√d_k)·V; arrays carry any leading batch (and head) axes."""

    scores: np.ndarray  # (..., n, m) raw q·kᵀ
    scaled: np.ndarray  # (..., n, m) scores / √d_k (or scores when scale=False)
    weights: np.ndarray  # (..., n, m) softmax of `scaled`, masked entries exactly 0
    output: np.ndarray  # (..., n, d_v) weights · v


@dataclass(frozen=True)
class AttentionParams:
    """Projection weights of one multi-head attention layer (row vectors: Q = X·W_Q)."""

    w_q: np.ndarray  # (d_model, d_model)
    w_k: np.ndarray  # (d_model, d_model)
    w_v: np.ndarray  # (d_model, d_model)
    w_o: np.ndarray  # (d_model, d_model)
    num_heads: int  # h; each head sees d_k = d_model / h columns

    def __post_init__(self) -> None:
        d_model = self.w_q.shape[-1]
        for name in ("w_q", "w_k", "w_v", "w_o"):
            shape = getattr(self, name).shape
            if shape != (d_model, d_model):
                raise ValueError(f"{name} has shape {shape}; expected ({d_model}, {d_model})")
        _check_heads(d_model, self.num_heads)

    @property
    def d_model(self) -> int:
        return self.w_q.shape[-1]

    @property
    def d_k(self) -> int:
        return self.d_model // self.num_heads


@dataclass(frozen=True)
class MultiHeadResult:
    """Multi-head attention with its per-head intermediates."""

    q: np.ndarray  # (..., h, n, d_k)
    k: np.ndarray  # (..., h, n, d_k)
    v: np.ndarray  # (..., h, n, d_k)
    heads: AttentionResult  # arrays (..., h, n, n) and output (..., h, n, d_k)
    concat: np.ndarray  # (..., n, d_model) heads' outputs joined in order
    output: np.ndarray  # (..., n, d_model) concat · W_O


def _check_heads(d_model: int, num_heads: int) -> None:
    if not isinstance(num_heads, (int, np.integer)) or num_heads < 1:
        raise ValueError(f"num_heads must be a positive integer, got {num_heads!r}")
    if d_model < 1 or d_model % num_heads:
        raise ValueError(
            f"d_model={d_model} is not divisible by num_heads={num_heads}; "
            f"choose h among {[h for h in range(1, d_model + 1) if d_model % h == 0]}"
        )


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax; -inf gets weight 0 and an all -inf row gives zeros, not NaN."""
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype(np.float64)
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    e = np.exp(x - peak)
    total = np.sum(e, axis=axis, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)


def causal_mask(n: int) -> np.ndarray:
    """Bool (n, n) mask, True where position i may attend to j (j ≤ i)."""
    return np.tril(np.ones((n, n), dtype=bool))


def scaled_dot_product_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    *,
    scale: bool = True,
    mask: np.ndarray | None = None,
) -> AttentionResult:
    """softmax(Q·Kᵀ/√d_k)·V.

    q (..., n, d_k), k (..., m, d_k), v (..., m, d_v); mask bool broadcastable to (..., n, m),
    True = may attend. Returns scores, scaled scores, weights and output.
    """
    q, k, v = np.asarray(q), np.asarray(k), np.asarray(v)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q has d_k={q.shape[-1]} but k has d_k={k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k has {k.shape[-2]} positions but v has {v.shape[-2]}")
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2)  # (..., n, m)
    scaled = scores / np.sqrt(np.asarray(d_k, dtype=scores.dtype)) if scale else scores
    logits = scaled
    if mask is not None:
        mask = np.asarray(mask, dtype=bool)
        logits = np.where(mask, scaled, -np.inf)
    weights = softmax(logits, axis=-1)  # (..., n, m)
    output = weights @ v  # (..., n, d_v)
    return AttentionResult(scores=scores, scaled=scaled, weights=weights, output=output)


def init_params(d_model: int, num_heads: int, seed: int = 0, dtype=np.float64) -> AttentionParams:
    """Random projections W ~ N(0, 1/d_model), so q·k keeps variance ≈ d_k for unit-variance X."""
    if not isinstance(d_model, (int, np.integer)) or d_model < 1:
        raise ValueError(f"d_model must be a positive integer, got {d_model!r}")
    _check_heads(d_model, num_heads)
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((4, d_model, d_model)) / np.sqrt(d_model)  # (4, d_model, d_model)
    w = w.astype(dtype)
    return AttentionParams(w_q=w[0], w_k=w[1], w_v=w[2], w_o=w[3], num_heads=int(num_heads))


def split_heads(x: np.ndarray, num_heads: int) -> np.ndarray:
    """(..., n, d_model) → (..., h, n, d_k): head i takes columns i·d_k … (i+1)·d_k."""
    *lead, n, d_model = x.shape
    d_k = d_model // num_heads
    x = x.reshape(*lead, n, num_heads, d_k)  # (..., n, h, d_k)
    return np.swapaxes(x, -3, -2)  # (..., h, n, d_k)


def merge_heads(x: np.ndarray) -> np.ndarray:
    """(..., h, n, d_k) → (..., n, h·d_k), heads joined in order."""
    *lead, h, n, d_k = x.shape
    return np.swapaxes(x, -3, -2).reshape(*lead, n, h * d_k)  # (..., n, d_model)


def multi_head_attention(
    x: np.ndarray, params: AttentionParams, *, scale: bool = True, mask: np.ndarray | None = None
) -> MultiHeadResult:
    """Self-attention with h heads: Q = X·W_Q (likewise K, V), split, attend, concat, ·W_O.

    x (..., n, d_model); mask bool broadcastable to (..., h, n, n), True = may attend.
    """
    x = np.asarray(x)
    if x.ndim < 2 or x.shape[-1] != params.d_model:
        raise ValueError(f"x has shape {x.shape}; expected (..., n, {params.d_model})")
    h = params.num_heads
    q = split_heads(x @ params.w_q, h)  # (..., h, n, d_k)
    k = split_heads(x @ params.w_k, h)  # (..., h, n, d_k)
    v = split_heads(x @ params.w_v, h)  # (..., h, n, d_k)
    heads = scaled_dot_product_attention(q, k, v, scale=scale, mask=mask)
    concat = merge_heads(heads.output)  # (..., n, d_model)
    output = concat @ params.w_o  # (..., n, d_model)
    return MultiHeadResult(q=q, k=k, v=v, heads=heads, concat=concat, output=output)
