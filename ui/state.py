"""A thin cache over attention_core.pipeline: settings → the Lab every page draws, its notices.

Here, and only here, the app hands the trained demo model (TRAINED) to the core's pipeline, which
takes it as a TrainedWeights; pages that show the model's own measurements (its heads' jobs, its
readings) import demo_model for them.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace

import numpy as np
import streamlit as st

from attention_core import EmptyInputError, causal_mask, pipeline, reweight
from attention_core.pipeline import Lab, LabSettings
from demo_model import DEMO

TRAINED = DEMO  # the trained model every page computes with (pipeline.TrainedWeights)

Notice = tuple[str, str, dict]  # (level "warning" | "info", text key, format values)
NOTICE_KEYS = {  # pipeline notice code → (level, text key)
    pipeline.CHARS_CUT: ("warning", "notice.chars_cut"),
    pipeline.TOKENS_CUT: ("warning", "notice.tokens_cut"),
    pipeline.ONLY_PUNCT: ("info", "notice.only_punct"),
    pipeline.TRAINED_UNAVAILABLE: ("warning", "side.weights_unavailable"),
}


def trained_available() -> bool:
    """True once the demo model's weights file exists (it may still fail to load)."""
    return TRAINED.available()


def trained_config():
    """The demo model's ModelConfig (d_model, num_heads …), or None when it cannot be read."""
    try:
        return TRAINED.at().config
    except Exception:  # a missing or half-written file: the sidebar says so elsewhere
        return None


def notices_of(lab: Lab) -> list[Notice]:
    """The pipeline's notice codes as (level, text key, values) for sidebar.show_notices."""
    return [(*NOTICE_KEYS[n.code], dict(n.values)) for n in lab.notices]


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
    """pipeline.compute, cached by every argument; raises EmptyInputError when there is nothing
    to tokenize. lab.record says what was used (the trained model fixes its own size)."""
    settings = LabSettings(sentence, mode, d_model, heads, scale, causal, pos, seed, weights)
    return pipeline.compute(settings, TRAINED)


def lab_at(key: tuple) -> Lab:
    """compute_lab(*key) without the cache: for a file built when a download is clicked, outside
    any script run (where Streamlit's caches have no session to report to)."""
    return pipeline.compute(LabSettings(*key), TRAINED)


def qk_key(key: tuple) -> tuple:
    """A lab_key with √d_k on and no mask: Q and K do not depend on them, so what is computed from
    Q and K alone (the query–key map's step 0) is computed once for all four."""
    return (*key[:4], True, False, *key[6:])


@st.cache_resource(max_entries=8, ttl=3600, show_spinner=False)
def first_step_lab(key: tuple) -> Lab | None:
    """The Lab of compute_lab(*key) on the trained model's first saved step (the query–key
    map's step 0 ↔ final switch), or None: random weights, or no saved steps to read. Shared by
    the process's sessions and never changed (a resource: no copy unpickled per rerun)."""
    settings = LabSettings(*key)
    if settings.weights != "trained" or not TRAINED.available():
        return None
    try:
        steps = TRAINED.steps()
        return pipeline.compute(replace(settings, step=int(steps[0])), TRAINED) if steps else None
    except Exception:  # a half-written weights file: the map goes without its switch
        return None


def lab_for(settings) -> tuple[Lab | None, list[Notice]]:
    """The Lab for a Settings object, or None with a notice when the sentence is empty."""
    try:
        lab = compute_lab(*lab_key(settings))
    except EmptyInputError:
        return None, [("warning", "notice.empty", {})]
    except ValueError as err:
        return None, [("warning", "notice.error", {"error": str(err)})]
    return lab, notices_of(lab)


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


def weights_at(lab: Lab, tau: float | None, causal: bool) -> np.ndarray:
    """(h, n, n) weights as the view shows them: the core's, or softmax(scores/τ) for a τ chosen
    on the view's slider (attention_core.reweight on the core's raw scores)."""
    if tau is None:
        return lab.result.heads.weights
    scores = lab.result.heads.scores  # (h, n, n)
    return reweight(scores, tau, causal_mask(scores.shape[-1]) if causal else None)


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
    """Every matrix of the current view in one compressed .npz (with the τ weights if set) and
    the record of what they were computed with, as JSON."""
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
        "x": lab.x,
        "record": np.array(json.dumps(lab.record.as_dict())),  # what the numbers were made with
    }
    if tau is not None:
        arrays["tau"] = np.array(tau)
        arrays["weights_tau"] = weights_at(lab, tau, causal)
    np.savez_compressed(buf, **arrays)
    return buf.getvalue()
