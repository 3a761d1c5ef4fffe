"""Settings → tokens, X and multi-head attention, cached per settings so every page reuses it."""

from __future__ import annotations

import csv
import importlib.util
import io
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import streamlit as st

from attention_core import (
    AttentionParams,
    EmptyInputError,
    MultiHeadResult,
    Token,
    build_inputs,
    causal_mask,
    init_params,
    multi_head_attention,
    softmax,
    tokenize,
)
from attention_core.tokenize import MAX_CHARS, MAX_TOKENS

DEMO_WEIGHTS = Path(__file__).resolve().parent.parent / "assets" / "demo_model.npz"

Notice = tuple[str, str, dict]  # (level "warning" | "info", text key, format values)


@dataclass(frozen=True)
class Lab:
    """Everything one page draws: tokens, X and the attention result with every intermediate."""

    tokens: tuple[Token, ...]  # n tokens as tokenize() returns them
    x: np.ndarray | None  # (n, d_model) input vectors (the trained model's own X too)
    result: MultiHeadResult  # q, k, v (h, n, d_k); heads.weights (h, n, n); output (n, d_model)
    d_model: int
    heads: int
    source: str  # "random" or "trained": what was actually used
    notices: tuple[Notice, ...] = ()
    params: AttentionParams | None = None  # W_Q, W_K, W_V, W_O that made `result`

    @property
    def texts(self) -> list[str]:
        return [tok.text for tok in self.tokens]

    @property
    def d_k(self) -> int:
        return self.d_model // self.heads


def trained_available() -> bool:
    """True once the model helper's module and its weights file both exist."""
    try:
        found = importlib.util.find_spec("attention_core.model") is not None
    except (ImportError, ValueError):
        found = False
    return found and DEMO_WEIGHTS.exists()


def _is_punctuation(text: str) -> bool:
    """Punctuation and symbols only (jieba's tag "x" also covers emoji, Arabic, rare Han)."""
    return all(unicodedata.category(c)[0] in "PSZC" for c in text) and not any(
        unicodedata.category(c) == "So"
        for c in text  # emoji are symbols, but say something
    )


def _cut_notices(tokens) -> list[Notice]:
    notes: list[Notice] = []
    if getattr(tokens, "chars_cut", 0):
        notes.append(("warning", "notice.chars_cut", {"kept": MAX_CHARS, "cut": tokens.chars_cut}))
    if getattr(tokens, "tokens_cut", 0):
        notes.append(
            ("warning", "notice.tokens_cut", {"kept": MAX_TOKENS, "cut": tokens.tokens_cut})
        )
    if all(_is_punctuation(tok.text) for tok in tokens):
        notes.append(("info", "notice.only_punct", {}))
    return notes


def _random_lab(sentence, mode, d_model, heads, scale, causal, pos, seed) -> Lab:
    """Random projections on deterministic token vectors."""
    tokens = tokenize(sentence, mode)
    x = build_inputs(tokens, d_model, positions=pos)  # (n, d_model)
    mask = causal_mask(len(tokens)) if causal else None  # (n, n) True = may attend
    params = init_params(d_model, heads, seed)
    result = multi_head_attention(x, params, scale=scale, mask=mask)
    notices = tuple(_cut_notices(tokens))
    return Lab(tuple(tokens), x, result, d_model, heads, "random", notices, params)


def _trained_lab(sentence, scale, causal) -> Lab:
    """The trained demo model; it fixes its own tokens, d_model and h. The causal mask is the
    same what-if as for random weights: the model's scores, future keys masked."""
    from attention_core.model import load_demo_model

    model = load_demo_model()
    run = model.run(sentence, scale=scale)
    res = run.attention
    if causal:
        mask = causal_mask(len(run.tokens))  # (n, n) True = may attend
        res = multi_head_attention(run.x, model.params, scale=scale, mask=mask)
    h, _, d_k = res.q.shape[-3:]
    notes = _cut_notices(run.tokens)  # d_model and h are said where the weights are named
    return Lab(  # X is the model's own input: tag + word + last-character vectors + positions
        tuple(run.tokens), run.x, res, h * d_k, h, "trained", tuple(notes), model.params
    )


@st.cache_data(max_entries=24, ttl=3600, show_spinner=False)
def compute_lab(
    sentence: str,
    mode: str,
    d_model: int,
    heads: int,
    scale: bool,
    causal: bool,
    pos: bool,
    seed: int,
    weights: str,
) -> Lab:
    """Cached by every argument; raises EmptyInputError when there is nothing to tokenize."""
    if weights == "trained" and trained_available():
        try:
            return _trained_lab(sentence, scale, causal)
        except EmptyInputError:
            raise
        except Exception:  # a half-written model must not take the page down
            lab = _random_lab(sentence, mode, d_model, heads, scale, causal, pos, seed)
            note = ("warning", "side.weights_unavailable", {})
            return Lab(**{**lab.__dict__, "notices": (note, *lab.notices)})
    return _random_lab(sentence, mode, d_model, heads, scale, causal, pos, seed)


def lab_for(settings) -> tuple[Lab | None, list[Notice]]:
    """The Lab for a Settings object, or None with a notice when the sentence is empty."""
    try:
        lab = compute_lab(*lab_key(settings))
    except EmptyInputError:
        return None, [("warning", "notice.empty", {})]
    except ValueError as err:
        return None, [("warning", "notice.error", {"error": str(err)})]
    return lab, list(lab.notices)


def frozen(figures: list) -> list:
    """Finished figures whose to_dict() is worked out once.

    st.plotly_chart calls figure.to_dict() on every rerun: a deep copy and a walk that turns
    every numpy array into base64 — most of what a main-page rerun spends on its 10-14 charts
    (cProfile, `bench/rerun.py --profile`). These figures are cached and shared read-only
    between sessions, so their dict cannot change; the instance attribute shadows the method.
    """
    for figure in figures:
        spec = figure.to_dict()
        figure.to_dict = lambda spec=spec: spec
    return figures


def lab_key(s) -> tuple:
    """The settings that decide the numbers (the arguments of compute_lab)."""
    return (s.sentence, s.mode, s.d_model, s.heads, s.scale, s.causal, s.pos, s.seed, s.weights)


def focus_index(texts: list[str], focus: str, pos: int | None = None) -> int:
    """Index of the focus token: position `pos` when it holds that text (the second 了), else
    the text's first occurrence, else 他/她, else the first token."""
    if focus and isinstance(pos, int) and 0 <= pos < len(texts) and texts[pos] == focus:
        return pos
    for wanted in (focus, "他", "她"):
        if wanted and wanted in texts:
            return texts.index(wanted)
    return 0


def weights_at(lab: Lab, tau: float | None, causal: bool) -> np.ndarray:
    """(h, n, n) weights as the view shows them: the core's, or softmax(scores/τ) for a τ chosen
    on the view's slider (the core's softmax and causal mask on the core's raw scores)."""
    if tau is None:
        return lab.result.heads.weights
    scores = lab.result.heads.scores / tau  # (h, n, n)
    if causal:
        scores = np.where(causal_mask(scores.shape[-1]), scores, -np.inf)
    return softmax(scores, axis=-1)


# ---- export: files built only when a download button is clicked ------------------------------


def weights_csv(weights: np.ndarray, texts: list[str]) -> str:
    """One head's (n, n) weights as CSV with token headers (formula-like cells defused)."""
    safe = ["'" + x if x[:1] in "=+-@\t\r" else x for x in texts]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["query \\ key", *safe])
    for name, row in zip(safe, weights, strict=True):
        writer.writerow([name, *(f"{w:.6f}" for w in row)])
    return out.getvalue()


def all_npz(lab: Lab, tau: float | None = None, causal: bool = False) -> bytes:
    """Every matrix of the current view in one compressed .npz (with the τ weights if set)."""
    res, buf = lab.result, io.BytesIO()
    arrays = {
        "q": res.q,
        "k": res.k,
        "v": res.v,
        "scores": res.heads.scores,
        "scaled": res.heads.scaled,
        "weights": res.heads.weights,
        "concat": res.concat,
        "output": res.output,
        "tokens": np.array(lab.texts),
    }
    if lab.x is not None:
        arrays["x"] = lab.x
    if tau is not None:
        arrays["tau"] = np.array(tau)
        arrays["weights_tau"] = weights_at(lab, tau, causal)
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()
