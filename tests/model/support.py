"""Helpers shared by the demo model's tests: tokens made by hand, a tiny model config."""

from attention_core.tokenize import Token
from demo_model.features import ModelConfig

SMALL = ModelConfig(d_model=12, num_heads=2, d_word=4, d_pos=4, d_embed=3)  # conftest's `small`


def toks(*pairs) -> list:
    """Tokens from (text, tag) pairs, offsets made up."""
    out, at = [], 0
    for text, tag in pairs:
        out.append(Token(text, tag, at, at + len(text)))
        at += len(text)
    return out
