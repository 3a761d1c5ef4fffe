"""The n² cost: measured time and memory, plain vs tiled; words vs characters; the KV cache."""

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

from ui import charts, teach
from ui import figures_teach as ft
from ui.controls import Settings, current_settings
from ui.routing import ensure_router
from ui.text import t as text

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

KV_TS = (16, 32, 64, 128, 256)  # generated lengths of the KV-cache panel


@st.cache_data(max_entries=len(teach.FULL_NS), show_spinner=False)
def measured(n: int) -> dict[str, float]:
    return teach.measure_cost(n)


@st.cache_data(max_entries=len(KV_TS), show_spinner=False)
def measured_generation(t_len: int) -> dict[str, float]:
    return teach.measure_generation(t_len)


def run_sweep(ns: list[int], t) -> dict:
    """Measure every n with a progress bar; returns columns of results."""
    bar = st.progress(0.0, text=t("cost.running", n=ns[0]))
    rows = []
    for i, n in enumerate(ns):
        bar.progress(i / len(ns), text=t("cost.running", n=n))
        rows.append({"n": n, **measured(n)})
    bar.empty()
    return {key: [r[key] for r in rows] for key in rows[0]}


def slopes_of(res: dict) -> dict[str, float]:
    keys = ("plain_s", "tiled_s", "plain_bytes", "tiled_bytes")
    return {k: teach.fit_slope(res["n"], res[k], teach.FIT_FROM) for k in keys}


def fit_caption(ns: list[int], t) -> str:
    """What the slopes were fitted on: n ≥ FIT_FROM, or every point when too few qualify."""
    used = teach.fit_points(ns, teach.FIT_FROM)
    only_big = all(n >= teach.FIT_FROM for n, u in zip(ns, used, strict=True) if u)
    key = "cost.fit_say" if only_big else "cost.fit_say_all"
    return t(key, n=teach.FIT_FROM, k=int(used.sum()))


def memory_say(res: dict, slope: float, t) -> None:
    """What the memory figures say: plain ≈ PLAIN_COPIES n×n matrices, tiled O(n), not flat."""
    n, plain = res["n"][-1], res["plain_bytes"][-1]
    st.caption(t("cost.plain_say", n=n, mib=plain / 2**20, k=plain / (n * n * 4)))
    tiled = res["tiled_bytes"]
    st.caption(t("cost.tiled_say", slope=slope, d=teach.COST_D, n0=res["n"][0], n1=n,
                 m0=tiled[0] / 2**20, m1=tiled[-1] / 2**20))  # fmt: skip


def show_sweep(res: dict, s: Settings, t) -> None:
    """Slopes as metrics, two log-log charts, the doubling ratios and the table."""
    sl = slopes_of(res)
    cols = st.columns(4)
    for col, key in zip(cols, sl, strict=True):
        col.metric(t(f"cost.slope.{key}"), f"{sl[key]:.2f}")
    st.caption(fit_caption(res["n"], t))
    fs, names = teach.font_size(s), {"plain": t("cost.plain"), "tiled": t("cost.tiled")}
    c1, c2 = st.columns(2)
    for col, unit, scale, title in ((c1, "s", 1e3, "cost.time"), (c2, "bytes", 2**-20, "cost.mem")):
        series = {names[m]: np.asarray(res[f"{m}_{unit}"]) * scale for m in names}
        slopes = {names[m]: sl[f"{m}_{unit}"] for m in names}
        fig = ft.loglog_fit(
            res["n"], series, slopes, title=t(title), y_title=t(f"{title}_y"), font_size=fs
        )
        charts.chart(fig, key=f"cost_{unit}", lang=s.lang, where=col)
    fitted = teach.fit_points(res["n"], teach.FIT_FROM)  # the doublings the slopes use
    big = {k: [v for v, keep in zip(res[k], fitted, strict=True) if keep] for k in res}
    ratio_t = teach.doubling_ratios(big["n"], big["plain_s"])
    ratio_m = teach.doubling_ratios(big["n"], big["plain_bytes"])
    if ratio_m and ratio_t:
        st.success(
            t(
                "cost.double",
                mem=float(np.median(ratio_m)),
                time=float(np.median(ratio_t)),
                n=min(big["n"]),
                last_n=res["n"][-1],
                mem_last=ratio_m[-1],
            )
        )
    memory_say(res, sl["tiled_bytes"], t)
    table = pd.DataFrame(res)
    table["plain_bytes"] = (table["plain_bytes"] / 2**20).round(2)
    table["tiled_bytes"] = (table["tiled_bytes"] / 2**20).round(2)
    st.dataframe(
        table.rename(columns=lambda c: t(f"cost.col.{c}")), key="cost_table", hide_index=True
    )


def sweep_part(s: Settings, t) -> None:
    st.header(t("cost.measure"))
    lo, hi = st.select_slider(t("cost.range"), teach.FULL_NS, value=(64, 2048), key="cost_range")
    ns = [n for n in teach.FULL_NS if lo <= n <= hi]
    if len(ns) < 2:
        st.warning(t("cost.need_two"))
        return
    if hi > 2048:
        st.caption(t("cost.big", n=hi, mib=teach.plain_bytes(hi) / 2**20))
    st.caption(t("cost.timed"))
    if st.button(t("cost.run"), key="cost_run", type="primary"):
        st.session_state["cost_results"] = run_sweep(ns, t)
    res = st.session_state.get("cost_results")
    if res is None:
        st.caption(t("cost.press"))
        return
    show_sweep(res, s, t)


def cells_part(s: Settings, t) -> None:
    st.header(t("cost.cells"))
    c = teach.cell_counts(s.sentence)
    if not c["word_n"]:
        st.warning(t("cost.cells_empty"))
    c1, c2 = st.columns(2)
    c1.metric(t("cost.words", n=c["word_n"]), f"{c['word_cells']:,}")
    c2.metric(t("cost.chars", n=c["char_n"]), f"{c['char_cells']:,}")
    if c["word_cells"]:
        st.caption(t("cost.cells_say", ratio=c["char_cells"] / c["word_cells"]))


def kv_part(s: Settings, t) -> None:
    st.header(t("cost.kv"))
    st.markdown(t("cost.kv_intro"))
    if st.button(t("cost.kv_run"), key="cost_kv_run"):
        bar, rows = st.progress(0.0), []
        for i, t_len in enumerate(KV_TS):
            bar.progress(i / len(KV_TS), text=t("cost.running_t", t_len=t_len))
            rows.append({"t": t_len, **measured_generation(t_len)})
        bar.empty()
        st.session_state["cost_kv"] = {key: [r[key] for r in rows] for key in rows[0]}
    res = st.session_state.get("cost_kv")
    if res is None:
        return
    names = {"nocache": t("cost.nocache"), "kvonly": t("cost.kvonly"), "cache": t("cost.cache")}
    series = {names[m]: np.asarray(res[f"{m}_s"]) * 1e3 for m in names}  # fastest of repeats
    slopes = {names[m]: teach.fit_slope(res["t"], res[f"{m}_s"], teach.KV_FIT_FROM) for m in names}
    fig = ft.loglog_fit(
        res["t"],
        series,
        slopes,
        title=t("cost.kv_time"),
        x_title="t",
        y_title=t("cost.time_y"),
        font_size=teach.font_size(s),
    )
    charts.chart(fig, key="cost_kv_fig", lang=s.lang)
    st.caption(
        t(
            "cost.kv_say",
            t_len=res["t"][-1],
            ratio=res["nocache_flops"][-1] / res["cache_flops"][-1],
            speed=res["nocache_s"][-1] / res["cache_s"][-1],
            ratio_kv=res["kvonly_flops"][-1] / res["cache_flops"][-1],
            speed_kv=res["kvonly_s"][-1] / res["cache_s"][-1],
            kib=res["cache_bytes"][-1] / 1024,
            d=teach.COST_D,
            diff=max(res["max_diff"]),
        )
    )
    kv_noise(res, t)


def kv_noise(res: dict, t) -> None:
    """How the times were taken, how noisy they are, and their fitted growth beside the FLOPs'."""
    ways = ("nocache", "kvonly", "cache")
    fit = {m: teach.fit_slope(res["t"], res[f"{m}_s"], teach.KV_FIT_FROM) for m in ways}
    flops = {m: teach.fit_slope(res["t"], res[f"{m}_flops"], teach.KV_FIT_FROM) for m in ways}
    noise = max(max(res[f"{m}_noise"]) for m in ways)
    t0 = min(np.asarray(res["t"])[teach.fit_points(res["t"], teach.KV_FIT_FROM)])
    st.caption(t("cost.kv_noise", r=teach.KV_REPEATS, noise=noise, t0=t0,
                 a=fit["nocache"], b=fit["kvonly"], c=fit["cache"],
                 fa=flops["nocache"], fb=flops["kvonly"], fc=flops["cache"]))  # fmt: skip


def main() -> None:
    s = current_settings()
    t = partial(text, lang=s.lang)
    st.title(t("cost.title"))
    st.markdown(t("cost.intro"))
    sweep_part(s, t)
    cells_part(s, t)
    kv_part(s, t)
    st.info(t("cost.try"))


main()
