"""Learned attention: the trained demo model's heads from step 0 to the end, and how each head
found its job, measured on held-out sentences."""

from __future__ import annotations

import html
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import EmptyInputError
from attention_core.corpus import LINKS
from attention_core.model import (
    JOB_THRESHOLD,
    RELATIONS,
    DemoHistory,
    describe_heads,
    job_onsets,
    load_demo_history,
    load_demo_model,
    read_pronoun,
)
from ui import charts, figures, widgets
from ui.controls import Settings
from ui.figures import RELATION_KEYS
from ui.state import frozen
from ui.text import md_escape
from ui.text import t as text

EXAMPLES = (
    "小明把书放在了桌子上，然后他走了。",
    "那天，小红在公园里看见了小刚，他很高兴。",
    "小明和小刚去了公园，他很高兴。",
    "小明买了一辆旧的自行车，他很喜欢。",
    "这里有一本书，王丽说她很喜欢这里。",
)


# ---- cached computations -----------------------------------------------------------------------


@st.cache_data(max_entries=32, show_spinner=False)
def learned_runs(sentence: str, scale: bool) -> tuple[tuple[str, ...], np.ndarray]:
    """Token texts and every saved checkpoint's head weights (K, h, n, n) for one sentence."""
    steps = load_demo_history().steps
    runs = [load_demo_model(int(step)).run(sentence, scale=scale) for step in steps]
    return tuple(runs[0].tokens.texts), np.stack([r.attention.heads.weights for r in runs])


@st.cache_resource(max_entries=32, ttl=3600, show_spinner=False)
def maps_figure(sentence: str, scale: bool, active: int, lang: str, classroom: bool, phone: bool):
    """The animated maps of every head at every checkpoint, starting at frame `active`."""
    t = partial(text, lang=lang)
    texts, weights = learned_runs(sentence, scale)
    steps = [int(s) for s in load_demo_history().steps]
    frames = []
    for step, w in zip(steps, weights, strict=True):
        heads = describe_heads(step)
        reading = read_pronoun(list(texts), w, heads)
        frames.append(
            {
                "name": step,
                "title": frame_title(texts, reading, step, t),
                "weights": w,
                "head_titles": [figures.head_job_label(s, t) for s in heads],
            }
        )
    strings = {
        "play": t("learned.play"),
        "pause": t("learned.pause"),
        "prefix": t("learned.slider_prefix"),
        "query": t("main.query_axis"),
        "key": t("main.key_axis"),
        "bar": t("learned.sqrt_ramp"),
    }
    cols = 1 if phone or classroom else 2  # one map a row on a phone and on a projector
    fig = figures.training_maps_figure(
        frames, texts, active=active, text=strings, cols=cols, classroom=classroom, phone=phone
    )
    return frozen([fig])[0]


# ---- what the pronoun head says ------------------------------------------------------------------


def _rel(name: str, t) -> str:
    return t(RELATION_KEYS[name])


def frame_title(texts, reading, step: int, t) -> str:
    """A frame's title: the step, and whom the pronoun head has the first 他/她 look at."""
    head = t("learned.frame_step", step=step)
    if reading is None:
        return head
    q = texts[reading.query]
    if reading.head is None:
        return head + " · " + t("learned.frame_none", q=q)
    k = [texts[j] for j in reading.keys]
    w, h = reading.weights, reading.head.head + 1
    if reading.decided:
        return head + " · " + t("learned.frame_read", q=q, k=k[0], w=w[0], head=h)
    return (
        head + " · " + t("learned.frame_undecided", q=q, k=k[0], w=w[0], k2=k[1], w2=w[1], head=h)
    )


def reading_line(texts, reading, step: int, t) -> str:
    """The headline: whom the first 他/她 means, from the head that measurably does that job."""
    if reading is None:
        return t("learned.focus_no_pronoun")
    q = md_escape(texts[reading.query])
    rel = _rel("pronoun_antecedent", t)
    if reading.head is None:
        return t("learned.focus_none", step=step, rel=rel, q=q, th=JOB_THRESHOLD)
    k = [md_escape(texts[j]) for j in reading.keys]
    w, head = reading.weights, reading.head
    common = dict(step=step, head=head.head + 1, rel=rel, acc=head.accuracy, q=q, k=k[0], w=w[0])
    if reading.decided:
        return t("learned.focus", **common)
    return t("learned.focus_undecided", **common, k2=k[1], w2=w[1])


def on_phone() -> bool:
    """True when the browser says it is a phone: one map per row then (one plotly figure holds
    every head, so its grid cannot follow the screen width by itself)."""
    agent = st.context.headers.get("User-Agent", "") if st.context.headers else ""
    return "Mobi" in agent


# ---- sections ------------------------------------------------------------------------------------


def controls(steps: list[int], shared: str, t) -> tuple[str, int, bool]:
    """Sentence, checkpoint and scaling switch → plain values."""
    ss = st.session_state
    if ss.get("learned_step") not in steps:
        ss["learned_step"] = steps[-1]
    ss.setdefault("learned_scale", True)
    options = list(dict.fromkeys([shared, *EXAMPLES]))
    sentence = st.selectbox(t("learned.sentence"), options, key="learned_sentence")
    step = st.select_slider(t("learned.step"), options=steps, key="learned_step")
    scale = st.toggle(t("learned.scale"), key="learned_scale")
    return sentence or shared, int(step), bool(scale)


def maps_section(sentence: str, step: int, scale: bool, history: DemoHistory, s, t) -> None:
    """The headline for this step, then every head's map, playable over all checkpoints."""
    st.header(t("learned.heads", h=history.config.num_heads))
    texts, weights = learned_runs(sentence, scale)
    k = int(np.nonzero(history.steps == step)[0][0])
    st.markdown(
        reading_line(texts, read_pronoun(list(texts), weights[k], describe_heads(step)), step, t)
    )
    fig = maps_figure(sentence, scale, k, s.lang, s.classroom, on_phone())
    charts.chart(fig, key="learned_maps", lang=s.lang)
    st.caption(t("learned.maps_caption", k=len(history.steps)))


def jobs_section(step: int, history: DemoHistory, s: Settings, t) -> None:
    """Per question, every head's held-out hit rate over training; when each head found its job."""
    st.header(t("learned.jobs"))
    st.markdown(t("learned.jobs_intro", th=JOB_THRESHOLD))
    onsets, final = job_onsets(), describe_heads()
    for head, at in zip(final, onsets, strict=True):
        key = "learned.found" if at is not None else "learned.found_none"
        rel = _rel(head.relation if at is not None else head.closest, t)
        st.markdown("- " + t(key, head=head.head + 1, step=at, rel=rel, acc=head.accuracy))
    cols = st.columns(len(LINKS))
    for r, rel in enumerate(LINKS):
        mine = [at if f.relation == rel else None for f, at in zip(final, onsets, strict=True)]
        fig = figures.job_curves_figure(
            history.eval_steps,
            history.relations[:, :, r, 0],
            history.heldout["readout_chance"][:, r],
            mine,
            step,
            title=_rel(rel, t),
            t=t,
            classroom=s.classroom,
            across=len(LINKS),
        )
        charts.chart(fig, key=f"learned_jobs_{rel}", lang=s.lang, where=cols[r])


def curves_section(step: int, history: DemoHistory, s: Settings, t) -> None:
    """Loss, read-out accuracy and the chance levels, the current step marked."""
    st.header(t("learned.curves"))
    i = history.at(step)
    st.caption(t("learned.metrics_caption", step=step))
    cols = st.columns(len(LINKS))
    for col, r, rel in zip(cols, range(len(LINKS)), LINKS, strict=True):
        acc = history.relations[i, :, r, 0]  # (h,)
        value = t("learned.metric_value", head=int(np.argmax(acc)) + 1, acc=float(acc.max()))
        col.metric(_rel(rel, t), value)
    left, right = st.columns(2)
    loss = history.heldout["loss"]
    fig = figures.loss_figure(history.losses, history.eval_steps, loss, step, t, s.classroom, 2)
    charts.chart(fig, key="learned_loss", lang=s.lang, where=left)
    names = [_rel(r, t) for r in LINKS]
    heads = history.config.num_heads
    fig = figures.accuracy_figure(
        history.eval_steps, history.heldout, step, names, heads, t, s.classroom, across=2
    )
    charts.chart(fig, key="learned_acc", lang=s.lang, where=right)
    st.caption(t("learned.heldout_note"))


def table_section(step: int, history: DemoHistory, t) -> None:
    """What each head does at this step, in words and as the full head × relation table."""
    st.header(t("learned.what", step=step))
    for head in describe_heads(step):
        key = "learned.head_diffuse" if head.relation == "diffuse" else "learned.head_line"
        rel = _rel(head.closest, t)
        line = t(
            key, head=head.head + 1, rel=rel, acc=head.accuracy, w=head.weight, th=JOB_THRESHOLD
        )
        st.markdown("- " + line)
    table = history.relations[history.at(step), :, :, 0]  # (heads, relations)
    frame = pd.DataFrame(
        np.round(100 * table).astype(int), columns=[_rel(r, t) + " %" for r in RELATIONS]
    )
    frame.insert(0, t("learned.col.job"), [_rel(h.relation, t) for h in describe_heads(step)])
    frame.insert(0, t("learned.col.head"), np.arange(1, len(table) + 1))
    st.dataframe(frame, key="learned_table", hide_index=True)
    st.caption(t("learned.table_note"))


s, t = widgets.open_page("learned.title")
try:
    history = load_demo_history()
except (OSError, KeyError, ValueError) as err:
    st.error(t("learned.missing", error=html.escape(str(err))))
    st.stop()
cfg = history.config
st.markdown(t("learned.intro", h=cfg.num_heads, d=cfg.d_model))
st.info(t("learned.weights_note"))
sentence, step, scale = controls([int(x) for x in history.steps], s.sentence, t)
if not scale:
    st.caption(t("learned.noscale_note", r=np.sqrt(cfg.d_model // cfg.num_heads)))
try:
    learned_runs(sentence, scale)
except (EmptyInputError, TypeError) as err:
    st.warning(t("learned.empty", error=md_escape(str(err))))
    st.stop()
maps_section(sentence, step, scale, history, s, t)
jobs_section(step, history, s, t)
curves_section(step, history, s, t)
table_section(step, history, t)
st.info(t("learned.try"))
