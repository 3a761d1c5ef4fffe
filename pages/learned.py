"""Learned attention: the trained demo model's heads from step 0 to the end, and how each head
found its job, measured on held-out sentences."""

from __future__ import annotations

import html
from dataclasses import replace
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from demo_model import (
    JOB_THRESHOLD,
    DemoHistory,
    describe_heads,
    job_onsets,
    load_demo_history,
    load_demo_model,
    reading,
)
from demo_model.data.corpus import heldout_words
from demo_model.metrics import RELATIONS
from demo_model.reading import read_pronoun
from demo_model.relations import LINKS
from ui import charts, figures, widgets
from ui.figures import RELATION_KEYS
from ui.gloss import token_names
from ui.lesson import deck
from ui.readings import TOLD
from ui.settings import Settings
from ui.sidebar import show_notices
from ui.state import frozen, lab_for
from ui.text import md_escape
from ui.text import t as text

EXAMPLES = (
    "小明把书放在了桌子上，然后他走了。",
    "那天，小丽在公园里看见了小刚，他很高兴。",
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
        r = read_pronoun(list(texts), w, heads, load_demo_model(step).vocab)
        frames.append(
            {
                "name": step,
                "title": frame_title(texts, r, step, t),
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


def reading_values(texts, r, t) -> dict:
    """What a reading's sentences are filled with: the pronoun, the head, its count on the
    human-written set, the two picks (repeats told apart: 了₁, 了₂)."""
    names = token_names(list(texts))
    fields = widgets.reading_fields(r, names.__getitem__, t)
    return fields | {"rel": _rel("pronoun_antecedent", t), "th": JOB_THRESHOLD}


def frame_title(texts, r, step: int, t) -> str:
    """A frame's title: the step, and what the pronoun head makes of the first 他/她/它 —
    a pick only when the core says it is an answer, else why not."""
    head = t("learned.frame_step", step=step)
    if r is None:
        return head
    v = reading_values(texts, r, t)
    if r.status == reading.ANSWER:
        return head + " · " + t("learned.frame_read", **v)
    if r.status == reading.UNDECIDED:
        return head + " · " + t("learned.frame_undecided", **v)
    if r.status == reading.NO_HEAD:
        return head + " · " + t("learned.frame_none", **v)
    return head + " · " + t("learned.frame_no_answer", **v, why=t(TOLD[r.status].why, **v))


def reading_line(texts, r, step: int, t) -> str:
    """The headline: whom the first 他/她/它 means, from the head that measurably does that job,
    told as the answer only when the core's reading says it is one."""
    if r is None:
        return t("learned.focus_no_pronoun")
    values = reading_values(texts, r, t).items()
    v = {k: md_escape(x) if isinstance(x, str) else x for k, x in values}
    return t(TOLD[r.status].learned, step=step, **v)


def heldout_counts() -> dict[str, int]:
    """How many words of each kind the held-out split holds out (demo_model.data.corpus: none of
    them occurs in training; tests/model/test_corpus.py checks it on the tokens)."""
    held = heldout_words()
    kinds = ("names", "people", "animals", "objects", "places", "modifiers", "verbs")
    counts = {kind: len(set(held[kind])) for kind in kinds}
    lexicon = {w for kind, words in held.items() if kind.startswith("lexicon") for w in words}
    return counts | {"lexicon": len(lexicon - {w for kind in kinds for w in held[kind]})}


def on_phone() -> bool:
    """True when the browser says it is a phone: one map per row then (one plotly figure holds
    every head, so its grid cannot follow the screen width by itself)."""
    agent = st.context.headers.get("User-Agent", "") if st.context.headers else ""
    return "Mobi" in agent


# ---- sections ------------------------------------------------------------------------------------


def controls(shared: str, t) -> str:
    """The sentence → a plain value. The step is the maps' own slider (one step control); √d_k
    and the causal mask are the sidebar's settings."""
    options = list(dict.fromkeys([shared, *EXAMPLES]))
    sentence = st.selectbox(t("learned.sentence"), options, key="learned_sentence")
    return sentence or shared


def maps_section(sentence: str, scale: bool, history: DemoHistory, s, t) -> None:
    """Every head's map, playable over all checkpoints by the chart's own slider and ▶ (each
    frame titled with that step's reading); the headline reads the final model."""
    st.header(t("learned.heads", h=history.config.num_heads))
    texts, weights = learned_runs(sentence, scale)
    step = int(history.steps[-1])
    r = read_pronoun(list(texts), weights[-1], describe_heads(step), load_demo_model().vocab)
    st.markdown(reading_line(texts, r, step, t))
    fig = maps_figure(sentence, scale, len(history.steps) - 1, s.lang, s.classroom, on_phone())
    charts.chart(fig, key="learned_maps", lang=s.lang)
    st.caption(t("learned.maps_caption", k=len(history.steps)))


def jobs_section(step: int, history: DemoHistory, s: Settings, t) -> None:
    """Per question, every head's held-out hit rate over training; when each head found its job."""
    st.header(t("learned.jobs"))
    st.markdown(t("learned.jobs_intro", th=JOB_THRESHOLD))
    onsets, final = job_onsets(), describe_heads()
    for head, at in zip(final, onsets, strict=True):
        if at is None:
            job = figures.job_text(head, t)
            st.markdown("- " + t("learned.found_none", head=head.head + 1, job=job))
            continue
        rel, hits, total = _rel(head.relation, t), head.hits, head.total
        line = t("learned.found", head=head.head + 1, step=at, rel=rel, hits=hits, total=total)
        st.markdown("- " + line)
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
    st.caption(t("learned.heldout_note", **heldout_counts()))


def table_section(step: int, history: DemoHistory, t) -> None:
    """What each head does at this step, in words and as the full head × relation table."""
    st.header(t("learned.what", step=step))
    for head in describe_heads(step):
        if head.relation == "diffuse":
            line = t("learned.head_diffuse", head=head.head + 1, job=figures.job_text(head, t))
        else:
            line = t(
                "learned.head_line", head=head.head + 1, rel=_rel(head.relation, t),
                hh=head.heldout_hits, ht=head.heldout_total, hits=head.hits, total=head.total,
            )  # fmt: skip
        st.markdown("- " + line)
    table = history.relations[history.at(step), :, :, 0]  # (heads, relations)
    frame = pd.DataFrame(
        np.round(100 * table).astype(int), columns=[_rel(r, t) + " %" for r in RELATIONS]
    )
    frame.insert(0, t("learned.col.job"), [_rel(h.relation, t) for h in describe_heads(step)])
    frame.insert(0, t("learned.col.head"), np.arange(1, len(table) + 1))
    st.table(frame, hide_index=True)  # every column shown, headers wrapped (never cut)
    st.caption(t("learned.table_note"))


s, t = widgets.open_page("learned.title")
deck.lesson_links("learned", s)  # its scenes, the sentence kept
try:
    history = load_demo_history()
except (OSError, KeyError, ValueError) as err:
    st.error(t("learned.missing", error=html.escape(str(err))))
    st.stop()
cfg = history.config
st.markdown(t("learned.intro", h=cfg.num_heads, d=cfg.d_model))
st.info(t("learned.weights_note"))
sentence = controls(s.sentence, t)
if not s.scale:
    st.caption(t("learned.noscale_note", r=np.sqrt(cfg.d_model // cfg.num_heads)))
if s.causal:
    st.caption(t("learned.causal_note"))
# The sentence as the pipeline takes it (cut to its limits, said so), in the UI's language.
lab, notices = lab_for(replace(s, sentence=sentence, weights="trained", mode="word", causal=False))
show_notices(notices, s.lang)
if lab is None:
    st.stop()
final = int(history.steps[-1])
maps_section(sentence, s.scale, history, s, t)
jobs_section(final, history, s, t)
curves_section(final, history, s, t)
table_section(final, history, t)
st.info(t("learned.try"))
