"""Word order: without positions, 我打你 and 你打我 get the same outputs, only permuted."""

from functools import partial

import numpy as np
import streamlit as st

from attention_core import EmptyInputError, sinusoidal_positions, tokenize
from ui import charts, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it


@st.cache_data(max_entries=32, show_spinner=False)
def demo(texts: tuple, perm: tuple, d_model: int, heads: int, pos: bool, seed: int) -> dict:
    return teach.permutation_demo(texts, perm, d_model, heads, pos=pos, seed=seed)


def show_demo(d: dict, texts: list[str], s: Settings, t, key: str) -> None:
    """Both attention maps (head 1), the max |A₂ − P·A₁·Pᵀ|, and each token's output change."""
    fs = teach.font_size(s)
    c1, c2 = st.columns(2)
    for col, tok, res, name in ((c1, texts, d["a"], "a"), (c2, d["reordered"], d["b"], "b")):
        fig = ft.matrix_heatmap(
            res.heads.weights[0],
            tok,
            tok,
            title="".join(tok),
            weights=True,
            font_size=fs,
            show_numbers=s.numbers,
            **teach.weight_map_labels(t),
        )
        charts.chart(fig, key=f"order_{key}_{name}", lang=s.lang, where=col)
    m1, m2 = st.columns(2)
    m1.metric(t("order.wdiff"), f"{d['weights_diff']:.2e}")
    m2.metric(t("order.odiff"), f"{float(np.max(d['output_diff'])):.2e}")
    top = float(np.max(d["output_diff"]))
    fig = ft.bars(
        d["output_diff"],
        d["reordered"],
        title=t("order.moved"),
        font_size=fs,
        y_title="max |Δ|",
        fmt=".1e",
        y_range=(0, max(top * 1.25, 1e-3)),
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
    perm = teach.match_perm(ta, tb)
    if perm is None:
        st.warning(t("order.not_perm", a=" / ".join(ta), b=" / ".join(tb)))
        return
    d = demo(tuple(ta), tuple(perm), s.d_model, s.heads, pos, s.seed)
    show_demo(d, ta, s, t, "pair")


def shuffle_part(s: Settings, t, pos: bool) -> None:
    st.header(t("order.shuffle_title"))
    run = teach.sentence_lab_or_stop(s)
    st.session_state.setdefault("order_shuffle_seed", 1)
    if st.button(t("order.shuffle"), key="order_shuffle"):
        st.session_state["order_shuffle_seed"] += 1
    rng = np.random.default_rng(st.session_state["order_shuffle_seed"])
    perm = tuple(int(i) for i in rng.permutation(len(run.texts)))
    d = demo(run.texts, perm, s.d_model, s.heads, pos, s.seed)
    show_demo(d, list(run.texts), s, t, "shuffle")


def pe_part(s: Settings, t) -> None:
    st.header(t("order.pe"))
    n = 32
    pe = sinusoidal_positions(n, s.d_model)  # (n, d_model)
    fig = ft.matrix_heatmap(
        pe,
        [str(p) for p in range(n)],
        [str(i) for i in range(s.d_model)],
        title=t("order.pe_title", n=n, d=s.d_model),
        zmax=1.0,
        font_size=teach.font_size(s),
        height=560,
    )
    charts.chart(fig, key="order_pe", lang=s.lang)


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("order.title"))
    st.markdown(t("order.intro"))
    # random weights whatever the sidebar says: the trained model adds its own positions
    st.caption(t("order.random", d=s.d_model, h=s.heads, seed=s.seed))
    if s.weights == "trained":
        st.info(t("order.random_trained"))
    pos = st.toggle(t("order.pos"), value=False, key="order_pos")
    st.caption(t("order.with_pos") if pos else t("order.without_pos"))
    pair_part(s, t, pos)
    shuffle_part(s, t, pos)
    pe_part(s, t)
    st.info(t("order.try"))


main()
