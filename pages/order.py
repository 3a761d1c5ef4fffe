"""Word order: without positions, 我打你 and 你打我 get the same outputs, only permuted."""

import numpy as np
import streamlit as st

from attention_core import EmptyInputError, experiments, sinusoidal_positions, tokenize
from ui import charts, figures, widgets
from ui.controls import Settings

PE_N = 32  # positions drawn in the positional-encoding map


@st.cache_data(max_entries=32, show_spinner=False)
def demo(texts: tuple, perm: tuple, d_model: int, heads: int, pos: bool, seed: int) -> dict:
    return experiments.permutation_demo(texts, perm, d_model, heads, pos=pos, seed=seed)


def show_demo(d: dict, texts: list[str], s: Settings, t, key: str) -> None:
    """Both attention maps (head 1), the max |A₂ − P·A₁·Pᵀ|, and each token's output change."""
    c1, c2 = st.columns(2)
    for col, tok, res, name in ((c1, texts, d["a"], "a"), (c2, d["reordered"], d["b"], "b")):
        fig = figures.attention_heatmap(
            res.heads.weights[0],
            tok,
            title="".join(tok),
            lang=s.lang,
            numbers=s.numbers,
            classroom=s.classroom,
            narrow=True,
        )
        charts.chart(fig, key=f"order_{key}_{name}", lang=s.lang, where=col)
    m1, m2 = st.columns(2)
    top = float(np.max(d["output_diff"]))
    m1.metric(t("order.wdiff"), f"{d['weights_diff']:.2e}")
    m2.metric(t("order.odiff"), f"{top:.2e}")
    fig = figures.bars(
        d["output_diff"],
        d["reordered"],
        title=t("order.moved"),
        y_title="max |Δ|",
        fmt=".1e",
        y_range=(0, max(top * 1.25, 1e-3)),
        classroom=s.classroom,
    )
    charts.chart(fig, key=f"order_{key}_moved", lang=s.lang)


def pair_part(s: Settings, t, pos: bool) -> None:
    st.header(t("order.pair"))
    c1, c2 = st.columns(2)
    a = c1.text_input(t("order.a"), "我打你", key="order_a", max_chars=200)
    b = c2.text_input(t("order.b"), "你打我", key="order_b", max_chars=200)
    try:
        ta, tb = tokenize(a).texts, tokenize(b).texts
    except EmptyInputError:
        st.warning(t("order.empty"))
        return
    perm = experiments.match_perm(ta, tb)
    if perm is None:
        st.warning(t("order.not_perm", a=" / ".join(ta), b=" / ".join(tb)))
        return
    show_demo(demo(tuple(ta), tuple(perm), s.d_model, s.heads, pos, s.seed), ta, s, t, "pair")


def shuffle_part(s: Settings, t, pos: bool) -> None:
    st.header(t("order.shuffle_title"))
    run = widgets.lab_or_stop(s)
    st.session_state.setdefault("order_shuffle_seed", 1)
    if st.button(t("order.shuffle"), key="order_shuffle"):
        st.session_state["order_shuffle_seed"] += 1
    rng = np.random.default_rng(st.session_state["order_shuffle_seed"])
    perm = tuple(int(i) for i in rng.permutation(len(run.texts)))
    d = demo(tuple(run.texts), perm, s.d_model, s.heads, pos, s.seed)
    show_demo(d, run.texts, s, t, "shuffle")


s, t = widgets.open_page("order.title", "order.intro")
# random weights whatever the sidebar says: the trained model adds its own positions
st.caption(t("order.random", d=s.d_model, h=s.heads, seed=s.seed))
if s.weights == "trained":
    st.info(t("order.random_trained"))
pos = st.toggle(t("order.pos"), value=False, key="order_pos")
st.caption(t("order.with_pos") if pos else t("order.without_pos"))
pair_part(s, t, pos)
shuffle_part(s, t, pos)
st.header(t("order.pe"))
pe = sinusoidal_positions(PE_N, s.d_model)  # (PE_N, d_model)
title = t("order.pe_title", n=PE_N, d=s.d_model)
fig = figures.matrix_heatmap(
    pe, [str(p) for p in range(PE_N)], title=title, zmax=1.0, lang=s.lang, classroom=s.classroom
)
charts.chart(fig, key="order_pe", lang=s.lang)
st.info(t("order.try"))
