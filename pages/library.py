"""The library analogy: one query against every key, softmax, then the values mixed in."""

import numpy as np
import streamlit as st

from attention_core import experiments as ex
from attention_core.analysis import rnn_states, row_entropy
from ui import charts, figures, widgets
from ui.gloss import gloss_bar_ticks, named, short_gloss, token_names
from ui.settings import Settings
from ui.state import Lab, focus_index
from ui.text import md_escape

CARDS_PER_ROW = {False: 6, True: 4}  # classroom type needs wider cards
ONE_CARD = 0.99  # a row whose heaviest weight is at least this: one key takes it all
DECIMALS = 3  # distances are drawn and said to this many decimals (the caption's {gap:.3f})
NOTES = {"masked": "library.masked", "best": "library.best"}  # a key card's tag → its note


def key_cards(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """One card per key: the similarity the softmax used (÷√d_k or raw), masked keys as such;
    each token named as every page names it (书₁ … 书₅ told apart)."""
    q, names = md_escape(named(run.texts, i, s.lang)), token_names(run.texts)
    st.header(t("library.cards_title", q=q))  # glossed once here; the caption under it not
    plain = md_escape(names[i])
    st.caption(t("library.cards" if run.record.scale else "library.cards_raw", q=plain))
    cards = ex.key_cards(run, head, i)
    masked = sum(c["masked"] for c in cards)
    if masked:
        st.caption(t("library.masked_say", q=q, m=masked))
    per = CARDS_PER_ROW[s.classroom]
    for start in range(0, len(cards), per):
        row = cards[start : start + per]
        for k, (col, card) in enumerate(zip(st.columns(per), row, strict=False)):
            tag = "masked" if card["masked"] else "best" if card["best"] else ""
            with col.container(border=True, key=f"keycard_{start + k}"):
                st.metric(
                    md_escape(names[start + k]),
                    "−∞" if card["masked"] else f"{card['value']:.2f}",  # what the softmax saw
                    delta=t(NOTES[tag]) if tag else None,
                    delta_color="off",
                    delta_arrow="off",
                )
                if word := short_gloss(card["text"], s.lang):  # cut to fit a card
                    st.caption(md_escape(word))  # under the token, as the main page glosses it


def weight_bars(run: Lab, head: int, i: int, s: Settings, t, *, title: str, key: str, across=1):
    """The query's row of weights as bars, the heaviest highlighted (`across` charts a row);
    a repeated token's bar is named by its number (了₁, 了₂), in English with its gloss."""
    w = run.result.heads.weights[head, i]  # (n,)
    fig = figures.bars(
        w,
        token_names(run.texts),
        title=title,
        highlight=int(np.argmax(w)),
        y_range=(0, 1.1),
        y_title=t("library.weight"),
        classroom=s.classroom,
        across=across,
    )
    gloss_bar_ticks(fig, run.texts, s.lang, s.classroom)
    charts.chart(fig, key=key, lang=s.lang)


def one_card(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """When one key takes (nearly) all of the query's weight, say so with its numbers."""
    w = run.result.heads.weights[head, i]  # (n,)
    best = int(np.argmax(w))
    if len(w) > 1 and w[best] >= ONE_CARD:
        k, q = (md_escape(named(run.texts, j, s.lang)) for j in (best, i))
        st.caption(t("library.one_card", q=q, k=k, w=float(w[best]), rest=1 - float(w[best])))


def mixture(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """The values added term by term, heaviest first, converging to the core's output."""
    st.header(t("library.mix"))
    mix = ex.value_mixture(run, head, i)
    n = len(mix["order"])
    m = st.slider(t("library.terms"), 1, n, min(3, n), key="library_terms") if n > 1 else 1
    names = t("list.enum").join(md_escape(named(run.texts, j, s.lang)) for j in mix["order"][:m])
    share, gap = float(mix["weights"][:m].sum()), float(mix["gap"][m - 1])
    st.caption(t("library.terms_say", m=m, keys=names, share=share, gap=gap))
    rows = np.stack([mix["partial"][m - 1], mix["output"]])  # (2, d_k)
    labels = [t("library.partial", m=m), t("library.output")]
    fig = figures.vector_rows(
        rows, labels, title=t("library.vectors"), classroom=s.classroom, lang=s.lang
    )
    charts.chart(fig, key="library_vectors", lang=s.lang)
    gap_chart(run, mix, m, s, t)


def gap_chart(run: Lab, mix: dict, m: int, s: Settings, t) -> None:
    """The distance left to the output before any term (‖output‖) and after each, to DECIMALS:
    the first bar sets the scale, so a distance that rounds to 0 is drawn as 0."""
    names = token_names(run.texts)
    gaps = np.round([np.linalg.norm(mix["output"]), *mix["gap"]], DECIMALS)  # (n + 1,)
    fig = figures.bars(
        gaps,
        [t("library.no_terms"), *(names[j] for j in mix["order"])],
        title=t("library.gap"),
        highlight=m,
        y_title="‖Σ − output‖",
        fmt=f".{DECIMALS}f",
        classroom=s.classroom,
    )
    gloss_bar_ticks(fig, ["", *(run.texts[j] for j in mix["order"])], s.lang, s.classroom)
    charts.chart(fig, key="library_gap", lang=s.lang)


def rnn_contrast(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """§1: what an RNN carries when it reaches the query (one vector) vs the query's row."""
    st.header(t("library.rnn"))
    states = rnn_states(run.x)[: i + 1]  # (i+1, d_model): after reading tokens 0 … i
    q = md_escape(named(run.texts, i, s.lang))
    st.markdown(t("library.rnn_say", q=q, k=i, d=states.shape[1]))
    c1, c2 = st.columns(2)
    fig = figures.matrix_heatmap(
        states,
        token_names(run.texts)[: i + 1],  # 了₁ … as the bars beside it name them
        title=t("library.rnn_states"),
        zmax=1.0,
        y_title=t("library.state_axis"),
        lang=s.lang,
        classroom=s.classroom,
        across=2,
    )
    charts.chart(fig, key="library_rnn", lang=s.lang, where=c1)
    with c2:
        title = t("library.rnn_row", q=named(run.texts, i, s.lang))
        weight_bars(run, head, i, s, t, title=title, key="library_rnn_row", across=2)
    st.caption(t("library.rnn_note"))


def mixing_head(run: Lab, i: int) -> int:
    """The head whose row for query i spreads its weight most (largest entropy): where the
    values are visibly mixed. Measured, never a fixed number."""
    return int(np.argmax(row_entropy(run.result.heads.weights[:, i])))  # (h,) entropies


def head_note(run: Lab, head: int, i: int, s: Settings, t) -> None:
    """Which head spreads the query's weight most, measured: this one, or where to look."""
    best, q = mixing_head(run, i), md_escape(named(run.texts, i, s.lang))
    if run.record.heads > 1:
        key = "library.head_here" if best == head else "library.head_there"
        st.caption(t(key, q=q, best=best + 1))


s, t = widgets.open_page("library.title", "library.intro")
run = widgets.followed_lab(s, t)
c1, c2 = st.columns(2)
start = focus_index(run.texts, s.focus)  # the main page's focus token (default 他)
i = widgets.token_picker(c1, t("library.query"), run.texts, "library_query", start, s.lang)
head = widgets.head_picker(c2, run.record.heads, "library_head", t)
head_note(run, head, i, s, t)
key_cards(run, head, i, s, t)
st.header(t("library.softmax"))
title = t("library.softmax_title", q=named(run.texts, i, s.lang))
weight_bars(run, head, i, s, t, title=title, key="library_bars")
one_card(run, head, i, s, t)
mixture(run, head, i, s, t)
side = " " + t("library.side_class") if s.classroom else ""  # the sidebar may be collapsed
st.info(t("library.try" if run.record.scale else "library.try_off") + side)
rnn_contrast(run, head, i, s, t)
