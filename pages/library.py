"""The library analogy: one query against every key, softmax, then the values mixed in."""

from functools import partial

import numpy as np
import streamlit as st

from ui import figures_teach as ft
from ui import teach
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.state import Lab, focus_index
from ui.text import md_escape
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

CARDS_PER_ROW = 6


def pickers(run: Lab, s: Settings, t) -> tuple[int, int]:
    c1, c2 = st.columns(2)
    start = focus_index(run.texts, s.focus)  # the main page's focus token (default 他)
    i = teach.token_picker(c1, t("library.query"), run, "library_query", start)
    head = c2.selectbox(
        t("steps.head"),
        range(s.heads),
        key="library_head",
        format_func=lambda h: t("teach.head", h=h + 1),
    )
    return i, head


def key_cards(run: Lab, head: int, i: int, t) -> None:
    """One card per key: its token and its (scaled) similarity with the query."""
    st.subheader(t("library.cards", q=run.texts[i]))
    row = run.result.heads.scaled[head, i]  # (n,)
    best = int(np.argmax(row))
    for start in range(0, len(row), CARDS_PER_ROW):
        cols = st.columns(CARDS_PER_ROW)
        for col, j in zip(cols, range(start, min(start + CARDS_PER_ROW, len(row))), strict=False):
            with col.container(border=True):
                st.metric(
                    md_escape(run.texts[j]),
                    f"{row[j]:.2f}",
                    delta=t("library.best") if j == best else None,
                    delta_color="off",
                )


def mixture(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """The values added term by term, heaviest first, converging to the core's output."""
    st.subheader(t("library.mix"))
    mix = teach.value_mixture(run, head, i)
    n, fs = len(mix["order"]), teach.font_size(s)
    m = st.slider(t("library.terms"), 1, n, min(3, n), key="library_terms") if n > 1 else 1
    names = [run.texts[j] for j in mix["order"][:m]]
    st.caption(
        t(
            "library.terms_say",
            m=m,
            keys="、".join(names),
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
    st.plotly_chart(fig, key="library_vectors")
    ordered = [run.texts[j] for j in mix["order"]]
    fig = ft.bars(
        mix["gap"],
        ordered,
        title=t("library.gap"),
        highlight=m - 1,
        font_size=fs,
        y_title="‖Σ − output‖",
    )
    st.plotly_chart(fig, key="library_gap")


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("library.title"))
    st.markdown(t("library.intro"))
    run = teach.sentence_lab_or_stop(s)
    i, head = pickers(run, s, t)
    key_cards(run, head, i, t)
    st.subheader(t("library.softmax"))
    w = run.result.heads.weights[head, i]
    fig = ft.bars(
        w,
        run.texts,
        title=t("library.softmax_title", q=run.texts[i]),
        highlight=int(np.argmax(w)),
        y_range=(0, 1.1),
        y_title=t("library.weight"),
        font_size=teach.font_size(s),
    )
    st.plotly_chart(fig, key="library_bars")
    mixture(run, head, i, s, t)
    st.info(t("library.try"))


main()
