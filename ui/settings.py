"""The settings every page shares: one validated Settings dataclass, its limits and defaults."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path

from attention_core.pipeline import DEFAULT_SENTENCE
from ui import text

EXAMPLES_FILE = Path(__file__).resolve().parent.parent / "assets" / "examples.json"
D_MODEL_MIN, D_MODEL_MAX, D_MODEL_STEP = 8, 256, 8
MAX_HEADS = 16
SEED_MAX = 999_999


@dataclass(frozen=True)
class Settings:
    """Every control shared by the pages; validated so a page can trust it."""

    sentence: str = DEFAULT_SENTENCE  # the text as typed (tokenize() cuts and reports)
    mode: str = "word"  # "word" (jieba) or "char"
    d_model: int = 64  # model width, a multiple of 8 in 8…256
    heads: int = 4  # h, a divisor of d_model, at most MAX_HEADS
    scale: bool = True  # divide Q·Kᵀ by √d_k
    causal: bool = False  # mask future tokens
    pos: bool = False  # add sinusoidal positions to X
    seed: int = 0  # seed of the random projections
    weights: str = "trained"  # "trained" (the demo model) or "random" (the playground)
    focus: str = ""  # text of the focus token ("" = 他 if present)
    shared_scale: bool = True  # one 0–1 colour scale for all heads
    numbers: bool = False  # numbers in heatmap cells
    lang: str = text.DEFAULT_LANG  # a code of ui.text.LANGUAGES
    classroom: bool = False  # projection mode

    def __post_init__(self) -> None:
        if self.mode not in ("word", "char"):
            raise ValueError(f"mode must be 'word' or 'char', got {self.mode!r}")
        if not D_MODEL_MIN <= self.d_model <= D_MODEL_MAX:
            raise ValueError(f"d_model must be in {D_MODEL_MIN}…{D_MODEL_MAX}, got {self.d_model}")
        if self.heads < 1 or self.d_model % self.heads:
            raise ValueError(f"heads={self.heads} must divide d_model={self.d_model}")
        if self.weights not in ("random", "trained"):
            raise ValueError(f"weights must be 'random' or 'trained', got {self.weights!r}")
        if self.lang not in text.LANGUAGES:
            raise ValueError(f"lang must be one of {tuple(text.LANGUAGES)}, got {self.lang!r}")


DEFAULTS = Settings()
# Widget keys in st.session_state, one per Settings field except focus (kept as "focus_text").
WIDGET_KEYS = tuple(f for f in asdict(DEFAULTS) if f != "focus")


def head_options(d_model: int) -> list[int]:
    """Head counts offered for a width: the divisors of d_model up to MAX_HEADS."""
    return [h for h in range(1, min(d_model, MAX_HEADS) + 1) if d_model % h == 0]


def nearest_heads(d_model: int, heads: int) -> int:
    """The offered head count closest to `heads` (ties go to the smaller)."""
    return min(head_options(d_model), key=lambda h: (abs(h - heads), h))


@cache
def examples() -> tuple[dict, ...]:
    """Preset sentences from assets/examples.json (read once)."""
    return tuple(json.loads(EXAMPLES_FILE.read_text(encoding="utf-8")))
