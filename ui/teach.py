"""Computations behind the teaching pages: experiments on attention_core, timings, caches."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import streamlit as st

from attention_core import (
    EmptyInputError,
    build_inputs,
    init_params,
    multi_head_attention,
    scaled_dot_product_attention,
    softmax,
    tokenize,
)
from attention_core.analysis import generate_states, generation_cost, max_weight, row_entropy
from attention_core.tiled import tiled_attention
from ui import controls, state
from ui.controls import Settings

QUICK_NS = (64, 128, 256, 512, 1024, 2048)  # default n range of the cost page
FULL_NS = (*QUICK_NS, 4096, 8192)  # extended range (plain attention at 8192: 256 MiB a matrix)
COST_D = 64  # head size used by the timing experiments


# ---------------------------------------------------------------- sentence → attention


def label_tokens(texts: Sequence[str]) -> list[str]:
    """Token texts with a position suffix where a text repeats (了, 了² …) for pickers."""
    seen: dict[str, int] = {}
    out = []
    for t in texts:
        seen[t] = seen.get(t, 0) + 1
        out.append(t if texts.count(t) == 1 else f"{t}#{seen[t]}")
    return out


# ---------------------------------------------------------------- why 1/√d_k


def temperature_row_stats(scores: np.ndarray, taus: Sequence[float]) -> dict:
    """Mean entropy and max weight of softmax(scores/τ) rows for each τ."""
    ent, top = [], []
    for tau in taus:
        w = softmax(scores / tau, axis=-1)  # (n, n)
        ent.append(float(row_entropy(w).mean()))
        top.append(float(max_weight(w).mean()))
    return {"tau": list(taus), "entropy": ent, "max": top}


# ---------------------------------------------------------------- the n² cost


FIT_FROM = 256  # fit cost slopes on n ≥ this when 3+ points qualify: below, fixed overheads rule


def fit_slope(ns: Sequence[float], ys: Sequence[float], from_n: float = 0) -> float:
    """Slope of log y against log n (np.polyfit, degree 1), on the points with n ≥ from_n
    when at least three qualify, else on all of them."""
    ns, ys = np.asarray(ns, dtype=float), np.asarray(ys, dtype=float)
    keep = ns >= from_n
    if keep.sum() >= 3:
        ns, ys = ns[keep], ys[keep]
    return float(np.polyfit(np.log(ns), np.log(ys), 1)[0])


def doubling_ratios(ns: Sequence[int], ys: Sequence[float]) -> list[float]:
    """y(2n)/y(n) for each consecutive pair whose n doubles."""
    return [ys[i + 1] / ys[i] for i in range(len(ns) - 1) if ns[i + 1] == 2 * ns[i] and ys[i] > 0]


def _qkv(n: int, d: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    return tuple(rng.standard_normal((3, n, d), dtype=np.float32))  # 3 × (n, d)


def peak_bytes(fn: Callable[[], object]) -> int:
    """Peak bytes allocated while running fn (numpy reports its buffers to tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        fn()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


def best_time(fn: Callable[[], object], repeats: int) -> float:
    """Fastest of `repeats` wall-clock runs after one warm-up run, in seconds."""
    fn()
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def attention_fns(n: int, d: int = COST_D) -> dict[str, Callable[[], object]]:
    """Plain and tiled attention on random float32 (n, d) q, k, v, as zero-argument calls."""
    q, k, v = _qkv(n, d)
    return {
        "plain": lambda: scaled_dot_product_attention(q, k, v),
        "tiled": lambda: tiled_attention(q, k, v),
    }


def measure_cost(n: int, d: int = COST_D, *, timing: bool = True) -> dict[str, float]:
    """Seconds (best of a few) and peak bytes of plain and tiled attention at length n."""
    out = {}
    repeats = 5 if n <= 512 else 3 if n <= 2048 else 1
    for name, fn in attention_fns(n, d).items():
        out[f"{name}_bytes"] = float(peak_bytes(fn))
        if timing:
            out[f"{name}_s"] = best_time(fn, repeats)
    return out


def measure_generation(t: int, d: int = COST_D) -> dict[str, float]:
    """Seconds and counted FLOPs to generate t tokens with and without a KV cache."""
    cost = generation_cost(t, d, 1)
    out = {
        "nocache_flops": float(cost.flops_without_cache),
        "cache_flops": float(cost.flops_with_cache),
    }
    results = {}
    for cache, name in ((False, "nocache"), (True, "cache")):
        generate_states(4, d, cache=cache)  # warm-up: first calls pay for imports and thread start
        t0 = time.perf_counter()
        results[name] = generate_states(t, d, cache=cache)
        out[f"{name}_s"] = time.perf_counter() - t0
    out["max_diff"] = float(np.abs(results["cache"] - results["nocache"]).max())
    out["cache_bytes"] = float(cost.cache_bytes)
    return out


def cell_counts(text: str) -> dict[str, int]:
    """Tokens and n² attention cells for word and for character segmentation of `text`."""
    out = {}
    for mode in ("word", "char"):
        try:
            n = len(tokenize(text, mode=mode))
        except EmptyInputError:
            n = 0
        out[f"{mode}_n"], out[f"{mode}_cells"] = n, n * n
    return out


# ---------------------------------------------------------------- order and positions


def permutation_demo(
    texts: Sequence[str], perm: Sequence[int], d_model: int, heads: int, *, pos: bool, seed: int = 0
) -> dict:
    """Attention for a sentence and its reordering; how far A₂ is from P·A₁·Pᵀ and how far
    each token's output moved. perm[i] = index in the original of the i-th reordered token."""
    perm = np.asarray(perm)
    params = init_params(d_model, heads, seed)
    reordered = [texts[i] for i in perm]
    a = multi_head_attention(build_inputs(texts, d_model, positions=pos), params)
    b = multi_head_attention(build_inputs(reordered, d_model, positions=pos), params)
    p = np.eye(len(texts))[perm]  # (n, n) permutation matrix: (P·M)[i] = M[perm[i]]
    a_perm = p @ a.heads.weights @ p.T  # (h, n, n)
    out_moved = np.abs(b.output - a.output[perm]).max(-1)  # (n,) per reordered token
    return {
        "a": a,
        "b": b,
        "reordered": reordered,
        "a_perm": a_perm,
        "weights_diff": float(np.abs(b.heads.weights - a_perm).max()),
        "output_diff": out_moved,
    }


def cell_breakdown(lab: state.Lab, head: int, i: int, j: int) -> dict:
    """Every number behind weights[head, i, j]: q_i, k_j, their product, sum, ÷√d_k, exp, Σ."""
    heads = lab.result.heads
    q, k = lab.result.q[head, i], lab.result.k[head, j]  # (d_k,) each
    row = heads.scaled[head, i]  # (n,) the row softmax normalises
    live = heads.weights[head, i] > 0  # masked keys carry weight exactly 0
    peak = row[live].max() if live.any() else 0.0
    exps = np.where(live, np.exp(row - peak), 0.0)  # (n,)
    return {
        "q": q,
        "k": k,
        "prod": q * k,
        "score": float(heads.scores[head, i, j]),
        "scaled": float(row[j]),
        "d_k": q.shape[0],
        "peak": float(peak),
        "exp": float(exps[j]),
        "total": float(exps.sum()),
        "weight": float(heads.weights[head, i, j]),
    }


# ---------------------------------------------------------------- page side: settings, caches


def font_size(s: Settings) -> int:
    return 18 if s.classroom else 12


def token_picker(where, label: str, lab: state.Lab, key: str, default: int = 0) -> int:
    """A select box over the sentence's tokens (repeats numbered) in `where`; the index picked."""
    labels = label_tokens(lab.texts)
    return where.selectbox(
        label, range(len(labels)), index=default, format_func=labels.__getitem__, key=key
    )


def sentence_lab_or_stop(s: Settings) -> state.Lab:
    """The main page's cached Lab for these settings with random weights (the teaching pages
    show W_Q … W_O); its notices, or a notice and st.stop() when there is nothing to show."""
    lab, notices = state.lab_for(replace(s, weights="random"))
    controls.show_notices(notices, s.lang)
    if lab is None:
        st.stop()
    return lab


# ---------------------------------------------------------------- multi-head


def strongest_edges(weights: np.ndarray, texts: Sequence[str], top: int = 3) -> list[list]:
    """Per head, the `top` largest weights i → j with i ≠ j, as (query, key, weight)."""
    h, n, _ = weights.shape  # (h, n, n)
    off = np.where(np.eye(n, dtype=bool), -1.0, weights)  # (h, n, n) self-edges ranked last
    out = []
    for head in range(h):
        flat = np.argsort(off[head], axis=None)[::-1][: min(top, max(n * n - n, 1))]
        rows, cols = np.unravel_index(flat, (n, n))
        out.append(
            [
                (texts[i], texts[j], float(weights[head, i, j]))
                for i, j in zip(rows, cols, strict=True)
            ]
        )
    return out


def match_perm(a: Sequence[str], b: Sequence[str]) -> list[int] | None:
    """perm with b[i] == a[perm[i]] when b reorders a's tokens (repeats in order), else None."""
    if sorted(a) != sorted(b):
        return None
    used: set[int] = set()
    perm = []
    for tok in b:
        i = next(i for i, x in enumerate(a) if x == tok and i not in used)
        used.add(i)
        perm.append(i)
    return perm


def value_mixture(lab: state.Lab, head: int, i: int) -> dict:
    """Query i's output built term by term: keys sorted by weight, running sums of w_j·v_j."""
    w = lab.result.heads.weights[head, i]  # (n,)
    v = lab.result.v[head]  # (n, d_k)
    order = np.argsort(w, kind="stable")[::-1]  # heaviest key first
    terms = w[order, None] * v[order]  # (n, d_k) each key's contribution
    partial = np.cumsum(terms, axis=0)  # (n, d_k) after 1, 2, … terms
    output = lab.result.heads.output[head, i]  # (d_k,) the core's answer
    return {
        "order": order,
        "weights": w[order],
        "partial": partial,
        "output": output,
        "gap": np.linalg.norm(partial - output, axis=-1),  # (n,) distance left to cover
    }
