"""Learned attention: the trained demo model's heads from step 0 to the end, with its curves."""

from __future__ import annotations

import html
import time
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import EmptyInputError
from attention_core.model import RELATIONS, describe_heads, load_demo_history, load_demo_model
from ui import figures, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.text import md_escape
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

EXAMPLES = (
    "小明把书放在了桌子上，然后他走了。",
    "那天，小红在公园里看见了小刚，他很高兴。",
    "这里有一本书，王丽说她很喜欢这里。",
)
PLAY_SECONDS = 0.6  # pause between checkpoints while playing
PRONOUNS = ("他", "她")


# ---- page --------------------------------------------------------------------------------------


@st.cache_data(max_entries=64, show_spinner=False)
def learned_run(sentence: str, step: int, scale: bool) -> tuple[tuple[str, ...], np.ndarray]:
    """Token texts and head weights (h, n, n) of the demo model at a checkpoint."""
    run = load_demo_model(step).run(sentence, scale=scale)
    return tuple(run.tokens.texts), np.array(run.attention.heads.weights)


def _start_play(last: int) -> None:
    st.session_state["learned_step"] = last
    st.session_state["learned_play_now"] = True


def controls(steps: list[int], shared: str, t) -> tuple[str, int, bool, bool]:
    """Sentence, checkpoint slider, play button and scaling switch → plain values."""
    ss = st.session_state
    if ss.get("learned_step") not in steps:
        ss["learned_step"] = steps[-1]
    ss.setdefault("learned_scale", True)
    options = list(dict.fromkeys([shared, *EXAMPLES]))
    sentence = st.selectbox(t("learned.sentence"), options, key="learned_sentence")
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    step = left.select_slider(t("learned.step"), options=steps, key="learned_step")
    right.button(t("learned.play"), key="learned_play", on_click=_start_play, args=(steps[-1],))
    scale = st.toggle(t("learned.scale"), key="learned_scale")
    return sentence or shared, int(step), bool(scale), bool(ss.pop("learned_play_now", False))


def focus_line(texts: tuple[str, ...], weights: np.ndarray, t) -> str | None:
    """Where the first 他/她 looks hardest, over all heads; None without a pronoun."""
    rows = [i for i, w in enumerate(texts) if w in PRONOUNS]
    if not rows:
        return None
    i = rows[0]
    head, j = np.unravel_index(np.argmax(weights[:, i, :]), weights[:, i, :].shape)
    q, k = md_escape(texts[i]), md_escape(texts[j])
    return t("learned.focus", q=q, k=k, head=int(head) + 1, w=float(weights[head, i, j]))


def heads_block(texts, weights, step: int, s: Settings, t, suffix: str = "") -> None:
    """The heads' heatmaps at one step, two per row, with the pronoun's strongest link."""
    st.subheader(t("learned.heads", step=step))
    line = focus_line(texts, weights, t)
    if line:
        st.markdown(line)
    figs = figures.head_heatmaps(
        weights,
        list(texts),
        lang=s.lang,
        shared_scale=s.shared_scale,
        numbers=s.numbers,
        classroom=s.classroom,
        cols=2,
    )
    cols = st.columns(2)
    for i, fig in enumerate(figs):
        cols[i % 2].plotly_chart(fig, key=f"learned_head_{i}{suffix}", config=figures.PLOTLY_CONFIG)


def animate(area, sentence: str, steps: list[int], scale: bool, s, t) -> None:
    """Step through every checkpoint in place (the play button)."""
    for k, step in enumerate(steps[:-1]):
        texts, weights = learned_run(sentence, step, scale)
        with area.container():
            heads_block(texts, weights, step, s, t, suffix=f"_play{k}")
        time.sleep(PLAY_SECONDS)


def curves(step: int, s: Settings, t) -> None:
    """Loss curve and held-out figures with the current step marked, and this step's numbers."""
    h = load_demo_history()
    fs = teach.font_size(s)
    i = int(np.nonzero(h.steps == step)[0][0])
    st.subheader(t("learned.curves"))
    cols = st.columns(3)
    for col, key, name in (
        (cols[0], "any_head_acc", "learned.acc_any"),
        (cols[1], "best_head_weight", "learned.acc_weight"),
        (cols[2], "readout_acc", "learned.acc_readout"),
    ):
        col.metric(
            t(name),
            f"{h.heldout[key][i]:.0%}" if key != "best_head_weight" else f"{h.heldout[key][i]:.2f}",
        )
    left, right = st.columns(2)
    fig = ft.loss_figure(h.losses, h.steps, h.heldout["loss"], step, t, fs)
    left.plotly_chart(fig, key="learned_loss", config=figures.PLOTLY_CONFIG)
    fig = ft.accuracy_figure(h.steps, h.heldout, step, t, fs)
    right.plotly_chart(fig, key="learned_acc", config=figures.PLOTLY_CONFIG)
    st.caption(t("learned.heldout_note"))


def head_words(step: int, t) -> None:
    """What each head does on the held-out split, in words, and the full table."""
    st.subheader(t("learned.what"))
    for head in describe_heads(step):
        key = "learned.head_diffuse" if head.relation == "diffuse" else "learned.head_line"
        rel = t(f"learned.rel.{head.closest}")
        st.markdown("- " + t(key, head=head.head + 1, rel=rel, acc=head.accuracy, w=head.weight))
    h = load_demo_history()
    table = h.relations[int(np.nonzero(h.steps == step)[0][0]), :, :, 0]  # (heads, relations)
    frame = pd.DataFrame(
        np.round(100 * table).astype(int),
        columns=[t(f"learned.rel.{r}") + " %" for r in RELATIONS],
    )
    frame.insert(0, t("learned.col.head"), np.arange(1, len(table) + 1))
    st.dataframe(frame, key="learned_table", hide_index=True)


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("learned.title"))
    try:
        history = load_demo_history()
    except (OSError, KeyError, ValueError) as err:
        st.error(t("learned.missing", error=html.escape(str(err))))
        st.stop()
    cfg = history.config
    st.markdown(t("learned.intro", h=cfg.num_heads, d=cfg.d_model))
    steps = [int(x) for x in history.steps]
    sentence, step, scale, play = controls(steps, s.sentence, t)
    if not scale:
        st.caption(t("learned.noscale_note", r=np.sqrt(cfg.d_model // cfg.num_heads)))
    try:
        texts, weights = learned_run(sentence, step, scale)
    except (EmptyInputError, TypeError) as err:
        st.warning(t("learned.empty", error=md_escape(str(err))))
        st.stop()
    area = st.empty()
    if play:
        animate(area, sentence, steps, scale, s, t)
    with area.container():
        heads_block(texts, weights, step, s, t)
    curves(step, s, t)
    head_words(step, t)
    st.info(t("learned.try"))


main()
