"""What several pages share: the page's opening, the Lab it shows, token and head pickers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

import streamlit as st

from attention_core.pipeline import Record
from ui import sidebar, state
from ui.routing import ensure_router
from ui.settings import Settings
from ui.text import t as text


def open_page(
    title_key: str, intro_key: str | None = None, *, title_width: str = "stretch"
) -> tuple[Settings, Callable]:
    """Every page's first line: through the router, the settings in force, `t` in the UI
    language, the page's title and intro (text keys, written out where the page calls this);
    title_width "content" leaves room beside the title in a row."""
    ensure_router()  # a fresh server's first visit may skip app.py: rerun through it
    s = sidebar.current_settings()
    t = partial(text, lang=s.lang)
    st.title(t(title_key), width=title_width)
    if intro_key:
        st.markdown(t(intro_key))
    return s, t


# ---- the sentence's numbers: the main page's cached Lab --------------------------------------


def lab_or_stop(s: Settings, *, follow_sidebar: bool = False) -> state.Lab:
    """The main page's cached Lab for these settings; its notices, or a notice and st.stop()
    when there is nothing to show. Random weights unless `follow_sidebar`, when the sidebar's
    choice (random or the trained model) is used."""
    lab, notices = state.lab_for(s if follow_sidebar else replace(s, weights="random"))
    sidebar.show_notices(notices, s.lang)
    if lab is None:
        st.stop()
    return lab


def record_line(r: Record, t, *, scale: bool = True) -> str:
    """The weights and every setting a Lab was computed with, as one caption line (`scale=False`:
    a section dividing by its own τ leaves ÷√d_k out)."""
    causal = "teach.causal_what_if" if r.causal_what_if else "teach.causal_on"
    parts = [
        t("teach.src.trained", step=r.step)
        if r.source == "trained"
        else t("teach.src.random", seed=r.seed),
        f"d_model = {r.d_model} · h = {r.heads} · d_k = {r.d_k}",
        *([t("teach.scale_on" if r.scale else "teach.scale_off")] if scale else []),
        t(causal if r.causal else "teach.causal_off"),
        t(
            "teach.pos_trained"
            if r.source == "trained"
            else "teach.pos_True"
            if r.pos
            else "teach.pos_False"
        ),
        t("teach.mode_char" if r.mode == "char" else "teach.mode_word"),
    ]
    return " · ".join(parts)


def followed_lab(s: Settings, t, *, scale: bool = True) -> state.Lab:
    """The sidebar's Lab (random or trained) under a caption naming what lab.record says it was
    computed with; st.stop() when there is none."""
    lab = lab_or_stop(s, follow_sidebar=True)
    st.caption(t("teach.in_force", line=record_line(lab.record, t, scale=scale)))
    return lab


# ---- pickers: plain values out -------------------------------------------------------------


def head_picker(where, heads: int, key: str, t) -> int:
    """A select box over the heads ("头 1" …) in `where`; a choice beyond h (the trained model
    has its own) falls back to the first head. Returns the 0-based head."""
    if st.session_state.get(key, 0) >= heads:
        st.session_state[key] = 0
    return where.selectbox(
        t("teach.head_pick"), range(heads), key=key, format_func=lambda h: t("teach.head", h=h + 1)
    )


def reading_fields(r, name: Callable[[int], str], say) -> dict:
    """What a sentence about a reading (demo_model.reading.TokenReading) is filled with:
    the asking token q, the head and its count on the human-written set, the picks k, k2 with
    their weights w, w2, the unknown words; `name(j)` names token j as the page writes it."""
    out = {"q": name(r.query)}
    if r.head is not None:
        out |= {"head": r.head.head + 1, "hits": r.head.hits, "total": r.head.total}
    for n, (j, w) in enumerate(zip(r.keys, r.weights, strict=True)):
        out |= {f"k{n + 1 if n else ''}": name(j), f"w{n + 1 if n else ''}": w}
    out["words"] = say("list.sep").join(name(j) for j in r.unknown)
    return out
