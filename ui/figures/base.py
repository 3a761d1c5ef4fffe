"""The figure kit's parts: the plotly config, one layout, one font system, one text width."""

from __future__ import annotations

import html
import re
from unicodedata import east_asian_width

import numpy as np
import plotly.graph_objects as go

from ui.palette import FONT_STACK, FONTS, HEAD_COLOURS, INK, LABEL_CHARS, PLOTLY_FONTS, clip_label

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
# Layout parts that keep a chart still under a finger (also for builders outside this kit).
STILL_LAYOUT = {"dragmode": False}
STILL_AXIS = {"fixedrange": True}
GRID = "#e5e8ef"  # gridlines of the line and bar charts, light on white
# Axis style of every chart (what the figures took from plotly's "plotly_white", written out).
AXIS = {"gridcolor": GRID, "linecolor": GRID, "zerolinecolor": GRID, "ticks": "", **STILL_AXIS}
# px of the page's main column a chart is laid out for: a 1280-px laptop with the sidebar open,
# a 1024-px projector with it closed. A chart that shares its row with others (`across`) gets
# its share; ticks are thinned, titles wrapped and legends folded to fit it.
PAGE_WIDTH = {False: 940, True: 800}
NARROW_PX = 280  # a chart's least width: half of a 1024 px page beside the open sidebar
PHONE_PX = 350  # the main column of a 390 px phone: a chart alone in its row is never narrower
WORDS = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+|\s+")


def plotly_config(lang: str = "zh") -> dict:
    """PLOTLY_CONFIG with plotly.js's own strings (toolbar, notices) in the UI language."""
    locale = PLOTLY_LOCALES.get(lang, "en-US")  # a language plotly.js has no strings for: English
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


# ---- type: sizes from the palette, one width estimate ------------------------------------------


def fonts(classroom: bool) -> dict[str, int]:
    """Pixel sizes of tick labels ("base"), titles, cell numbers and the smallest readable text
    ("min": numbers smaller than this are left out) in the normal or the classroom mode."""
    mode = "classroom" if classroom else "normal"
    return {**PLOTLY_FONTS[bool(classroom)], "min": FONTS[mode]["min"]}


def ink(classroom: bool) -> str:
    """The colour of labels and titles on white (≥ 4.5 : 1)."""
    return INK["text_classroom" if classroom else "text"]


def text_px(text: str, size: float) -> int:
    """Rough pixel width of a label: a CJK glyph ~1 em, a space ~0.3 em, anything else ~0.6 em."""
    ems = sum(1.0 if east_asian_width(c) in "WF" else 0.3 if c == " " else 0.6 for c in text)
    return int(ems * size)


def wrap(text: str, size: int, room: int) -> list[str]:
    """`text` in lines of at most `room` px at font size `size` (breaks between words and around
    CJK characters; a word longer than a line keeps its own line), as even as that many lines
    allow: 离最终输出的距离：一项都没加时，/ 和每加一项之后, never a lone 后 on the last line."""
    lines = _greedy(text, size, room)
    if len(lines) > 1:  # the narrowest room that still needs no more lines
        for even in range(text_px(text, size) // len(lines), room, max(size // 2, 1)):
            if len(shorter := _greedy(text, size, even)) == len(lines):
                return shorter
    return lines


def _greedy(text: str, size: int, room: int) -> list[str]:
    """`text` in lines of at most `room` px, each filled as far as it goes."""
    lines, line = [], ""
    for word in WORDS.findall(text):
        if word in "）》」』，。、：；！？…":  # never at a line's start
            line += word
        elif line.strip() and text_px(line + word.rstrip(), size) > room:
            lines.append(line.rstrip())
            line = word.lstrip()
        else:
            line += word
    return [*lines, line.rstrip()] if line.strip() else lines or [""]


def esc(text: object) -> str:
    """User text made safe for plotly, which renders some HTML in titles, ticks and hovers."""
    return html.escape(str(text))


def token_labels(texts, max_chars: int = LABEL_CHARS) -> list[str]:
    """Tick labels of tokens: cut, HTML-escaped, unique (a repeat such as the second 了 gets a
    zero-width space: same glyphs, its own category, so plotly never merges the two)."""
    labels, seen = [], set()
    for text in texts:
        label = html.escape(clip_label(" ".join(str(text).split()) or "␣", max_chars), quote=False)
        while label in seen:
            label += "\u200b"
        seen.add(label)
        labels.append(label)
    return labels


def plot_room(classroom: bool, across: int = 1) -> int:
    """Pixels of plot a chart gets when `across` charts share the page's width (margins off)."""
    return PAGE_WIDTH[bool(classroom)] // max(across, 1) - 110


def narrow_room(classroom: bool, across: int = 1) -> int:
    """The least plot width a chart may get: its share of the page, or NARROW_PX less the axes'
    room (half a 1024 px page beside the open sidebar; a phone's column is wider). What must
    never overlap (a legend's rows, a number axis's ticks) is laid out for this width."""
    return min(plot_room(classroom, across), NARROW_PX - 80)


def stride(
    labels: list[str], classroom: bool, across: int = 1, upright: bool = True, room: int = 0
) -> int:
    """Every how many-th label fits side by side under a chart (1: all of them); a turned label
    needs a line's height, an upright one its width. room: the plot's width (default: its share
    of the page)."""
    size = fonts(classroom)["base"]
    per = max((text_px(lab, size) for lab in labels), default=size) if upright else size
    need = len(labels) * (per + size // 2) / max(room or plot_room(classroom, across), 1)
    return next(k for k in (1, 2, 4, 8, 16, 32, 64, 128, 256) if k >= need or k == 256)


def head_colour(head: int) -> str:
    """The colour of head `head` (0-based) wherever heads are drawn: the palette's order."""
    return HEAD_COLOURS[head % len(HEAD_COLOURS)]


# ---- arrays on the wire -----------------------------------------------------------------------


def weights_to_pct(weights: np.ndarray) -> np.ndarray:
    """Attention weights in [0, 1] → whole percent as uint8 (1.3 bytes per cell on the wire)."""
    return np.rint(np.clip(np.nan_to_num(weights), 0.0, 1.0) * 100).astype(np.uint8)


def compact(values: np.ndarray, decimals: int = 2) -> np.ndarray:
    """Real values rounded and sent as float32 (base64 on the wire)."""
    values = np.nan_to_num(np.asarray(values, dtype=np.float64))
    return np.round(values, decimals).astype(np.float32)


# ---- one layout --------------------------------------------------------------------------------


# A title's lines hang from the figure's top left (plotly would centre its first line in the top
# margin, and a third or fourth line ran into the plot); title_band leaves them their room.
TITLE_AT = {"x": 0, "xanchor": "left", "y": 1, "yref": "container", "yanchor": "top"}


def title_band(title: str, size: int) -> int:
    """Pixels above the plot for a figure title (lines split by <br>) of font size `size`."""
    return int(1.5 * size * (title.count("<br>") + 1)) + 12 if title else 10


def title_room(classroom: bool, across: int = 1) -> int:
    """Pixels a title line may take: the narrowest column the chart gets — a phone's for a chart
    alone in its row, NARROW_PX for one of several — since plotly never wraps a title itself.
    The classroom mode is laid out for the projector (its 26 px titles on a phone's column would
    take three lines on the screen it is for)."""
    share = PAGE_WIDTH[bool(classroom)] // max(across, 1)
    if not classroom:
        share = min(share, PHONE_PX if across == 1 else NARROW_PX)
    return share - 30


def layout(title: str, height: int, classroom: bool, across: int = 1, **extra) -> dict:
    """Every figure's layout: escaped title at the top left (wrapped to the chart's share of the
    page, `across` charts to a row), CJK-first fonts from the palette, ink on a transparent
    background, light grids, nothing draggable; `extra` on top."""
    size, colour = fonts(classroom), ink(classroom)
    text = {"size": size["base"], "color": colour}
    axis = axis_style(classroom)
    lines = wrap(str(title), size["title"], title_room(classroom, across))
    title = "<br>".join(esc(line) for line in lines) if title else ""
    pad = {"t": size["title"] + 4}  # plotly hangs a multi-line title by its first baseline
    out = {
        "template": {"layout": {"colorway": list(HEAD_COLOURS[:8])}},
        "title": {"text": title, "font": {"size": size["title"]}, **TITLE_AT, "pad": pad},
        "font": {"family": FONT_STACK, **text},
        "height": height,
        "margin": {"l": 10, "r": 10, "t": title_band(title, size["title"]), "b": 10},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "hoverlabel": {"font": {"size": size["base"] + 2}},
        "showlegend": False,
        "xaxis": dict(axis),
        "yaxis": dict(axis),
        **STILL_LAYOUT,
    }
    for key, value in extra.items():  # axes merge into the defaults; anything else replaces
        out[key] = merge_axis(out[key], value) if key in ("xaxis", "yaxis") else value
    return out


def merge_axis(base: dict, extra: dict) -> dict:
    """An axis dict with `extra` on top; its title keeps the base's font."""
    title = {**base.get("title", {}), **extra.get("title", {})}
    return {**base, **extra, "title": title}


def axis_style(classroom: bool) -> dict:
    """The style every axis of the kit's charts shares: light grid, ink labels, still."""
    text = {"size": fonts(classroom)["base"], "color": ink(classroom)}
    return {**AXIS, "tickfont": text, "title": {"font": text}, "automargin": True}


LEGEND_ITEM = 48  # px of a legend entry beside its text: plotly's 40 px symbol and the gaps


def legend_below(out: dict, traces: list[dict], classroom: bool, across: int = 1) -> list:
    """Show the legend under the x axis: entries wrapped to the narrowest width the chart may get
    (their names are rewritten with <br>), rows packed left to right, the figure grown by the
    rows' height. The legend hangs from the top of its band, so a wider chart, which needs fewer
    rows, leaves the spare room at the bottom, never a row over the axis title."""
    size = fonts(classroom)["base"]
    room = min(PAGE_WIDTH[bool(classroom)] // max(across, 1), NARROW_PX) - 20  # from the left edge
    rows: list[list[int]] = [[]]  # per row, the line count of each entry
    used = 0
    for tr in traces:
        if tr.get("showlegend", True) is False:
            continue
        lines = wrap(str(tr["name"]), size, room - LEGEND_ITEM - 2 * size)
        tr["name"] = "<br>".join(lines)
        width = max(text_px(line, size) for line in lines) + LEGEND_ITEM + 2 * size
        if rows[-1] and used + width > room:
            rows.append([])
            used = 0
        rows[-1].append(len(lines))
        used += width
    legend_px = sum(max(row, default=1) * (size + 8) + 6 for row in rows)
    axis_px = int(2.8 * size) + 16  # tick labels and the axis title
    out["showlegend"] = True
    out["margin"]["b"] = axis_px + legend_px + 6
    out["height"] += legend_px
    top = (legend_px + 6) / out["height"]  # the band's top, in the figure's height
    out["legend"] = {
        "orientation": "h",
        "x": 0,
        "xref": "container",
        "y": top,
        "yref": "container",
        "yanchor": "top",
    }
    out["legend"]["font"] = {"size": size, "color": ink(classroom)}
    return traces


def figure(data: list, spec: dict, frames: list | None = None) -> go.Figure:
    """A figure from plain dicts in one validation pass (~10× faster than update_* calls),
    held still (no drag-zoom: the config takes away double-click and reset, so a stray drag
    could not be undone)."""
    body = {"data": data, "layout": hold_still(spec)}
    return go.Figure({**body, "frames": frames} if frames else body)


def vline_shape(x: float, dash: str = "dot", **line) -> dict:
    """A vertical line across the plot at data x (what fig.add_vline writes, validated once)."""
    shape = {"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1, "yref": "y domain"}
    return {**shape, "line": {"dash": dash, **line}}


def vline(
    x: float, text: str | None = None, *, log_x: bool = False, size: int = 12, **line
) -> dict:
    """A dotted vertical line at data x as layout parts, labelled at its foot if text is given.

    Plotly places shapes on a log axis by data value but annotations by log10 of it; add_vline
    did not, so on the log τ axis the "√d_k" label sat at 10^√d_k, off at the right edge.
    """
    parts = {"shapes": [vline_shape(x, **line)]}
    if text is not None:
        at = float(np.log10(x)) if log_x else x
        note = {"text": esc(text), "x": at, "xref": "x", "y": 0, "yref": "y domain"}
        note.update(font={"size": size}, showarrow=False, xanchor="left", yanchor="bottom")
        parts["annotations"] = [note]
    return parts


def log_ticks(values) -> dict:
    """tickvals/ticktext of a log axis over `values`: every decade, and 2s and 5s where few
    decades show, each label full size (plotly's own log ticks draw the 2s and 5s small)."""
    lo, hi = np.log10(float(np.min(values))), np.log10(float(np.max(values)))
    decades = range(int(np.floor(lo)), int(np.ceil(hi)) + 1)
    ticks = [10.0**e for e in decades]  # the axis shows those inside its range
    if len(ticks) <= 3:
        ticks = sorted(m * v for v in ticks for m in (1, 2, 5) if lo <= np.log10(m * v) <= hi)
    return {"tickvals": ticks, "ticktext": [f"{v:g}" for v in ticks]}


def colourbar(size: int, title: str = "") -> dict:
    """A slim colour bar; its title (e.g. "√ scale") sits on top, within the bar's room."""
    bar = {"thickness": 12, "len": 0.9, "tickfont": {"size": size}}
    if title:
        bar["title"] = {"text": esc(title), "side": "top", "font": {"size": size}}
    return bar


def colourbar_room(size: int, chars: int = 4, title: str = "") -> int:
    """Right margin that holds a colour bar whose tick labels have `chars` characters and whose
    title (on top of the bar) is `title`.

    Plotly otherwise pushes the margin out for the bar and lays the figure out a second time;
    a map with its room reserved draws in ~10 ms instead of ~15 (fitted in Chromium: the bar
    takes 82 px at font size 12 and 95 px at 17 with "100%" labels; the "√ 色阶" title at
    24 px needs 126; BENCHMARKS.md).
    """
    return 53 + max(int(0.65 * size * chars), int(1.1 * text_px(title, size)))
