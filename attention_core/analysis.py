"""Measurements of attention: entropy, softmax Jacobians, var(q·k) against d_k, FLOP counts."""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from attention_core.attention import (
    causal_mask,
    init_params,
    multi_head_attention,
    scaled_dot_product_attention,
    softmax,
)

DEFAULT_D_KS = (4, 8, 16, 32, 64, 128, 256, 512, 1024)  # the d_k axis of the "why 1/√d_k" page
SOFTMAX_FLOPS_PER_SCORE = 5  # max, subtract, exp, sum, divide: one operation each per score


def _check_int(name: str, value, least: int) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value < least:
        raise ValueError(f"{name} must be an integer ≥ {least}, got {value!r}")
    return int(value)


def row_entropy(weights: np.ndarray, base: float = np.e) -> np.ndarray:
    """H = −Σ_j p_j · log p_j over the last axis (0·log 0 = 0): (..., m) → (...).

    log m for a uniform row, 0 for a one-hot (saturated) row; nats by default, bits with base=2.
    """
    p = np.asarray(weights, dtype=float)
    logs = np.log(p, out=np.zeros_like(p), where=p > 0)
    return -np.sum(p * logs, axis=-1) / np.log(base)


def max_weight(weights: np.ndarray) -> np.ndarray:
    """The largest weight of each row, max_j p_j: (..., m) → (...). 1 means saturated."""
    return np.max(np.asarray(weights), axis=-1)


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """∂softmax(x)/∂x at the row p = softmax(x): J = diag(p) − p·pᵀ, (..., m) → (..., m, m)."""
    p = np.asarray(p, dtype=float)
    outer = p[..., :, None] * p[..., None, :]  # (..., m, m) p·pᵀ
    return np.einsum("...i,ij->...ij", p, np.eye(p.shape[-1])) - outer


@dataclass(frozen=True)
class VarianceEstimate:
    """Monte-Carlo var(q·k) for q, k with independent N(0, 1) components."""

    d_k: int  # vector length
    samples: int  # number of (q, k) pairs drawn
    raw_variance: float  # var(q·k); theory: d_k
    scaled_variance: float  # var(q·k / √d_k); theory: 1

    def as_dict(self) -> dict:
        return asdict(self)


def qk_samples(d_k: int, samples: int = 20_000, seed: int = 0) -> np.ndarray:
    """q·k for `samples` seeded pairs of unit-variance vectors: (samples,) values, var ≈ d_k."""
    d_k, samples = _check_int("d_k", d_k, 1), _check_int("samples", samples, 2)
    rng = np.random.default_rng(seed)  # float32 draws: 2.5× quicker, the same statistics
    q = rng.standard_normal((samples, d_k), dtype=np.float32)  # (samples, d_k)
    k = rng.standard_normal((samples, d_k), dtype=np.float32)  # (samples, d_k)
    return np.einsum("sd,sd->s", q, k).astype(np.float64)  # (samples,)


def qk_variance(d_k: int, samples: int = 20_000, seed: int = 0) -> VarianceEstimate:
    """Estimate var(q·k) = Σ_i var(q_i k_i) = d_k, and var(q·k/√d_k) = 1, by sampling."""
    dots = qk_samples(d_k, samples, seed)  # (samples,)
    raw = float(np.var(dots, ddof=1))
    return VarianceEstimate(d_k, samples, raw, raw / d_k)


@dataclass(frozen=True)
class DkSweep:
    """Per d_k, with and without 1/√d_k: score variance, softmax saturation and gradient size.

    Every field but n_keys and max_entropy is an array aligned with `d_k`; the row statistics
    are over `trials` random query rows against n_keys random keys. The Jacobian's mean hides
    the effect (a few unsaturated rows carry it), so its median and the share of rows below
    SMALL_JACOBIAN are kept too, and the norm of the gradient that reaches q itself.
    """

    d_k: np.ndarray  # (k,) the key/query lengths
    n_keys: int  # m, keys per softmax row
    max_entropy: float  # ln m, the entropy of a uniform row
    variance_raw: np.ndarray  # var(q·k) ≈ d_k
    variance_scaled: np.ndarray  # var(q·k/√d_k) ≈ 1
    max_weight_raw: np.ndarray  # mean max_j p_j without scaling (→ 1: saturated)
    max_weight_scaled: np.ndarray  # … with scaling
    entropy_raw: np.ndarray  # mean row entropy (nats) without scaling (→ 0)
    entropy_scaled: np.ndarray  # … with scaling
    jacobian_raw: np.ndarray  # mean ‖diag(p) − p·pᵀ‖_F without scaling (→ 0: no gradient)
    jacobian_scaled: np.ndarray  # … with scaling
    jacobian_median_raw: np.ndarray  # median ‖J‖_F over the rows, without scaling
    jacobian_median_scaled: np.ndarray  # … with scaling
    jacobian_small_raw: np.ndarray  # share of rows with ‖J‖_F < SMALL_JACOBIAN, without scaling
    jacobian_small_scaled: np.ndarray  # … with scaling
    grad_q_median_raw: np.ndarray  # median ‖∂p/∂q‖_F = ‖J·K/τ‖_F, τ = 1: what reaches q
    grad_q_median_scaled: np.ndarray  # … with τ = √d_k

    def as_dict(self) -> dict:
        """Plain lists and numbers, ready for JSON or a DataFrame."""
        return {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in asdict(self).items()}


SMALL_JACOBIAN = 0.01  # a row whose ‖J‖_F is below this passes almost no gradient back
_ROW_STATS = ("variance", "max_weight", "entropy", "jacobian", "jacobian_median",
              "jacobian_small", "grad_q_median")  # fmt: skip


def _row_stats(q: np.ndarray, k: np.ndarray, tau: float) -> tuple[float, ...]:
    """Rows softmax(q·kᵀ/τ) for q (trials, 1, d_k), k (trials, m, d_k): the _ROW_STATS."""
    scores = (q @ np.swapaxes(k, -1, -2))[:, 0, :] / tau  # (trials, m)
    p = softmax(scores, axis=-1)  # (trials, m)
    s2, s3 = np.sum(p**2, axis=-1), np.sum(p**3, axis=-1)
    fro = np.sqrt(np.maximum(s2 - 2 * s3 + s2**2, 0))  # (trials,) ‖J‖_F per row
    jac, gram = softmax_jacobian(p), k @ np.swapaxes(k, -1, -2)  # (trials, m, m) each
    grad_q = np.sqrt(np.einsum("tij,tjl,tli->t", jac, gram, jac)) / tau  # ‖J·K‖_F: J symmetric
    return (
        float(np.var(scores)),
        float(np.mean(max_weight(p))),
        float(np.mean(row_entropy(p))),
        float(np.mean(fro)),
        float(np.median(fro)),
        float(np.mean(fro < SMALL_JACOBIAN)),
        float(np.median(grad_q)),
    )


def dk_sweep(d_ks=DEFAULT_D_KS, *, n_keys: int = 16, trials: int = 512, seed: int = 0) -> DkSweep:
    """Why 1/√d_k: q, k ~ N(0, I); for each d_k, softmax rows of q·kᵀ and of q·kᵀ/√d_k.

    Unscaled, var(q·k) = d_k grows, rows saturate (max weight → 1, entropy → 0) and the
    Jacobian diag(p) − p·pᵀ → 0, and with it the gradient J·K that reaches q; scaled, all
    stay level.
    """
    n_keys, trials = _check_int("n_keys", n_keys, 1), _check_int("trials", trials, 2)
    d_ks = np.array([_check_int("d_k", d, 1) for d in d_ks], dtype=int)
    rng = np.random.default_rng(seed)
    raw_rows, scaled_rows = [], []
    for d in d_ks:
        q = rng.standard_normal((trials, 1, d))  # (trials, 1, d_k)
        k = rng.standard_normal((trials, n_keys, d))  # (trials, m, d_k)
        raw_rows.append(_row_stats(q, k, 1.0))
        scaled_rows.append(_row_stats(q, k, float(np.sqrt(d))))
    raw, scaled = np.array(raw_rows).T, np.array(scaled_rows).T  # (stats, k) each
    fields = {}
    for name, r, s in zip(_ROW_STATS, raw, scaled, strict=True):
        fields[f"{name}_raw"], fields[f"{name}_scaled"] = r, s
    return DkSweep(d_k=d_ks, n_keys=n_keys, max_entropy=float(np.log(n_keys)), **fields)


@dataclass(frozen=True)
class AttentionCost:
    """FLOPs (multiply and add counted separately) of one multi-head self-attention layer."""

    n: int  # sequence length
    d_model: int  # model width
    num_heads: int  # h; d_k = d_model / h
    projections: int  # Q, K, V = X·W: 3 · 2·n·d_model²
    scores: int  # Q·Kᵀ over h heads: h · 2·n²·d_k = 2·n²·d_model (the same for every h)
    softmax: int  # ≈ 5 · h·n² (max, subtract, exp, sum, divide per score)
    weighted_sum: int  # A·V: h · 2·n²·d_k = 2·n²·d_model
    output_projection: int  # concat·W_O: 2·n·d_model²
    score_elements: int  # h·n² entries in one (h, n, n) array of scores

    @property
    def total(self) -> int:
        return (self.projections + self.scores + self.softmax + self.weighted_sum
                + self.output_projection)  # fmt: skip

    def score_bytes(self, dtype="float32") -> int:
        """Bytes of one (h, n, n) score array in `dtype` (scores, scaled and weights: 3×)."""
        return self.score_elements * np.dtype(dtype).itemsize

    def as_dict(self) -> dict:
        d = asdict(self)
        d["total"] = self.total
        d["score_bytes"] = {t: self.score_bytes(t) for t in ("float16", "float32", "float64")}
        return d


def _check_shape(n, d_model, num_heads) -> tuple[int, int, int]:
    n, d_model = _check_int("n", n, 1), _check_int("d_model", d_model, 1)
    num_heads = _check_int("num_heads", num_heads, 1)
    if d_model % num_heads:
        raise ValueError(f"d_model={d_model} is not divisible by num_heads={num_heads}")
    return n, d_model, num_heads


def attention_cost(n: int, d_model: int, num_heads: int) -> AttentionCost:
    """Count the FLOPs of each step of multi-head attention on n tokens (see AttentionCost)."""
    n, d, h = _check_shape(n, d_model, num_heads)
    return AttentionCost(n, d, h, projections=3 * 2 * n * d * d, scores=2 * n * n * d,
                         softmax=SOFTMAX_FLOPS_PER_SCORE * h * n * n, weighted_sum=2 * n * n * d,
                         output_projection=2 * n * d * d, score_elements=h * n * n)  # fmt: skip


@dataclass(frozen=True)
class GenerationCost:
    """Generating n tokens one at a time (one layer), three ways.

    without cache: every step reruns the whole layer on the prefix (all t queries, all t²
    scores, all t outputs); recompute K/V: every step projects K and V of the whole prefix
    again but only the new token's query row; with cache: K and V are kept, so every step
    projects and attends from the new token alone.
    """

    n: int  # tokens generated
    d_model: int  # model width
    num_heads: int  # h
    flops_with_cache: int  # Σ_t [4·2·d² + 2·2·t·d + 5·h·t]: only the new token's row each step
    flops_without_cache: int  # Σ_t attention_cost(t).total: the whole layer again each step
    cache_bytes: int  # K and V of n tokens: 2·n·d_model·itemsize
    flops_recompute_kv: int  # Σ_t [2·2·t·d² + 2·2·d² + 2·2·t·d + 5·h·t]: K, V again, one row

    @property
    def speedup(self) -> float:
        """FLOPs of rerunning the whole layer over FLOPs with the cache."""
        return self.flops_without_cache / self.flops_with_cache

    @property
    def speedup_kv(self) -> float:
        """FLOPs of recomputing only K and V over FLOPs with the cache."""
        return self.flops_recompute_kv / self.flops_with_cache

    def as_dict(self) -> dict:
        return {**asdict(self), "speedup": self.speedup, "speedup_kv": self.speedup_kv}


def generation_cost(n: int, d_model: int, num_heads: int, dtype="float32") -> GenerationCost:
    """FLOPs of autoregressive generation of n tokens, and the KV cache's size (see fields)."""
    n, d, h = _check_shape(n, d_model, num_heads)
    s1, s2 = n * (n + 1) // 2, n * (n + 1) * (2 * n + 1) // 6  # Σt and Σt² for t = 1 … n
    row = (4 * d + SOFTMAX_FLOPS_PER_SCORE * h) * s1  # Σ_t one query row: q·Kᵀ, softmax, ·V
    with_cache = n * 8 * d * d + row
    without = 8 * d * d * s1 + (4 * d + SOFTMAX_FLOPS_PER_SCORE * h) * s2
    kv_only = 4 * d * d * s1 + 4 * d * d * n + row  # K, V of t tokens; q and W_O of one
    cache = 2 * n * d * np.dtype(dtype).itemsize
    return GenerationCost(n, d, h, with_cache, without, cache, kv_only)


def generate_states(
    t: int, d: int, *, cache: bool, seed: int = 0, recompute: str = "layer"
) -> np.ndarray:
    """Generate t token states with one causal attention layer (h = 1), with or without a KV cache.

    With a cache each step projects only the new token, appends its k, v to the cache and
    attends from that one query. Without one, recompute="layer" re-runs the layer on the whole
    prefix; recompute="kv" projects K and V of the whole prefix again but attends from the new
    token only. Returns the (t, d) outputs of the newest token at each step (equal every way).
    """
    t, d = _check_int("t", t, 1), _check_int("d", d, 1)
    if recompute not in ("layer", "kv"):
        raise ValueError(f"recompute must be 'layer' or 'kv', got {recompute!r}")
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((t, d), dtype=np.float32)  # (t, d) stand-in token states
    p = init_params(d, 1, seed, dtype=np.float32)
    outs = np.empty((t, d), np.float32)
    k_cache, v_cache = np.empty((t, d), np.float32), np.empty((t, d), np.float32)
    for s in range(1, t + 1):
        new = x[s - 1 : s]  # (1, d)
        if cache:
            k_cache[s - 1], v_cache[s - 1] = new @ p.w_k, new @ p.w_v  # append one row each
            att = scaled_dot_product_attention(new @ p.w_q, k_cache[:s], v_cache[:s])
            outs[s - 1] = att.output[0] @ p.w_o  # (d,)
        elif recompute == "kv":
            k, v = x[:s] @ p.w_k, x[:s] @ p.w_v  # (s, d) each: the whole prefix again
            outs[s - 1] = scaled_dot_product_attention(new @ p.w_q, k, v).output[0] @ p.w_o
        else:
            full = multi_head_attention(x[:s], p, mask=causal_mask(s))  # the whole prefix again
            outs[s - 1] = full.output[-1]  # (d,)
    return outs


def rnn_states(x: np.ndarray, seed: int = 0) -> np.ndarray:
    """A plain tanh RNN reading X left to right: h_t = tanh(x_t·W_x + h_{t−1}·W_h), (n, d) → (n, d).

    Row t is all the RNN carries after reading tokens 0 … t: one d-vector, rewritten at every
    step (step t must wait for step t − 1), where attention keeps one entry per token.
    W_x, W_h ~ N(0, 1/d), seeded: an untrained RNN, for its shape, not its skill.
    """
    x = np.asarray(x, dtype=float)
    n, d = x.shape
    rng = np.random.default_rng(seed)
    w_x = rng.standard_normal((d, d)) / np.sqrt(d)  # (d, d)
    w_h = rng.standard_normal((d, d)) / np.sqrt(d)  # (d, d)
    h, out = np.zeros(d), np.empty((n, d))
    for t in range(n):  # one token at a time: no step can start before the previous one ends
        h = np.tanh(x[t] @ w_x + h @ w_h)  # (d,)
        out[t] = h
    return out
