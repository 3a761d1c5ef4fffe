"""Heatmaps: attention weights (token × token) and any other matrix, on one set of rules."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.figures import axes
from ui.figures.base import (
    colourbar,
    colourbar_room,
    compact,
    esc,
    figure,
    fonts,
    ink,
    layout,
    plot_room,
    title_band,
    token_labels,
    vline_shape,
    weights_to_pct,
)
from ui.palette import (
    BLACK,
    MAX_CELL_NUMBERS,
    SIGNED_SCALE,
    WEIGHT_SCALE,
    WHITE,
    scale_colours,
    text_on,
)
from ui.text import t

UPRIGHT_MAX = 8  # up to this many tokens, x labels read across; above, they stand or turn
MARGINS_USUAL = 110  # px of margins ui.figures.base.plot_room already took off a chart's share


# ---- cells: numbers in the ink their colour needs, at a size that fits ------------------------


def cell_texts(z: np.ndarray, labels: np.ndarray, zmin: float, zmax: float, scale) -> list:
    """Cell numbers as plotly text: white by default, black (a span) on light cells."""
    dark = text_on(scale_colours(z, zmin, zmax, scale)) == BLACK
    return [
        [
            f'<span style="color:{BLACK}">{v}</span>' if d else str(v)
            for v, d in zip(row, drow, strict=True)
        ]
        for row, drow in zip(labels.tolist(), dark.tolist(), strict=True)
    ]


def cell_font(columns: int, classroom: bool, digits: int = 3, width: int = 560) -> int:
    """In-cell font size: the mode's size, smaller when `digits` would not fit a cell of a
    `width`-px map; 0 when even the mode's smallest readable size does not fit (no numbers)."""
    size = fonts(classroom)
    room = int(width / max(columns, 1) / (0.62 * digits + 0.3))
    fit = min(size["cell"], room)
    return fit if fit >= size["min"] else 0


def _with_numbers(trace: dict, z: np.ndarray, labels: np.ndarray, size: int) -> dict:
    """Numbers written in the cells, each in white or black for its colour (≥ 4.5 : 1)."""
    trace["text"] = cell_texts(z, labels, trace["zmin"], trace["zmax"], trace["colorscale"])
    trace["texttemplate"] = "%{text}"
    trace["textfont"] = {"size": size, "color": WHITE}
    return trace


# ---- axes and margins ----------------------------------------------------------------------------


def map_height(n: int, classroom: bool = False) -> int:
    """Pixel height of an (n, n) map."""
    chrome, per, top = (170, 40, 720) if classroom else (90, 26, 560 if n <= 48 else 760)
    return max(260, min(top, chrome + per * n))


def _map(trace: dict, rows: list[str], cols: list[str], spec: dict) -> go.Figure:
    """A heatmap from one trace: rows top to bottom, margins for its labels, every label that
    fits drawn. spec: title, height, classroom, titles (x, y), square, upright (labels fit
    across), room, row_px and optionally glosses (rows', columns'), bar_chars, bar_title,
    shapes."""
    size, colour = fonts(spec["classroom"])["base"], ink(spec["classroom"])
    lay = layout(spec["title"], spec["height"], spec["classroom"], spec.get("across", 1))
    x_title, y_title = spec["titles"]
    row_gloss = (spec.get("glosses") or ([None] * len(rows), None))[0]
    spec = {**spec, "glosses": (row_gloss, spec.get("glosses", (None, [None] * len(cols)))[1])}
    if not spec["square"]:  # the chart's share of the page less its margins (glossed rows'
        bar = colourbar_room(size, spec["bar_chars"]) if spec.get("bar_chars") else 10
        spec["room"] += MARGINS_USUAL - axes.left_margin(rows, size, spec) - bar  # widen the left)
    way, col_gloss, every = axes.x_labels(cols, size, spec)
    spec = {**spec, "glosses": (row_gloss, col_gloss)}
    ticks = axes.ticks(cols, col_gloss, every, way, axes.gloss_px(size))
    lay["xaxis"] = axes.axis(cols, size, colour, x_title, ticks)
    ticks = axes.ticks(
        rows, row_gloss, axes.every_nth(size + 4, 1, spec["row_px"]), "beside", axes.gloss_px(size)
    )
    lay["yaxis"] = {**axes.axis(rows, size, colour, y_title, ticks), "autorange": "reversed"}
    if spec["square"]:  # square cells; the square hangs from the top-left corner
        lay["xaxis"].update(constrain="domain", constraintoward="left")
        lay["yaxis"].update(scaleanchor="x", constrain="domain", constraintoward="top")
    lay["margin"].update(axes.margins(rows, cols, size, way, spec))
    if spec.get("bar_chars"):
        lay["margin"]["r"] = colourbar_room(size, spec["bar_chars"], spec.get("bar_title", ""))
    if spec.get("shapes"):
        lay["shapes"] = spec["shapes"]
    return figure([trace], lay)


# ---- attention weights: token × token ------------------------------------------------------------


def _weights_trace(weights: np.ndarray, labels: list[str], zmax: float, size: int, bar: str):
    """The heatmap trace of an (n, n) weight map: the core's weights to 4 decimals on the
    square-root ramp from 0 to zmax, hover "他 → 小明: 61%", a colour bar titled `bar`."""
    n = len(labels)
    return {
        "type": "heatmap",
        "z": compact(np.clip(weights, 0.0, 1.0), 4),
        "x": labels,
        "y": labels,
        "colorscale": WEIGHT_SCALE,
        "zmin": 0,
        "zmax": zmax,
        "colorbar": {**colourbar(size, bar), "tickformat": ".0%"},
        "hovertemplate": "%{y} → %{x}: %{z:.0%}<extra></extra>",
        "xgap": 1 if n <= 32 else 0,
        "ygap": 1 if n <= 32 else 0,
    }


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

    Viridis on a square-root ramp (the palette's WEIGHT_SCALE) from 0 to `zmax`; the core's
    weights on the wire (4 decimals), whole percents in the cells and the hover.
    bar_room: keep the colour bar's room on the right (default: when it shows one), so maps
    in a row keep equal squares; narrow: a map in a half-width column (labels turn sooner).
    """
    n = weights.shape[-1]
    if weights.shape != (n, n) or len(texts) != n:
        raise ValueError(f"weights have shape {weights.shape}, while there are {len(texts)} tokens")
    labels, bar_title = token_labels(texts), t("fig.sqrt_ramp", lang)
    trace = _weights_trace(weights, labels, zmax, fonts(classroom)["base"], bar_title)
    trace["showscale"] = showscale
    side = map_height(n, classroom) if height is None else height
    room = min(plot_room(classroom, 2 if narrow else 1), side - 130)  # the square's side, about
    cell = cell_font(n, classroom, width=room) if numbers and n <= MAX_CELL_NUMBERS else 0
    if cell:  # whole percents
        _with_numbers(trace, trace["z"], weights_to_pct(weights), cell)
    keep_bar = showscale if bar_room is None else bar_room
    spec = {
        "title": title,
        "height": side,
        "classroom": classroom,
        "titles": (t("main.key_axis", lang), t("main.query_axis", lang)),
        "square": True,
        "upright": n <= (4 if narrow else UPRIGHT_MAX),
        "room": room,
        "across": 2 if narrow else 1,
        "row_px": room / n,
        "glosses": (axes.glosses(texts, lang), axes.glosses(texts, lang)),
        "bar_chars": 4 if keep_bar else 0,  # "100%"
        "bar_title": bar_title,
    }
    return _map(trace, labels, labels, spec)


# ---- any other matrix: X, Q, K, V, scores, outputs, positions ---------------------------------


def score_limit(*arrays: np.ndarray) -> float:
    """A symmetric colour limit covering every finite value of the given arrays."""
    peaks = [np.max(np.abs(a[np.isfinite(a)])) for a in arrays if np.isfinite(a).any()]
    return float(max(peaks, default=1.0)) or 1.0


def _signed_trace(z: np.ndarray, rows: list[str], cols: list[str], limit: float, size: int):
    """The heatmap trace of a matrix on the signed scale from −limit to +limit."""
    return {
        "type": "heatmap",
        "z": z,
        "x": cols,
        "y": rows,
        "colorscale": SIGNED_SCALE,
        "zmin": -limit,
        "zmax": limit,
        "colorbar": colourbar(size),
    }


def matrix_heatmap(
    values: np.ndarray,
    rows: list[str],
    cols: list[str] | None = None,
    *,
    title: str = "",
    lang: str = "zh",
    classroom: bool = False,
    zmax: float | None = None,
    numbers: bool = False,
    height: int | None = None,
    col_lines: tuple[float, ...] = (),
    x_title: str | None = None,
    y_title: str = "",
    decimals: int = 4,
    across: int = 1,
) -> go.Figure:
    """A 2-D array on the signed scale (blue < 0 < red) symmetric around 0, half-range `zmax`
    (default: its largest |value|). rows: names of the rows (tokens); cols: of the columns
    (default: dimensions 0 … d−1, titled so); col_lines: x positions of black vertical lines
    (where one head's columns end and the next begin). Scores keep `decimals` on the wire.
    across: how many charts share the page's width in this row (labels and numbers fit it)."""
    values = np.asarray(values, dtype=float)
    n, d = values.shape
    cols = [str(j) for j in range(d)] if cols is None else list(cols)
    if (n, d) != (len(rows), len(cols)):
        raise ValueError(f"matrix has shape {values.shape}; labels give ({len(rows)}, {len(cols)})")
    dim = t("main.dim_axis", lang)
    x_title = dim if x_title is None else x_title
    limit = float(zmax) if zmax else score_limit(values)
    ylab, xlab, size = token_labels(rows), token_labels(cols), fonts(classroom)
    trace = _signed_trace(compact(values, decimals), ylab, xlab, limit, size["base"])
    trace["hovertemplate"] = f"%{{y}} · {esc(x_title)} %{{x}}: %{{z:.3g}}<extra></extra>"
    room = plot_room(classroom, across)
    cell = cell_font(d, classroom, digits=5, width=room) if numbers and d <= MAX_CELL_NUMBERS else 0
    if cell:
        _with_numbers(trace, trace["z"], np.char.mod("%.2f", values), cell)
    row_px = max(6, min(2 * size["base"], 520 // max(n, 1)))  # rows fill up to 520 px
    dims = all(c.isdigit() for c in cols)
    upright = d <= UPRIGHT_MAX or dims
    spec = {
        "title": title,
        "height": height or title_band(title, size["title"]) + n * row_px + 4 * size["base"] + 30,
        "classroom": classroom,
        "titles": (x_title, y_title),
        "square": False,
        "upright": upright,
        "room": room,
        "across": across,
        "row_px": row_px,
        "glosses": (axes.glosses(rows, lang), [None] * d if dims else axes.glosses(cols, lang)),
        "bar_chars": 5,
        "shapes": [vline_shape(x, "solid", color=BLACK, width=2) for x in col_lines],
    }
    return _map(trace, ylab, xlab, spec)
