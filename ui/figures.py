"""Pure figure builders: arrays + token texts → plotly Figures (no Streamlit calls here)."""

from __future__ import annotations

import base64
import html
from unicodedata import east_asian_width

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from attention_core.analysis import row_entropy
from ui.text import t

VIRIDIS = (
    "#440154",
    "#482878",
    "#3e4989",
    "#31688e",
    "#26828e",
    "#1f9e89",
    "#35b779",
    "#6ece58",
    "#b5de2b",
    "#fde725",
)
# Viridis (colour-blind-safe) with a square-root ramp: the many small weights (≈ 1/n) stay
# distinguishable while the colour bar still reads 0–100 %.
WEIGHT_SCALE = [[(k / (len(VIRIDIS) - 1)) ** 2, c] for k, c in enumerate(VIRIDIS)]
SIGNED_SCALE = "RdBu_r"  # diverging for scores and matrices (ColorBrewer, colour-blind-safe)
HEAD_COLOURS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)
LABEL_CHARS = 8  # longer token texts are cut with "…" on axes
MAX_CELL_NUMBERS = 24  # above this many tokens, numbers in cells are too crowded
MAX_SCORE_NUMBERS = 10  # scores need more digits ("-3.7"), so fewer tokens fit
UPRIGHT_MAX = 8  # up to this many tokens, x labels stay horizontal; above, they turn -90°
COMPACT_N = 32  # above this many tokens, score maps send int8 colour levels (hover: tokens only)
DTICK_ALL = 40  # up to this many tokens every axis label is drawn
PLOTLY_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 3, "filename": "attention_lab"},
    "modeBarButtonsToRemove": ["lasso2d", "select2d"],
}


# ---- helpers ---------------------------------------------------------------------------------


def token_labels(texts: list[str], max_chars: int = LABEL_CHARS) -> list[str]:
    """Axis categories: cut, HTML-escaped (plotly renders tags), unique (repeats get a ZWSP)."""
    labels, seen = [], set()
    for text in texts:
        text = " ".join(str(text).split()) or "␣"
        if len(text) > max_chars:
            text = text[: max_chars - 1] + "…"
        label = html.escape(text, quote=False)
        while label in seen:
            label += "\u200b"  # zero-width space: same glyphs, a different category
        seen.add(label)
        labels.append(label)
    return labels


def weights_to_pct(weights: np.ndarray) -> np.ndarray:
    """Attention weights in [0, 1] → whole percent as uint8 (1.3 bytes per cell on the wire)."""
    return np.rint(np.clip(np.nan_to_num(weights), 0.0, 1.0) * 100).astype(np.uint8)


def compact(values: np.ndarray, decimals: int = 2) -> np.ndarray:
    """Real values rounded and sent as float32 (base64 on the wire)."""
    return np.round(np.nan_to_num(np.asarray(values, dtype=np.float64)), decimals).astype(
        np.float32
    )


def decode_array(obj) -> np.ndarray:
    """Figure-JSON array (a list or plotly's {"dtype", "bdata", "shape"}) → numpy array."""
    if not isinstance(obj, dict):
        return np.asarray(obj, dtype=float)
    data = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=np.dtype(obj["dtype"]))
    shape = obj.get("shape")
    if shape:
        data = data.reshape([int(s) for s in str(shape).split(",")])
    return data


def font_sizes(classroom: bool) -> dict[str, int]:
    """Base, title and in-cell font sizes; classroom mode is readable from the back row."""
    return (
        {"base": 17, "title": 20, "cell": 15}
        if classroom
        else {"base": 12, "title": 14, "cell": 11}
    )


def map_height(n: int, classroom: bool = False) -> int:
    """Pixel height of an (n, n) map: room for the labels, cells that grow with the class."""
    per, top = (36, 680) if classroom else (26, 560 if n <= 48 else 760)
    return max(260, min(top, 80 + per * n))


def _layout(*, title: str, height: int, classroom: bool) -> dict:
    """Small explicit template (no 3 KB default), transparent background, CJK-first fonts."""
    size = font_sizes(classroom)
    return {
        "template": {},
        "title": {"text": title, "font": {"size": size["title"]}, "x": 0, "xanchor": "left"},
        "font": {
            "size": size["base"],
            "family": "Noto Sans CJK SC, PingFang SC, sans-serif",
            "color": "#000" if classroom else "#31333F",
        },
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 36 if title else 10, "b": 10},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "hoverlabel": {"font": {"size": size["base"] + 2}},
    }


def _base_layout(fig: go.Figure, *, title: str, height: int, classroom: bool) -> go.Figure:
    fig.update_layout(
        **{**_layout(title=title, height=height, classroom=classroom), "template": None}
    )  # {} here would bring plotly's default back
    return fig


def _token_axes(labels: list[str], font: dict, *, narrow: bool = False) -> dict:
    """Categorical token axes in sentence order, rows top to bottom, square cells.

    Every label is drawn up to DTICK_ALL tokens (plotly would skip crowded ones).
    """
    upright = len(labels) <= (4 if narrow else UPRIGHT_MAX)
    common = {
        "type": "category",
        "automargin": False,  # margins come from _tick_margins: no second layout pass in plotly
        "showgrid": False,
        "constrain": "domain",
        "tickfont": {"size": font["size"], "color": font["color"]},
    }
    if len(labels) <= DTICK_ALL:
        common["dtick"] = 1
    return {
        "xaxis": {**common, "tickangle": 0 if upright else -90},
        "yaxis": {**common, "autorange": "reversed", "scaleanchor": "x"},
    }


def _tick_margins(labels: list[str], size: int, x_angle: int) -> dict:
    """Left/bottom margins that fit the tick labels (a CJK glyph is ~1 em, others ~0.6 em).

    Fixed margins instead of plotly's automargin, which lays every map out twice (measure the
    labels, grow the margins, draw again): −19 % renderer CPU per click at 13 tokens, −39 % at
    64 (BENCHMARKS.md).
    """
    ems = max(
        (sum(1.0 if east_asian_width(c) in "WF" else 0.6 for c in x) for x in labels), default=1
    )
    wide = int(ems * size * 1.1) + 22  # + tick mark and padding
    return {"l": wide, "b": wide if x_angle else size + 12}


def _colourbar_room(size: int, chars: int = 4) -> int:
    """Right margin that holds a colour bar whose tick labels have `chars` characters.

    Plotly otherwise pushes the margin out for the bar and lays the figure out a second time;
    a map with its room reserved draws in ~10 ms instead of ~15 (fitted in Chromium: the bar
    takes 82 px at font size 12 and 95 px at 17 with "100%" labels; BENCHMARKS.md).
    """
    return 53 + int(0.65 * size * chars)


def _map_figure(
    trace: dict,
    labels: list[str],
    *,
    title: str,
    height: int,
    classroom: bool,
    narrow: bool = False,
    bar_chars: int = 0,
) -> go.Figure:
    """An (n, n) token map from one dict: a single validation pass, ~10× faster than updates.

    bar_chars > 0 reserves room on the right for a colour bar whose tick labels are that many
    characters long (also for a map without a bar, so maps in a row keep equal squares).
    """
    layout = _layout(title=title, height=height, classroom=classroom)
    axes = _token_axes(labels, layout["font"], narrow=narrow)
    layout.update(axes)
    layout["margin"].update(
        _tick_margins(labels, layout["font"]["size"], axes["xaxis"]["tickangle"])
    )
    if bar_chars:
        layout["margin"]["r"] = _colourbar_room(layout["font"]["size"], bar_chars)
    return go.Figure({"data": [trace], "layout": layout})


# ---- attention heatmaps ----------------------------------------------------------------------


def attention_heatmap(
    weights: np.ndarray,
    texts: list[str],
    *,
    title: str = "",
    lang: str = "zh",
    zmax: float = 1.0,
    numbers: bool = False,
    classroom: bool = False,
    showscale: bool = True,
    height: int | None = None,
    narrow: bool = False,
    bar_room: bool | None = None,
) -> go.Figure:
    """One (n, n) weight map: rows are queries, columns keys; hover "他 → 小明: 61%".

    bar_room: keep the colour bar's room on the right (default: when it shows one).
    """
    n = weights.shape[-1]
    if weights.shape != (n, n) or len(texts) != n:
        raise ValueError(f"weights have shape {weights.shape}, while there are {len(texts)} tokens")
    labels = token_labels(texts)
    show_numbers = numbers and n <= MAX_CELL_NUMBERS
    trace = {
        "type": "heatmap",
        "z": weights_to_pct(weights),
        "x": labels,
        "y": labels,
        "colorscale": WEIGHT_SCALE,
        "zmin": 0,
        "zmax": max(1, round(100 * zmax)),
        "showscale": showscale,
        "colorbar": {"ticksuffix": "%", "thickness": 12, "len": 0.9},
        "hovertemplate": "%{y} → %{x}: %{z}%<extra></extra>",
        "textfont": {"size": font_sizes(classroom)["cell"]},
        "xgap": 1 if n <= 32 else 0,
        "ygap": 1 if n <= 32 else 0,
    }
    if show_numbers:
        trace["texttemplate"] = "%{z}"
    side = map_height(n, classroom) if height is None else height
    chars = 4 if (showscale if bar_room is None else bar_room) else 0  # "100%"
    return _map_figure(
        trace, labels, title=title, height=side, classroom=classroom, narrow=narrow, bar_chars=chars
    )


def head_heatmaps(
    weights: np.ndarray,
    texts: list[str],
    *,
    lang: str = "zh",
    shared_scale: bool = True,
    numbers: bool = False,
    classroom: bool = False,
    cols: int = 1,
) -> list[go.Figure]:
    """One weight map per head, weights (h, n, n); per-head colour scales stretch to each max.

    cols: maps per row as the page lays them out. With the shared scale only the last map of
    each row draws the (identical) colour bar and the others keep its room, so every square is
    the same size: a colour bar costs the browser about as much as the map it sits beside.
    """
    figs, h = [], len(weights)
    for i, head in enumerate(weights):
        peak = float(head.max()) if head.size else 1.0
        zmax = 1.0 if shared_scale else max(peak, 0.01)
        title = t("main.head", lang, i=i + 1)
        if not shared_scale:
            title = t("main.head_max", lang, i=i + 1, m=f"{peak:.2f}")
        row_end = (i + 1) % max(cols, 1) == 0 or i == h - 1
        figs.append(
            attention_heatmap(
                head,
                texts,
                title=title,
                lang=lang,
                zmax=zmax,
                numbers=numbers,
                classroom=classroom,
                showscale=row_end or not shared_scale,
                bar_room=True,
            )
        )
    return figs


def grid_columns(heads: int, n: int, classroom: bool = False) -> int:
    """Heatmaps per row: two at 1280 px, three for many heads on short sentences, one for long."""
    if heads == 1 or n > 48:
        return 1
    return 3 if heads >= 6 and n <= 16 and not classroom else 2


def _score_trace(scores: np.ndarray, limit: float) -> dict:
    """z and colour settings: exact float32 up to COMPACT_N tokens, int8 levels of ±limit above."""
    n = scores.shape[-1]
    z = np.where(np.isfinite(scores), scores, 0.0)
    if n <= COMPACT_N:
        return {
            "z": compact(z),
            "zmin": -limit,
            "zmax": limit,
            "hovertemplate": "%{y} → %{x}: %{z:.2f}<extra></extra>",
        }
    levels = np.rint(np.clip(z / limit, -1, 1) * 127).astype(np.int8)  # 1.3 bytes a cell
    ticks = [-127, -64, 0, 64, 127]
    return {
        "z": levels,
        "zmin": -127,
        "zmax": 127,
        "hovertemplate": "%{y} → %{x}<extra></extra>",
        "colorbar": {
            "thickness": 12,
            "len": 0.9,
            "tickvals": ticks,
            "ticktext": [f"{limit * v / 127:.1f}" for v in ticks],
        },
    }


def score_heatmap(
    scores: np.ndarray,
    texts: list[str],
    *,
    title: str,
    limit: float,
    numbers: bool = False,
    classroom: bool = False,
    showscale: bool = True,
) -> go.Figure:
    """Raw or scaled Q·Kᵀ on a diverging scale fixed to ±limit (so two panels compare)."""
    n = scores.shape[-1]
    labels = token_labels(texts)
    trace = {"colorbar": {"thickness": 12, "len": 0.9}, **_score_trace(scores, limit)}
    show_numbers = numbers and n <= MAX_SCORE_NUMBERS
    trace.update(
        {
            "type": "heatmap",
            "x": labels,
            "y": labels,
            "colorscale": SIGNED_SCALE,
            "zmid": 0,
            "showscale": showscale,
            "textfont": {"size": font_sizes(classroom)["cell"]},
            "xgap": 1 if n <= 32 else 0,
            "ygap": 1 if n <= 32 else 0,
        }
    )
    if show_numbers:
        trace["texttemplate"] = "%{z:.1f}"
    return _map_figure(
        trace,
        labels,
        title=title,
        height=map_height(n, classroom),
        classroom=classroom,
        bar_chars=5,  # "-12.5"; also without a bar, so the raw and scaled panels match
    )


def score_limit(*arrays: np.ndarray) -> float:
    """A symmetric colour limit covering every finite value of the given arrays."""
    peaks = [np.max(np.abs(a[np.isfinite(a)])) for a in arrays if np.isfinite(a).any()]
    return float(max(peaks, default=1.0)) or 1.0


# ---- row statistics and focus bars -----------------------------------------------------------


def row_stats_figure(
    w_scaled: np.ndarray,
    w_unscaled: np.ndarray,
    texts: list[str],
    *,
    lang: str = "zh",
    classroom: bool = False,
) -> go.Figure:
    """Per query row: entropy and max weight, with and without scaling, as grouped bars."""
    labels = token_labels(texts)
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08)
    for which, weights in enumerate((w_scaled, w_unscaled)):
        group = t("main.w_scaled" if which == 0 else "main.w_unscaled", lang)
        for row, values in ((1, row_entropy(weights, base=2)), (2, weights.max(axis=-1))):
            fig.add_trace(
                go.Bar(
                    x=labels,
                    y=compact(values, 3),
                    name=group,
                    legendgroup=group,
                    showlegend=row == 1,
                    marker_color=HEAD_COLOURS[which],
                    hovertemplate="%{x}: %{y:.2f}<extra>" + group + "</extra>",
                ),
                row=row,
                col=1,
            )
    _base_layout(fig, title="", height=420 if classroom else 340, classroom=classroom)
    fig.update_layout(barmode="group", legend={"orientation": "h", "y": -0.25})
    fig.update_xaxes(type="category", tickangle=-90 if len(labels) > 16 else 0)
    fig.update_yaxes(title_text=t("main.entropy_axis", lang), row=1, col=1)
    fig.update_yaxes(title_text=t("main.max_axis", lang), range=[0, 1], row=2, col=1)
    return fig


def focus_bars(
    weights: np.ndarray,
    index: int,
    texts: list[str],
    *,
    lang: str = "zh",
    classroom: bool = False,
) -> go.Figure:
    """Row `index` of every head's weights (h, n, n): for each key token, one bar per head.

    Grouped by token, so the axis carries n labels and a legend names the heads: grouping by
    head needed h·n rotated labels, which were 28 of the 38 ms Chromium took to draw the chart
    at 13 tokens × 4 heads (BENCHMARKS.md). Built from one dict, like the maps.
    """
    h, n, _ = weights.shape
    if not 0 <= index < n:
        raise ValueError(f"focus index {index} is outside 0…{n - 1}")
    labels = token_labels(texts)
    focus = labels[index].replace("%{", "%\u200b{")  # never a template field
    traces = [
        {
            "type": "bar",
            "x0": 0,
            "dx": 1,
            "y": compact(weights[i, index], 3),
            "hovertext": labels,
            "name": t("main.head", lang, i=i + 1),
            "marker": {"color": HEAD_COLOURS[i % len(HEAD_COLOURS)]},
            "hovertemplate": focus + " → %{hovertext}: %{y:.2f}<extra>%{fullData.name}</extra>",
        }
        for i in range(h)
    ]
    layout = _layout(title="", height=360 if classroom else 300, classroom=classroom)
    size = layout["font"]["size"]
    step = -(-n // DTICK_ALL)  # every label up to DTICK_ALL tokens, then every step-th
    angle = 0 if n <= UPRIGHT_MAX * 2 else -90
    top = float(weights[:, index].max()) if n else 1.0
    layout.update(
        barmode="group",
        bargap=0.25,
        showlegend=h > 1,
        legend={"orientation": "h", "x": 0, "xanchor": "left", "y": 1.0, "yanchor": "bottom"},
        xaxis={
            "tickmode": "array",
            "tickvals": list(range(0, n, step)),
            "ticktext": labels[::step],
            "tickangle": angle,
            "range": [-0.5, n - 0.5],
            "showgrid": False,
            "automargin": False,
        },
        yaxis={
            "title": {"text": t("main.weight", lang)},
            "range": [0, min(1.0, max(0.3, 1.15 * top))],
            "automargin": False,
        },
    )
    layout["margin"].update(
        {"l": 3 * size + 30, "t": 2 * size + 14 if h > 1 else 10},
        b=_tick_margins(labels[::step], size, angle)["b"] if angle else 2 * size + 12,
    )
    return go.Figure({"data": traces, "layout": layout})


def matrix_heatmap(
    values: np.ndarray,
    texts: list[str],
    *,
    title: str,
    lang: str = "zh",
    classroom: bool = False,
) -> go.Figure:
    """A (n, d) matrix such as X, Q, K, V or the output: rows tokens, columns dimensions."""
    n, d = values.shape
    if len(texts) != n:
        raise ValueError(f"matrix has {n} rows, while there are {len(texts)} tokens")
    labels = token_labels(texts)
    limit = score_limit(values)
    fig = go.Figure(
        go.Heatmap(
            z=compact(values),
            x=np.arange(d, dtype=np.int16),
            y=labels,
            colorscale=SIGNED_SCALE,
            zmin=-limit,
            zmax=limit,
            colorbar={"thickness": 12, "len": 0.9},
            hovertemplate="%{y}, " + t("main.dim_axis", lang) + " %{x}: %{z:.2f}<extra></extra>",
        )
    )
    _base_layout(fig, title=title, height=max(220, min(520, 50 + 18 * n)), classroom=classroom)
    fig.update_xaxes(title_text=t("main.dim_axis", lang), showgrid=False)
    fig.update_yaxes(type="category", autorange="reversed", automargin=True, showgrid=False)
    return fig
