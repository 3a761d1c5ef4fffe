"""The learned page's curves: loss, accuracy and each head's job over training, the step marked;
the words for a head's measured job (its played maps: ui/figures/played.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.figures.base import esc, figure, fonts, head_colour, layout, legend_below, plot_room, vline
from ui.gloss import SUPERSCRIPTS, written_in
from ui.palette import INK

CHANCE = "#666666"  # chance levels: grey, dashed (≥ 5.7 : 1 on white)
RELATION_KEYS = {  # a head's measured job → its name in the text tables
    "pronoun_antecedent": "learned.rel.pronoun_antecedent",
    "modifier_noun": "learned.rel.modifier_noun",
    "verb_subject": "learned.rel.verb_subject",
    "previous": "learned.rel.previous",
    "self": "learned.rel.self",
    "diffuse": "learned.rel.diffuse",
}
# A head without a job "leans" towards a kind of word when it gives it at least this many times
# the share an even spread would (a display rule: below it, the title says the weight is spread).
LEAN = 1.5
PROFILE_KEYS = {  # where a head without a job puts its weight (demo_model.metrics.PROFILES)
    "self": "learned.profile.self",
    "previous": "learned.profile.previous",
    "next": "learned.profile.next",
    "first": "learned.profile.first",
    "punctuation": "learned.profile.punctuation",
    "people": "learned.profile.people",
    "nouns": "learned.profile.nouns",
    "verbs": "learned.profile.verbs",
}


def job_text(summary, t) -> str:
    """ "代词 → 所指的人 · 测试句答对 64/76" from a measured HeadSummary (demo_model.demo):
    the count is of the questions people wrote (the human-written set), never a weight. A head
    below the job threshold says where its weight measurably goes instead. t: text lookup."""
    rel = t(RELATION_KEYS[summary.relation])
    if summary.relation != "diffuse":
        return t("learned.job_pct", rel=rel, hits=summary.hits, total=summary.total)
    if summary.profile not in PROFILE_KEYS or summary.profile_share < LEAN * summary.profile_chance:
        return t("learned.job_spread", rel=rel)
    where = t(PROFILE_KEYS[summary.profile])
    share, chance = summary.profile_share, summary.profile_chance
    return t("learned.job_diffuse", rel=rel, where=where, share=share, chance=chance)


def head_job_label(summary, t) -> str:
    """ "头 1 · 代词 → 所指的人 · 96%" (or "头 2 · 没有明确分工"): a head map's title."""
    return t("learned.head_label", head=summary.head + 1, job=job_text(summary, t))


# ---- curves against the training step -------------------------------------------------------


def _marked(traces: list, step: int, title: str, t, classroom: bool, y_axis=None, across=1):
    """Line traces against the training step with the current step marked, legend below;
    `across` charts share the row."""
    size = fonts(classroom)
    height = 300 + int(1.5 * size["title"]) + int(2.8 * size["base"])
    x_axis = {"title": {"text": esc(t("learned.x_step")), "standoff": 4}, "tickangle": 0}
    x_axis["nticks"] = max(2, plot_room(classroom, across) // (4 * size["base"]))  # ~4 digits
    lay = layout(title, height, classroom, across, xaxis=x_axis, yaxis=y_axis or {})
    lay.update(vline(step, color="#d62728"))
    note = {"x": step, "y": 1, "yref": "paper", "text": esc(t("learned.now")), "showarrow": False}
    lay["annotations"] = [{**note, "yanchor": "bottom", "font": {"size": size["base"]}}]
    data = [{"type": "scatter", "mode": "lines", **tr, "name": esc(tr["name"])} for tr in traces]
    legend_below(lay, data, classroom, across)
    return figure(data, lay)


def loss_figure(losses, eval_steps, heldout_loss, step, t, classroom=False, across=1) -> go.Figure:
    """Training loss per update, its moving average, held-out loss where measured, a marker."""
    x = np.arange(1, len(losses) + 1)
    window = max(1, len(losses) // 40)
    smooth = np.convolve(losses, np.ones(window) / window, mode="valid")  # (steps-window+1,)
    traces = [
        {
            "x": x,
            "y": losses,
            "name": t("learned.loss_train"),
            "line": {"width": 1, "color": head_colour(0)},
            "opacity": 0.35,
        },
        {
            "x": x[window - 1 :],
            "y": smooth,
            "name": t("learned.loss_smooth"),
            "line": {"color": head_colour(0)},
        },
        {
            "x": eval_steps,
            "y": heldout_loss,
            "name": t("learned.loss_heldout"),
            "line": {"color": head_colour(1)},
        },
    ]
    return _marked(traces, step, t("learned.loss"), t, classroom, across=across)


def accuracy_figure(
    eval_steps,
    heldout: dict,
    step,
    rel_names: Sequence[str],
    heads: int,
    t,
    classroom=False,
    across=1,
) -> go.Figure:
    """Each question's read-out accuracy, the rate at which some head's largest weight is on
    the right word, and the two chance levels (each labelled with what it is), a marker."""
    traces = [
        {
            "x": eval_steps,
            "y": heldout["readout_acc"][:, r],
            "name": t("learned.acc_readout_rel", rel=name),
            "line": {"color": head_colour(r)},
        }
        for r, name in enumerate(rel_names)
    ]
    mean = {
        k: heldout[k].mean(axis=1) for k in ("any_head_acc", "readout_chance", "any_head_chance")
    }
    any_chance = t("learned.chance_any", h=heads, sup=written_in(heads, SUPERSCRIPTS))
    black = INK["mark_outer"]
    traces += [
        {
            "x": eval_steps,
            "y": mean["any_head_acc"],
            "name": t("learned.acc_any"),
            "line": {"color": black, "dash": "dot"},
        },
        {
            "x": eval_steps,
            "y": mean["readout_chance"],
            "name": t("learned.chance_readout"),
            "line": {"color": CHANCE, "dash": "dash"},
        },
        {
            "x": eval_steps,
            "y": mean["any_head_chance"],
            "name": any_chance,
            "line": {"color": black, "dash": "dash"},
        },
    ]
    y_axis = {"range": [0, 1.02], "tickformat": ".0%"}
    return _marked(traces, step, t("learned.acc_title"), t, classroom, y_axis, across)


def job_curves_figure(
    eval_steps,
    accuracy: np.ndarray,
    chance: np.ndarray,
    onsets: Sequence[int | None],
    step: int,
    *,
    title: str,
    t,
    classroom: bool = False,
    across: int = 1,
) -> go.Figure:
    """One relation: each head's held-out hit rate (accuracy (E, h)) against training step, the
    one-head chance level, a ★ where a head found this job (onsets[head], None if it did not)."""
    traces = [
        {
            "x": eval_steps,
            "y": accuracy[:, head],
            "name": t("teach.head", h=head + 1),
            "line": {"color": head_colour(head)},
        }
        for head in range(accuracy.shape[1])
    ]
    traces.append(
        {
            "x": eval_steps,
            "y": chance,
            "name": t("learned.head_chance"),
            "line": {"color": CHANCE, "dash": "dash"},
        }
    )
    traces += _stars(eval_steps, accuracy, onsets, t, fonts(classroom)["base"])
    y_axis = {"range": [0, 1.02], "tickformat": ".0%"}
    y_axis["title"] = {"text": esc(t("learned.head_acc_axis"))}
    return _marked(traces, step, title, t, classroom, y_axis, across)


def _stars(eval_steps, accuracy: np.ndarray, onsets, t, size: int) -> list:
    """A ★ per head that found this job, at the step it did (onsets[head], None: it did not)."""
    stars = []
    for head, at in enumerate(onsets):
        if at is None:
            continue
        k = int(np.nonzero(np.asarray(eval_steps) == at)[0][0])
        star = {"symbol": "star", "size": size + 2, "color": head_colour(head)}
        stars.append(
            {
                "x": [at],
                "y": [accuracy[k, head]],
                "mode": "markers",
                "marker": {**star, "line": {"color": INK["mark_outer"], "width": 1}},
                "name": t("learned.job_mark"),
                "showlegend": False,
                "hovertemplate": f"{esc(t('teach.head', h=head + 1))} · %{{x}}<extra></extra>",
            }
        )
    return stars
