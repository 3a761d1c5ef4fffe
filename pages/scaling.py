"""Why 1/√d_k: var(q·k) grows like d_k, softmax saturates, its gradient vanishes; τ live."""

import numpy as np
import streamlit as st

from attention_core import causal_mask, reweight
from attention_core.analysis import DEFAULT_D_KS, dk_sweep, qk_samples, qk_variance
from attention_core.experiments import temperature_row_stats
from ui import charts, figures, widgets
from ui.lesson import deck
from ui.settings import Settings

SAMPLES = 20_000  # Monte-Carlo pairs per d_k
ROWS = 512  # (b), (c): random query rows per d_k, each a softmax over its keys
SOURCES = {"random": "teach.src.random", "trained": "teach.src.trained"}  # lab.record.source
# (b): (chart key, text key of its title, of its y axis, the sweep's field); lines raw, scaled
SATURATION = (
    ("scaling_max", "scaling.max", "scaling.max_y", "max_weight"),
    ("scaling_entropy", "scaling.entropy", "scaling.entropy_y", "entropy"),
)
# (c): the softmax Jacobian's norm, (text key, sweep field), solid medians and dashed means
JACOBIAN = (
    ("scaling.med_raw", "jacobian_median_raw"),
    ("scaling.med_scaled", "jacobian_median_scaled"),
    ("scaling.mean_raw", "jacobian_raw"),
    ("scaling.mean_scaled", "jacobian_scaled"),
)

JAC_SAY = {  # the Jacobian caption's numbers → the sweep's fields at the largest d_k
    "med_raw": "jacobian_median_raw",
    "small": "jacobian_small_raw",
    "mean_raw": "jacobian_raw",
    "med_scaled": "jacobian_median_scaled",
    "gq_raw": "grad_q_median_raw",
    "gq_scaled": "grad_q_median_scaled",
}


@st.cache_data(max_entries=16, show_spinner=False)
def dots(d_k: int, seed: int) -> np.ndarray:
    return qk_samples(d_k, SAMPLES, seed)


@st.cache_data(max_entries=16, show_spinner=False)
def variance(d_k: int, seed: int):
    """qk_variance over the same seeded draws as dots(), once per (d_k, seed)."""
    return qk_variance(d_k, SAMPLES, seed)


@st.cache_data(max_entries=4, show_spinner=False)
def sweeps(seed: int) -> tuple[dict, dict]:
    """var(q·k) per d_k (Monte-Carlo) and the saturation sweep, both from attention_core."""
    var = [qk_variance(d, SAMPLES, seed) for d in DEFAULT_D_KS]
    raw, scaled = [v.raw_variance for v in var], [v.scaled_variance for v in var]
    sat = dk_sweep(DEFAULT_D_KS, trials=ROWS, seed=seed).as_dict()
    return {"d_k": list(DEFAULT_D_KS), "raw": raw, "scaled": scaled}, sat


def lines(s: Settings, key: str, where=None, **spec) -> None:
    """One line chart of this page against d_k (log axes where `spec` says)."""
    fig = figures.sweep_lines(x_title="d_k", classroom=s.classroom, **spec)
    charts.chart(fig, key=key, lang=s.lang, where=where)


def variance_part(s: Settings, t, var: dict) -> None:
    """(a) one d_k's histogram, then var(q·k) against d_k beside var = d_k."""
    st.header(t("scaling.a"))
    d_k = st.select_slider(t("scaling.dk"), DEFAULT_D_KS, value=64, key="scaling_dk")
    est, raw = variance(d_k, s.seed), dots(d_k, s.seed)  # raw: the draws qk_variance summarises
    c1, c2 = st.columns(2)
    c1.metric(t("scaling.var_raw"), f"{est.raw_variance:.1f}")
    c2.metric(t("scaling.var_scaled"), f"{est.scaled_variance:.3f}")
    names = (t("scaling.raw"), t("scaling.scaled"))
    title = t("scaling.hist", d_k=d_k)
    fig = figures.histogram_pair(
        raw, raw / np.sqrt(d_k), names=names, title=title, classroom=s.classroom
    )
    charts.chart(fig, key="scaling_hist", lang=s.lang)
    series = {names[0]: var["raw"], names[1]: var["scaled"], "var = d_k": var["d_k"]}
    lines(s, "scaling_var", x=var["d_k"], series=series, title=t("scaling.var_title"),
          y_title=t("scaling.var_y"), log_y=True, dashed=("var = d_k",))  # fmt: skip


def saturation_part(s: Settings, t, sat: dict) -> None:
    """(b) max weight and entropy against d_k, each the mean over ROWS random rows."""
    st.header(t("scaling.b"))
    for col, (key, title, y_title, field) in zip(st.columns(2), SATURATION, strict=True):
        series = {t("scaling.raw_w"): sat[f"{field}_raw"]}
        series[t("scaling.scaled_w")] = sat[f"{field}_scaled"]
        lines(s, key, col, x=sat["d_k"], series=series, title=t(title, n=sat["n_keys"], rows=ROWS),
              y_title=t(y_title), across=2)  # fmt: skip


def gradient_part(s: Settings, t, sat: dict) -> None:
    """(c) the softmax Jacobian's norm against d_k: median (what most rows get) and mean."""
    st.header(t("scaling.c"))
    series = {t(key): sat[field] for key, field in JACOBIAN}
    colours = {t(key): k % 2 for k, (key, _) in enumerate(JACOBIAN)}  # a mean beside its median
    lines(s, "scaling_jac", x=sat["d_k"], series=series, title=t("scaling.jac"),
          y_title="‖∂softmax/∂z‖_F", log_y=True, colours=colours,
          dashed=(t("scaling.mean_raw"), t("scaling.mean_scaled")))  # fmt: skip
    last = {k: v[-1] for k, v in sat.items() if isinstance(v, list)}
    said = {name: last[field] for name, field in JAC_SAY.items()}
    st.caption(t("scaling.jac_say", d_k=last["d_k"], **said))


def tau_slider(root: float) -> float:
    """τ from 0.1 to 20·√d_k, starting at √d_k (and back there when d_k changed under it)."""
    hi = float(round(20 * root, 1))
    if not 0.1 <= st.session_state.get("scaling_tau", root) <= hi:
        st.session_state["scaling_tau"] = float(round(root, 2))
    return st.slider("τ", 0.1, hi, float(round(root, 2)), 0.05, key="scaling_tau")


def temperature_part(s: Settings, t) -> None:
    """(d) softmax(Q·Kᵀ/τ) for the sentence (the sidebar's weights and mask), τ = √d_k marked."""
    st.header(t("scaling.d"))
    run = widgets.followed_lab(s, t, scale=False)
    f = run.record  # what the numbers were computed with
    st.caption(t("scaling.tau_note"))
    scores, root, n = run.result.heads.scores[0], float(np.sqrt(f.d_k)), len(run.texts)
    tau = tau_slider(root)
    model = t(SOURCES[f.source], seed=f.seed, step=f.step)
    weights = reweight(scores, tau, causal_mask(n) if f.causal else None)  # (n, n)
    title = t("scaling.tau_map", tau=tau, model=model)
    fig = figures.attention_heatmap(
        weights, run.texts, title=title, lang=s.lang, numbers=s.numbers, classroom=s.classroom
    )
    charts.chart(fig, key="scaling_tau_map", lang=s.lang)
    taus = [float(x) for x in np.geomspace(0.1, 20 * root, 40)]
    stats = temperature_row_stats(scores, taus, f.causal)
    max_name = t("scaling.tau_max_causal" if f.causal else "scaling.tau_max", n=n)
    fig = figures.sweep_lines(
        taus,
        {t("scaling.tau_entropy"): stats["entropy"]},
        title=t("scaling.tau_curve"),
        x_title="τ",
        y_title=t("scaling.entropy_axis"),
        vline=(root, f"√d_k = {root:.2f}"),
        mark=tau,
        classroom=s.classroom,
        right={max_name: stats["max"]},
        right_title=t("scaling.max_axis"),
        right_range=(0, 1.05),
    )
    charts.chart(fig, key="scaling_tau_curve", lang=s.lang)


s, t = widgets.open_page("scaling.title", "scaling.intro")
deck.lesson_links("scaling", s)  # its scenes, the sentence kept
# st.spinner, not st.status: st.status sleeps 50 ms in every run to animate its box
# (0.05 s of a ~0.15 s rerun); a spinner shows only if the sweep takes over half a second.
with st.spinner(t("teach.computing")):
    var, sat = sweeps(s.seed)
variance_part(s, t, var)
saturation_part(s, t, sat)
gradient_part(s, t, sat)
temperature_part(s, t)
st.info(t("scaling.try"))
