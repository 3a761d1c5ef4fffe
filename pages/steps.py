"""Step by step: X → Q, K, V → Q·Kᵀ → ÷√d_k → softmax → ·V, with one cell taken apart."""

import ast
import inspect
import textwrap
from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import experiments as ex
from attention_core.pipeline import Record
from ui import charts, figures, widgets
from ui.gloss import named
from ui.settings import Settings
from ui.state import TRAINED, Lab, focus_index
from ui.text import md_escape

LAST = 6  # steps ① … ⑦
UNIT_VARIANCE = (0.5, 2.0)  # a scaled variance in here is "about 1", as the article says
CIRCLED = "①②③④⑤⑥⑦"
NAMES = (
    "steps.name0",
    "steps.name1",
    "steps.name2",
    "steps.name3",
    "steps.name4",
    "steps.name5",
    "steps.name6",
)
SAYS = (
    "steps.say0",
    "steps.say1",
    "steps.say2",
    "steps.say3",
    "steps.say4",
    "steps.say5",
    "steps.say6",
)


# ---- the code: the core's own walk, the lines of switches that are off left out ----------------


def _lines(nodes: list, src: list[str], flags: dict, indent: int) -> list[tuple[str, str]]:
    """(line, "" or the flag that skipped it) for statements `nodes` of `src`, `if flag:` blocks
    kept (without their `if`) or left out by `flags` (None: left out without a word); returns
    are left out."""
    out = []
    for node in nodes:
        if isinstance(node, ast.Return):
            continue
        name = getattr(getattr(node, "test", None), "id", None)
        if isinstance(node, ast.If) and name in flags:
            body = node.body if flags[name] else node.orelse
            out += _lines(body, src, flags, indent + 4)
            if flags[name] is False and not node.orelse:  # a step skipped: say so where it was
                step = src[node.body[0].lineno - 1].split("#")[1].strip()[:1]
                out.append((f"# {step} {name}=False", name))
            continue
        out += [(line[indent:], "") for line in src[node.lineno - 1 : node.end_lineno]]
    return out


def listing(f: Record) -> list[tuple[str, str]]:
    """attention_core.experiments.walk's real source (inspect), specialised to the settings in
    force: (line, flag that skipped it or "")."""
    src = textwrap.dedent(inspect.getsource(ex.walk)).splitlines()
    body = ast.parse("\n".join(src)).body[0].body[1:]  # the docstring left out
    trained = f.source == "trained"  # its X holds its own positions
    flags = {"model": trained, "positions": None if trained else f.pos}
    return _lines(body, src, {**flags, "scale": f.scale, "causal": f.causal}, 4)


def show_code(step: int, f: Record, t) -> None:
    """The walk's lines, those of this step marked ◀ (a step left out entirely says so)."""
    lines, mark = listing(f), f"# {CIRCLED[step]}"
    ran = any(mark in line for line, skipped in lines if not skipped)
    tail = "   # ◀" if ran else "   # ◀ " + t("steps.skipped")
    st.code(
        "\n".join(line + (tail if mark in line else "") for line, _ in lines), language="python"
    )


# ---- one step: its formula, what it did, its matrices ----------------------------------------


def formula(step: int, f: Record) -> str:
    """The LaTeX of one step, as computed under the settings in force."""
    if step == 3:
        return r"S' = \frac{QK^\top}{\sqrt{d_k}}" if f.scale else r"S' = S"
    if step == 4 and f.causal:
        return r"A = \mathrm{softmax}(S' + M),\quad M_{ij} = -\infty \text{ for } j > i"
    return (
        r"X \in \mathbb{R}^{n \times d_{model}}",
        r"Q = XW_Q,\quad K = XW_K,\quad V = XW_V",
        r"S = QK^\top",
        "",
        r"A = \mathrm{softmax}(S')",
        r"O = AV",
        r"\mathrm{Output} = \mathrm{Concat}(O_1,\dots,O_h)\,W_O",
    )[step]


def step_name(step: int, f: Record, t) -> str:
    return t("steps.name3_off") if step == 3 and not f.scale else t(NAMES[step])


def caption_key(step: int, f: Record) -> str:
    """The text key that says what this step did under the settings in force."""
    if step == 0:
        return {"trained": "steps.say0_trained", True: "steps.say0_pos", False: "steps.say0"}[
            "trained" if f.source == "trained" else f.pos
        ]
    if step == 3 and not f.scale:
        return "steps.say3_off"
    if step == 4 and f.causal:
        return "steps.say4_causal"
    return SAYS[step]


def _move(delta: int) -> None:
    st.session_state["steps_step"] = min(LAST, max(0, st.session_state["steps_step"] + delta))


def step_nav(f: Record, t) -> int:
    """Previous / next buttons and a step picker; returns the current step."""
    st.session_state.setdefault("steps_step", 0)
    left, mid, right = st.columns([1.3, 4, 1.1])  # "◀ Previous" whole in classroom type
    left.button(t("steps.prev"), key="steps_prev", on_click=_move, args=(-1,))
    right.button(t("steps.next"), key="steps_next", on_click=_move, args=(1,))
    names = [step_name(i, f, t) for i in range(LAST + 1)]
    mid.radio(
        t("steps.pick"),
        range(LAST + 1),
        format_func=lambda i: names[i],
        key="steps_step",
        horizontal=True,
        label_visibility="collapsed",
    )
    return st.session_state["steps_step"]


def step_figures(run: Lab, step: int, head: int, s: Settings, t) -> list:
    """The heatmap(s) of one step for one head: the weights, the scores before and after ÷√d_k
    on one colour scale, or the step's matrices side by side."""
    tok, hd, mha = run.texts, run.result.heads, run.result
    common = {"lang": s.lang, "classroom": s.classroom, "numbers": s.numbers}
    title = step_name(step, run.record, t)
    if step == 4:
        return [figures.attention_heatmap(hd.weights[head], tok, title=title, **common)]
    if step in (2, 3):
        m, zmax = (hd.scores, hd.scaled)[step - 2][head], float(np.abs(hd.scores[head]).max())
        axes = {"x_title": t("main.key_axis"), "y_title": t("main.query_axis")}
        return [figures.matrix_heatmap(m, tok, tok, title=title, zmax=zmax, **axes, **common)]
    shown = {  # step → (title, matrix) of each figure
        0: [("X", run.x)],
        1: [(f"{n.upper()} = X·W_{n.upper()}", getattr(mha, n)[head]) for n in "qkv"],
        5: [(t("steps.name5"), hd.output[head])],
        6: [(t("steps.name6"), mha.output)],
    }[step]
    return [figures.matrix_heatmap(m, tok, title=name, across=len(shown), **common)
            for name, m in shown]  # fmt: skip


def variance_say(run: Lab, head: int, t) -> str:
    """Step ④'s claim in the state in force: the variance of the head's scores before and
    after ÷√d_k, measured, and whether the scaled one is near 1 (the article's condition)."""
    hd, d_k = run.result.heads, run.record.d_k
    v_raw, v_scaled = float(np.var(hd.scores[head])), float(np.var(hd.scaled[head]))
    lo, hi = UNIT_VARIANCE
    key = "steps.say3_unit" if lo <= v_scaled <= hi else "steps.say3_far"
    return t(key, d_k=d_k, v_raw=v_raw, v_scaled=v_scaled, h=head + 1)


def show_step(run: Lab, step: int, head: int, s: Settings, t) -> None:
    f = run.record
    st.latex(formula(step, f))
    unit = t("unit.char") if f.mode == "char" else t("unit.word")  # 字 are not called 词
    st.caption(t(caption_key(step, f), d_k=f.d_k, n=len(run.texts), unit=unit))
    if step == 3 and f.scale:
        st.caption(variance_say(run, head, t))
    figs = step_figures(run, step, head, s, t)
    for k, (col, fig) in enumerate(zip(st.columns(len(figs)), figs, strict=True)):
        charts.chart(fig, key=f"steps_fig_{step}_{k}", lang=s.lang, where=col)
    show_code(step, f, t)


# ---- one cell taken apart, and q_i against two keys ---------------------------------------------


def head_picker(run: Lab, s: Settings, t) -> int:
    """The head to show; with trained weights it starts on the head where the focus token looks
    hardest at the first compared key (measured here, never a fixed number)."""
    f = run.record
    if st.session_state.get("_steps_head_source") != f.source:
        st.session_state["_steps_head_source"] = f.source
        i = focus_index(run.texts, s.focus)
        j, _ = ex.default_keys(run.texts, run.result.heads.weights.mean(0)[i], i)
        st.session_state["steps_head"] = ex.best_head(run, i, j) if f.source == "trained" else 0
    return widgets.head_picker(st, f.heads, "steps_head", t)


def pick_cell(run: Lab, s: Settings, t) -> tuple[int, int, int]:
    """Query i (the main page's focus, default 他), key j and a second key to compare with."""
    c1, c2, c3 = st.columns(3)
    i = widgets.token_picker(
        c1, t("steps.query"), run.texts, "steps_i", focus_index(run.texts, s.focus), s.lang
    )
    a, b = ex.default_keys(run.texts, run.result.heads.weights.mean(0)[i], i)
    j = widgets.token_picker(c2, t("steps.key"), run.texts, "steps_j", a, s.lang)
    j2 = widgets.token_picker(c3, t("steps.key2"), run.texts, "steps_j2", b, s.lang)
    return i, j, j2


def signed(x: float) -> str:
    """A number to subtract in LaTeX: −1.756 in brackets, so "a − (−1.756)", never "a - -1.756"."""
    return f"({x:.3f})" if x < 0 else f"{x:.3f}"


def drill_down(run: Lab, head: int, i: int, j: int, t) -> None:
    """One cell (i, j) taken apart into the actual numbers."""
    b, f = ex.cell_breakdown(run, head, i, j), run.record
    table = pd.DataFrame({"q_i": b["q"], "k_j": b["k"], "q_i × k_j": b["prod"]})
    st.dataframe(table.round(4), key="steps_table", height=min(400, 38 + 35 * len(table)))
    scale = rf"\div\sqrt{{{b['d_k']}}}" if f.scale else ""  # step ④ skipped: s' = s
    st.latex(
        rf"s = \sum_d q_{{i,d}}k_{{j,d}} = {b['score']:.4f},\quad s' = s{scale} = {b['scaled']:.4f}"
    )
    if f.causal and j > i:  # a masked key: −∞ before the softmax
        st.latex(r"s' \to -\infty\;(j > i),\quad w_{ij} = e^{-\infty} = 0")
    else:
        st.latex(
            rf"e^{{s' - \max}} = e^{{{b['scaled']:.3f} - {signed(b['peak'])}}} = {b['exp']:.4f},"
            r"\quad "
            rf"w_{{ij}} = \frac{{{b['exp']:.4f}}}{{\sum = {b['total']:.4f}}} = {b['weight']:.4f}"
        )
    st.caption(t("steps.check", row_sum=float(run.result.heads.weights[head, i].sum())))
    if len(run.texts) == 1:  # nothing to share out: say why the weight is 1
        st.caption(t("steps.one_key"))


def compare(run: Lab, head: int, i: int, keys: tuple[int, int], s: Settings, t) -> None:
    """q_i against two keys, dimension by dimension: the sums that decide the weights."""
    st.subheader(t("steps.compare"))
    if keys[0] == keys[1]:  # one token, or the same key twice: nothing to compare
        st.caption(t("steps.compare_one" if len(run.texts) == 1 else "steps.compare_same"))
        return
    parts = ex.compare_keys(run, head, i, keys)
    name = partial(named, run.texts, lang=s.lang)  # 他 (he) in English, 了₁ and 了₂ told apart
    series = {t("steps.prod_name", q=name(i), k=name(p["j"]), s=p["sum"]): p["prod"] for p in parts}
    dims = [str(d) for d in range(len(parts[0]["prod"]))]
    fig = figures.grouped_bars(
        dims,
        series,
        title=t("steps.prod_title", h=head + 1),
        x_title=t("steps.dim"),
        y_title="q_d × k_d",
        classroom=s.classroom,
    )
    charts.chart(fig, key="steps_compare", lang=s.lang)
    sa, sb, wa, wb = parts[0]["sum"], parts[1]["sum"], parts[0]["weight"], parts[1]["weight"]
    fmt = {"q": md_escape(name(i)), "a": md_escape(name(keys[0])), "b": md_escape(name(keys[1]))}
    st.markdown(t("steps.compare_say", sa=sa, sb=sb, wa=wa, wb=wb, h=head + 1, **fmt))
    if run.source != "trained":
        st.caption(t("steps.random_compare") + side_note(s, t))
        return
    before = ex.untrained_sums(s.sentence, head, i, keys, TRAINED)
    if before is not None:
        d0, d1 = before[0] - before[1], sa - sb
        key = "steps.trained_grew" if d1 > d0 and wa > wb else "steps.trained_not"
        st.markdown(t(key, step0=0, a0=before[0], b0=before[1], d0=d0, d1=d1, **fmt))


def side_note(s: Settings, t) -> str:
    """A sentence after a tip that sends the reader to the sidebar: in classroom mode (which may
    start with the sidebar collapsed) how to open it."""
    return " " + t("steps.side_class") if s.classroom else ""


s, t = widgets.open_page("steps.title", "steps.intro")
run = widgets.followed_lab(s, t)
head = head_picker(run, s, t)
st.header(t("steps.walk"))
step = step_nav(run.record, t)
show_step(run, step, head, s, t)
st.info((t("steps.try") if run.record.scale else t("steps.try_off")) + side_note(s, t))
st.header(t("steps.drill"))
i, j, j2 = pick_cell(run, s, t)
drill_down(run, head, i, j, t)
compare(run, head, i, (j, j2), s, t)
st.header(t("steps.why"))  # the article's closing: differentiable everywhere, every row at once
st.markdown(t("steps.why1"))
st.markdown(t("steps.why2", n=len(run.texts), d_k=run.record.d_k))
