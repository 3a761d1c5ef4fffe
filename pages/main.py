"""Main page: the sentence, one attention map per head, Q·Kᵀ before/after √d_k, focus, export."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from functools import partial

import numpy as np
import streamlit as st

from attention_core.analysis import row_entropy
from ui import controls, state
from ui import figures as fig
from ui.routing import ensure_router
from ui.text import md_escape, t

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

FORMULA = r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}\right)V"
NUMPY_LINES = {
    "x": "X = embed(tokens) + positions            # (n, d_model)",
    "q": "Q = (X @ W_Q).reshape(n, h, d_k).transpose(1, 0, 2)   # (h, n, d_k)",
    "k": "K = (X @ W_K).reshape(n, h, d_k).transpose(1, 0, 2)   # (h, n, d_k)",
    "v": "V = (X @ W_V).reshape(n, h, d_k).transpose(1, 0, 2)   # (h, n, d_k)",
    "out": "out = concat(softmax(Q @ K.swapaxes(-1, -2) / np.sqrt(d_k)) @ V) @ W_O  # (n, d_model)",
}


def chart(figure, key: str) -> None:
    """A plotly chart with the high-resolution PNG export in its toolbar."""
    st.plotly_chart(figure, key=key, config=fig.PLOTLY_CONFIG, width="stretch")


def _store_focus(key: str, texts: list[str]) -> None:
    chosen = st.session_state.get(key)
    st.session_state["focus_text"] = texts[chosen] if chosen is not None else ""


def token_chips(lab: state.Lab, s: controls.Settings) -> int:
    """Tokens with POS tags as chips (Markdown-escaped); clicking one picks the focus token."""
    texts = lab.texts
    digest = hashlib.blake2b("\x00".join(texts).encode(), digest_size=6).hexdigest()
    key = f"focus_{digest}"
    index = state.focus_index(texts, s.focus)
    if s.focus and s.focus not in texts:  # from a link, or left over from another sentence
        st.info(
            t(
                "notice.focus_missing",
                s.lang,
                focus=md_escape(s.focus[:40]),
                used=md_escape(texts[index]),
            )
        )
        st.session_state["focus_text"] = ""
    labels = [md_escape(f"{tok.text} · {tok.tag}") for tok in lab.tokens]
    with st.container(key="token_chips"):
        picked = st.pills(
            t("main.tokens", s.lang, n=len(texts)),
            options=list(range(len(texts))),
            format_func=labels.__getitem__,
            default=index,
            key=key,
            on_change=_store_focus,
            args=(key, texts),
        )
    return index if picked is None else int(picked)


def head_grid(lab: state.Lab, s: controls.Settings) -> None:
    """One weight map per head, two or three in a row (one on phones)."""
    st.subheader(t("main.heads_title", s.lang))
    st.caption(t("main.heads_caption", s.lang))
    if s.numbers and len(lab.tokens) > fig.MAX_CELL_NUMBERS:
        st.caption(t("notice.no_numbers", s.lang, n=fig.MAX_CELL_NUMBERS))
    cols = fig.grid_columns(lab.heads, len(lab.tokens), s.classroom)
    key = state.lab_key(s)
    figures = state.head_figures(key, s.shared_scale, s.numbers, s.classroom, s.lang, cols)
    with st.container(key="head_grid"):
        for start in range(0, len(figures), cols):
            for i, column in enumerate(st.columns(cols), start=start):
                if i < len(figures):
                    with column:
                        chart(figures[i], key=f"head_{i}")


@st.fragment
def scaling_section(lab: state.Lab, s: controls.Settings) -> None:
    """For one chosen head: Q·Kᵀ before and after √d_k, the weights, entropy and max per row."""
    lang = s.lang
    head = st.selectbox(
        t("main.chosen_head", lang),
        range(lab.heads),
        key="chosen_head",
        format_func=lambda i: t("main.head", lang, i=i + 1),
    )
    head = min(int(head or 0), lab.heads - 1)
    st.subheader(t("main.scaling_title", lang, i=head + 1))
    st.latex(FORMULA)
    st.caption(t("main.formula_caption", lang, dk=lab.d_k))
    figures = state.scaling_figures(state.lab_key(s), head, s.numbers, s.classroom, lang)
    with st.container(key="scaling_panels"):
        for row in range(2):
            for col, column in enumerate(st.columns(2)):
                with column:
                    chart(figures[2 * row + col], key=f"scaling_{2 * row + col}")
    st.caption(t("main.scaling_caption", lang))
    w_on, w_off = (w[head] for w in state.both_scalings(lab, s.scale))
    st.markdown(f"**{t('main.row_stats', lang)}**")
    h_on, h_off = row_entropy(w_on, base=2).mean(), row_entropy(w_off, base=2).mean()
    summary = {
        "hs": f"{h_on:.2f}",
        "hu": f"{h_off:.2f}",
        "ms": f"{w_on.max(-1).mean():.2f}",
        "mu": f"{w_off.max(-1).mean():.2f}",
    }
    st.caption(t("main.stats_summary", lang, **summary))
    chart(figures[4], key="row_stats")


def focus_section(lab: state.Lab, s: controls.Settings, index: int) -> None:
    """The focus token's row of every head as bars."""
    tok = lab.texts[index]
    st.subheader(t("main.focus_title", s.lang, tok=md_escape(tok)))
    st.caption(t("main.focus_caption", s.lang, pos=index + 1))
    chart(state.focus_figure(state.lab_key(s), index, s.classroom, s.lang), key="focus_bars")


def matrices(lab: state.Lab, head: int) -> list[tuple[str, str, np.ndarray]]:
    """(name, numpy-line key, matrix) for X, Q, K, V of one head, and the output."""
    res = lab.result
    items = [("x", lab.x)] if lab.x is not None else []
    items += [("q", res.q[head]), ("k", res.k[head]), ("v", res.v[head]), ("out", res.output)]
    return [(name, NUMPY_LINES[name], values) for name, values in items]


@st.fragment
def matrices_section(lab: state.Lab, s: controls.Settings) -> None:
    """X, Q, K, V and the output, each with its numpy line; drawn only while open."""
    lang = s.lang
    box = st.expander(t("main.matrices", lang), key="matrices_open", on_change="rerun")
    if not box.open:
        return
    with box:
        head = min(int(st.session_state.get("chosen_head") or 0), lab.heads - 1)
        for name, line, values in matrices(lab, head):
            title = t(f"main.m.{name}", lang, i=head + 1)
            st.markdown(f"**{title}** · `{values.shape[0]} × {values.shape[1]}`")
            st.code(line, language="python")
            chart(
                fig.matrix_heatmap(values, lab.texts, title="", lang=lang, classroom=s.classroom),
                key=f"matrix_{name}",
            )


def export_section(lab: state.Lab, s: controls.Settings) -> None:
    """Download buttons; the files are built only when clicked."""
    st.subheader(t("main.export", s.lang))
    st.caption(t("main.export_caption", s.lang))
    weights = lab.result.heads.weights
    cols = st.columns(min(4, lab.heads + 2))
    for i in range(lab.heads):
        cols[i % len(cols)].download_button(
            t("main.csv_head", s.lang, i=i + 1),
            partial(state.weights_csv, weights[i], lab.texts),
            file_name=f"attention_head{i + 1}.csv",
            mime="text/csv",
            key=f"csv_{i}",
            on_click="ignore",
            icon=":material/download:",
        )
    cols[lab.heads % len(cols)].download_button(
        t("main.npz", s.lang),
        partial(state.all_npz, lab),
        file_name="attention_lab.npz",
        mime="application/octet-stream",
        key="npz",
        on_click="ignore",
        icon=":material/download:",
    )
    settings_json = json.dumps(asdict(s), ensure_ascii=False, indent=2)
    cols[(lab.heads + 1) % len(cols)].download_button(
        t("main.settings_json", s.lang),
        settings_json,
        file_name="attention_lab_settings.json",
        mime="application/json",
        key="settings_json",
        on_click="ignore",
        icon=":material/download:",
    )


def main() -> None:
    s = controls.current_settings()
    st.title(t("main.title", s.lang))
    if not s.classroom:  # the projector needs the room for the maps
        st.caption(t("main.intro", s.lang))
    controls.show_notices(controls.link_notices(s), s.lang)
    controls.sentence_box(s.lang)
    lab, notices = state.lab_for(s)
    controls.show_notices(notices, s.lang)
    if lab is None:
        return
    index = token_chips(lab, s)
    head_grid(lab, s)
    scaling_section(lab, s)
    focus_section(lab, s, index)
    matrices_section(lab, s)
    export_section(lab, s)


main()
