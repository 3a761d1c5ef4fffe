"""Word order: with no positions or mask, 我打你 and 你打我 get the same numbers, permuted."""

import numpy as np
import streamlit as st

from attention_core import EmptyInputError, experiments, sinusoidal_positions, tokenize
from attention_core.pipeline import Record
from ui import charts, figures, sidebar, widgets
from ui.lesson import deck
from ui.settings import Settings

PE_N = 32  # positions drawn in the positional-encoding map


@st.cache_data(max_entries=32, show_spinner=False)
def demo(texts: tuple, perm: tuple, s: Settings) -> dict:
    """The permutation demo with every setting in force (random weights: see order.random)."""
    return experiments.permutation_demo(texts, perm, s.d_model, s.heads, pos=s.pos, seed=s.seed,
                                        scale=s.scale, causal=s.causal)  # fmt: skip


def unit(s: Settings, t) -> str:
    """What a token is called: a word, or in character mode a character (字, not 词)."""
    return t("unit.char") if s.mode == "char" else t("unit.word")


def in_force(s: Settings) -> Record:
    """What this page computes with: the sidebar's settings on random weights."""
    return Record("random", s.scale, s.causal, False, s.pos, s.mode, s.seed, None, s.d_model,
                  s.heads)  # fmt: skip


def switches(s: Settings, t) -> int:
    """The two settings that break the symmetry, drawn here (they are the settings: in the link,
    the sidebar leaves its own out), the head the maps show, and what is in force."""
    sidebar.own_settings("pos", "causal", note=t("order.side_owned"))
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.toggle(t("side.pos"), key="pos")
    left.toggle(t("side.causal"), key="causal")
    head = widgets.head_picker(right, s.heads, "order_head", t)
    st.caption(t("teach.in_force", line=widgets.record_line(in_force(s), t)))
    return head


def show_maps(d: dict, texts: list[str], head: int, s: Settings, t, key: str) -> None:
    """A's map beside B's put back in A's order (Pᵀ·A₂·P): they match cell by cell exactly when
    nothing depends on position."""
    st.caption(t("order.b_is", b=" / ".join(d["reordered"]), unit=unit(s, t)))
    maps = (
        (d["a"].heads.weights[head], t("order.map_a"), "a"),
        (d["b_back"][head], t("order.map_back"), "back"),
    )
    for col, (weights, title, name) in zip(st.columns(2), maps, strict=True):
        fig = figures.attention_heatmap(weights, texts, title=title, lang=s.lang,
                                        numbers=s.numbers, classroom=s.classroom, narrow=True,
                                        showscale=name == "back", bar_room=True)  # fmt: skip
        charts.chart(fig, key=f"order_{key}_{name}", lang=s.lang, where=col)


def verdict(d: dict, s: Settings, t) -> None:
    """Cell by cell, as measured; then why, from the settings in force."""
    if d["same"]:
        st.success(t("order.same", h=s.heads, cells=d["cells"], diff=d["weights_diff"],
                     out=float(d["output_moved"].max()), unit=unit(s, t)))  # fmt: skip
    else:
        st.warning(t("order.differ", h=s.heads, cells=d["cells"], k=d["cells"] - d["same_cells"],
                     pp=100 * d["weights_diff"], out=float(d["output_moved"].max()),
                     unit=unit(s, t)))  # fmt: skip
    reasons = [key for key, on in (("order.why_pos", s.pos), ("order.why_causal", s.causal)) if on]
    for key in reasons or ["order.why_none"]:
        st.caption(t(key, unit=unit(s, t)))


def show_demo(d: dict, texts: list[str], head: int, s: Settings, t, key: str) -> None:
    """The three maps, the verdict, and each token's output change in % of its length."""
    show_maps(d, texts, head, s, t, key)
    verdict(d, s, t)
    moved = 100 * d["output_moved"]  # (n,) %
    title = t("order.moved", unit=unit(s, t))
    fig = figures.bars(moved, d["reordered"], title=title, y_title=t("order.moved_y"), fmt=".1f",
                       y_range=(0, max(10.0, float(moved.max()) * 1.25)),
                       classroom=s.classroom)  # fmt: skip
    charts.chart(fig, key=f"order_{key}_moved", lang=s.lang)


def pair_part(s: Settings, t, head: int) -> None:
    st.header(t("order.pair"))
    c1, c2 = st.columns(2)
    a = c1.text_input(t("order.a"), "我打你", key="order_a", max_chars=200)
    b = c2.text_input(t("order.b"), "你打我", key="order_b", max_chars=200)
    try:
        ta, tb = tokenize(a, s.mode).texts, tokenize(b, s.mode).texts
    except EmptyInputError:
        st.warning(t("order.empty"))
        return
    perm = experiments.match_perm(ta, tb)
    if perm is None:
        st.warning(t("order.not_perm", a=" / ".join(ta), b=" / ".join(tb)))
        return
    if perm == sorted(perm):
        st.info(t("order.identity"))
    show_demo(demo(tuple(ta), tuple(perm), s), ta, head, s, t, "pair")


def shuffled(n: int) -> tuple[int, ...]:
    """The shuffle button's order: seeded by its clicks, never the sentence's own order."""
    rng = np.random.default_rng(st.session_state["order_shuffle_seed"])
    perm = tuple(int(i) for i in rng.permutation(n))
    while n > 1 and perm == tuple(range(n)):
        perm = tuple(int(i) for i in rng.permutation(n))
    return perm


def shuffle_part(s: Settings, t, head: int) -> None:
    st.header(t("order.shuffle_title"))
    run = widgets.lab_or_stop(s)
    if len(run.texts) < 2:
        st.info(t("order.one_token"))
        return
    st.session_state.setdefault("order_shuffle_seed", 1)
    if st.button(t("order.shuffle"), key="order_shuffle"):
        st.session_state["order_shuffle_seed"] += 1
    d = demo(tuple(run.texts), shuffled(len(run.texts)), s)
    show_demo(d, run.texts, head, s, t, "shuffle")


s, t = widgets.open_page("order.title", "order.intro")
deck.lesson_links("order", s)  # its scenes, the sentence kept
# random weights whatever the sidebar says: the trained model adds its own positions
st.caption(t("order.random", d=s.d_model, h=s.heads, seed=s.seed))
if s.weights == "trained":
    st.info(t("order.random_trained"))
head = switches(s, t)
pair_part(s, t, head)
shuffle_part(s, t, head)
st.header(t("order.pe"))
pe = sinusoidal_positions(PE_N, s.d_model)  # (PE_N, d_model)
title = t("order.pe_title", n=PE_N, d=s.d_model)
fig = figures.matrix_heatmap(
    pe, [str(p) for p in range(PE_N)], title=title, zmax=1.0, lang=s.lang, classroom=s.classroom
)
charts.chart(fig, key="order_pe", lang=s.lang)
st.info(t("order.try"))
