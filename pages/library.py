"""The library analogy: one query against every key, softmax, then the values mixed in."""

from functools import partial

import numpy as np
import streamlit as st

from attention_core.analysis import rnn_states
from attention_core.pipeline import Record
from ui import charts, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.state import Lab, focus_index
from ui.text import md_escape
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

CARDS_PER_ROW = 6


def pickers(run: Lab, f: Record, s: Settings, t) -> tuple[int, int]:
    c1, c2 = st.columns(2)
    start = focus_index(run.texts, s.focus)  # the main page's focus token (default 他)
    i = teach.token_picker(c1, t("library.query"), run, "library_query", start)
    if st.session_state.get("library_head", 0) >= f.heads:  # the trained model has its own h
        st.session_state["library_head"] = 0
    head = c2.selectbox(
        t("steps.head"),
        range(f.heads),
        key="library_head",
        format_func=lambda h: t("teach.head", h=h + 1),
    )
    return i, head


def card_tag(card: dict) -> str:
    """ "masked", "best" or "" for one key card."""
    return "masked" if card["masked"] else "best" if card["best"] else ""


def key_cards(run: Lab, head: int, i: int, f: Record, t) -> None:
    """One card per key: the similarity the softmax used (÷√d_k or raw), masked keys as such."""
    q = md_escape(run.texts[i])
    st.header(t("library.cards_title", q=q))
    st.caption(t("library.cards" if f.scale else "library.cards_raw", q=q))
    cards = teach.key_cards(run, head, i, f.causal)
    masked = sum(c["masked"] for c in cards)
    if masked:
        st.caption(t("library.masked_say", q=q, m=masked))
    for start in range(0, len(cards), CARDS_PER_ROW):
        cols = st.columns(CARDS_PER_ROW)
        row = cards[start : start + CARDS_PER_ROW]
        for k, (col, card) in enumerate(zip(cols, row, strict=False)):
            with col.container(border=True, key=f"keycard_{start + k}"):
                note = {"masked": "library.masked", "best": "library.best"}.get(card_tag(card))
                st.metric(
                    md_escape(card["text"]),
                    "−∞" if card["masked"] else f"{card['value']:.2f}",  # what the softmax saw
                    delta=t(note) if note else None,
                    delta_color="off",
                    delta_arrow="off",
                )


def mixture(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """The values added term by term, heaviest first, converging to the core's output."""
    st.header(t("library.mix"))
    mix = teach.value_mixture(run, head, i)
    n, fs = len(mix["order"]), teach.font_size(s)
    m = st.slider(t("library.terms"), 1, n, min(3, n), key="library_terms") if n > 1 else 1
    names = [run.texts[j] for j in mix["order"][:m]]
    st.caption(
        t(
            "library.terms_say",
            m=m,
            keys=t("list.enum").join(md_escape(name) for name in names),
            share=float(mix["weights"][:m].sum()),
            gap=float(mix["gap"][m - 1]),
        )
    )
    rows = np.stack([mix["partial"][m - 1], mix["output"]])  # (2, d_k)
    fig = ft.vector_rows(
        rows,
        [t("library.partial", m=m), t("library.output")],
        title=t("library.vectors"),
        font_size=fs,
    )
    charts.chart(fig, key="library_vectors", lang=s.lang)
    ordered = [run.texts[j] for j in mix["order"]]
    fig = ft.bars(
        mix["gap"],
        ordered,
        title=t("library.gap"),
        highlight=m - 1,
        font_size=fs,
        y_title="‖Σ − output‖",
    )
    charts.chart(fig, key="library_gap", lang=s.lang)


def weight_bars(run: Lab, head: int, i: int, s: Settings, t, *, title: str, key: str) -> None:
    """The query's row of weights as bars, the heaviest highlighted."""
    w = run.result.heads.weights[head, i]  # (n,)
    fig = ft.bars(
        w,
        run.texts,
        title=title,
        highlight=int(np.argmax(w)),
        y_range=(0, 1.1),
        y_title=t("library.weight"),
        font_size=teach.font_size(s),
    )
    charts.chart(fig, key=key, lang=s.lang)


def rnn_contrast(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """§1: what an RNN carries when it reaches the query (one vector) vs the query's row."""
    q = md_escape(run.texts[i])
    st.header(t("library.rnn"))
    states = rnn_states(run.x)[: i + 1]  # (i+1, d_model): after reading tokens 0 … i
    st.markdown(t("library.rnn_say", q=q, k=i, d=states.shape[1]))
    c1, c2 = st.columns(2)
    fig = ft.matrix_heatmap(
        states,
        run.texts[: i + 1],
        [str(d) for d in range(states.shape[1])],
        title=t("library.rnn_states"),
        font_size=teach.font_size(s),
        zmax=1.0,
        y_title=t("library.state_axis"),
    )
    charts.chart(fig, key="library_rnn", lang=s.lang, where=c1)
    with c2:
        weight_bars(run, head, i, s, t, title=t("library.rnn_row", q=run.texts[i]),
                    key="library_rnn_row")  # fmt: skip
    st.caption(t("library.rnn_note"))


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("library.title"))
    st.markdown(t("library.intro"))
    run = teach.followed_lab(s, t)
    f = run.record  # what the numbers were computed with
    i, head = pickers(run, f, s, t)
    key_cards(run, head, i, f, t)
    st.header(t("library.softmax"))
    weight_bars(run, head, i, s, t, title=t("library.softmax_title", q=run.texts[i]),
                key="library_bars")  # fmt: skip
    mixture(run, head, i, s, t)
    st.info(t("library.try" if f.scale else "library.try_off"))
    rnn_contrast(run, head, i, s, t)


main()
