"""The n² cost: measured time and memory, plain vs tiled; words vs characters; the KV cache."""

import numpy as np
import pandas as pd
import streamlit as st

from attention_core import MAX_CHARS, MAX_TOKENS
from attention_core import experiments as ex
from ui import charts, figures, widgets
from ui.lesson import deck
from ui.settings import Settings

KV_TS = (16, 32, 64, 128, 256)  # generated lengths of the KV-cache panel
SLOPES = {  # measured column → the metric that shows its fitted slope
    "plain_s": "cost.slope.plain_s",
    "tiled_s": "cost.slope.tiled_s",
    "plain_bytes": "cost.slope.plain_bytes",
    "tiled_bytes": "cost.slope.tiled_bytes",
}
COLUMNS = {  # the table's columns, in the UI language
    "n": "cost.col.n",
    "plain_s": "cost.col.plain_s",
    "tiled_s": "cost.col.tiled_s",
    "plain_bytes": "cost.col.plain_bytes",
    "tiled_bytes": "cost.col.tiled_bytes",
}
# (unit of the measured columns, its scale to the chart's unit, chart key, title and y-axis keys)
CHARTS = (
    ("s", 1e3, "cost_s", "cost.time", "cost.time_y"),
    ("bytes", 2**-20, "cost_bytes", "cost.mem", "cost.mem_y"),
)


@st.cache_data(max_entries=len(ex.FULL_NS), show_spinner=False)
def measured(n: int) -> dict[str, float]:
    return ex.measure_cost(n)


@st.cache_data(max_entries=len(KV_TS), show_spinner=False)
def measured_generation(t_len: int) -> dict[str, float]:
    return ex.measure_generation(t_len)


def sweep(values: list[int], measure, say) -> dict:
    """Measure every value with a progress bar (`say(v)` its text); columns of results."""
    bar, rows = st.progress(0.0, text=say(values[0])), []
    for i, v in enumerate(values):
        bar.progress(i / len(values), text=say(v))
        rows.append(measure(v))
    bar.empty()
    return {key: [r[key] for r in rows] for key in rows[0]}


def fit_caption(ns: list[int], t) -> str:
    """What the slopes were fitted on: n ≥ FIT_FROM, or every point when too few qualify."""
    used = ex.fit_points(ns, ex.FIT_FROM)
    only_big = all(n >= ex.FIT_FROM for n, u in zip(ns, used, strict=True) if u)
    key = "cost.fit_say" if only_big else "cost.fit_say_all"
    return t(key, n=ex.FIT_FROM, k=int(used.sum()))


def doubling(res: dict, t) -> None:
    """What doubling n did to time and memory, on the doublings the slopes were fitted on."""
    fitted = ex.fit_points(res["n"], ex.FIT_FROM)
    big = {k: [v for v, keep in zip(res[k], fitted, strict=True) if keep] for k in res}
    ratio_t = ex.doubling_ratios(big["n"], big["plain_s"])
    ratio_m = ex.doubling_ratios(big["n"], big["plain_bytes"])
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


def memory_say(res: dict, slope: float, t) -> None:
    """What the memory figures say: plain ≈ PLAIN_COPIES n×n matrices, tiled O(n), not flat."""
    n, plain, tiled = res["n"][-1], res["plain_bytes"][-1], res["tiled_bytes"]
    st.caption(t("cost.plain_say", n=n, mib=plain / 2**20, k=plain / (n * n * 4)))
    st.caption(
        t(
            "cost.tiled_say",
            slope=slope,
            d=ex.COST_D,
            n0=res["n"][0],
            n1=n,
            m0=tiled[0] / 2**20,
            m1=tiled[-1] / 2**20,
        )
    )


def show_sweep(res: dict, s: Settings, t) -> None:
    """Slopes as metrics, two log-log charts, the doubling ratios and the table."""
    slope = {k: ex.fit_slope(res["n"], res[k], ex.FIT_FROM) for k in SLOPES}
    for col, (k, key) in zip(st.columns(4), SLOPES.items(), strict=True):
        col.metric(t(key), f"{slope[k]:.2f}")
    st.caption(fit_caption(res["n"], t))
    names = {"plain": t("cost.plain"), "tiled": t("cost.tiled")}
    for col, (unit, scale, key, title, y) in zip(st.columns(2), CHARTS, strict=True):
        series = {names[m]: np.asarray(res[f"{m}_{unit}"]) * scale for m in names}
        slopes = {names[m]: slope[f"{m}_{unit}"] for m in names}
        fig = figures.loglog_fit(res["n"], series, slopes, title=t(title), y_title=t(y),
                                 classroom=s.classroom, across=2)  # fmt: skip
        charts.chart(fig, key=key, lang=s.lang, where=col)
    doubling(res, t)
    memory_say(res, slope["tiled_bytes"], t)
    table = pd.DataFrame(res)
    for k in ("plain_bytes", "tiled_bytes"):
        table[k] = (table[k] / 2**20).round(2)
    st.dataframe(table.rename(columns=lambda c: t(COLUMNS[c])), key="cost_table", hide_index=True)


def sweep_part(s: Settings, t) -> None:
    st.header(t("cost.measure"))
    lo, hi = st.select_slider(t("cost.range"), ex.FULL_NS, value=(64, 2048), key="cost_range")
    ns = [n for n in ex.FULL_NS if lo <= n <= hi]
    if len(ns) < 2:
        st.warning(t("cost.need_two"))
        return
    if hi > 2048:
        st.caption(t("cost.big", n=hi, mib=ex.plain_bytes(hi) / 2**20))
    st.caption(t("cost.timed"))
    if st.button(t("cost.run"), key="cost_run", type="primary"):
        say = lambda n: t("cost.running", n=n)  # noqa: E731
        st.session_state["cost_results"] = sweep(ns, lambda n: {"n": n, **measured(n)}, say)
    res = st.session_state.get("cost_results")
    if res is None:
        st.caption(t("cost.press"))
        return
    show_sweep(res, s, t)


def cells_part(s: Settings, t) -> None:
    st.header(t("cost.cells"))
    c = ex.cell_counts(s.sentence)
    if not c["word_n"]:
        st.warning(t("cost.cells_empty"))
    if c["chars_cut"]:  # the counts are of the sentence as the pipeline cuts it
        st.warning(t("notice.chars_cut", kept=MAX_CHARS, cut=c["chars_cut"]))
    for mode, unit in (("word", "unit.word"), ("char", "unit.char")):  # each panel's own cut
        if c[f"{mode}_cut"]:
            st.warning(t("cost.cells_cut", unit=t(unit), kept=MAX_TOKENS, cut=c[f"{mode}_cut"]))
    c1, c2 = st.columns(2)
    c1.metric(t("cost.words", n=c["word_n"]), f"{c['word_cells']:,}")
    c2.metric(t("cost.chars", n=c["char_n"]), f"{c['char_cells']:,}")
    words, chars = c["word_cells"], c["char_cells"]
    if words and chars == words:
        st.caption(t("cost.cells_same", n=c["word_n"], cells=words))
    elif words:
        st.caption(t("cost.cells_say", ratio=chars / words, chars=chars, words=words))


def kv_part(s: Settings, t) -> None:
    """Generate t tokens three ways: rerun the layer, recompute K and V, keep a KV cache."""
    st.header(t("cost.kv"))
    st.markdown(t("cost.kv_intro"))
    if st.button(t("cost.kv_run"), key="cost_kv_run"):
        say = lambda n: t("cost.running_t", t_len=n)  # noqa: E731
        measure = lambda n: {"t": n, **measured_generation(n)}  # noqa: E731
        st.session_state["cost_kv"] = sweep(list(KV_TS), measure, say)
    res = st.session_state.get("cost_kv")
    if res is None:
        return
    names = {"nocache": t("cost.nocache"), "kvonly": t("cost.kvonly"), "cache": t("cost.cache")}
    series = {names[m]: np.asarray(res[f"{m}_s"]) * 1e3 for m in names}  # fastest of repeats
    fit = {m: ex.fit_slope(res["t"], res[f"{m}_s"], ex.KV_FIT_FROM) for m in names}
    fig = figures.loglog_fit(res["t"], series, {names[m]: fit[m] for m in names},
                             title=t("cost.kv_time"), x_title="t", y_title=t("cost.time_y"),
                             classroom=s.classroom)  # fmt: skip
    charts.chart(fig, key="cost_kv_fig", lang=s.lang)
    kv_say(res, fit, t)


def kv_say(res: dict, fit: dict, t) -> None:
    """What the cache saves at the longest t, how the times were taken, how noisy they are, and
    their fitted growth beside the counted FLOPs'."""
    last = {k: v[-1] for k, v in res.items()}
    ratio = {m: last[f"{m}_flops"] / last["cache_flops"] for m in fit}  # × the cache's FLOPs
    speed = {m: last[f"{m}_s"] / last["cache_s"] for m in fit}  # × the cache's time
    st.caption(t("cost.kv_say", t_len=last["t"], ratio=ratio["nocache"], speed=speed["nocache"],
                 ratio_kv=ratio["kvonly"], speed_kv=speed["kvonly"], d=ex.COST_D,
                 kib=last["cache_bytes"] / 1024, diff=max(res["max_diff"])))  # fmt: skip
    grow = {m: ex.fit_slope(res["t"], res[f"{m}_flops"], ex.KV_FIT_FROM) for m in fit}
    noise = max(max(res[f"{m}_noise"]) for m in fit)
    t0 = min(np.asarray(res["t"])[ex.fit_points(res["t"], ex.KV_FIT_FROM)])
    a, b, c = fit.values()  # nocache, kvonly, cache
    fa, fb, fc = grow.values()
    st.caption(t("cost.kv_noise", r=ex.KV_REPEATS, noise=noise, t0=t0, a=a, b=b, c=c,
                 fa=fa, fb=fb, fc=fc))  # fmt: skip


s, t = widgets.open_page("cost.title", "cost.intro")
deck.lesson_links("cost", s)  # its scenes, the sentence kept
sweep_part(s, t)
cells_part(s, t)
kv_part(s, t)
st.info(t("cost.try"))
