"""Attention Lab's numpy core: tokens → X → Q, K, V → softmax(Q·Kᵀ/√d_k)·V, every step kept."""

from attention_core.attention import (
    AttentionParams,
    causal_mask,
    init_params,
    multi_head_attention,
    reweight,
    scaled_dot_product_attention,
    softmax,
)
from attention_core.embed import build_inputs, embed_tokens, sinusoidal_positions, token_vector
from attention_core.pipeline import LabSettings, compute
from attention_core.tiled import tiled_attention
from attention_core.tokenize import (
    MAX_CHARS,
    MAX_TOKENS,
    EmptyInputError,
    Token,
    tokenize,
)

__all__ = [
    "MAX_CHARS",
    "MAX_TOKENS",
    "AttentionParams",
    "EmptyInputError",
    "LabSettings",
    "Token",
    "build_inputs",
    "causal_mask",
    "compute",
    "embed_tokens",
    "init_params",
    "multi_head_attention",
    "reweight",
    "scaled_dot_product_attention",
    "sinusoidal_positions",
    "softmax",
    "tiled_attention",
    "token_vector",
    "tokenize",
]
