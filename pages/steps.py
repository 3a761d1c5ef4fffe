"""Step by step: X → Q, K, V → Q·Kᵀ → ÷√d_k → softmax → ·V, with one cell taken apart."""

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from attention_core.pipeline import Record
from ui import charts, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.state import Lab, focus_index
from ui.text import md_escape
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

LAST = 6  # steps ① … ⑦


def skeleton(f: Record) -> list[tuple[int, str]]:
    """The numpy of the page as (step, line), true for the settings in force."""
    x = {
        "trained": "X = model.inputs(tokens)                # (n, d_model) tags, words, positions",
        True: "X = embed(tokens) + positions(n, d_model)  # (n, d_model)",
        False: "X = embed(tokens)                       # (n, d_model)",
    }[f.source if f.source == "trained" else f.pos]
    scale = (
        "scaled = scores / np.sqrt(d_k)          # (h, n, n)"
        if f.scale
        else "scaled = scores                         # (h, n, n) no 1/√d_k"
    )
    mask = (
        "scaled = np.where(causal_mask(n), scaled, -np.inf)  # j > i → −∞: weight 0"
        if f.causal
        else "# no causal mask: every row sees all n keys"
    )
    return [
        (0, x),
        (1, "Q, K, V = X @ W_Q, X @ W_K, X @ W_V     # (n, d_model) → h heads of (n, d_k)"),
        (2, "scores = Q @ K.swapaxes(-1, -2)         # (h, n, n)"),
        (3, scale),
        (4, mask),
        (4, "weights = softmax(scaled, axis=-1)      # (h, n, n), every row sums to 1"),
        (5, "out = weights @ V                       # (h, n, d_k)"),
        (6, "output = concat(out) @ W_O              # (n, d_model)"),
    ]


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
    return t("steps.name3_off") if step == 3 and not f.scale else t(f"steps.name{step}")


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
    return f"steps.say{step}"


def _move(delta: int) -> None:
    st.session_state["steps_step"] = min(LAST, max(0, st.session_state["steps_step"] + delta))


def step_nav(f: Record, t) -> int:
    """Previous / next buttons and a step picker; returns the current step."""
    st.session_state.setdefault("steps_step", 0)
    left, mid, right = st.columns([1, 4, 1])
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


def step_figures(run: Lab, step: int, head: int, f: Record, s: Settings, t) -> list:
    """The heatmap(s) of one step for one head."""
    fs, tok, nums = teach.font_size(s), list(run.texts), s.numbers
    hd, mha = run.result.heads, run.result
    dims = lambda m: [str(i) for i in range(m.shape[-1])]  # noqa: E731
    hm = partial(ft.matrix_heatmap, font_size=fs, show_numbers=nums)
    axes = {"x_title": t("main.key_axis"), "y_title": t("main.query_axis")}
    if step == 0:
        return [hm(run.x, tok, dims(run.x), title="X")]
    if step == 1:
        return [hm(getattr(mha, n)[head], tok, dims(mha.q), title=f"{n.upper()} = X·W_{n.upper()}")
                for n in "qkv"]  # fmt: skip
    if step in (2, 3):
        zmax = float(np.abs(hd.scores[head]).max())  # one colour scale for before and after
        m = hd.scores[head] if step == 2 else hd.scaled[head]
        return [hm(m, tok, tok, title=step_name(step, f, t), zmax=zmax, **axes)]
    if step == 4:
        labels = teach.weight_map_labels(t)
        return [hm(hd.weights[head], tok, tok, title=step_name(4, f, t), weights=True, **labels)]
    if step == 5:
        return [hm(hd.output[head], tok, dims(hd.output), title=t("steps.name5"))]
    return [hm(mha.output, tok, dims(mha.output), title=t("steps.name6"))]


def show_step(run: Lab, step: int, head: int, f: Record, s: Settings, t) -> None:
    st.latex(formula(step, f))
    st.caption(t(caption_key(step, f), d_k=f.d_k, n=len(run.texts)))
    figs = step_figures(run, step, head, f, s, t)
    for k, (col, fig) in enumerate(zip(st.columns(len(figs)), figs, strict=True)):
        charts.chart(fig, key=f"steps_fig_{step}_{k}", lang=s.lang, where=col)
    skipped = step == 3 and not f.scale
    mark = "   # ◀ " + t("steps.skipped") if skipped else "   # ◀"
    code = [line + (mark if i == step else "") for i, line in skeleton(f)]
    st.code("\n".join(code), language="python")


def pick_cell(run: Lab, s: Settings, t) -> tuple[int, int, int]:
    """Query i (the main page's focus, default 他), key j and a second key to compare with."""
    c1, c2, c3 = st.columns(3)
    start = focus_index(run.texts, s.focus)
    i = teach.token_picker(c1, t("steps.query"), run, "steps_i", start)
    a, b = teach.default_keys(run.texts, run.result.heads.weights.mean(0)[i], i)
    j = teach.token_picker(c2, t("steps.key"), run, "steps_j", a)
    j2 = teach.token_picker(c3, t("steps.key2"), run, "steps_j2", b)
    return i, j, j2


def drill_down(run: Lab, head: int, i: int, j: int, f: Record, t) -> None:
    """One cell (i, j) taken apart into the actual numbers."""
    b = teach.cell_breakdown(run, head, i, j)
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
            rf"e^{{s' - \max}} = e^{{{b['scaled']:.3f} - {b['peak']:.3f}}} = {b['exp']:.4f},\quad "
            rf"w_{{ij}} = \frac{{{b['exp']:.4f}}}{{\sum = {b['total']:.4f}}} = {b['weight']:.4f}"
        )
    st.caption(t("steps.check", row_sum=float(run.result.heads.weights[head, i].sum())))


def compare(run: Lab, head: int, i: int, keys: tuple[int, int], f: Record, s: Settings, t):
    """q_i against two keys, dimension by dimension: the sums that decide the weights."""
    st.subheader(t("steps.compare"))
    parts = teach.compare_keys(run, head, i, keys)
    q, (a, b) = run.texts[i], (run.texts[j] for j in keys)
    series = {t("steps.prod_name", q=q, k=run.texts[p["j"]], s=p["sum"]): p["prod"] for p in parts}
    dims = [str(d) for d in range(len(parts[0]["prod"]))]
    fig = ft.grouped_bars(dims, series, title=t("steps.prod_title", h=head + 1),
                          x_title=t("steps.dim"), y_title="q_d × k_d",
                          font_size=teach.font_size(s))  # fmt: skip
    charts.chart(fig, key="steps_compare", lang=s.lang)
    sa, sb, wa, wb = parts[0]["sum"], parts[1]["sum"], parts[0]["weight"], parts[1]["weight"]
    fmt = {"q": md_escape(q), "a": md_escape(a), "b": md_escape(b), "h": head + 1}
    st.markdown(t("steps.compare_say", sa=sa, sb=sb, wa=wa, wb=wb, **fmt))
    if f.source != "trained":
        st.caption(t("steps.random_compare"))
        return
    before = teach.untrained_sums(s.sentence, head, i, keys)
    if before is not None:
        d0, d1 = before[0] - before[1], sa - sb
        key = "steps.trained_grew" if d1 > d0 and wa > wb else "steps.trained_not"
        st.markdown(t(key, step0=0, a0=before[0], b0=before[1], d0=d0, d1=d1, **fmt))


def head_picker(run: Lab, f: Record, s: Settings, t) -> int:
    """The head to show; with trained weights it starts on the head where the focus token looks
    hardest at the first compared key (measured here, never a fixed number)."""
    if st.session_state.get("_steps_head_source") != f.source:
        st.session_state["_steps_head_source"] = f.source
        i = focus_index(run.texts, s.focus)
        j, _ = teach.default_keys(run.texts, run.result.heads.weights.mean(0)[i], i)
        st.session_state["steps_head"] = teach.best_head(run, i, j) if f.source == "trained" else 0
    if st.session_state.get("steps_head", 0) >= f.heads:
        st.session_state["steps_head"] = 0
    return st.selectbox(
        t("steps.head"),
        range(f.heads),
        key="steps_head",
        format_func=lambda h: t("teach.head", h=h + 1),
    )


def why_attention_won(run: Lab, f: Record, t) -> None:
    """The article's closing: differentiable everywhere, and every row at once."""
    st.header(t("steps.why"))
    st.markdown(t("steps.why1"))
    st.markdown(t("steps.why2", n=len(run.texts), d_k=f.d_k))


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("steps.title"))
    st.markdown(t("steps.intro"))
    run = teach.followed_lab(s, t)
    f = run.record  # what the numbers were computed with
    head = head_picker(run, f, s, t)
    st.header(t("steps.walk"))
    step = step_nav(f, t)
    show_step(run, step, head, f, s, t)
    st.info(t("steps.try") if f.scale else t("steps.try_off"))
    st.header(t("steps.drill"))
    i, j, j2 = pick_cell(run, s, t)
    drill_down(run, head, i, j, f, t)
    compare(run, head, i, (j, j2), f, s, t)
    why_attention_won(run, f, t)


main()
