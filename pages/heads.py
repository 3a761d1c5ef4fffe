"""Multi-head attention: random heads against trained heads with measured jobs; the same
sentence at every h the sidebar offers; concat, W_O, and what stays equal in the cost."""

from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import EmptyInputError
from attention_core.analysis import attention_cost
from attention_core.experiments import strongest_edges
from demo_model import describe_heads, load_demo_history, load_demo_model
from ui import charts, figures, sidebar, state, widgets
from ui.gloss import token_names
from ui.settings import Settings, head_options
from ui.state import Lab
from ui.text import md_escape
from ui.text import t as text_t

TAGS = {"random": "heads.tag_random", "trained": "heads.tag_trained"}  # the maps' two columns
COLUMNS = {  # the cost table's columns, in the UI language
    "h": "heads.col.h",
    "d_k": "heads.col.d_k",
    "params": "heads.col.params",
    "flops": "heads.col.flops",
    "cells": "heads.col.cells",
}


@st.cache_data(max_entries=32, show_spinner=False)
def compare_runs(sentence: str, scale: bool) -> tuple[list[str], np.ndarray, np.ndarray, int]:
    """Token texts, the demo model's head weights (h, n, n) at step 0 and at the end, last step."""
    first, last = load_demo_model(0), load_demo_model()
    before, after = first.run(sentence, scale=scale), last.run(sentence, scale=scale)
    w0, w1 = before.attention.heads.weights, after.attention.heads.weights
    return before.tokens.texts, w0, w1, last.step


def compare_section(s: Settings, t) -> None:
    """One row per head: its map at step 0 and after training, each titled with its measured job."""
    st.header(t("heads.compare"))
    try:
        cfg = load_demo_history().config
        last = compare_runs(s.sentence, s.scale)[-1]  # the runs themselves: compare_figures
    except EmptyInputError:
        st.warning(t("notice.empty"))
        return
    except (OSError, KeyError, ValueError) as err:
        st.warning(t("heads.compare_missing", error=md_escape(str(err))))
        return
    jobs = {"random": describe_heads(0), "trained": describe_heads(last)}
    found = sum(job.relation != "diffuse" for job in jobs["trained"])
    st.markdown(t("heads.compare_intro", h=cfg.num_heads, d=cfg.d_model, jobs=found))
    if not s.scale:
        st.caption(t("heads.noscale_note"))
    if s.causal:
        st.caption(t("heads.causal_note"))
    figs = compare_figures(s.sentence, s.scale, s.lang, s.numbers, s.classroom)
    for head in range(cfg.num_heads):  # side by side; one under the other on a projector
        cols = [st.container(), st.container()] if s.classroom else st.columns(2)
        for col, when in zip(cols, ("random", "trained"), strict=True):
            with col:  # the map's height follows its column: no blank band under the square
                charts.square_map(figs[when][head], key=f"heads_cmp_{when}_{head}", lang=s.lang)
    for head in range(cfg.num_heads):
        before_label, after_label = (figures.job_text(jobs[w][head], t) for w in jobs)
        line = t("heads.compare_line", head=head + 1, before=before_label, after=after_label)
        st.markdown("- " + line)


@st.cache_resource(max_entries=16, show_spinner=False)
def compare_figures(sentence: str, scale: bool, lang: str, numbers: bool, classroom: bool) -> dict:
    """The compare maps, built once per state and shared read-only (state.frozen)."""
    t = partial(text_t, lang=lang)
    texts, before, after, last = compare_runs(sentence, scale)
    jobs = {"random": describe_heads(0), "trained": describe_heads(last)}
    out = {}
    for when, w in (("random", before), ("trained", after)):
        figs = []
        for head in range(len(w)):
            title = t(TAGS[when], step=last) + " · " + figures.head_job_label(jobs[when][head], t)
            fig = figures.attention_heatmap(w[head], texts, title=title, lang=lang,
                                            numbers=numbers, classroom=classroom,
                                            showscale=when == "trained", bar_room=True,
                                            narrow=not classroom)  # fmt: skip
            figs.append(fig)
        out[when] = state.frozen(figs)
    return out


def grid_lab(s: Settings, t) -> tuple[Lab, bool]:
    """The Lab the rest of the page shows, following the sidebar's weights; True if trained.

    Random weights let h change here; the trained model has its h built in.
    """
    if s.weights == "trained" and state.trained_available():
        lab, notices = state.lab_for(s)
        sidebar.show_notices(notices, s.lang)
        if lab is None:
            st.stop()
        if lab.source == "trained":
            st.caption(t("heads.weights_trained", h=lab.heads, d=lab.d_model))
            return lab, True
    ss = st.session_state
    ss["heads_h"] = s.heads  # the setting (in the link), mirrored: the sidebar shows the same h
    st.radio(t("heads.pick"), head_options(s.d_model), key="heads_h", horizontal=True,
             on_change=_use_heads)  # fmt: skip
    st.caption(t("heads.weights_random", d=s.d_model, seed=s.seed))
    return widgets.lab_or_stop(replace(s, weights="random")), False


def _use_heads() -> None:
    """The page's h is the setting: a choice here is the sidebar's h and goes into the link."""
    st.session_state["heads"] = st.session_state["heads_h"]


def head_grid(run: Lab, trained: bool, s: Settings, t) -> None:
    """One heatmap per head (the main page's colours, hover and labels); the trained model's
    titled with their measured jobs."""
    w = run.result.heads.weights  # (h, n, n)
    per_row = figures.grid_columns(len(w), len(run.texts), s.classroom)
    titles = [figures.head_job_label(job, t) for job in describe_heads()] if trained else None
    figs = figures.head_heatmaps(
        w,
        run.texts,
        lang=s.lang,
        shared_scale=s.shared_scale,
        numbers=s.numbers,
        classroom=s.classroom,
        cols=per_row,
        titles=titles,
    )
    cols = st.columns(per_row)
    for head, fig in enumerate(figs):
        with cols[head % len(cols)]:  # square, as tall as its column is wide
            charts.square_map(fig, key=f"heads_map_{head}", lang=s.lang)


def concat_and_wo(run: Lab, s: Settings, t) -> None:
    """The heads' outputs joined column-wise, and W_O that mixes them."""
    p = run.params
    bounds = tuple(b * p.d_k - 0.5 for b in range(1, p.num_heads))  # where one head's columns end
    dims = [str(i) for i in range(p.d_model)]
    c1, c2 = st.columns(2)
    fig = figures.matrix_heatmap(
        run.result.concat,
        run.texts,
        title=t("heads.concat"),
        col_lines=bounds,
        lang=s.lang,
        classroom=s.classroom,
        across=2,
    )
    charts.chart(fig, key="heads_concat", lang=s.lang, where=c1)
    fig = figures.matrix_heatmap(p.w_o, dims, title="W_O", lang=s.lang, classroom=s.classroom,
                                 across=2)  # fmt: skip
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
    table = pd.DataFrame(rows).rename(columns=lambda c: t(COLUMNS[c]))
    st.dataframe(table, key="heads_cost", hide_index=True)
    st.caption(t("heads.cost_say", n=n, d=d_model))


def edges(run: Lab, t) -> None:
    """Per head, its three strongest links between two different tokens (了₁ and 了₂ told
    apart); a one-token sentence has none."""
    if len(run.texts) < 2:
        st.info(t("heads.edges_one_token"))
        return
    sep = t("list.sep")  # no Chinese punctuation in English lines
    names = token_names(run.texts)
    for head, found in enumerate(strongest_edges(run.result.heads.weights, names)):
        parts = [f"“{a}” → “{b}” {w:.2f}" for a, b, w in found]  # quoted: a token may be "，"
        st.text(t("teach.head", h=head + 1) + ": " + sep.join(parts))


s, t = widgets.open_page("heads.title", "heads.intro")
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
cost_table(len(run.texts), run.d_model, head_options(run.d_model), t)
st.info(t("heads.try"))  # the sentence box is on the main page, named there by its title
