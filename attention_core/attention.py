"""Scaled dot-product and multi-head self-attention in numpy, returning every intermediate."""

from __future__ import annotations

import math
from collections.abc import Callable
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
        if np.ndim(self.w_q) != 2:
            raise ValueError(
                f"w_q must be a (d_model, d_model) matrix, got shape {np.shape(self.w_q)}"
            )
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


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_heads(d_model: int, num_heads: int) -> None:
    if not _is_int(num_heads) or num_heads < 1:
        raise ValueError(f"num_heads must be a positive integer, got {num_heads!r}")
    if d_model < 1 or d_model % num_heads:
        raise ValueError(
            f"d_model={d_model} is not divisible by num_heads={num_heads}; "
            f"choose h among {[h for h in range(1, d_model + 1) if d_model % h == 0]}"
        )


def _as_float(a: np.ndarray, name: str) -> np.ndarray:
    """Array view of `a`; integer/bool input becomes float64, float dtypes are kept as they are."""
    a = np.asarray(a)
    if not np.issubdtype(a.dtype, np.floating):
        if not np.issubdtype(a.dtype, np.number) or np.issubdtype(a.dtype, np.complexfloating):
            raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
        a = a.astype(np.float64)
    return a


def _stable_peak(peak: np.ndarray) -> np.ndarray:
    """Row maxima made safe to subtract: NaN/+inf raise, all -inf rows (fully masked) use 0."""
    if not np.isfinite(peak).all():
        if np.isnan(peak).any() or np.isposinf(peak).any():
            raise ValueError("softmax input holds NaN or +inf (non-finite or overflowing scores)")
        peak[np.isneginf(peak)] = 0
    return peak


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax; -inf gets weight 0 and an all -inf row gives zeros, not NaN.

    exp(x - max) / Σ exp(x - max) along `axis`; float dtypes are kept (float32 stays float32).
    """
    x = _as_float(x, "x")
    peak = _stable_peak(np.max(x, axis=axis, keepdims=True))  # (..., 1, ...) 0 if all -inf
    with np.errstate(over="ignore"):  # x − peak below the float range is −inf: weight 0
        e = x - peak  # same shape and dtype as x; 0 at each row's max
    np.exp(e, out=e)  # in place: no second array of x's size
    e /= np.maximum(np.sum(e, axis=axis, keepdims=True), 1)  # Σ ≥ 1 unless fully masked (0)
    return e


def reweight(scores: np.ndarray, tau: float, mask: np.ndarray | None = None) -> np.ndarray:
    """softmax(scores / τ) over the last axis, entries where `mask` is False at −∞ (weight 0).

    τ = √d_k gives the attention weights; the view's temperature slider and the scaling page
    choose other τ. mask bool broadcastable to scores' shape, True = may attend.
    """
    if not np.isfinite(tau) or tau <= 0:
        raise ValueError(f"the temperature τ must be a positive number, got {tau!r}")
    scores = _as_float(scores, "scores")
    z = scores / float(tau)  # (..., n, m)
    if mask is not None:
        z = np.where(_check_mask(mask, z.shape), z, -np.inf)  # (..., n, m)
    return softmax(z, axis=-1)


def causal_mask(n: int) -> np.ndarray:
    """Bool (n, n) mask, True where position i may attend to j (j ≤ i)."""
    if not _is_int(n) or n < 0:
        raise ValueError(f"causal_mask needs a non-negative integer n, got {n!r}")
    return np.tril(np.ones((n, n), dtype=bool))


def _check_qkv(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[int, ...]:
    """Validate shapes of q (..., n, d_k), k (..., m, d_k), v (..., m, d_v); return batch shape."""
    for name, a in (("q", q), ("k", k), ("v", v)):
        if a.ndim < 2:
            raise ValueError(f"{name} has shape {a.shape}; expected (..., positions, features)")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q has d_k={q.shape[-1]} but k has d_k={k.shape[-1]}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k has {k.shape[-2]} positions but v has {v.shape[-2]}")
    if 0 in (q.shape[-2], k.shape[-2], q.shape[-1]):
        raise ValueError(
            f"attention needs at least one query, one key and one feature; "
            f"got q {q.shape}, k {k.shape}"
        )
    try:
        return np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            f"batch dimensions of q {q.shape[:-2]}, k {k.shape[:-2]} and v {v.shape[:-2]} "
            "do not broadcast"
        ) from None


def _check_mask(mask, shape: tuple[int, ...]) -> np.ndarray:
    """A bool mask broadcast (as a view) to the scores' shape, or a clear error."""
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise TypeError(
            f"mask must be a bool array (True = may attend), got dtype {mask.dtype}; "
            "for an additive mask pass np.isfinite(additive_mask)"
        )
    try:
        return np.broadcast_to(mask, shape)
    except ValueError:
        raise ValueError(
            f"mask of shape {mask.shape} does not broadcast to the scores' shape {shape}"
        ) from None


def scaled_dot_product_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    *,
    scale: bool = True,
    mask: np.ndarray | None = None,
) -> AttentionResult:
    """softmax(Q·Kᵀ/√d_k)·V, every step kept.

    q (..., n, d_k), k (..., m, d_k), v (..., m, d_v); mask bool broadcastable to (..., n, m),
    True = may attend. Returns scores, scaled scores, weights and output, in the inputs' float
    dtype (float32 stays float32). Fully masked rows get all-zero weights and a zero output.
    The readable version: attention_core/fast.py holds a chunked, threaded one, tested equal.
    """
    q, k, v = _as_float(q, "q"), _as_float(k, "k"), _as_float(v, "v")
    _check_qkv(q, k, v)
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2)  # (..., n, m) every query · every key
    scaled = scores / math.sqrt(d_k) if scale else scores  # (..., n, m)
    masked = scaled  # (..., n, m) what the softmax reads: j may not be attended → −∞
    if mask is not None:
        masked = np.where(_check_mask(mask, scores.shape), scaled, -np.inf)
    weights = softmax(masked, axis=-1)  # (..., n, m) every row sums to 1 (or 0: fully masked)
    output = weights @ v  # (..., n, d_v) each query's mix of the values
    return AttentionResult(scores=scores, scaled=scaled, weights=weights, output=output)


def init_params(d_model: int, num_heads: int, seed: int = 0, dtype=np.float64) -> AttentionParams:
    """Random projections W ~ N(0, 1/d_model), so q·k keeps variance ≈ d_k for unit-variance X."""
    if not _is_int(d_model) or d_model < 1:
        raise ValueError(f"d_model must be a positive integer, got {d_model!r}")
    _check_heads(d_model, num_heads)
    if not np.issubdtype(np.dtype(dtype), np.floating):
        raise ValueError(f"dtype must be a float dtype such as float32 or float64, got {dtype!r}")
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
    x: np.ndarray,
    params: AttentionParams,
    *,
    scale: bool = True,
    mask: np.ndarray | None = None,
    attend: Callable[..., AttentionResult] = scaled_dot_product_attention,
) -> MultiHeadResult:
    """Self-attention with h heads: Q = X·W_Q (likewise K, V), split, attend, concat, ·W_O.

    x (..., n, d_model); mask bool broadcastable to (..., h, n, n), True = may attend (a
    per-example mask for x (b, n, d_model) is (b, 1, n, n)). Computed in x's float dtype: the
    weights are cast to it, so float32 x stays float32 throughout. `attend` computes the heads:
    the readable scaled_dot_product_attention, or fast.chunked_attention for long inputs.
    """
    x = _as_float(x, "x")
    if x.ndim < 2 or x.shape[-1] != params.d_model:
        raise ValueError(f"x has shape {x.shape}; expected (..., n, {params.d_model})")
    h, dt = params.num_heads, x.dtype
    q = split_heads(x @ params.w_q.astype(dt, copy=False), h)  # (..., h, n, d_k)
    k = split_heads(x @ params.w_k.astype(dt, copy=False), h)  # (..., h, n, d_k)
    v = split_heads(x @ params.w_v.astype(dt, copy=False), h)  # (..., h, n, d_k)
    heads = attend(q, k, v, scale=scale, mask=mask)  # arrays (..., h, n, n)
    concat = merge_heads(heads.output)  # (..., n, d_model)
    output = concat @ params.w_o.astype(dt, copy=False)  # (..., n, d_model)
    return MultiHeadResult(q=q, k=k, v=v, heads=heads, concat=concat, output=output)
