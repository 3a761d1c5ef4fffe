"""Pure figure builders: arrays + token texts → plotly Figures (no Streamlit calls here)."""

from __future__ import annotations

import base64
import html
import re
from unicodedata import east_asian_width

import numpy as np
import plotly.graph_objects as go

# The one palette (ramps, head colours, sizes, the ink rule); some names are re-exported for the
# pages and tests that read them here.
from ui.palette import (  # noqa: F401
    BLACK,
    HEAD_COLOURS,
    LABEL_CHARS,
    MAX_CELL_NUMBERS,
    PLOTLY_FONTS,
    SIGNED_SCALE,
    VIRIDIS,
    WEIGHT_SCALE,
    WHITE,
    contrast,
    luminance,
    scale_colours,
    text_on,
)
from ui.palette import channels as _channels  # noqa: F401
from ui.text import t

UPRIGHT_MAX = 8  # up to this many tokens, x labels stay horizontal; above, they turn -90°
DTICK_ALL = 40  # up to this many tokens every axis label is drawn
# Every st.plotly_chart passes this config (or plotly_config(lang), which adds the UI language).
# The charts hold still: no zoom, pan, box select or scroll zoom (a swipe on a phone scrolls the
# page), and the toolbar keeps only the PNG export; the frame script takes its buttons out of
# the Tab order and style.css hides it on touch screens (assets/frame.js, assets/style.css).
PLOTLY_CONFIG = {
    "displaylogo": False,
    "displayModeBar": "hover",
    "scrollZoom": False,
    "doubleClick": False,
    "showAxisDragHandles": False,
    "showTips": False,
    "toImageButtonOptions": {"format": "png", "scale": 3, "filename": "attention_lab"},
    "modeBarButtonsToRemove": [
        *("zoom2d", "pan2d", "select2d", "lasso2d", "zoomIn2d", "zoomOut2d"),
        *("autoScale2d", "resetScale2d", "hoverClosestCartesian", "hoverCompareCartesian"),
        *("toggleSpikelines", "resetViews", "sendDataToCloud"),
    ],
}
# Plotly.js strings the charts can show, in Chinese. Streamlit's bundle of plotly.js registers
# only the en and en-US locales, so the dictionary travels in the config (`locales`), which
# plotly.js reads before its own registry. Keys are plotly.js 3.x's English strings.
PLOTLY_ZH = {
    "dictionary": {
        "Download plot as a PNG": "下载为 PNG 图片",
        "Download plot": "下载图表",
        "Preparing image - this may take a few seconds": "正在生成图片，请稍候",
        "Snapshot succeeded": "图片已生成",
        "Sorry, there was a problem downloading your snapshot!": "抱歉，图片下载失败。",
        "Double-click to zoom back out": "双击恢复原始大小",
        "Autoscale": "自动缩放",
        "Reset axes": "重置坐标轴",
        "Zoom": "缩放",
        "Pan": "平移",
        "Zoom in": "放大",
        "Zoom out": "缩小",
        "Produced with Plotly.js": "由 Plotly.js 生成",
    },
    "format": {
        "days": ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"],
        "shortDays": ["周日", "周一", "周二", "周三", "周四", "周五", "周六"],
        "months": [f"{m}月" for m in range(1, 13)],
        "shortMonths": [f"{m}月" for m in range(1, 13)],
        "date": "%Y-%m-%d",
    },
}
PLOTLY_LOCALES = {"zh": "zh-CN", "en": "en-US"}
# Layout parts that keep a chart still under a finger (also for builders outside this module).
STILL_LAYOUT = {"dragmode": False}
STILL_AXIS = {"fixedrange": True}


def plotly_config(lang: str = "zh") -> dict:
    """PLOTLY_CONFIG with plotly.js's own strings (toolbar, notices) in the UI language."""
    locale = PLOTLY_LOCALES.get(lang, "zh-CN")
    config = {**PLOTLY_CONFIG, "locale": locale}
    if locale == "zh-CN":
        config["locales"] = {"zh-CN": PLOTLY_ZH}
    return config


def hold_still(layout: dict) -> dict:
    """A layout dict with dragging off and every axis fixed: swipes scroll the page."""
    layout.update(STILL_LAYOUT)
    axes = [k for k in layout if re.fullmatch(r"[xy]axis\d*", k)] or ["xaxis", "yaxis"]
    for name in axes:
        layout[name] = {**(layout.get(name) or {}), **STILL_AXIS}
    return layout


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
    """Base (tick labels), title and in-cell font sizes; classroom labels are ≥ 24 px."""
    return dict(PLOTLY_FONTS[bool(classroom)])


def map_height(n: int, classroom: bool = False) -> int:
    """Fallback pixel height of an (n, n) map; ui.charts.square_map sizes it from its column."""
    chrome, per, top = (170, 40, 720) if classroom else (90, 26, 560 if n <= 48 else 760)
    return max(260, min(top, chrome + per * n))


# ---- colour and contrast: the rule lives in ui/palette.py ----------------------------------


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


def cell_font(n: int, classroom: bool, digits: int = 3) -> int:
    """In-cell font size: the mode's size, smaller when `digits` would not fit a ~560 px map."""
    room = int(560 / max(n, 1) / (0.62 * digits + 0.3))
    return max(9, min(font_sizes(classroom)["cell"], room))


# ---- layout ----------------------------------------------------------------------------------


def _layout(*, title: str, height: int, classroom: bool) -> dict:
    """Small explicit template (no 3 KB default), transparent background, CJK-first fonts.

    Still: no drag mode, so a swipe over a chart scrolls the page on a phone.
    """
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
        "margin": {"l": 10, "r": 10, "t": int(1.5 * size["title"]) + 12 if title else 10, "b": 10},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "hoverlabel": {"font": {"size": size["base"] + 2}},
        **STILL_LAYOUT,
    }


def _base_layout(fig: go.Figure, *, title: str, height: int, classroom: bool) -> go.Figure:
    fig.update_layout(
        **{**_layout(title=title, height=height, classroom=classroom), "template": None}
    )  # {} here would bring plotly's default back
    ink = {"tickfont_color": fig.layout.font.color, "title_font_color": fig.layout.font.color}
    fig.update_xaxes(**STILL_AXIS, **ink)
    fig.update_yaxes(**STILL_AXIS, **ink)
    return fig


def _token_axes(
    labels: list[str], font: dict, *, narrow: bool = False, titles: tuple[str, str] = ("", "")
) -> dict:
    """Categorical token axes in sentence order, rows top to bottom, square cells.

    Every label is drawn up to DTICK_ALL tokens (plotly would skip crowded ones). The square
    hangs from the top-left corner when the box is not square, so the title stays on it.
    titles: (x, y) axis titles, e.g. key and query.
    """
    upright = len(labels) <= (4 if narrow else UPRIGHT_MAX)
    common = {
        "type": "category",
        "automargin": False,  # margins come from _tick_margins: no second layout pass in plotly
        "showgrid": False,
        "constrain": "domain",
        "tickfont": {"size": font["size"], "color": font["color"]},
        **STILL_AXIS,
    }
    if len(labels) <= DTICK_ALL:
        common["dtick"] = 1
    x_title, y_title = titles
    return {
        "xaxis": {
            **common,
            "tickangle": 0 if upright else -90,
            "constraintoward": "left",
            "title": {"text": x_title, "font": {"size": font["size"], "color": font["color"]}},
        },
        "yaxis": {
            **common,
            "autorange": "reversed",
            "scaleanchor": "x",
            "constraintoward": "top",
            "title": {"text": y_title, "font": {"size": font["size"], "color": font["color"]}},
        },
    }


def _tick_margins(labels: list[str], size: int, x_angle: int, titled: bool = False) -> dict:
    """Left/bottom margins that fit the tick labels (a CJK glyph is ~1 em, others ~0.6 em).

    Fixed margins instead of plotly's automargin, which lays every map out twice (measure the
    labels, grow the margins, draw again): −19 % renderer CPU per click at 13 tokens, −39 % at
    64 (BENCHMARKS.md). titled: room for an axis title beyond the labels.
    """
    ems = max(
        (sum(1.0 if east_asian_width(c) in "WF" else 0.6 for c in x) for x in labels), default=1
    )
    wide = int(ems * size * 1.1) + 22  # + tick mark and padding
    extra = int(1.5 * size) + 4 if titled else 0
    return {"l": wide + extra, "b": (wide if x_angle else size + 12) + extra}


def _ems(text: str) -> float:
    """Width of a label in ems: a CJK glyph ~1, a space ~0.3, anything else ~0.6."""
    return sum(1.0 if east_asian_width(c) in "WF" else 0.3 if c == " " else 0.6 for c in text)


def _colourbar_room(size: int, chars: int = 4, title: str = "") -> int:
    """Right margin that holds a colour bar whose tick labels have `chars` characters and whose
    title (on top of the bar) is `title`.

    Plotly otherwise pushes the margin out for the bar and lays the figure out a second time;
    a map with its room reserved draws in ~10 ms instead of ~15 (fitted in Chromium: the bar
    takes 82 px at font size 12 and 95 px at 17 with "100%" labels; the "√ 色阶" title at
    24 px needs 126; BENCHMARKS.md).
    """
    return 53 + max(int(0.65 * size * chars), int(1.1 * size * _ems(title)))


def _colourbar(size: int, title: str = "") -> dict:
    """A slim colour bar; its title (e.g. "√ scale") sits on top, within the bar's room."""
    bar = {"thickness": 12, "len": 0.9, "tickfont": {"size": size}}
    if title:
        bar["title"] = {"text": title, "side": "top", "font": {"size": size}}
    return bar


def _map_figure(
    trace: dict,
    labels: list[str],
    *,
    title: str,
    height: int,
    classroom: bool,
    narrow: bool = False,
    bar_chars: int = 0,
    lang: str = "zh",
) -> go.Figure:
    """An (n, n) token map from one dict: a single validation pass, ~10× faster than updates.

    Rows are queries, columns keys (axis titles say so). bar_chars > 0 reserves room on the
    right for a colour bar whose tick labels are that many characters long (also for a map
    without a bar, so maps in a row keep equal squares).
    """
    layout = _layout(title=title, height=height, classroom=classroom)
    titles = (t("main.key_axis", lang), t("main.query_axis", lang))
    axes = _token_axes(labels, layout["font"], narrow=narrow, titles=titles)
    layout.update(axes)
    size = layout["font"]["size"]
    layout["margin"].update(_tick_margins(labels, size, axes["xaxis"]["tickangle"], titled=True))
    if bar_chars:
        bar_title = trace.get("colorbar", {}).get("title", {}).get("text", "")
        layout["margin"]["r"] = _colourbar_room(size, bar_chars, bar_title)
    return go.Figure({"data": [trace], "layout": layout})


def square_offset(figure) -> int:
    """Pixels to add to a map's width to get the height at which its plot area is square.

    ui.charts.square_map sets height = column width + this offset (a go.Figure or its dict).
    """
    layout = figure["layout"] if isinstance(figure, dict) else figure.layout.to_plotly_json()
    m = {"l": 80, "r": 80, "t": 100, "b": 80, **(layout.get("margin") or {})}
    return int(m["t"] + m["b"] - m["l"] - m["r"])


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
    z, top = weights_to_pct(weights), max(1, round(100 * zmax))
    size = font_sizes(classroom)["base"]
    trace = {
        "type": "heatmap",
        "z": z,
        "x": labels,
        "y": labels,
        "colorscale": WEIGHT_SCALE,
        "zmin": 0,
        "zmax": top,
        "showscale": showscale,
        "colorbar": {**_colourbar(size, t("fig.sqrt_ramp", lang)), "ticksuffix": "%"},
        "hovertemplate": "%{y} → %{x}: %{z}%<extra></extra>",
        "xgap": 1 if n <= 32 else 0,
        "ygap": 1 if n <= 32 else 0,
    }
    if show_numbers:  # white numbers, black on light cells: ≥ 4.5 : 1 on every colour
        trace["text"] = cell_texts(z, z, 0, top, WEIGHT_SCALE)
        trace["texttemplate"] = "%{text}"
        trace["textfont"] = {"size": cell_font(n, classroom), "color": WHITE}
    side = map_height(n, classroom) if height is None else height
    chars = 4 if (showscale if bar_room is None else bar_room) else 0  # "100%"
    return _map_figure(
        trace,
        labels,
        title=title,
        height=side,
        classroom=classroom,
        narrow=narrow,
        bar_chars=chars,
        lang=lang,
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
    """Heatmaps per row: at most two on a laptop, one for long sentences and in classroom mode
    (one map fills a projector's screen). Phones stack columns (assets/style.css)."""
    if heads == 1 or n > 48 or classroom:
        return 1
    return 2


def score_limit(*arrays: np.ndarray) -> float:
    """A symmetric colour limit covering every finite value of the given arrays."""
    peaks = [np.max(np.abs(a[np.isfinite(a)])) for a in arrays if np.isfinite(a).any()]
    return float(max(peaks, default=1.0)) or 1.0


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
