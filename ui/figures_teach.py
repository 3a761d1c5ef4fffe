"""Pure plotly builders for the teaching pages: arrays + labels → go.Figure, never st.*."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

DIVERGING = "RdBu_r"  # signed values (scores, vectors): blue < 0 < red
SEQUENTIAL = "Viridis"  # weights in [0, 1]; colour-blind safe
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000")
_MARGIN = {"l": 10, "r": 10, "t": 48, "b": 10}


def _esc(labels: Sequence[str]) -> list[str]:
    """Escape user text for plotly, which renders some HTML in ticks and hovers."""
    return [html.escape(str(s)) for s in labels]


def _stride(labels: Sequence[str]) -> list[int]:
    """Tick positions: every label, or every k-th when they would overlap (index labels thin
    out sooner than tokens)."""
    most = 16 if all(lab.isdigit() for lab in labels) else 40
    return list(range(0, len(labels), -(-len(labels) // most)))


def _layout(fig: go.Figure, title: str, height: int, font_size: int) -> go.Figure:
    fig.update_layout(
        title={"text": html.escape(title), "x": 0.01},
        height=height,
        margin=_MARGIN,
        font={"size": font_size},
        template="plotly_white",
        legend={"orientation": "h", "y": -0.18},
    )
    return fig


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
) -> go.Figure:
    """Heatmap of a 2-D array on numeric axes (duplicate labels stay apart).

    `weights` fixes the colour bar to 0–1 (sequential); otherwise a diagonal colour scale
    symmetric around 0 with half-range `zmax` (default: max |m|).
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
    trace = go.Heatmap(
        z=np.round(m, 4),
        x=list(range(len(c))),
        y=list(range(len(r))),
        colorscale=scale,
        zmin=lo,
        zmax=hi,
        text=hover,
        hoverinfo="text",
        texttemplate="%{z:.2f}" if show_numbers else None,
    )
    fig = go.Figure(trace)
    xs, ys = _stride(c), _stride(r)
    fig.update_xaxes(tickvals=xs, ticktext=[c[i] for i in xs], side="top", tickangle=0)
    fig.update_yaxes(tickvals=ys, ticktext=[r[i] for i in ys], autorange="reversed")
    auto = 150 + 22 * max(len(r), 4)
    fig = _layout(fig, title, height or min(auto, 680), font_size)
    # ticks sit on top: give the title its own band above them
    fig.update_layout(
        margin={**_MARGIN, "t": 40 + 3 * font_size},
        title={"yref": "container", "y": 0.99, "yanchor": "top"},
    )
    return fig


def histogram_pair(
    raw: np.ndarray, scaled: np.ndarray, *, names: Sequence[str], title: str, font_size: int = 12
) -> go.Figure:
    """Two overlaid histograms (raw q·k and q·k/√d_k) on one x axis."""
    fig = go.Figure()
    for values, name, colour in zip((raw, scaled), names, PALETTE, strict=False):
        fig.add_trace(
            go.Histogram(
                x=np.asarray(values),
                name=html.escape(name),
                opacity=0.6,
                marker_color=colour,
                nbinsx=80,
            )
        )
    fig.update_layout(barmode="overlay")
    return _layout(fig, title, 360, font_size)


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
    font_size: int = 12,
) -> go.Figure:
    """One line per series against x; names in `dashed` are drawn as reference lines."""
    fig = go.Figure()
    for i, (name, y) in enumerate(series.items()):
        ref = name in dashed
        fig.add_trace(
            go.Scatter(
                x=list(x),
                y=list(np.asarray(y, dtype=float)),
                name=html.escape(name),
                mode="lines" if ref else "lines+markers",
                line={"color": PALETTE[i % len(PALETTE)], "dash": "dash" if ref else "solid"},
            )
        )
    if vline is not None:
        fig.add_vline(x=vline[0], line_dash="dot", annotation_text=html.escape(vline[1]))
    fig.update_xaxes(title=html.escape(x_title), type="log" if log_x else "linear")
    fig.update_yaxes(title=html.escape(y_title), type="log" if log_y else "linear")
    return _layout(fig, title, 380, font_size)


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
    fig = go.Figure(
        go.Bar(
            x=list(range(len(labels))),
            y=vals,
            marker_color=colours,
            text=[f"{v:{fmt}}" for v in vals],
            textposition="outside",
            hovertext=[f"{lab}: {v:.3g}" for lab, v in zip(labels, vals, strict=True)],
            hoverinfo="text",
        )
    )
    fig.update_xaxes(tickvals=list(range(len(labels))), ticktext=labels)
    fig.update_yaxes(title=html.escape(y_title), range=list(y_range) if y_range else None)
    return _layout(fig, title, 340, font_size)


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
    fig = sweep_lines(
        ns, named, title=title, x_title=x_title, y_title=y_title, log_y=True, font_size=font_size
    )
    fig.update_xaxes(tickvals=list(ns), ticktext=[str(n) for n in ns])
    return fig.update_yaxes(dtick=1)  # one tick per decade


# ---- the learned-attention page: training curves with the current step marked


def loss_figure(losses, steps, heldout_loss, step, t, font_size: int = 12) -> go.Figure:
    """Training loss per update, its moving average, held-out loss at checkpoints, a marker."""
    x = np.arange(1, len(losses) + 1)
    window = max(1, len(losses) // 40)
    smooth = np.convolve(losses, np.ones(window) / window, mode="valid")  # (steps-window+1,)
    fig = go.Figure()
    fig.add_scatter(x=x, y=losses, name=t("learned.loss_train"), line={"width": 1}, opacity=0.35)
    fig.add_scatter(x=x[window - 1 :], y=smooth, name=t("learned.loss_smooth"))
    fig.add_scatter(x=steps, y=heldout_loss, name=t("learned.loss_heldout"), mode="lines+markers")
    return _marked(fig, step, t("learned.loss"), t, font_size)


def accuracy_figure(steps, heldout: dict, step, t, font_size: int = 12) -> go.Figure:
    """Held-out figures at every checkpoint, chance as a dashed line, the current step marked."""
    fig = go.Figure()
    for key, name in (
        ("any_head_acc", "learned.acc_any"),
        ("best_head_weight", "learned.acc_weight"),
        ("readout_acc", "learned.acc_readout"),
    ):
        fig.add_scatter(x=steps, y=heldout[key], name=t(name), mode="lines+markers")
    fig.add_scatter(
        x=steps, y=heldout["any_head_chance"], name=t("learned.acc_chance"), line={"dash": "dash"}
    )
    fig.update_yaxes(range=[0, 1.02], tickformat=".0%")
    return _marked(fig, step, t("learned.acc_title"), t, font_size)


def _marked(fig: go.Figure, step: int, title: str, t, font_size: int) -> go.Figure:
    fig.add_vline(x=step, line_dash="dot", line_color="#d62728")
    fig.add_annotation(x=step, y=1, yref="paper", text=t("learned.now"), showarrow=False)
    fig.update_layout(
        title=title,
        height=320,
        font={"size": font_size},
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        legend={"orientation": "h", "y": -0.25},
        xaxis_title=t("learned.x_step"),
    )
    return fig
