"""Multi-head attention: the same sentence at h = 1, 2, 4, 8; concat, W_O, and an equal cost."""

from dataclasses import replace
from functools import partial

import pandas as pd
import streamlit as st

from attention_core.analysis import attention_cost
from ui import figures, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.state import Lab
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

H_CHOICES = (1, 2, 4, 8)


def head_grid(run: Lab, s: Settings, t) -> None:
    """One heatmap per head, two per row."""
    w = run.result.heads.weights  # (h, n, n)
    per_row = figures.grid_columns(len(w), len(run.texts), s.classroom)
    figs = figures.head_heatmaps(
        w,
        run.texts,
        lang=s.lang,
        shared_scale=s.shared_scale,
        numbers=s.numbers,
        classroom=s.classroom,
        cols=per_row,
    )  # the main page's maps: same colours, hover and labels
    cols = st.columns(per_row)
    for head, fig in enumerate(figs):
        with cols[head % len(cols)]:
            st.plotly_chart(fig, key=f"heads_map_{head}", config=figures.PLOTLY_CONFIG)


def concat_and_wo(run: Lab, s: Settings, t) -> None:
    """The heads' outputs joined column-wise, and W_O that mixes them."""
    d = run.params.d_model
    dims = [str(i) for i in range(d)]
    fs, tok = teach.font_size(s), list(run.texts)
    c1, c2 = st.columns(2)
    bounds = [b * run.params.d_k - 0.5 for b in range(1, run.params.num_heads)]
    fig = ft.matrix_heatmap(
        run.result.concat, tok, dims, title=t("heads.concat"), font_size=fs, col_lines=bounds
    )
    c1.plotly_chart(fig, key="heads_concat")
    fig = ft.matrix_heatmap(run.params.w_o, dims, dims, title="W_O", font_size=fs, height=420)
    c2.plotly_chart(fig, key="heads_wo")


def cost_table(n: int, d_model: int, choices: list[int], t) -> None:
    rows = []
    for h in choices:
        c = attention_cost(n, d_model, h)
        params = 4 * d_model * d_model  # W_Q, W_K, W_V, W_O whatever h is
        rows.append(
            {
                "h": h,
                "d_k": d_model // h,
                "params": params,
                "flops": c.total,
                "cells": c.score_elements,
            }
        )
    table = pd.DataFrame(rows).rename(columns=lambda c: t(f"heads.col.{c}"))
    st.dataframe(table, key="heads_cost", hide_index=True)
    st.caption(t("heads.cost_say", n=n, d=d_model))


def edges(run: Lab, t) -> None:
    for head, found in enumerate(teach.strongest_edges(run.result.heads.weights, run.texts)):
        parts = [f"{a} → {b} {w:.2f}" for a, b, w in found]
        st.text(t("teach.head", h=head + 1) + ": " + "，".join(parts))


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("heads.title"))
    st.markdown(t("heads.intro"))
    choices = [h for h in H_CHOICES if s.d_model % h == 0]
    if st.session_state.get("heads_h") not in choices:  # first visit, or d_model changed
        st.session_state["heads_h"] = s.heads if s.heads in choices else choices[-1]
    h = st.radio(t("heads.pick"), choices, key="heads_h", horizontal=True)
    run = teach.sentence_lab_or_stop(replace(s, heads=h))
    st.caption(t("heads.shape", h=h, d_k=run.params.d_k, d=s.d_model))
    head_grid(run, s, t)
    st.subheader(t("heads.edges"))
    edges(run, t)
    st.subheader(t("heads.concat_title"))
    concat_and_wo(run, s, t)
    st.subheader(t("heads.cost"))
    cost_table(len(run.texts), s.d_model, choices, t)
    st.info(t("heads.try"))


main()
