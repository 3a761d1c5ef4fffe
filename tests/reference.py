"""Independent references for the core's tests: plain Python loops, written from the formulas.

Nothing here imports attention_core: a test that compares the core with these functions
compares it with a second, separately written computation, never with itself.
"""

from __future__ import annotations

import math

import numpy as np


def causal_allowed(n: int, m: int | None = None) -> list[list[bool]]:
    """allowed[i][j] is True when query i may see key j (j ≤ i), as the text defines it."""
    m = n if m is None else m
    return [[j <= i for j in range(m)] for i in range(n)]


def loop_softmax(row, allowed=None) -> list[float]:
    """softmax of one row of numbers; entries not allowed get weight 0; none allowed → zeros."""
    logits = [float(x) for x in row]
    live = [j for j in range(len(logits)) if allowed is None or allowed[j]]
    if not live:
        return [0.0] * len(logits)
    peak = max(logits[j] for j in live)
    ex = [math.exp(logits[j] - peak) if j in live else 0.0 for j in range(len(logits))]
    total = sum(ex)
    return [e / total for e in ex]


def loop_attention(q, k, v, scale=True, allowed=None):
    """Reference for 2-d q (n, d), k (m, d), v (m, d_v): one query row at a time.

    Returns (scores, weights, output) as arrays; allowed[i][j] False masks key j for query i.
    """
    n, m, d = len(q), len(k), len(q[0])
    scores, weights, out = [], [], []
    for i in range(n):
        row = [sum(float(q[i][t]) * float(k[j][t]) for t in range(d)) for j in range(m)]
        scores.append(row)
        scaled = [s / math.sqrt(d) for s in row] if scale else row
        w = loop_softmax(scaled, None if allowed is None else allowed[i])
        weights.append(w)
        out.append([sum(w[j] * float(v[j][c]) for j in range(m)) for c in range(len(v[0]))])
    return np.array(scores), np.array(weights), np.array(out)


def loop_multi_head(x, w_q, w_k, w_v, w_o, heads: int, scale=True, allowed=None):
    """Multi-head self-attention as the text writes it: Q = X·W_Q (likewise K, V); head i takes
    columns i·d_k … (i+1)·d_k; each head attends; the heads' outputs joined in order; ·W_O.

    Returns (weights (h, n, n), output (n, d_model))."""
    x = np.asarray(x, dtype=float)
    q, k, v = x @ np.asarray(w_q), x @ np.asarray(w_k), x @ np.asarray(w_v)
    d_k = q.shape[1] // heads
    weights, outs = [], []
    for i in range(heads):
        cols = slice(i * d_k, (i + 1) * d_k)
        _, w, o = loop_attention(q[:, cols], k[:, cols], v[:, cols], scale, allowed)
        weights.append(w)
        outs.append(o)
    return np.array(weights), np.concatenate(outs, axis=1) @ np.asarray(w_o)


def sinusoid(n: int, d: int) -> np.ndarray:
    """PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(p / 10000^(2i/d)), by loops."""
    pe = np.zeros((n, d))
    for p in range(n):
        for c in range(d):
            angle = p / 10000 ** ((c - c % 2) / d)
            pe[p, c] = math.sin(angle) if c % 2 == 0 else math.cos(angle)
    return pe
