"""The lab pages' experiments on the core: cost, order, the temperature sweep."""

from __future__ import annotations

import threading
import time
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from attention_core.analysis import generate_states, generation_cost, max_weight, row_entropy
from attention_core.attention import (
    causal_mask,
    init_params,
    multi_head_attention,
    reweight,
    scaled_dot_product_attention,
)
from attention_core.embed import build_inputs
from attention_core.tiled import tiled_attention
from attention_core.tokenize import EmptyInputError, Tokenized, tokenize

# ---- the n² cost: time and memory of plain and tiled attention, generation with a KV cache ----

QUICK_NS = (64, 128, 256, 512, 1024, 2048)  # default n range of the cost page
FULL_NS = (*QUICK_NS, 4096, 8192)  # extended range (plain attention at 8192: 256 MiB a matrix)
COST_D = 64  # head size used by the timing experiments
FIT_FROM = 256  # fit cost slopes on n ≥ this when 3+ points qualify: below, fixed overheads rule
PLAIN_COPIES = 3  # n×n arrays plain attention holds at once: scores, scaled scores, weights
KV_REPEATS = 5  # timed runs per t and way; the page reports the fastest and how far the median is
KV_FIT_FROM = 64  # fit the generation slopes on t ≥ this: below, each step's fixed cost rules
GENERATION = {  # name → generate_states arguments: rerun the layer, recompute K/V, KV cache
    "nocache": {"cache": False, "recompute": "layer"},
    "kvonly": {"cache": False, "recompute": "kv"},
    "cache": {"cache": True},
}


def fit_points(ns: Sequence[float], from_n: float = 0) -> np.ndarray:
    """Which points fit_slope uses: those with n ≥ from_n when at least three qualify, else all."""
    keep = np.asarray(ns, dtype=float) >= from_n
    return keep if keep.sum() >= 3 else np.ones_like(keep)


def fit_slope(ns: Sequence[float], ys: Sequence[float], from_n: float = 0) -> float:
    """Slope of log y against log n (np.polyfit, degree 1) on the fit_points."""
    keep = fit_points(ns, from_n)
    ns, ys = np.asarray(ns, dtype=float)[keep], np.asarray(ys, dtype=float)[keep]
    return float(np.polyfit(np.log(ns), np.log(ys), 1)[0])


def plain_bytes(n: int) -> int:
    """What plain float32 attention keeps at length n: PLAIN_COPIES arrays of n×n × 4 bytes."""
    return PLAIN_COPIES * n * n * 4


def doubling_ratios(ns: Sequence[int], ys: Sequence[float]) -> list[float]:
    """y(2n)/y(n) for each consecutive pair whose n doubles."""
    return [ys[i + 1] / ys[i] for i in range(len(ns) - 1) if ns[i + 1] == 2 * ns[i] and ys[i] > 0]


# One measurement at a time: tracemalloc and the clock see every thread of the process, so two
# sessions measuring at once would count each other's arrays and share the cores.
MEASURING = threading.Lock()


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
    return min(interleaved_times({"fn": fn}, repeats)["fn"])


def attention_fns(n: int, d: int = COST_D) -> dict[str, Callable[[], object]]:
    """Plain and tiled attention on random float32 (n, d) q, k, v, as zero-argument calls."""
    q, k, v = np.random.default_rng(0).standard_normal((3, n, d), dtype=np.float32)  # (n, d) each
    return {
        "plain": lambda: scaled_dot_product_attention(q, k, v),
        "tiled": lambda: tiled_attention(q, k, v),
    }


def measure_cost(n: int, d: int = COST_D, *, timing: bool = True) -> dict[str, float]:
    """Seconds (best of a few) and peak bytes of plain and tiled attention at length n."""
    out = {}
    repeats = 5 if n <= 512 else 3 if n <= 2048 else 1
    with MEASURING:
        for name, fn in attention_fns(n, d).items():
            out[f"{name}_bytes"] = float(peak_bytes(fn))
            if timing:
                out[f"{name}_s"] = best_time(fn, repeats)
    return out


def interleaved_times(fns: dict[str, Callable[[], object]], repeats: int) -> dict[str, list]:
    """Wall-clock seconds of each call, `repeats` rounds taking turns (so they share the noise)."""
    times: dict[str, list] = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - t0)
    return times


def measure_generation(t: int, d: int = COST_D, repeats: int = KV_REPEATS) -> dict[str, float]:
    """Counted FLOPs and measured seconds to generate t tokens the three GENERATION ways: the
    fastest of `repeats` interleaved runs (`{way}_s`), their median (`{way}_median_s`), and how
    far the median lies above the fastest (`{way}_noise`, 0.1 = 10 %)."""
    cost = generation_cost(t, d, 1)
    out = {
        "nocache_flops": float(cost.flops_without_cache),
        "kvonly_flops": float(cost.flops_recompute_kv),
        "cache_flops": float(cost.flops_with_cache),
        "cache_bytes": float(cost.cache_bytes),
    }
    fns = {name: partial(generate_states, t, d, **how) for name, how in GENERATION.items()}
    states = {name: fn() for name, fn in fns.items()}  # warm-up, and the outputs compared
    out["max_diff"] = float(max(np.abs(r - states["cache"]).max() for r in states.values()))
    with MEASURING:
        times_of = interleaved_times(fns, repeats)
    for name, times in times_of.items():
        fastest, median = min(times), float(np.median(times))
        out[f"{name}_s"], out[f"{name}_median_s"] = fastest, median
        out[f"{name}_noise"] = median / fastest - 1
    return out


def cell_counts(text: str) -> dict[str, int]:
    """Tokens and n² attention cells for word and for character segmentation of `text`, as
    tokenize cuts it: characters dropped (`chars_cut`) and tokens dropped (`{mode}_cut`)."""
    out = {"chars_cut": 0}
    for mode in ("word", "char"):
        try:
            tokens = tokenize(text, mode=mode)
        except EmptyInputError:
            tokens = Tokenized()
        n = len(tokens)
        out[f"{mode}_n"], out[f"{mode}_cells"], out[f"{mode}_cut"] = n, n * n, tokens.tokens_cut
        out["chars_cut"] = tokens.chars_cut
    return out


# ---- order: attention alone cannot tell 我打你 from 你打我 -----------------------------------


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


SAME_TOL = 1e-9  # a weight or output difference below this is float round-off, not a change


def permutation_demo(
    texts: Sequence[str],
    perm: Sequence[int],
    d_model: int,
    heads: int,
    *,
    pos: bool,
    seed: int = 0,
    scale: bool = True,
    causal: bool = False,
) -> dict:
    """Attention for a sentence (A₁) and its reordering (A₂), with the same random weights,
    positions, scaling and causal mask; B's map put back in A's order (Pᵀ·A₂·P) and compared
    with A₁ cell by cell; how far each token's output moved. perm[i] = index in the original
    of the i-th reordered token."""
    perm = np.asarray(perm)
    n = len(texts)
    params = init_params(d_model, heads, seed)
    mask = causal_mask(n) if causal else None  # (n, n) True = may attend, by position
    reordered = [texts[i] for i in perm]
    run = partial(multi_head_attention, params=params, scale=scale, mask=mask)
    a = run(build_inputs(texts, d_model, positions=pos))
    b = run(build_inputs(reordered, d_model, positions=pos))
    p = np.eye(n)[perm]  # (n, n) permutation matrix: (P·M)[i] = M[perm[i]]
    b_back = p.T @ b.heads.weights @ p  # (h, n, n) B's map in A's order
    cell_diff = np.abs(b_back - a.heads.weights)  # (h, n, n)
    moved = np.linalg.norm(b.output - a.output[perm], axis=-1)  # (n,) per reordered token
    size = np.maximum(np.linalg.norm(a.output[perm], axis=-1), 1e-300)  # (n,)
    return {
        "a": a,
        "b": b,
        "reordered": reordered,
        "b_back": b_back,
        "weights_diff": float(cell_diff.max()),
        "cells": int(cell_diff.size),
        "same_cells": int((cell_diff <= SAME_TOL).sum()),
        "output_moved": moved / size,  # (n,) |Δ output| / |output|
        "same": bool(cell_diff.max() <= SAME_TOL and moved.max() <= SAME_TOL * size.max()),
    }


# ---- why 1/√d_k: one sentence's rows under a temperature τ ----------------------------------


def temperature_row_stats(scores: np.ndarray, taus: Sequence[float], causal: bool = False) -> dict:
    """Mean entropy (nats) and max weight of the rows of softmax(scores/τ) for each τ, future
    keys masked when `causal` (attention_core.reweight)."""
    mask = causal_mask(scores.shape[-1]) if causal else None  # (n, n) True = may attend
    ent, top = [], []
    for tau in taus:
        w = reweight(scores, tau, mask)  # (n, n)
        ent.append(float(row_entropy(w).mean()))
        top.append(float(max_weight(w).mean()))
    return {"tau": list(taus), "entropy": ent, "max": top}
