"""Pure plotly builders for the teaching pages: arrays + labels → go.Figure, never st.*."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from unicodedata import east_asian_width

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from ui.figures import UPRIGHT_MAX, hold_still
from ui.palette import DIVERGING, PALETTE  # signed values: blue < 0 < red; lines and bars
from ui.palette import WEIGHT_SCALE as SEQUENTIAL  # weights in [0, 1]: viridis on a square root

_MARGIN = {"l": 10, "r": 10, "t": 48, "b": 10}


def _esc(labels: Sequence[str]) -> list[str]:
    """Escape user text for plotly, which renders some HTML in ticks and hovers."""
    return [html.escape(str(s)) for s in labels]


def _stride(labels: Sequence[str], font_size: int = 12) -> list[int]:
    """Tick positions: every label, or every k-th when they would overlap (index labels thin
    out sooner than tokens, and every label sooner in classroom type)."""
    most = (16 if all(lab.isdigit() for lab in labels) else 40) * 12 // max(font_size, 12)
    return list(range(0, len(labels), -(-len(labels) // most)))


def _white_template() -> dict:
    """What 2-D charts take from plotly's "plotly_white", as one small dict.

    `template="plotly_white"` validated the whole template (every trace type, 3-D scenes,
    maps) for each figure — with the update_* calls, ~30 ms of a teaching heatmap, most of a
    teaching page's rerun (BENCHMARKS.md). These figures are built from one dict instead.
    """
    white = pio.templates["plotly_white"]
    layout = white.layout.to_plotly_json()
    keep = ("colorway", "font", "hovermode", "hoverlabel", "paper_bgcolor", "plot_bgcolor")
    keep += ("xaxis", "yaxis", "title", "annotationdefaults", "shapedefaults")
    data = white.data.to_plotly_json()
    return {
        "layout": {k: layout[k] for k in keep if k in layout},
        "data": {k: data[k] for k in ("heatmap", "bar", "histogram", "scatter") if k in data},
    }


_TEMPLATE = _white_template()


def _layout(title: str, height: int, font_size: int, **extra) -> dict:
    """The teaching charts' layout as a dict: escaped title, white template, legend below."""
    layout = {
        "template": _TEMPLATE,
        "title": {"text": html.escape(title), "x": 0.01},
        "height": height,
        "margin": dict(_MARGIN),
        "font": {"size": font_size},
        "legend": {"orientation": "h", "y": -0.18},
    }
    layout.update(extra)
    return layout


def _figure(data: list, layout: dict, frames: list | None = None) -> go.Figure:
    """Every teaching figure, held still (no drag-zoom on any axis: the shared config takes
    away double-click and the reset button, so a stray drag could not be undone)."""
    spec = {"data": data, "layout": hold_still(layout)}
    return go.Figure({**spec, "frames": frames} if frames else spec)


def _vline_shape(x: float, dash: str = "dot", **line) -> dict:
    """A vertical line across the plot at data x (what fig.add_vline writes, validated once)."""
    shape = {"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain"}
    return {**shape, "line": {"dash": dash, **line}}


def _vline(x: float, text: str | None = None, *, log_x: bool = False, **line) -> dict:
    """A dotted vertical line at data x as layout parts, labelled at its top if text is given.

    Plotly places shapes on a log axis by data value but annotations by log10 of it; add_vline
    did not, so on the log τ axis the "√d_k" label sat at 10^√d_k, off at the right edge.
    """
    parts = {"shapes": [_vline_shape(x, **line)]}
    if text is not None:
        at = float(np.log10(x)) if log_x else x
        note = {"text": text, "x": at, "xref": "x", "y": 1, "yref": "y domain", "showarrow": False}
        parts["annotations"] = [{**note, "xanchor": "left", "yanchor": "top"}]
    return parts


def matrix_heatmap(
    m: np.ndarray,
    rows: Sequence[str],
    cols: Sequence[str],
    *,
    title: str = "",
    weights: bool = False,
    zmax: float | None = None,
    show_numbers: bool = False,
    font_size: int = 12,
    height: int | None = None,
    col_lines: Sequence[float] = (),
    x_title: str = "",
    y_title: str = "",
    colorbar_title: str = "",
) -> go.Figure:
    """Heatmap of a 2-D array on numeric axes (duplicate labels stay apart).

    `weights` fixes the colour bar to 0–1 on the app's square-root ramp (ui.figures.WEIGHT_SCALE,
    as on every weight map); otherwise a diverging colour scale symmetric around 0 with
    half-range `zmax` (default: max |m|). `col_lines`: x positions of black vertical lines (e.g.
    where one head's columns end and the next begin). x_title / y_title name the axes (key /
    query on a weight map), colorbar_title the colour bar (say it when the ramp is not linear).
    """
    m = np.asarray(m, dtype=float)
    if m.ndim != 2 or m.shape != (len(rows), len(cols)):
        raise ValueError(f"matrix has shape {m.shape}; labels give ({len(rows)}, {len(cols)})")
    r, c = _esc(rows), _esc(cols)
    hover = [[f"{r[i]} · {c[j]}: {m[i, j]:.3g}" for j in range(len(c))] for i in range(len(r))]
    if weights:
        scale, lo, hi = SEQUENTIAL, 0.0, 1.0
    else:
        half = float(zmax) if zmax else float(np.max(np.abs(m), initial=1e-12)) or 1.0
        scale, lo, hi = DIVERGING, -half, half
    trace = {
        "type": "heatmap",
        "z": np.round(m, 4),
        "x": list(range(len(c))),
        "y": list(range(len(r))),
        "colorscale": scale,
        "zmin": lo,
        "zmax": hi,
        "text": hover,
        "hoverinfo": "text",
    }
    if weights or colorbar_title:
        bar = {"title": {"text": html.escape(colorbar_title), "side": "top"}}
        trace["colorbar"] = {**bar, "tickformat": ".0%"} if weights else bar
    if show_numbers:
        trace["texttemplate"] = "%{z:.2f}"
    xs, ys = _stride(c, font_size), _stride(r, font_size)
    auto = 150 + 22 * max(len(r), 4)
    upright = len(c) <= UPRIGHT_MAX or all(lab.isdigit() for lab in c)  # else tokens turn -90°
    x_axis = {"tickvals": xs, "ticktext": [c[i] for i in xs], "side": "top"}
    x_axis["tickangle"] = 0 if upright else -90
    y_axis = {"tickvals": ys, "ticktext": [r[i] for i in ys], "autorange": "reversed"}
    if x_title:
        x_axis["title"] = {"text": html.escape(x_title), "standoff": 2}
    if y_title:
        y_axis["title"] = {"text": html.escape(y_title), "standoff": 2}
    layout = _layout(title, (height or min(auto, 680)) + (2 * font_size if x_title else 0),
                     font_size, xaxis=x_axis, yaxis=y_axis)  # fmt: skip
    # ticks (and their title) sit on top: give the figure's title its own band above them
    layout["margin"]["t"] = 40 + 3 * font_size + (2 * font_size if x_title else 0)
    layout["title"].update(yref="container", y=0.99, yanchor="top")
    if col_lines:
        layout["shapes"] = [_vline_shape(x, "solid", color="black", width=2) for x in col_lines]
    return _figure([trace], layout)


def histogram_pair(
    raw: np.ndarray,
    scaled: np.ndarray,
    *,
    names: Sequence[str],
    title: str,
    font_size: int = 12,
    bins: int = 80,
) -> go.Figure:
    """Two overlaid histograms (raw q·k and q·k/√d_k) on one x axis.

    Binned here, `bins` bars each: the browser gets 2 × bins counts instead of every sample
    (20,000 float64 each: ~430 KB of base64 per page view, binned again on every redraw).
    """
    traces = []
    for values, name, colour in zip((raw, scaled), names, PALETTE, strict=False):
        counts, edges = np.histogram(np.asarray(values, dtype=float), bins=bins)
        traces.append(
            {
                "type": "bar",
                "x": (edges[:-1] + edges[1:]) / 2,
                "y": counts,
                "width": np.diff(edges),
                "name": html.escape(name),
                "opacity": 0.6,
                "marker": {"color": colour, "line": {"width": 0}},
                "hovertemplate": "%{x:.2f}: %{y}<extra>" + html.escape(name) + "</extra>",
            }
        )
    layout = _layout(title, 360, font_size, barmode="overlay", bargap=0)
    return _figure(traces, layout)


def _sweep_traces(
    x: Sequence[float], series: Mapping[str, Sequence[float]], dashed, colours=None
) -> list:
    """Line traces; `colours` maps a series name to its palette index (default: its position)."""
    traces = []
    for i, (name, y) in enumerate(series.items()):
        ref = name in dashed
        colour = PALETTE[(colours or {}).get(name, i) % len(PALETTE)]
        traces.append(
            {
                "type": "scatter",
                "x": list(x),
                "y": list(np.asarray(y, dtype=float)),
                "name": html.escape(name),
                "mode": "lines" if ref else "lines+markers",
                "line": {"color": colour, "dash": "dash" if ref else "solid"},
            }
        )
    return traces


def sweep_lines(
    x: Sequence[float],
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = True,
    log_y: bool = False,
    dashed: Sequence[str] = (),
    vline: tuple[float, str] | None = None,
    mark: float | None = None,
    font_size: int = 12,
    right: Mapping[str, Sequence[float]] | None = None,
    right_title: str = "",
    right_range: tuple[float, float] | None = None,
    colours: Mapping[str, int] | None = None,
) -> go.Figure:
    """One line per series against x; names in `dashed` are drawn as reference lines.

    vline: (x, label) as a dotted, labelled line; mark: x of a solid orange line (a slider's
    current value). right: series measured in another unit, drawn against a second y axis on
    the right titled `right_title` (never one unlabelled axis for two units). colours: series
    name → PALETTE index, to pair a dashed line with its solid one."""
    layout = _layout(
        title,
        380,
        font_size,
        xaxis={"title": {"text": html.escape(x_title)}, "type": "log" if log_x else "linear"},
        yaxis={"title": {"text": html.escape(y_title)}, "type": "log" if log_y else "linear"},
    )
    traces = _sweep_traces(x, series, dashed, colours)
    if right:
        more = _sweep_traces(x, {**series, **right}, dashed, colours)[len(series) :]
        traces += [{**tr, "yaxis": "y2"} for tr in more]
        layout["yaxis2"] = {
            "title": {"text": html.escape(right_title)},
            "overlaying": "y",
            "side": "right",
            "showgrid": False,
            "tickmode": "auto",  # its own round ticks, not the left axis's grid positions
        }
        if right_range:
            layout["yaxis2"]["range"] = list(right_range)
    if vline is not None:
        layout.update(_vline(vline[0], html.escape(vline[1]), log_x=log_x))
    if mark is not None:
        layout["shapes"] = [
            *layout.get("shapes", []),
            _vline_shape(mark, "solid", color=PALETTE[1]),
        ]
    return _figure(traces, layout)


def bars(
    values: Sequence[float],
    labels: Sequence[str],
    *,
    title: str,
    y_title: str = "",
    highlight: int | None = None,
    y_range: tuple[float, float] | None = None,
    fmt: str = ".2f",
    font_size: int = 12,
) -> go.Figure:
    """Vertical bars on numeric positions (duplicate labels kept apart), one bar highlighted;
    `fmt` formats the value written on each bar."""
    labels = _esc(labels)
    colours = [PALETTE[1] if i == highlight else PALETTE[0] for i in range(len(labels))]
    vals = np.asarray(values, dtype=float)
    trace = {
        "type": "bar",
        "x": list(range(len(labels))),
        "y": vals,
        "marker": {"color": colours},
        "text": [f"{v:{fmt}}" for v in vals],
        "textposition": "outside",
        "hovertext": [f"{lab}: {v:.3g}" for lab, v in zip(labels, vals, strict=True)],
        "hoverinfo": "text",
    }
    y_axis = {"title": {"text": html.escape(y_title)}}
    if y_range:
        y_axis["range"] = list(y_range)
    x_axis = {"tickvals": list(range(len(labels))), "ticktext": labels}
    layout = _layout(title, 340, font_size, xaxis=x_axis, yaxis=y_axis)
    return _figure([trace], layout)


def vector_rows(
    vectors: np.ndarray, names: Sequence[str], *, title: str, font_size: int = 12
) -> go.Figure:
    """Several vectors as rows of one heatmap, on one diverging colour scale."""
    v = np.atleast_2d(np.asarray(vectors, dtype=float))
    dims = [str(i) for i in range(v.shape[1])]
    return matrix_heatmap(
        v, names, dims, title=title, font_size=font_size, height=110 + 34 * len(v)
    )


def loglog_fit(
    ns: Sequence[float],
    series: Mapping[str, Sequence[float]],
    slopes: Mapping[str, float],
    *,
    title: str,
    y_title: str,
    x_title: str = "n",
    font_size: int = 12,
) -> go.Figure:
    """Measured series against n on log-log axes, each legend entry carrying its fitted slope."""
    named = {f"{name}: ∝ {x_title}^{slopes[name]:.2f}": ys for name, ys in series.items()}
    x_axis = {"title": {"text": html.escape(x_title)}, "type": "log"}
    x_axis.update(tickvals=list(ns), ticktext=[str(n) for n in ns])
    y_axis = {"title": {"text": html.escape(y_title)}, "type": "log", "dtick": 1}  # 1 a decade
    layout = _layout(title, 380, font_size, xaxis=x_axis, yaxis=y_axis)
    return _figure(_sweep_traces(ns, named, ()), layout)


def grouped_bars(
    categories: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    title: str,
    x_title: str = "",
    y_title: str = "",
    font_size: int = 12,
) -> go.Figure:
    """Bars side by side per category, one colour per series (e.g. q_d·k_d for two keys)."""
    traces = [
        {
            "type": "bar",
            "x": list(range(len(categories))),
            "y": np.asarray(ys, dtype=float),
            "name": html.escape(name),
            "marker": {"color": PALETTE[i % len(PALETTE)]},
            "hovertemplate": "%{y:.3f}<extra>" + html.escape(name) + "</extra>",
        }
        for i, (name, ys) in enumerate(series.items())
    ]
    x_axis = {"tickvals": list(range(len(categories))), "ticktext": _esc(categories)}
    x_axis["title"] = {"text": html.escape(x_title)}
    layout = _layout(title, 400, font_size, xaxis=x_axis, barmode="group")
    layout["yaxis"] = {"title": {"text": html.escape(y_title)}, "zeroline": True}
    # below the x axis title, growing downwards when it wraps on a phone
    layout["legend"] = {"orientation": "h", "x": 0, "y": -0.3, "yanchor": "top"}
    layout["margin"]["b"] = 40 + 4 * font_size
    return _figure(traces, layout)


# ---- the learned-attention page: training curves with the current step marked


def job_text(summary, t) -> str:
    """ "代词 → 所指的人 · 96%" from a measured HeadSummary (attention_core.model), or
    "没有明确分工" for a head below the job threshold. t: text lookup in one language."""
    rel = t(f"learned.rel.{summary.relation}")
    if summary.relation == "diffuse":
        return rel
    return t("learned.job_pct", rel=rel, acc=summary.accuracy)


def head_job_label(summary, t) -> str:
    """ "头 1 · 代词 → 所指的人 · 96%" (or "头 2 · 没有明确分工"): a head map's title."""
    return t("learned.head_label", head=summary.head + 1, job=job_text(summary, t))


def loss_figure(losses, eval_steps, heldout_loss, step, t, font_size: int = 12) -> go.Figure:
    """Training loss per update, its moving average, held-out loss where measured, a marker."""
    x = np.arange(1, len(losses) + 1)
    window = max(1, len(losses) // 40)
    smooth = np.convolve(losses, np.ones(window) / window, mode="valid")  # (steps-window+1,)
    traces = [
        {
            "x": x,
            "y": losses,
            "name": t("learned.loss_train"),
            "line": {"width": 1},
            "opacity": 0.35,
        },
        {"x": x[window - 1 :], "y": smooth, "name": t("learned.loss_smooth")},
        {"x": eval_steps, "y": heldout_loss, "name": t("learned.loss_heldout"), "mode": "lines"},
    ]
    return _marked(traces, step, t("learned.loss"), t, font_size, height=460)


def accuracy_figure(
    eval_steps, heldout: dict, step, rel_names: Sequence[str], heads: int, t, font_size: int = 12
) -> go.Figure:
    """Each question's read-out accuracy, the rate at which some head's largest weight is on
    the right word, and the two chance levels (each labelled with what it is), a marker."""
    traces = [
        {
            "x": eval_steps,
            "y": heldout["readout_acc"][:, r],
            "name": t("learned.acc_readout_rel", rel=name),
            "line": {"color": PALETTE[r % len(PALETTE)]},
        }
        for r, name in enumerate(rel_names)
    ]
    mean = {
        k: heldout[k].mean(axis=1) for k in ("any_head_acc", "readout_chance", "any_head_chance")
    }
    any_chance = t("learned.chance_any", h=heads, sup=_superscript(heads))
    traces += [
        {"x": eval_steps, "y": mean["any_head_acc"], "name": t("learned.acc_any"),
         "line": {"color": "#000", "dash": "dot"}},
        {"x": eval_steps, "y": mean["readout_chance"], "name": t("learned.chance_readout"),
         "line": {"color": "#666", "dash": "dash"}},
        {"x": eval_steps, "y": mean["any_head_chance"], "name": any_chance,
         "line": {"color": "#000", "dash": "dash"}},
    ]  # fmt: skip
    y_axis = {"range": [0, 1.02], "tickformat": ".0%"}
    return _marked(traces, step, t("learned.acc_title"), t, font_size, y_axis=y_axis, height=460)


def job_curves_figure(
    eval_steps,
    accuracy: np.ndarray,
    chance: np.ndarray,
    onsets: Sequence[int | None],
    step: int,
    *,
    title: str,
    head_colours: Sequence[str],
    t,
    font_size: int = 12,
) -> go.Figure:
    """One relation: each head's held-out hit rate (accuracy (E, h)) against training step, the
    one-head chance level, a ★ where a head found this job (onsets[head], None if it did not)."""
    traces = []
    for head in range(accuracy.shape[1]):
        colour = head_colours[head % len(head_colours)]
        traces.append(
            {
                "x": eval_steps,
                "y": accuracy[:, head],
                "name": t("teach.head", h=head + 1),
                "line": {"color": colour},
            }
        )
    traces.append(
        {
            "x": eval_steps,
            "y": chance,
            "name": t("learned.head_chance"),
            "line": {"color": "#666", "dash": "dash"},
        }
    )
    for head, at in enumerate(onsets):
        if at is None:
            continue
        k = int(np.nonzero(np.asarray(eval_steps) == at)[0][0])
        name = html.escape(t("teach.head", h=head + 1))
        traces.append(
            {
                "x": [at],
                "y": [accuracy[k, head]],
                "mode": "markers",
                "marker": {
                    "symbol": "star",
                    "size": 14,
                    "color": head_colours[head % len(head_colours)],
                    "line": {"color": "#000", "width": 1},
                },
                "name": t("learned.job_mark"),
                "showlegend": False,
                "hovertemplate": f"{name} · %{{x}}<extra></extra>",
            }
        )
    y_axis = {
        "range": [0, 1.02],
        "tickformat": ".0%",
        "title": {"text": t("learned.head_acc_axis")},
    }
    return _marked(traces, step, title, t, font_size, y_axis=y_axis, height=330)


def _superscript(k: int) -> str:
    return str(k).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _marked(
    traces: list, step: int, title: str, t, font_size: int, y_axis=None, height: int = 320
) -> go.Figure:
    """Line traces with the current step marked, white template, legend below."""
    layout = _layout(title, height, font_size, **_vline(step, color="#d62728"))
    layout["title"] = {"text": html.escape(title)}
    layout["margin"]["t"] = 40
    entries = sum(tr.get("showlegend", True) for tr in traces)
    layout["margin"]["b"] = 56 + (font_size + 8) * entries  # axis, then a legend row per entry
    layout["legend"] = {"orientation": "h", "y": 0, "yref": "container", "yanchor": "bottom"}
    layout["xaxis"] = {"title": {"text": t("learned.x_step"), "standoff": 4}}
    if y_axis:
        layout["yaxis"] = y_axis
    note = {"x": step, "y": 1, "yref": "paper", "text": t("learned.now"), "showarrow": False}
    layout["annotations"] = [note]
    data = [{"type": "scatter", "mode": "lines", **tr} for tr in traces]
    for tr in data:
        tr["name"] = html.escape(str(tr["name"]))
    return _figure(data, layout)


# ---- the learned-attention page: every head's map at every checkpoint, played in the browser


def _grid_domains(count: int, cols: int, map_px: int, band_px: int) -> tuple[list, int]:
    """(x domain, y domain) of each of `count` square-ish subplots, `cols` to a row, first at
    top left, and the plot area's height in pixels: each row is a band of band_px (for its
    title, and the row above's tick labels) over map_px of map."""
    rows = -(-count // cols)
    height = rows * (band_px + map_px)
    gap_x = 0.14 if cols > 1 else 0.0
    width = (1 - gap_x * (cols - 1)) / cols
    out = []
    for k in range(count):
        r, c = divmod(k, cols)
        top = height - r * (band_px + map_px) - band_px  # pixels from the bottom
        x0 = c * (width + gap_x)
        dx = [round(max(0.0, x0), 4), round(min(1.0, x0 + width), 4)]
        dy = [round(max(0.0, (top - map_px) / height), 4), round(min(1.0, top / height), 4)]
        out.append((dx, dy))
    return out, height


def training_maps_figure(
    frames: Sequence[dict],
    labels: Sequence[str],
    *,
    active: int,
    text: Mapping[str, str],
    colorscale: list,
    cols: int = 2,
    font_size: int = 12,
) -> go.Figure:
    """Every head's weight map (one subplot each) with one animation frame per checkpoint.

    frames: per checkpoint {"name": step label, "title": figure title, "weights": (h, n, n),
    "head_titles": h subplot titles}; labels: n escaped token labels; active: frame shown
    first; text: "play", "pause", "prefix", "query", "key", "bar" (UI strings). The slider
    and the play button switch frames in the browser, without a round trip to the server.
    """
    h, n, _ = np.shape(frames[0]["weights"])
    map_px = max(200, (30 if font_size > 14 else 24) * n)
    if cols == 1:  # a phone: the map is as wide as the screen allows, the colour bar goes below
        map_px = min(map_px, 280)
    label_px = max((_text_px(lab, font_size) for lab in labels), default=font_size)
    upright = n * (label_px + 6) <= map_px  # x labels fit side by side: keep them horizontal
    ticks_px = (font_size if upright else label_px) + 14
    title_px = font_size + 18
    domains, plot_px = _grid_domains(h, cols, map_px, band_px=title_px + ticks_px)
    slider_px, controls_px = _controls_px(font_size)
    top = 2 * font_size + 20 + controls_px  # figure title, buttons, slider
    bottom = ticks_px + 2 * font_size + 10  # the bottom row's tick labels and key-axis title
    bar = {"title": {"text": text["bar"]}, "ticksuffix": "%", "thickness": 12}
    if cols == 1:
        bar.update(orientation="h", len=1, x=0, xanchor="left", y=0, yref="container")
        bar.update(yanchor="bottom", title={"text": text["bar"], "side": "top"})
        bottom += 4 * font_size + 30
    else:
        bar.update(len=0.6, y=1, yanchor="top")
    ticks = {"tickvals": list(range(n)), "ticktext": list(labels), "showgrid": False}
    hover = [[f"{labels[i]} → {labels[j]}" for j in range(n)] for i in range(n)]
    layout = {
        "template": _TEMPLATE,
        "height": plot_px + top + bottom,
        "margin": {"l": label_px + 2 * font_size + 16, "r": 10, "t": top, "b": bottom},
        "font": {"size": font_size},
        "coloraxis": {
            "colorscale": colorscale,
            "cmin": 0,
            "cmax": 100,
            "colorbar": bar,
        },
    }  # fmt: skip
    for k, (dx, dy) in enumerate(domains):
        suffix = "" if k == 0 else str(k + 1)
        layout[f"xaxis{suffix}"] = {
            **ticks,
            "domain": dx,
            "anchor": f"y{suffix}",
            "tickangle": 0 if upright else -90,
            "automargin": False,
            "title": {"text": text["key"] if k >= h - cols else "", "standoff": 8},
        }
        layout[f"yaxis{suffix}"] = {
            **ticks,
            "domain": dy,
            "anchor": f"x{suffix}",
            "autorange": "reversed",
            "scaleanchor": f"x{suffix}",
            "constrain": "domain",
            "automargin": False,
            "title": {"text": text["query"] if k % cols == 0 else ""},
        }
    traces = [
        {
            "type": "heatmap",
            "z": _pct(frames[active]["weights"][k]),
            "x": list(range(n)),
            "y": list(range(n)),
            "coloraxis": "coloraxis",
            "text": hover,
            "hovertemplate": "%{text}: %{z}%<extra></extra>",
            "xaxis": "x" if k == 0 else f"x{k + 1}",
            "yaxis": "y" if k == 0 else f"y{k + 1}",
            "xgap": 1,
            "ygap": 1,
        }
        for k in range(h)
    ]
    layout.update(_frame_layout(frames[active], domains, font_size))
    layout["sliders"] = [_slider(frames, active, text["prefix"])]
    layout["updatemenus"] = [_play_buttons(text["play"], text["pause"], slider_px)]
    spec_frames = [
        {
            "name": str(f["name"]),
            "data": [{"type": "heatmap", "z": _pct(f["weights"][k])} for k in range(h)],
            "traces": list(range(h)),
            "layout": _frame_layout(f, domains, font_size),
        }
        for f in frames
    ]
    return _figure(traces, layout, spec_frames)


def _text_px(label: str, size: int) -> int:
    """Rough pixel width of a label: a CJK glyph is ~1 em, anything else ~0.6 em."""
    return int(sum(size if east_asian_width(c) in "WF" else 0.6 * size for c in label))


def _pct(weights: np.ndarray) -> list:
    """Weights in [0, 1] → whole percents as nested lists (frames are sent as plain JSON)."""
    return np.rint(np.clip(weights, 0, 1) * 100).astype(int).tolist()


def _frame_layout(frame: dict, domains: list, size: int) -> dict:
    """A frame's figure title and one title above each subplot."""
    notes = [
        {
            "text": html.escape(title),
            "x": (dx[0] + dx[1]) / 2,
            "y": dy[1],
            "xref": "paper",
            "yref": "paper",
            "yshift": 6,
            "showarrow": False,
            "font": {"size": size + 1, "color": "#222"},
            "xanchor": "center",
            "yanchor": "bottom",
        }
        for title, (dx, dy) in zip(frame["head_titles"], domains, strict=True)
    ]
    title = {"text": html.escape(frame["title"]), "x": 0.01, "y": 1, "yref": "container"}
    return {"title": {**title, "yanchor": "top", "pad": {"t": 10}}, "annotations": notes}


def _controls_px(font_size: int) -> tuple[int, int]:
    """Room above the maps for the slider, and for the play buttons above it (pixels)."""
    slider = 3 * font_size + 56  # current value, rail, step labels, padding
    return slider, slider + font_size + 24


def _slider(frames: Sequence[dict], active: int, prefix: str) -> dict:
    """The step slider, full width right above the maps."""
    go_to = {
        "mode": "immediate",
        "frame": {"duration": 0, "redraw": True},
        "transition": {"duration": 0},
    }
    return {
        "active": active,
        "currentvalue": {"prefix": html.escape(prefix)},
        "pad": {"t": 0, "b": 10},
        "x": 0,
        "len": 1,
        "y": 1,
        "yanchor": "bottom",
        "steps": [
            {"label": str(f["name"]), "method": "animate", "args": [[str(f["name"])], go_to]}
            for f in frames
        ],
    }


def _play_buttons(play: str, pause: str, above: int) -> dict:
    """Play and pause, `above` pixels over the top of the maps (the slider's room)."""
    run = {
        "frame": {"duration": 700, "redraw": True},
        "fromcurrent": True,
        "transition": {"duration": 0},
    }
    stop = {
        "mode": "immediate",
        "frame": {"duration": 0, "redraw": False},
        "transition": {"duration": 0},
    }
    return {
        "type": "buttons",
        "direction": "left",
        "x": 0,
        "y": 1,
        "xanchor": "left",
        "yanchor": "bottom",
        "pad": {"b": above},
        "showactive": False,
        "buttons": [
            {"label": html.escape(play), "method": "animate", "args": [None, run]},
            {"label": html.escape(pause), "method": "animate", "args": [[None], stop]},
        ],
    }
