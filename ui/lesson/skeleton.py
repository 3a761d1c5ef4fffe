"""The article's numpy skeleton of attention: what §9 shows and runs (tested equal to the core)."""

from __future__ import annotations

import numpy as np

from attention_core import softmax


def attention(q, k, v, mask=None, scale=True):
    """softmax(Q·Kᵀ/√d_k)·V and the weights, for any leading (batch, head) axes."""
    s = q @ k.swapaxes(-1, -2)  # (…, n, n)
    if scale:
        s = s / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    w = softmax(s, axis=-1)  # rows sum to 1
    return w @ v, w


def causal_mask(n):
    """(n, n) bool, True = may attend: each row sees itself and the words before."""
    return np.tril(np.ones((n, n), dtype=bool))
