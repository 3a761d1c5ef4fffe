"""The lesson's measurements, made on this computer when a scene asks (no st.*): §5's variance of
q·k against d_k, §7's time and memory of plain attention against n (one BLAS thread, its CPU
time) and one fit of each. pages/lesson.py caches them; the rest of each scene's numbers are
ui/lesson/data.py's.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np
from threadpoolctl import threadpool_limits

from attention_core import experiments as ex
from attention_core.analysis import generation_cost, qk_variance

COST_NS = (128, 256, 512, 1024, 2048)  # §7: lengths whose plain attention is measured
KV_TS = (16, 32, 64, 128, 256, 512, 1024)  # §7: generated lengths whose FLOPs are counted
VAR_DKS = (1, 4, 8, 16, 32, 64, 128, 256, 512)  # §5: d_k of the variance (1: one q_i·k_i)
VAR_SAMPLES = 4000  # §5: q·k pairs per d_k


def variance_block(seed: int, d_k: int | None = None) -> dict:
    """§5: var(q·k) of random unit-variance q, k against d_k, before and after ÷√d_k; at the
    sentence's own d_k too (the one its maps use), when given."""
    dks = sorted(set(VAR_DKS) | ({d_k} if d_k else set()))
    est = [qk_variance(d, VAR_SAMPLES, seed) for d in dks]
    return {
        "d_k": dks,
        "raw": [e.raw_variance for e in est],
        "scaled": [e.scaled_variance for e in est],
        "samples": VAR_SAMPLES,
    }


COST_ROUNDS = 7  # §7: rounds of timing, every length once per round (they share the noise)
COST_RUN_MS = 2.0  # §7: a length's runs within a round add up to about this (its fastest counts)


@contextmanager
def one_blas_thread() -> Iterator[bool]:
    """numpy's BLAS on one thread while the block runs (True when there was a BLAS to limit): on
    a busy machine BLAS threads that wait for each other's cores made n = 1024 take 10 to 80 times
    n = 512's time, whatever the n² work; one thread times the work (threadpoolctl)."""
    with threadpool_limits(limits=1, user_api="blas") as limits:
        yield "blas" in limits.get_original_num_threads()


def cost_times(
    ns: Sequence[int], rounds: int = COST_ROUNDS, clock: Callable[[], float] = time.perf_counter
) -> np.ndarray:
    """(rounds, len(ns)) seconds of plain attention, warm: `rounds` rounds taking turns over the
    lengths, after one round that is dropped; within a round each length runs at least 3 times
    (a short one about COST_RUN_MS in all) and its fastest run counts. clock: the wall clock, or
    this thread's CPU time when BLAS runs on it alone (a busy machine's waits left out)."""
    fns = [ex.attention_fns(n)["plain"] for n in ns]
    out = np.empty((rounds + 1, len(ns)))
    for r in range(rounds + 1):  # round 0 warms up (allocation, BLAS threads) and is dropped
        for k, fn in enumerate(fns):
            t0 = clock()
            fn()
            best = clock() - t0
            for _ in range(max(2, min(16, int(COST_RUN_MS / 1e3 / max(best, 1e-6))))):
                t0 = clock()
                fn()
                best = min(best, clock() - t0)
            out[r, k] = best
    return out[1:]


def fit_ends(ns: Sequence[int], ys: Sequence[float], keep: np.ndarray) -> list[float]:
    """The least-squares line of log y on log n over the kept points, at its first and last n."""
    x = np.log(np.asarray(ns, dtype=float)[keep])
    slope, icpt = np.polyfit(x, np.log(np.asarray(ys, dtype=float)[keep]), 1)
    return [float(np.exp(icpt + slope * x[0])), float(np.exp(icpt + slope * x[-1]))]


def doublings(ns: Sequence[int], ys: Sequence[float], keep: np.ndarray) -> list[float]:
    """What each step between kept lengths multiplies y by, per doubling of n:
    (y₂/y₁)^(1/log₂(n₂/n₁)), y₂/y₁ itself for COST_NS (each twice the last). A fit's slope
    averages these; they show its bend."""
    n = np.asarray(ns, dtype=float)[keep]
    y = np.asarray(ys, dtype=float)[keep]
    return [float(v) for v in (y[1:] / y[:-1]) ** (1 / np.log2(n[1:] / n[:-1]))]


def cost_block(ns: Sequence[int] = COST_NS, rounds: int = COST_ROUNDS) -> dict:
    """§7: plain attention's measured time (fastest of the rounds) and peak memory at each n, and
    ONE fit per measurement: the slope of log y on log n over the lengths where the n² work
    dominates (n ≥ experiments.FIT_FROM: below it fixed costs rule), its range, and its spread:
    the lowest and highest slope the same fit gives with any one round left out (timing noise,
    not the curve's bend); doubling n multiplies y by 2^slope on average, by each of the time's
    doublings between neighbouring lengths in turn. KV-cache FLOPs counted."""
    with ex.MEASURING, one_blas_thread() as one:
        # peak memory: the least of 3 runs (tracemalloc counts the server's other threads too)
        runs = [ex.attention_fns(n)["plain"] for n in ns]
        peak = [float(min(ex.peak_bytes(run) for _ in range(3))) for run in runs]
        clock = time.thread_time if one else time.perf_counter  # CPU time of the one thread
        times = cost_times(ns, rounds, clock)  # (rounds, len(ns))
    secs = times.min(axis=0)
    keep = ex.fit_points(ns, ex.FIT_FROM)
    fit_ns = [n for n, k in zip(ns, keep, strict=True) if k]
    rest = [np.delete(times, r, axis=0).min(axis=0) for r in range(rounds)]  # one round left out
    spread = [ex.fit_slope(fit_ns, row[keep]) for row in rest]
    ms, mib = secs * 1e3, np.asarray(peak) / 2**20
    kv = [generation_cost(t, ex.COST_D, 1) for t in KV_TS]
    return {
        "n": list(ns),
        "ms": [float(v) for v in ms],
        "ms_rounds": [[float(s) * 1e3 for s in row] for row in times],  # (rounds, len(ns))
        "mib": [float(v) for v in mib],
        "fit": [fit_ns[0], fit_ns[-1]],  # the lengths the slopes are fitted on
        "fit_ms": fit_ends(ns, ms, keep),  # the fitted line at fit[0] and fit[1], to draw it
        "fit_mib": fit_ends(ns, mib, keep),
        "slope_t": ex.fit_slope(ns, secs, ex.FIT_FROM),
        "slope_t_spread": [min(spread), max(spread)],  # the same fit, any one round left out
        "doublings_t": doublings(ns, secs, keep),  # time × per doubling of n, over the fit's range
        "slope_m": ex.fit_slope(ns, peak, ex.FIT_FROM),
        "rounds": rounds,
        "d": ex.COST_D,
        "kv_t": list(KV_TS),
        "kv_with": [float(c.flops_with_cache) for c in kv],
        "kv_without": [float(c.flops_without_cache) for c in kv],
    }
