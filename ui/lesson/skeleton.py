"""The article's numpy skeleton of attention, one head: what §9 shows and runs (tested equal to
the core). Its softmax is the article's: each row's max subtracted first (x - x.max(axis=-1,
keepdims=True)), so exp never overflows whatever the scores, then exp over the row's sum."""

from __future__ import annotations

import numpy as np


def attention(X, W_Q, W_K, W_V, mask=None):
    """One head: X (n, d_model), W_* (d_model, d_k) -> (output (n, d_k), weights (n, n))."""
    Q = X @ W_Q  # (n, d_k)
    K = X @ W_K
    V = X @ W_V
    d_k = Q.shape[-1]
    scores = Q @ K.T / np.sqrt(d_k)  # (n, n)
    if mask is not None:
        scores = np.where(mask, scores, -np.inf)
    m = scores.max(axis=-1, keepdims=True)
    e = np.exp(scores - m)  # softmax
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights @ V, weights


def causal_mask(n):
    """(n, n) bool, True = may look: each word sees itself and the words before it."""
    return np.tril(np.ones((n, n), dtype=bool))
