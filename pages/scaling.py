"""Why 1/√d_k: var(q·k) grows like d_k, softmax saturates, its gradient vanishes; τ live."""

from functools import partial

import numpy as np
import streamlit as st

from attention_core import causal_mask, reweight
from attention_core.analysis import DEFAULT_D_KS, dk_sweep, qk_samples, qk_variance
from ui import charts, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

SAMPLES = 20_000  # Monte-Carlo pairs per d_k
RAW_SCALED = ("raw", "scaled")


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
    var = {
        "d_k": list(DEFAULT_D_KS),
        "raw": [v.raw_variance for v in var],
        "scaled": [v.scaled_variance for v in var],
    }
    sat = dk_sweep(DEFAULT_D_KS, seed=seed).as_dict()
    return var, sat


def variance_part(s: Settings, t, var: dict) -> None:
    """(a) one d_k's histogram, then var(q·k) against d_k beside var = d_k."""
    st.header(t("scaling.a"))
    d_k = st.select_slider(t("scaling.dk"), DEFAULT_D_KS, value=64, key="scaling_dk")
    est = variance(d_k, s.seed)
    raw = dots(d_k, s.seed)  # the draws qk_variance summarises
    scaled = raw / np.sqrt(d_k)
    c1, c2 = st.columns(2)
    c1.metric(t("scaling.var_raw"), f"{est.raw_variance:.1f}")
    c2.metric(t("scaling.var_scaled"), f"{est.scaled_variance:.3f}")
    names = (t("scaling.raw"), t("scaling.scaled"))
    fs = teach.font_size(s)
    fig = ft.histogram_pair(
        raw, scaled, names=names, title=t("scaling.hist", d_k=d_k), font_size=fs
    )
    charts.chart(fig, key="scaling_hist", lang=s.lang)
    series = {names[0]: var["raw"], names[1]: var["scaled"], "var = d_k": var["d_k"]}
    fig = ft.sweep_lines(
        var["d_k"],
        series,
        title=t("scaling.var_title"),
        x_title="d_k",
        y_title="var(q·k)",
        log_y=True,
        dashed=("var = d_k",),
        font_size=fs,
    )
    charts.chart(fig, key="scaling_var", lang=s.lang)


def saturation_part(s: Settings, t, sat: dict) -> None:
    """(b) max weight and entropy against d_k."""
    st.header(t("scaling.b"))
    names = {"scaled": t("scaling.scaled_w"), "raw": t("scaling.raw_w")}
    fs, x = teach.font_size(s), sat["d_k"]
    c1, c2 = st.columns(2)
    for col, key, field in ((c1, "max", "max_weight"), (c2, "entropy", "entropy")):
        series = {names[m]: sat[f"{field}_{m}"] for m in names}
        fig = ft.sweep_lines(
            x,
            series,
            title=t(f"scaling.{key}", n=sat["n_keys"]),
            x_title="d_k",
            y_title=t(f"scaling.{key}_y"),
            font_size=fs,
        )
        charts.chart(fig, key=f"scaling_{key}", lang=s.lang, where=col)


def gradient_part(s: Settings, t, sat: dict) -> None:
    """(c) the softmax Jacobian's norm against d_k: median (what most rows get) and mean."""
    st.header(t("scaling.c"))
    stats = (("med", "jacobian_median"), ("mean", "jacobian"))  # (text key part, sweep field)
    series = {t(f"scaling.{k}_{m}"): sat[f"{field}_{m}"] for k, field in stats for m in RAW_SCALED}
    fig = ft.sweep_lines(
        sat["d_k"],
        series,
        title=t("scaling.jac"),
        x_title="d_k",
        y_title="‖∂softmax/∂z‖_F",
        log_y=True,
        dashed=(t("scaling.mean_raw"), t("scaling.mean_scaled")),
        colours={t(f"scaling.{k}_{m}"): c for k, _ in stats for c, m in enumerate(RAW_SCALED)},
        font_size=teach.font_size(s),
    )
    charts.chart(fig, key="scaling_jac", lang=s.lang)
    last = {k: v[-1] for k, v in sat.items() if isinstance(v, list)}
    st.caption(
        t(
            "scaling.jac_say",
            d_k=last["d_k"],
            med_raw=last["jacobian_median_raw"],
            small=last["jacobian_small_raw"],
            mean_raw=last["jacobian_raw"],
            med_scaled=last["jacobian_median_scaled"],
            gq_raw=last["grad_q_median_raw"],
            gq_scaled=last["grad_q_median_scaled"],
        )
    )


def temperature_part(s: Settings, t) -> None:
    """(d) softmax(Q·Kᵀ/τ) for the sentence (the sidebar's weights and mask), τ = √d_k marked."""
    st.header(t("scaling.d"))
    run = teach.followed_lab(s, t, scale=False)
    f = run.record  # what the numbers were computed with
    st.caption(t("scaling.tau_note"))
    scores, root = run.result.heads.scores[0], float(np.sqrt(f.d_k))
    taus = [float(x) for x in np.geomspace(0.1, 20 * root, 40)]
    hi = float(round(20 * root, 1))
    if not 0.1 <= st.session_state.get("scaling_tau", root) <= hi:  # d_k changed under it
        st.session_state["scaling_tau"] = float(round(root, 2))
    tau = st.slider("τ", 0.1, hi, float(round(root, 2)), 0.05, key="scaling_tau")
    fs, tok = teach.font_size(s), list(run.texts)
    model = t(f"teach.src.{f.source}", seed=f.seed, step=f.step)
    fig = ft.matrix_heatmap(
        reweight(scores, tau, causal_mask(len(tok)) if f.causal else None),  # (n, n)
        tok,
        tok,
        title=t("scaling.tau_map", tau=tau, model=model),
        weights=True,
        font_size=fs,
        show_numbers=s.numbers,
        **teach.weight_map_labels(t),
    )
    charts.chart(fig, key="scaling_tau_map", lang=s.lang)
    stats = teach.temperature_row_stats(scores, taus, f.causal)
    n = len(tok)
    max_name = t("scaling.tau_max_causal" if f.causal else "scaling.tau_max", n=n)
    fig = ft.sweep_lines(
        taus,
        {t("scaling.tau_entropy"): stats["entropy"]},
        title=t("scaling.tau_curve"),
        x_title="τ",
        y_title=t("scaling.entropy_axis"),
        vline=(root, f"√d_k = {root:.2f}"),
        mark=tau,
        font_size=fs,
        right={max_name: stats["max"]},
        right_title=t("scaling.max_axis"),
        right_range=(0, 1.05),
    )
    charts.chart(fig, key="scaling_tau_curve", lang=s.lang)


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("scaling.title"))
    st.markdown(t("scaling.intro"))
    # st.spinner, not st.status: st.status sleeps 50 ms in every run to animate its box
    # (0.05 s of a ~0.15 s rerun); a spinner shows only if the sweep takes over half a second.
    with st.spinner(t("teach.computing")):
        var, sat = sweeps(s.seed)
    variance_part(s, t, var)
    saturation_part(s, t, sat)
    gradient_part(s, t, sat)
    temperature_part(s, t)
    st.info(t("scaling.try"))


main()
