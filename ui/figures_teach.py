"""Pure plotly builders for the teaching pages: arrays + labels → go.Figure, never st.*."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from ui.figures import UPRIGHT_MAX, WEIGHT_SCALE

DIVERGING = "RdBu_r"  # signed values (scores, vectors): blue < 0 < red
SEQUENTIAL = WEIGHT_SCALE  # weights in [0, 1]: the app's one ramp, viridis on a square root
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000")
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
    return go.Figure({"data": [trace], "layout": layout})


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
    return go.Figure({"data": traces, "layout": layout})


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
    return go.Figure({"data": traces, "layout": layout})


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
    return go.Figure({"data": [trace], "layout": layout})


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
    return go.Figure({"data": _sweep_traces(ns, named, ()), "layout": layout})


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
    return go.Figure({"data": traces, "layout": layout})


# ---- the learned-attention page: training curves with the current step marked


def loss_figure(losses, steps, heldout_loss, step, t, font_size: int = 12) -> go.Figure:
    """Training loss per update, its moving average, held-out loss at checkpoints, a marker."""
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
        {"x": steps, "y": heldout_loss, "name": t("learned.loss_heldout"), "mode": "lines+markers"},
    ]
    return _marked(traces, step, t("learned.loss"), t, font_size)


def accuracy_figure(steps, heldout: dict, step, t, font_size: int = 12) -> go.Figure:
    """Held-out figures at every checkpoint, chance as a dashed line, the current step marked."""
    traces = [
        {"x": steps, "y": heldout[key], "name": t(name), "mode": "lines+markers"}
        for key, name in (
            ("any_head_acc", "learned.acc_any"),
            ("best_head_weight", "learned.acc_weight"),
            ("readout_acc", "learned.acc_readout"),
        )
    ]
    chance = {"x": steps, "y": heldout["any_head_chance"], "name": t("learned.acc_chance")}
    traces.append({**chance, "line": {"dash": "dash"}})
    return _marked(
        traces,
        step,
        t("learned.acc_title"),
        t,
        font_size,
        y_axis={"range": [0, 1.02], "tickformat": ".0%"},
    )


def _marked(traces: list, step: int, title: str, t, font_size: int, y_axis=None) -> go.Figure:
    """Line traces with the current step marked, white template, legend below."""
    layout = _layout(title, 320, font_size, **_vline(step, color="#d62728"))
    layout["title"] = {"text": title}
    layout["margin"]["t"] = 40
    layout["legend"] = {"orientation": "h", "y": -0.25}
    layout["xaxis"] = {"title": {"text": t("learned.x_step")}}
    if y_axis:
        layout["yaxis"] = y_axis
    note = {"x": step, "y": 1, "yref": "paper", "text": t("learned.now"), "showarrow": False}
    layout["annotations"] = [note]
    return go.Figure({"data": [{"type": "scatter", **tr} for tr in traces], "layout": layout})
