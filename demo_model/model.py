"""The trained demo model at one checkpoint: token features → X → one multi-head attention layer.

X is built as features.py says (POS tags, Cilin meaning classes, genders, characters, word and
position blocks); the layer is the core's multi_head_attention. Training lives in train.py
(network.py holds its forward and backward pass), loading the shipped weights in demo.py.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from attention_core.attention import AttentionParams, MultiHeadResult, multi_head_attention
from attention_core.tokenize import Tokenized, tokenize
from demo_model.features import ModelConfig, Vocab, entries, token_arrays

DEMO_PATH = Path(__file__).resolve().parent.parent / "assets" / "demo_model.npz"
MODE = "word"  # the model reads jieba words (tokenize's mode)
PARAM_NAMES = (
    "tags", "before", "after", "clause", "classes", "class_proj", "chars", "char_proj", "genders",
    "w_q", "w_k", "w_v", "w_o", "gates", "readout",
)  # fmt: skip


@dataclass(frozen=True)
class ModelRun:
    """The demo model applied to one sentence."""

    tokens: Tokenized  # as from tokenize(text, mode=MODE)
    x: np.ndarray  # (n, d_model) input features
    attention: MultiHeadResult  # the core's multi_head_attention with the trained weights


@dataclass(frozen=True)
class TrainedModel:
    """Learned embeddings, attention weights and read-outs at one training step."""

    config: ModelConfig
    vocab: Vocab  # the class codes and characters with a learned row
    weights: dict  # PARAM_NAMES -> array (read-only)
    step: int

    @functools.cached_property  # one object per checkpoint: the weights never change
    def params(self) -> AttentionParams:
        w = self.weights
        return AttentionParams(w["w_q"], w["w_k"], w["w_v"], w["w_o"], self.config.num_heads)

    def inputs(self, tokens: list) -> np.ndarray:
        """X (n, d_model) = tag + gender + neighbour + clause + class + character embeddings +
        word and position blocks (features.token_arrays: the rows a training batch uses)."""
        a, w = token_arrays(tokens, self.config), self.weights  # a: (n, …) each
        learned = w["tags"][a["tags"]]
        if self.config.gender:
            learned = learned + w["genders"][a["gender"]]
        if self.config.context:
            learned = learned + w["before"][a["before"]] + w["after"][a["after"]]
        if self.config.clauses:
            learned = learned + w["clause"][a["clause"]]
        for kind, proj in (("classes", "class_proj"), ("chars", "char_proj")):
            if getattr(self.config, kind):
                ids, weight = entries(tokens, self.vocab, kind)  # (n, K)
                e = np.einsum("nk,nke->ne", weight, w[kind][ids])  # (n, d_embed)
                learned = learned + e @ w[proj]  # (n, d_model)
        return learned + a["fixed"]

    def run(self, text: str, *, scale: bool = True) -> ModelRun:
        """Tokenise `text` (jieba words) and run the trained attention layer on it."""
        tokens = tokenize(text, mode=MODE)
        x = self.inputs(tokens)
        return ModelRun(tokens, x, multi_head_attention(x, self.params, scale=scale))
