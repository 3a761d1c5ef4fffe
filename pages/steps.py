"""Step by step: X → Q, K, V → Q·Kᵀ → ÷√d_k → softmax → ·V, with one cell taken apart."""

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from ui import figures_teach as ft
from ui import teach
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.state import Lab, focus_index
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

SKELETON = (
    "X = embed(tokens)                       # (n, d_model)",
    "Q, K, V = X @ W_Q, X @ W_K, X @ W_V     # (n, d_model) → h heads of (n, d_k)",
    "scores = Q @ K.swapaxes(-1, -2)         # (h, n, n)",
    "scaled = scores / np.sqrt(d_k)          # (h, n, n)",
    "weights = softmax(scaled, axis=-1)      # (h, n, n), every row sums to 1",
    "out = weights @ V                       # (h, n, d_k)",
    "output = concat(out) @ W_O              # (n, d_model)",
)
LATEX = (
    r"X \in \mathbb{R}^{n \times d_{model}}",
    r"Q = XW_Q,\quad K = XW_K,\quad V = XW_V",
    r"S = QK^\top",
    r"S' = \frac{QK^\top}{\sqrt{d_k}}",
    r"A = \mathrm{softmax}(S')",
    r"O = AV",
    r"\mathrm{Output} = \mathrm{Concat}(O_1,\dots,O_h)\,W_O",
)
LAST = len(SKELETON) - 1


def _move(delta: int) -> None:
    st.session_state["steps_step"] = min(LAST, max(0, st.session_state["steps_step"] + delta))


def step_nav(t) -> int:
    """Previous / next buttons and a step picker; returns the current step."""
    st.session_state.setdefault("steps_step", 0)
    left, mid, right = st.columns([1, 4, 1])
    left.button(t("steps.prev"), key="steps_prev", on_click=_move, args=(-1,))
    right.button(t("steps.next"), key="steps_next", on_click=_move, args=(1,))
    names = [t(f"steps.name{i}") for i in range(LAST + 1)]
    mid.radio(
        t("steps.pick"),
        range(LAST + 1),
        format_func=lambda i: names[i],
        key="steps_step",
        horizontal=True,
        label_visibility="collapsed",
    )
    return st.session_state["steps_step"]


def step_figures(run: Lab, step: int, head: int, s: Settings, t) -> list:
    """The heatmap(s) of one step for one head."""
    fs, tok, nums = teach.font_size(s), list(run.texts), s.numbers
    hd, mha = run.result.heads, run.result
    dims = lambda m: [str(i) for i in range(m.shape[-1])]  # noqa: E731
    hm = partial(ft.matrix_heatmap, font_size=fs, show_numbers=nums)
    if step == 0:
        return [hm(run.x, tok, dims(run.x), title="X")]
    if step == 1:
        return [hm(getattr(mha, n)[head], tok, dims(mha.q), title=n.upper()) for n in "qkv"]
    if step in (2, 3):
        zmax = float(np.abs(hd.scores[head]).max())  # one colour scale for before and after
        m = hd.scores[head] if step == 2 else hd.scaled[head]
        return [hm(m, tok, tok, title=t(f"steps.name{step}"), zmax=zmax)]
    if step == 4:
        return [hm(hd.weights[head], tok, tok, title=t("steps.name4"), weights=True)]
    if step == 5:
        return [hm(hd.output[head], tok, dims(hd.output), title=t("steps.name5"))]
    return [hm(mha.output, tok, dims(mha.output), title=t("steps.name6"))]


def show_step(run: Lab, step: int, head: int, s: Settings, t) -> None:
    st.latex(LATEX[step])
    st.caption(t(f"steps.say{step}", d_k=run.params.d_k, n=len(run.texts)))
    figs = step_figures(run, step, head, s, t)
    for k, (col, fig) in enumerate(zip(st.columns(len(figs)), figs, strict=True)):
        col.plotly_chart(fig, key=f"steps_fig_{step}_{k}", width="stretch")
    code = [line + ("   # ◀" if i == step else "") for i, line in enumerate(SKELETON)]
    st.code("\n".join(code), language="python")


def drill_down(run: Lab, head: int, s: Settings, t) -> None:
    """One cell (i, j) taken apart into the actual numbers."""
    st.subheader(t("steps.drill"))
    c1, c2 = st.columns(2)
    start = focus_index(run.texts, s.focus)  # the main page's focus token (default 他)
    i = teach.token_picker(c1, t("steps.query"), run, "steps_i", start)
    j = teach.token_picker(c2, t("steps.key"), run, "steps_j")
    b = teach.cell_breakdown(run, head, i, j)
    table = pd.DataFrame({"q_i": b["q"], "k_j": b["k"], "q_i × k_j": b["prod"]})
    st.dataframe(table.round(4), key="steps_table", height=min(400, 38 + 35 * len(table)))
    scale = rf"\div\sqrt{{{b['d_k']}}}" if s.scale else r"\;(\text{no scale})"
    st.latex(
        rf"s = \sum_d q_{{i,d}}k_{{j,d}} = {b['score']:.4f},\quad s' = s{scale} = {b['scaled']:.4f}"
    )
    st.latex(
        rf"e^{{s' - \max}} = e^{{{b['scaled']:.3f} - {b['peak']:.3f}}} = {b['exp']:.4f},\quad "
        rf"w_{{ij}} = \frac{{{b['exp']:.4f}}}{{\sum = {b['total']:.4f}}} = {b['weight']:.4f}"
    )
    st.caption(t("steps.check", row_sum=float(run.result.heads.weights[head, i].sum())))


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("steps.title"))
    st.markdown(t("steps.intro"))
    run = teach.sentence_lab_or_stop(s)
    head = st.selectbox(
        t("steps.head"),
        range(s.heads),
        key="steps_head",
        format_func=lambda h: t("teach.head", h=h + 1),
    )
    step = step_nav(t)
    show_step(run, step, head, s, t)
    drill_down(run, head, s, t)
    st.info(t("steps.try"))


main()
