"""Multi-head attention: random heads against trained heads with measured jobs; the same
sentence at h = 1, 2, 4, 8; concat, W_O, and what stays equal in the cost."""

from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import EmptyInputError
from attention_core.analysis import attention_cost
from attention_core.model import describe_heads, load_demo_history, load_demo_model
from ui import charts, controls, figures, state, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.state import Lab
from ui.text import md_escape
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

H_CHOICES = (1, 2, 4, 8)


# ---- random heads against trained heads ---------------------------------------------------------


@st.cache_data(max_entries=32, show_spinner=False)
def compare_runs(sentence: str, scale: bool) -> tuple[list[str], np.ndarray, np.ndarray, int]:
    """Token texts, the demo model's head weights (h, n, n) at step 0 and at the end, last step."""
    first, last = load_demo_model(0), load_demo_model()
    before, after = first.run(sentence, scale=scale), last.run(sentence, scale=scale)
    w0, w1 = before.attention.heads.weights, after.attention.heads.weights
    return before.tokens.texts, w0, w1, last.step


def _map(weights: np.ndarray, texts: list[str], title: str, s: Settings, bar: bool):
    """One head's map; only the right-hand map of a row draws the (shared) colour bar."""
    return figures.attention_heatmap(
        weights,
        texts,
        title=title,
        lang=s.lang,
        numbers=s.numbers,
        classroom=s.classroom,
        showscale=bar,
        bar_room=True,
        narrow=True,
    )


def compare_section(s: Settings, t) -> None:
    """One row per head: its map at step 0 and after training, each titled with its measured job."""
    st.header(t("heads.compare"))
    try:
        cfg = load_demo_history().config
        texts, before, after, last = compare_runs(s.sentence, s.scale)
    except EmptyInputError:
        st.warning(t("notice.empty"))
        return
    except (OSError, KeyError, ValueError) as err:
        st.warning(t("heads.compare_missing", error=md_escape(str(err))))
        return
    st.markdown(t("heads.compare_intro", h=cfg.num_heads, d=cfg.d_model))
    if not s.scale:
        st.caption(t("heads.noscale_note"))
    jobs = {"random": describe_heads(0), "trained": describe_heads(last)}
    for head in range(cfg.num_heads):
        c1, c2 = st.columns(2)
        for col, when, w in ((c1, "random", before), (c2, "trained", after)):
            label = ft.head_job_label(jobs[when][head], t)
            title = t(f"heads.tag_{when}", step=last) + " · " + label
            fig = _map(w[head], texts, title, s, bar=when == "trained")
            charts.chart(fig, key=f"heads_cmp_{when}_{head}", lang=s.lang, where=col)
    for head in range(cfg.num_heads):
        before_label, after_label = (ft.job_text(jobs[w][head], t) for w in jobs)
        st.markdown("- " + t("heads.compare_line", head=head + 1, before=before_label,
                             after=after_label))  # fmt: skip


# ---- the sidebar's weights: pick h, maps, edges, concat, W_O, cost -------------------------------


def grid_lab(s: Settings, t) -> tuple[Lab, bool]:
    """The Lab the rest of the page shows, following the sidebar's weights; True if trained.

    Random weights let h change here; the trained model has its h built in.
    """
    if s.weights == "trained" and state.trained_available():
        lab, notices = state.lab_for(s)
        controls.show_notices(notices, s.lang)
        if lab is None:
            st.stop()
        if lab.source == "trained":
            st.caption(t("heads.weights_trained", h=lab.heads, d=lab.d_model))
            return lab, True
    choices = [h for h in H_CHOICES if s.d_model % h == 0]
    if st.session_state.get("heads_h") not in choices:  # first visit, or d_model changed
        st.session_state["heads_h"] = s.heads if s.heads in choices else choices[-1]
    h = st.radio(t("heads.pick"), choices, key="heads_h", horizontal=True)
    st.caption(t("heads.weights_random", d=s.d_model, seed=s.seed))
    return teach.sentence_lab_or_stop(replace(s, heads=h, weights="random")), False


def head_grid(run: Lab, trained: bool, s: Settings, t) -> None:
    """One heatmap per head; the trained model's titled with their measured jobs."""
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
    if trained:
        for fig, job in zip(figs, describe_heads(), strict=True):
            fig.layout.title.text = ft.head_job_label(job, t)
    cols = st.columns(per_row)
    for head, fig in enumerate(figs):
        with cols[head % len(cols)]:
            charts.chart(fig, key=f"heads_map_{head}", lang=s.lang)


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
    charts.chart(fig, key="heads_concat", lang=s.lang, where=c1)
    fig = ft.matrix_heatmap(run.params.w_o, dims, dims, title="W_O", font_size=fs, height=420)
    charts.chart(fig, key="heads_wo", lang=s.lang, where=c2)


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
    sep = t("list.sep")  # no Chinese punctuation in English lines
    for head, found in enumerate(teach.strongest_edges(run.result.heads.weights, run.texts)):
        parts = [f"“{a}” → “{b}” {w:.2f}" for a, b, w in found]  # quoted: a token may be "，"
        st.text(t("teach.head", h=head + 1) + ": " + sep.join(parts))


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("heads.title"))
    st.markdown(t("heads.intro"))
    compare_section(s, t)
    st.header(t("heads.grid"))
    run, trained = grid_lab(s, t)
    st.caption(t("heads.shape", h=run.heads, d_k=run.d_k, d=run.d_model))
    head_grid(run, trained, s, t)
    st.header(t("heads.edges"))
    edges(run, t)
    st.header(t("heads.concat_title"))
    concat_and_wo(run, s, t)
    st.header(t("heads.cost"))
    choices = [h for h in H_CHOICES if run.d_model % h == 0]
    cost_table(len(run.texts), run.d_model, choices, t)
    st.info(t("heads.try"))


main()
