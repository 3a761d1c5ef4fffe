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
    AttentionResult,
    EmptyInputError,
    MultiHeadResult,
    Token,
    build_inputs,
    causal_mask,
    init_params,
    multi_head_attention,
    scaled_dot_product_attention,
    tokenize,
)
from attention_core.tokenize import MAX_CHARS, MAX_TOKENS
from ui import figures as fig
from ui.text import t

DEMO_WEIGHTS = Path(__file__).resolve().parent.parent / "assets" / "demo_model.npz"

Notice = tuple[str, str, dict]  # (level "warning" | "info", text key, format values)


@dataclass(frozen=True)
class Lab:
    """Everything one page draws: tokens, X, the attention result and its opposite-scaling twin."""

    tokens: tuple[Token, ...]  # n tokens as tokenize() returns them
    x: np.ndarray | None  # (n, d_model) input vectors (the trained model's own X too)
    result: MultiHeadResult  # q, k, v (h, n, d_k); heads.weights (h, n, n); output (n, d_model)
    flipped: AttentionResult  # the same heads with the other scaling (for before/after)
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
    flipped = scaled_dot_product_attention(result.q, result.k, result.v, scale=not scale, mask=mask)
    notices = tuple(_cut_notices(tokens))
    return Lab(tuple(tokens), x, result, flipped, d_model, heads, "random", notices, params)


def _trained_lab(sentence, scale) -> Lab:
    """The model helper's trained demo model; it fixes its own tokens, d_model and h."""
    from attention_core.model import load_demo_model

    model = load_demo_model()
    run = model.run(sentence, scale=scale)
    res = run.attention
    h, _, d_k = res.q.shape[-3:]
    flipped = scaled_dot_product_attention(res.q, res.k, res.v, scale=not scale)
    notes = [("info", "side.trained_fixed", {"d": h * d_k, "h": h}), *_cut_notices(run.tokens)]
    return Lab(  # X is the model's own input: tag + word + last-character vectors + positions
        tuple(run.tokens), run.x, res, flipped, h * d_k, h, "trained", tuple(notes), model.params
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
            return _trained_lab(sentence, scale)
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


# ---- figures per view ----------------------------------------------------------------------
# Defined here, once per process: a page file is executed on every rerun, and re-creating a
# cached function there costs Streamlit a source inspection each time.


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


# Figures are built once per view and shared read-only between sessions: building plotly
# figures, not the numpy, dominates a rerun. Bounded so a classroom cannot grow them forever.
@st.cache_resource(max_entries=32, ttl=3600, show_spinner=False)
def head_figures(
    key: tuple, shared: bool, numbers: bool, classroom: bool, lang: str, cols: int
) -> list:
    """One weight map per head, laid out `cols` to a row."""
    lab = compute_lab(*key)
    maps = fig.head_heatmaps(
        lab.result.heads.weights,
        lab.texts,
        lang=lang,
        shared_scale=shared,
        numbers=numbers,
        classroom=classroom,
        cols=cols,
    )
    return frozen(maps)


@st.cache_resource(max_entries=32, ttl=3600, show_spinner=False)
def scaling_figures(key: tuple, head: int, numbers: bool, classroom: bool, lang: str) -> list:
    """Raw and scaled scores on one scale, weights with and without scaling, row statistics."""
    lab = compute_lab(*key)
    raw = lab.result.heads.scores[head]  # (n, n)
    scaled, limit = raw / np.sqrt(lab.d_k), fig.score_limit(raw)
    w_on, w_off = (w[head] for w in both_scalings(lab, key[4]))
    common = {"numbers": numbers, "classroom": classroom}
    scaled_title = t("main.scaled", lang, dk=lab.d_k, s=f"{np.sqrt(lab.d_k):.2f}")
    return frozen(
        [
            fig.score_heatmap(
                raw, lab.texts, title=t("main.raw", lang), limit=limit, showscale=False, **common
            ),
            fig.score_heatmap(scaled, lab.texts, title=scaled_title, limit=limit, **common),
            fig.attention_heatmap(
                w_on,
                lab.texts,
                title=t("main.w_scaled", lang),
                showscale=False,
                bar_room=True,
                **common,
            ),
            fig.attention_heatmap(w_off, lab.texts, title=t("main.w_unscaled", lang), **common),
            fig.row_stats_figure(w_on, w_off, lab.texts, lang=lang, classroom=classroom),
        ]
    )


@st.cache_resource(max_entries=32, ttl=3600, show_spinner=False)
def focus_figure(key: tuple, index: int, classroom: bool, lang: str):
    """The focus token's row of every head as grouped bars."""
    lab = compute_lab(*key)
    bars = fig.focus_bars(
        lab.result.heads.weights, index, lab.texts, lang=lang, classroom=classroom
    )
    return frozen([bars])[0]


def both_scalings(lab: Lab, scale: bool) -> tuple[np.ndarray, np.ndarray]:
    """(weights with scaling, weights without), whichever the sidebar chose."""
    mine, other = lab.result.heads.weights, lab.flipped.weights
    return (mine, other) if scale else (other, mine)


def focus_index(texts: list[str], focus: str) -> int:
    """Index of the focus token: its text's first occurrence, else 他/她, else the first token."""
    for wanted in (focus, "他", "她"):
        if wanted and wanted in texts:
            return texts.index(wanted)
    return 0


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


def all_npz(lab: Lab) -> bytes:
    """Every matrix of the current view in one compressed .npz."""
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
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()
