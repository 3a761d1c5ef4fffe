"""Sentence + settings → tokens, X, W, every step of attention, and a record of what was used.

Trained weights come in from outside, through one narrow interface (TrainedWeights below): the
caller passes a trained model to compute(); this module knows nothing of how it was trained.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from operator import attrgetter
from typing import Protocol, runtime_checkable

import numpy as np

from attention_core.attention import (
    AttentionParams,
    MultiHeadResult,
    causal_mask,
    init_params,
    multi_head_attention,
)
from attention_core.embed import build_inputs
from attention_core.tokenize import (
    MAX_CHARS,
    MAX_TOKENS,
    MODES,
    Token,
    Tokenized,
    is_punctuation,
    tokenize,
)

DEFAULT_SENTENCE = "小明把书放在了桌子上，然后他走了。"
MAX_D_MODEL = 4096  # four (d_model, d_model) float64 weights: 512 MiB at this width
SOURCES = ("random", "trained")

# Notice codes: what the pipeline changed or noticed, for the caller to say in its own words.
CHARS_CUT = "chars_cut"  # values: kept (MAX_CHARS), cut (characters dropped)
TOKENS_CUT = "tokens_cut"  # values: kept (MAX_TOKENS), cut (tokens dropped)
ONLY_PUNCT = "only_punct"  # every token is punctuation: the weights mean little
TRAINED_UNAVAILABLE = "trained_unavailable"  # values: error; random weights were used instead
NOTICE_TEXT = {  # English, for the command line (the app has its own zh/en texts)
    CHARS_CUT: "input cut to the first {kept} characters ({cut} dropped)",
    TOKENS_CUT: "kept the first {kept} tokens ({cut} dropped)",
    ONLY_PUNCT: "the sentence is only punctuation: the weights mean little",
    TRAINED_UNAVAILABLE: "the trained weights cannot be read ({error}); random weights used",
}


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


# ---- what the pipeline needs of a trained model (the app and the CLI pass one in) -------------


@runtime_checkable
class TrainedRun(Protocol):
    """A trained model applied to one sentence."""

    @property
    def tokens(self) -> Tokenized: ...  # n tokens as tokenize(text, mode) returns them

    @property
    def x(self) -> np.ndarray: ...  # (n, d_model) the model's own input X

    @property
    def attention(self) -> MultiHeadResult: ...  # multi_head_attention(x, params)


@runtime_checkable
class Checkpoint(Protocol):
    """The weights of a trained model at one saved step, and how it reads a sentence."""

    @property
    def step(self) -> int: ...  # the training step these weights were saved at

    @property
    def params(self) -> AttentionParams: ...  # W_Q … W_O; they fix d_model and h

    def run(self, text: str, *, scale: bool) -> TrainedRun:
        """Tokenize `text` and run the trained attention on it (scale: divide by √d_k)."""
        ...

    def inputs(self, tokens: Sequence[Token]) -> np.ndarray:
        """X (n, d_model) of these tokens (the steps page's walk builds X with it)."""
        ...


@runtime_checkable
class TrainedWeights(Protocol):
    """A trained model the pipeline can compute with: its saved steps and what it fixes."""

    @property
    def mode(self) -> str: ...  # the tokens it reads: "word" or "char"

    @property
    def positions(self) -> bool: ...  # True when its X carries positions of its own

    @property
    def focus_words(self) -> tuple[str, ...]: ...  # tokens a view looks from by default

    def available(self) -> bool:
        """True when its weights exist (they may still fail to load)."""
        ...

    def steps(self) -> tuple[int, ...]:
        """Its saved training steps, () when they cannot be read."""
        ...

    def at(self, step: int | None = None) -> Checkpoint:
        """The weights at a saved step (None: the last); raises when they cannot be read."""
        ...


@dataclass(frozen=True)
class LabSettings:
    """What to compute; validated, so the pipeline can trust it."""

    sentence: str = DEFAULT_SENTENCE  # the text as typed; tokenize() cuts it and says so
    mode: str = "word"  # "word" (jieba) or "char"; a trained model reads its own mode
    d_model: int = 64  # width of X and of W_Q … W_O (random weights), 1 … MAX_D_MODEL
    heads: int = 4  # h, a divisor of d_model (random weights)
    scale: bool = True  # divide Q·Kᵀ by √d_k
    causal: bool = False  # mask future keys (j > i); on trained weights a what-if
    pos: bool = False  # add sinusoidal positions to X (random weights; trained has its own)
    seed: int = 0  # seed of the random W_Q … W_O (token vectors depend on the token only)
    weights: str = "random"  # "random", or "trained": the trained model fixes d_model, h, mode
    step: int | None = None  # training step of the trained weights (None: the final one)

    def __post_init__(self) -> None:
        if not isinstance(self.sentence, str):
            raise TypeError(f"sentence must be a str, got {type(self.sentence).__name__}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {self.mode!r}")
        if self.weights not in SOURCES:
            raise ValueError(f"weights must be one of {SOURCES}, got {self.weights!r}")
        for name in ("scale", "causal", "pos"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise TypeError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if not _is_int(self.seed) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        if self.step is not None and (not _is_int(self.step) or self.step < 0):
            raise ValueError(f"step must be None or a non-negative integer, got {self.step!r}")
        self._check_width()

    def _check_width(self) -> None:
        d, h = self.d_model, self.heads
        if not _is_int(d) or not 1 <= d <= MAX_D_MODEL:
            raise ValueError(f"d_model must be an integer in 1 … {MAX_D_MODEL}, got {d!r}")
        if not _is_int(h) or h < 1 or d % h:
            raise ValueError(f"heads must be a positive divisor of d_model={d}, got {h!r}")


@dataclass(frozen=True)
class Record:
    """What a Lab was really computed with (the trained model fixes d_model, h, mode, X)."""

    source: str  # "random" or "trained": the weights actually used
    scale: bool  # Q·Kᵀ divided by √d_k
    causal: bool  # future keys masked (j > i gets weight exactly 0)
    causal_what_if: bool  # the mask was applied to a model trained without one
    pos: bool  # positions inside X (sinusoidal; the trained model's own position block)
    mode: str  # "word" or "char" tokens
    seed: int | None  # seed of W_Q … W_O (None: trained weights)
    step: int | None  # training step of the trained weights (None: random)
    d_model: int  # width of X and of every W
    heads: int  # h

    @property
    def d_k(self) -> int:
        return self.d_model // self.heads

    def as_dict(self) -> dict:
        """Every field and d_k, ready for JSON."""
        return {**asdict(self), "d_k": self.d_k}


@dataclass(frozen=True)
class Notice:
    """Something the pipeline changed or noticed: a code (above) and the numbers it needs."""

    code: str  # CHARS_CUT, TOKENS_CUT, ONLY_PUNCT or TRAINED_UNAVAILABLE
    values: dict = field(default_factory=dict)  # format values of the caller's text

    def text(self) -> str:
        """One line in English (the command line's note)."""
        return NOTICE_TEXT[self.code].format(**self.values)


@dataclass(frozen=True)
class Lab:
    """Everything one sentence computed: tokens, X, W, every step of attention, what was used."""

    tokens: tuple[Token, ...]  # n tokens as tokenize() returns them
    x: np.ndarray  # (n, d_model) the input X (the trained model's own features too)
    params: AttentionParams  # W_Q, W_K, W_V, W_O (d_model, d_model) that made `result`
    result: MultiHeadResult  # q, k, v (h, n, d_k); heads.* (h, n, n); output (n, d_model)
    record: Record  # what it was computed with
    notices: tuple[Notice, ...] = ()  # cut input, punctuation only, trained weights missing
    focus_words: tuple[str, ...] = ()  # the trained model's default focus tokens (focus_index)

    @property
    def texts(self) -> list[str]:
        return [tok.text for tok in self.tokens]

    # what it was computed with, read through from `record`
    source = property(attrgetter("record.source"))
    d_model = property(attrgetter("record.d_model"))
    heads = property(attrgetter("record.heads"))
    d_k = property(attrgetter("record.d_k"))

    def focus(self, text: str | None = None, at: int | None = None) -> int:
        """Index of the focus token (focus_index on this sentence's tokens)."""
        return focus_index(self.texts, text, at, self.focus_words)


def focus_index(
    texts: list[str], text: str | None = None, at: int | None = None, prefer: Sequence[str] = ()
) -> int:
    """The token a view looks from: `text` at position `at` (tells two 了 apart), else the first
    `text`, else the first of the `prefer` words found (in their order: a trained model's
    focus_words), else the last token that is not punctuation, else the last token."""
    if text and _is_int(at) and 0 <= at < len(texts) and texts[at] == text:
        return int(at)
    for wanted in (text, *prefer):
        if wanted and wanted in texts:
            return texts.index(wanted)
    words = [i for i, t in enumerate(texts) if not is_punctuation(t)]
    return words[-1] if words else len(texts) - 1


# ---- the pipeline ------------------------------------------------------------------------------


def _notices(tokens: Tokenized) -> list[Notice]:
    notes = []
    if tokens.chars_cut:
        notes.append(Notice(CHARS_CUT, {"kept": MAX_CHARS, "cut": tokens.chars_cut}))
    if tokens.tokens_cut:
        notes.append(Notice(TOKENS_CUT, {"kept": MAX_TOKENS, "cut": tokens.tokens_cut}))
    if all(is_punctuation(tok.text) for tok in tokens):
        notes.append(Notice(ONLY_PUNCT))
    return notes


def _random_lab(s: LabSettings, notes: list[Notice], focus_words: tuple[str, ...]) -> Lab:
    """Random projections on token vectors that depend only on the token text."""
    tokens = tokenize(s.sentence, s.mode)
    x = build_inputs(tokens, s.d_model, positions=s.pos)  # (n, d_model)
    params = init_params(s.d_model, s.heads, s.seed)
    mask = causal_mask(len(tokens)) if s.causal else None  # (n, n) True = may attend
    result = multi_head_attention(x, params, scale=s.scale, mask=mask)
    record = Record("random", s.scale, s.causal, False, s.pos, s.mode, s.seed, None,
                    s.d_model, s.heads)  # fmt: skip
    notes = (*notes, *_notices(tokens))
    return Lab(tuple(tokens), x, params, result, record, notes, focus_words)


def _trained_lab(s: LabSettings, trained: TrainedWeights, model: Checkpoint) -> Lab:
    """A trained model: its own tokens and X; the causal mask is a what-if on its scores."""
    run = model.run(s.sentence, scale=s.scale)
    result = run.attention
    if s.causal:  # trained without a mask: the same scores, future keys masked
        mask = causal_mask(len(run.tokens))  # (n, n) True = may attend
        result = multi_head_attention(run.x, model.params, scale=s.scale, mask=mask)
    p = model.params
    record = Record("trained", s.scale, s.causal, s.causal, trained.positions, trained.mode, None,
                    model.step, p.d_model, p.num_heads)  # fmt: skip
    notes = tuple(_notices(run.tokens))
    return Lab(tuple(run.tokens), run.x, p, result, record, notes, trained.focus_words)


def compute(settings: LabSettings, trained: TrainedWeights | None = None) -> Lab:
    """Tokens → X → Q, K, V → scores → scaled → weights → output for one sentence.

    `trained`: the trained model that weights="trained" runs (its focus_words also pick the
    default focus of random weights). Trained weights that cannot be read fall back to random
    ones, with a TRAINED_UNAVAILABLE notice. Raises tokenize's EmptyInputError when there is
    nothing to tokenize, ValueError for weights="trained" without a trained model or for a
    training step that was not saved.
    """
    notes: list[Notice] = []
    focus_words = tuple(trained.focus_words) if trained is not None else ()
    if settings.weights == "trained":
        if trained is None:
            raise ValueError('weights="trained" needs a trained model: compute(settings, trained)')
        steps = trained.steps()
        if settings.step is not None and steps and settings.step not in steps:
            raise ValueError(f"no saved step {settings.step}; the saved steps are {list(steps)}")
        try:
            model = trained.at(settings.step)
        except Exception as err:  # a missing or half-written model must not stop the lab
            notes.append(Notice(TRAINED_UNAVAILABLE, {"error": str(err) or type(err).__name__}))
        else:
            return _trained_lab(settings, trained, model)
    return _random_lab(settings, notes, focus_words)
