"""Token → vector (deterministic per token text and seed) and sinusoidal positional encodings."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence

import numpy as np


@functools.lru_cache(maxsize=8192)
def _cached_vector(text: str, d_model: int, seed: int) -> np.ndarray:
    digest = hashlib.blake2b(f"{seed}\x00{text}".encode(), digest_size=8).digest()
    rng = np.random.default_rng(int.from_bytes(digest, "little"))
    vec = rng.standard_normal(d_model)  # (d_model,) unit variance per component
    vec.flags.writeable = False
    return vec


def _check_sizes(**sizes: tuple) -> None:
    """Each keyword maps to (value, least allowed); raise a ValueError naming the bad one."""
    for name, (value, least) in sizes.items():
        ok = isinstance(value, (int, np.integer)) and not isinstance(value, bool)
        if not ok or value < least:
            raise ValueError(f"{name} must be an integer ≥ {least}, got {value!r}")


def token_vector(text: str, d_model: int, seed: int = 0) -> np.ndarray:
    """The same (d_model,) vector for the same token text and seed, in every sentence and run."""
    _check_sizes(d_model=(d_model, 1))
    return _cached_vector(str(text), int(d_model), int(seed))


def embed_tokens(tokens: Sequence, d_model: int, seed: int = 0) -> np.ndarray:
    """Stack token vectors: tokens (strings or objects with .text) → X (n, d_model)."""
    _check_sizes(d_model=(d_model, 1))
    texts = [t if isinstance(t, str) else t.text for t in tokens]
    if not texts:
        return np.zeros((0, d_model))
    return np.stack([token_vector(t, d_model, seed) for t in texts])  # (n, d_model)


def sinusoidal_positions(n: int, d_model: int) -> np.ndarray:
    """Positional encodings of "Attention Is All You Need", (n, d_model) float64.

    PE[p, 2i] = sin(p / 10000^(2i/d_model)), PE[p, 2i+1] = cos(p / 10000^(2i/d_model)).
    """
    _check_sizes(n=(n, 0), d_model=(d_model, 1))
    pos = np.arange(n)[:, None]  # (n, 1)
    i = np.arange(0, d_model, 2)[None, :]  # (1, ceil(d/2))
    angle = pos / np.power(10000.0, i / d_model)  # (n, ceil(d/2))
    pe = np.zeros((n, d_model))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe


def build_inputs(tokens: Sequence, d_model: int, *, positions: bool = False, seed: int = 0):
    """X = token embeddings (+ sinusoidal positions when `positions`), shape (n, d_model)."""
    x = embed_tokens(tokens, d_model, seed)
    if positions:
        x = x + sinusoidal_positions(len(x), d_model)
    return x
