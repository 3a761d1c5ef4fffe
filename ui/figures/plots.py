"""Line, bar and histogram charts of the teaching pages: sweeps, fits, one row of weights."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ui.figures.axes import ZWSP, stands_upright
from ui.figures.base import (
    axis_style,
    esc,
    figure,
    fonts,
    head_colour,
    layout,
    legend_below,
    log_ticks,
    merge_axis,
    narrow_room,
    stride,
    token_labels,
    vline_shape,
)
from ui.figures.base import vline as vline_parts

LINE_PX = 260  # plot height of a line chart; the title, axes and legend add theirs


def _height(classroom: bool) -> int:
    """A line or bar chart's height before its legend: the plot, its title and its axes."""
    size = fonts(classroom)
    return LINE_PX + int(1.5 * size["title"]) + int(2.8 * size["base"]) + 40


def _axis(title: str, *, log=False, values=None, classroom=False, across: int = 1) -> dict:
    """An axis titled `title`; a log axis gets full-size ticks: at its few `values` themselves
    (d_k = 4, 16, 64 …, as many as fit), else at decades."""
    axis = {"title": {"text": esc(title)}, "type": "log" if log else "linear"}
    if log and values is not None and len(values) <= 12:
        labels = [f"{v:g}" for v in values]
        every = stride(labels, classroom, across, room=narrow_room(classroom, across))
        axis.update(tickvals=list(values)[::every], ticktext=labels[::every], tickangle=0)
    elif log and values is not None:
        axis.update(log_ticks(values))
    return axis


def _lines(x, series: Mapping[str, Sequence[float]], dashed=(), colours=None) -> list:
    """Line traces; `colours` maps a series name to its colour index (default: its position)."""
    traces = []
    for i, (name, y) in enumerate(series.items()):
        ref = name in dashed
        traces.append(
            {
                "type": "scatter",
                "x": list(x),
                "y": list(np.asarray(y, dtype=float)),
                "name": esc(name),
                "mode": "lines" if ref else "lines+markers",
                "line": {
                    "color": head_colour((colours or {}).get(name, i)),
                    "dash": "dash" if ref else "solid",
                },
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
    classroom: bool = False,
    right: Mapping[str, Sequence[float]] | None = None,
    right_title: str = "",
    right_range: tuple[float, float] | None = None,
    colours: Mapping[str, int] | None = None,
    across: int = 1,
) -> go.Figure:
    """One line per series against x; names in `dashed` are drawn as reference lines.

    vline: (x, label) as a dotted, labelled line; mark: x of a solid orange line (a slider's
    current value). right: series measured in another unit, drawn against a second y axis on
    the right titled `right_title` (never one unlabelled axis for two units). colours: series
    name → colour index, to pair a dashed line with its solid one. across: charts in the row."""
    ys = [v for y in series.values() for v in y]
    lay = layout(
        title,
        _height(classroom),
        classroom,
        across,
        xaxis=_axis(x_title, log=log_x, values=x, classroom=classroom, across=across),
        yaxis=_axis(y_title, log=log_y, values=ys if log_y else None),
    )
    traces = _lines(x, series, dashed, colours)
    if right:
        more = _lines(x, {**series, **right}, dashed, colours)[len(series) :]
        traces += [{**tr, "yaxis": "y2"} for tr in more]
        right_axis = {"title": {"text": esc(right_title)}, "overlaying": "y", "type": "linear"}
        lay["yaxis2"] = {
            **merge_axis(axis_style(classroom), right_axis),
            "side": "right",
            "showgrid": False,
            "tickmode": "auto",  # its own round ticks, not the left axis's grid positions
            **({"range": list(right_range)} if right_range else {}),
        }
    if vline is not None:
        size = fonts(classroom)["base"]
        lay.update(vline_parts(vline[0], vline[1], log_x=log_x, size=size))
    if mark is not None:
        lay["shapes"] = [*lay.get("shapes", []), vline_shape(mark, "solid", color=head_colour(1))]
    legend_below(lay, traces, classroom, across)
    return figure(traces, lay)


def loglog_fit(
    ns: Sequence[float],
    series: Mapping[str, Sequence[float]],
    slopes: Mapping[str, float],
    *,
    title: str,
    y_title: str,
    x_title: str = "n",
    classroom: bool = False,
    across: int = 1,
) -> go.Figure:
    """Measured series against n on log-log axes, each legend entry carrying its fitted slope."""
    named = {f"{name}: ∝ {x_title}^{slopes[name]:.2f}": ys for name, ys in series.items()}
    labels = [str(n) for n in ns]
    every = stride(labels, classroom, across, room=narrow_room(classroom, across))
    x_axis = {**_axis(x_title, log=True), "tickvals": list(ns)[::every], "tickangle": 0}
    x_axis["ticktext"] = labels[::every]
    y_axis = {**_axis(y_title, log=True), "dtick": 1}  # a label a decade, all full size
    lay = layout(title, _height(classroom), classroom, across, xaxis=x_axis, yaxis=y_axis)
    return figure(legend_below(lay, _lines(ns, named), classroom, across), lay)


def histogram_pair(
    raw: np.ndarray,
    scaled: np.ndarray,
    *,
    names: Sequence[str],
    title: str,
    classroom: bool = False,
    bins: int = 80,
) -> go.Figure:
    """Two overlaid histograms (raw q·k and q·k/√d_k) on one x axis.

    Binned here, `bins` bars each: the browser gets 2 × bins counts instead of every sample
    (20,000 float64 each: ~430 KB of base64 per page view, binned again on every redraw).
    """
    traces = []
    for k, (values, name) in enumerate(zip((raw, scaled), names, strict=True)):
        counts, edges = np.histogram(np.asarray(values, dtype=float), bins=bins)
        traces.append(
            {
                "type": "bar",
                "x": (edges[:-1] + edges[1:]) / 2,
                "y": counts,
                "width": np.diff(edges),
                "name": esc(name),
                "opacity": 0.6,
                "marker": {"color": head_colour(k), "line": {"width": 0}},
                "hovertemplate": "%{x:.2f}: %{y}<extra>" + esc(name) + "</extra>",
            }
        )
    lay = layout(title, _height(classroom), classroom, barmode="overlay", bargap=0)
    legend_below(lay, traces, classroom)
    return figure(traces, lay)


def _bar_axis(labels: list[str], classroom: bool) -> dict:
    """An x axis of named bars on numeric positions (a repeated token keeps its own bar): labels
    across when they fit, numbers thinned across; else Chinese words stand upright, one
    character under another (as the maps and the main page's view draw them), others turn."""
    every = stride(labels, classroom)
    numbers = all(label.isdigit() for label in labels)  # dimensions: every k-th, upright
    angle = 0 if every == 1 or numbers else -90
    text = labels
    if angle:
        every = stride(labels, classroom, upright=False)
        if stands_upright(labels):
            angle, text = 0, ["<br>".join(label.replace(ZWSP, "")) for label in labels]
    pos = list(range(len(labels)))
    return {"tickvals": pos[::every], "ticktext": text[::every], "tickangle": angle}


def bars(
    values: Sequence[float],
    labels: Sequence[str],
    *,
    title: str,
    y_title: str = "",
    y_range: tuple[float, float] | None = None,
    fmt: str = ".2f",
    classroom: bool = False,
) -> go.Figure:
    """Vertical bars on numeric positions (duplicate labels kept apart); `fmt` formats the value
    written above each bar (left out where it would be unreadable)."""
    names, vals = token_labels(labels), np.asarray(values, dtype=float)
    size = fonts(classroom)
    trace = {
        "type": "bar",
        "x": list(range(len(names))),
        "y": vals,
        "marker": {"color": head_colour(0)},
        "text": [f"{v:{fmt}}" for v in vals],
        "textposition": "outside",
        "textfont": {"size": size["cell"]},
        "hovertext": [f"{lab}: {v:.3g}" for lab, v in zip(names, vals, strict=True)],
        "hoverinfo": "text",
    }
    y_axis = {"title": {"text": esc(y_title)}, **({"range": list(y_range)} if y_range else {})}
    lay = layout(
        title,
        _height(classroom),
        classroom,
        xaxis=_bar_axis(names, classroom),
        yaxis=y_axis,
        uniformtext={"minsize": size["min"], "mode": "hide"},
    )
    return figure([trace], lay)
