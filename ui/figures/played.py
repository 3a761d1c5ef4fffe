"""The learned page's played maps: every head's attention at every checkpoint of training, one
figure whose slider and play button step through the checkpoints in the browser."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from ui.figures.base import (
    colourbar_room,
    esc,
    figure,
    fonts,
    ink,
    layout,
    text_px,
    token_labels,
    weights_to_pct,
    wrap,
)
from ui.palette import WEIGHT_SCALE

# The page's main column at 1024 px with the sidebar open (measured in Chromium): the narrowest a
# laptop draws the played maps in; their titles wrap to their share of it.
CONTENT_PX = 535
GAP_X = 0.14  # the space between two maps of a row, as a share of the plot's width


def _title_room(cols: int, left: int, right: int, map_px: int) -> int:
    """Pixels a subplot's title may take: its share of the narrowest main column it is drawn in
    (CONTENT_PX), so two titles in a row never run into each other."""
    share = (1 - GAP_X * (cols - 1)) / cols if cols > 1 else 1.0
    return max(80, min(map_px, int((CONTENT_PX - left - right) * share)))


def _grid_domains(count: int, cols: int, map_px: int, band_px: int) -> tuple[list, int]:
    """(x domain, y domain) of each of `count` square-ish subplots, `cols` to a row, first at
    top left, and the plot area's height in pixels: each row is a band of band_px (for its
    title, and the row above's tick labels) over map_px of map."""
    rows = -(-count // cols)
    height = rows * (band_px + map_px)
    gap_x = GAP_X if cols > 1 else 0.0
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


def _frame_layout(frame: dict, domains: list, classroom: bool, width: int) -> dict:
    """A frame's figure title and one title above each subplot, wrapped to `width` px."""
    font = {"size": fonts(classroom)["base"] + 1, "color": ink(classroom)}
    notes = [
        {
            "text": "<br>".join(esc(line) for line in wrap(title, font["size"], width)),
            "x": (dx[0] + dx[1]) / 2,
            "y": dy[1],
            "xref": "paper",
            "yref": "paper",
            "yshift": 6,
            "showarrow": False,
            "font": font,
            "xanchor": "center",
            "yanchor": "bottom",
        }
        for title, (dx, dy) in zip(frame["head_titles"], domains, strict=True)
    ]
    title = {"text": esc(frame["title"]), "x": 0.01, "y": 1, "yref": "container"}
    return {"title": {**title, "yanchor": "top", "pad": {"t": 10}}, "annotations": notes}


def _controls_px(size: int) -> tuple[int, int]:
    """Room above the maps for the slider, and for the play buttons above it (pixels)."""
    slider = 3 * size + 56  # current value, rail, step labels, padding
    return slider, slider + size + 24


def _slider(frames: Sequence[dict], active: int, prefix: str) -> dict:
    """The step slider, full width right above the maps."""
    go_to = {"mode": "immediate", "frame": {"duration": 0, "redraw": True}}
    go_to["transition"] = {"duration": 0}
    return {
        "active": active,
        "currentvalue": {"prefix": esc(prefix)},
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
    run = {"frame": {"duration": 700, "redraw": True}, "fromcurrent": True}
    stop = {"mode": "immediate", "frame": {"duration": 0, "redraw": False}}
    for how in (run, stop):
        how["transition"] = {"duration": 0}
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
            {"label": esc(play), "method": "animate", "args": [None, run]},
            {"label": esc(pause), "method": "animate", "args": [[None], stop]},
        ],
    }


def _colour_axis(title: str, phone: bool, size: int) -> tuple[dict, int, int]:
    """The maps' shared colour axis, the pixels its bar needs below the maps (a phone) and on
    their right. title: a UI string whose lines are split by <br>."""
    lines = title.split("<br>")
    text = "<br>".join(esc(line) for line in lines)
    bar = {"title": {"text": text}, "ticksuffix": "%", "thickness": 12, "tickfont": {"size": size}}
    if phone:  # the map is as wide as the screen allows, the colour bar goes below
        bar.update(orientation="h", len=1, x=0, xanchor="left", y=0, yref="container")
        bar.update(yanchor="bottom", title={"text": text, "side": "top"})
        below, right = 4 * size + 30, 10
    else:
        bar.update(len=0.6, y=1, yanchor="top")
        below, right = 0, colourbar_room(size, 4, max(lines, key=len))
    axis = {"colorscale": WEIGHT_SCALE, "cmin": 0, "cmax": 100, "colorbar": bar}
    return axis, below, right


def _subplot_axes(k: int, h: int, cols: int, dom, labels: list[str], text: Mapping) -> dict:
    """The x and y axes of subplot k: token categories, square, titled at the grid's edges."""
    suffix = "" if k == 0 else str(k + 1)
    ticks = {"type": "category", "categoryarray": labels, "showgrid": False, "automargin": False}
    ticks.update(tickmode="linear", tick0=0, dtick=1)
    x_title = {"text": esc(text["key"]) if k >= h - cols else "", "standoff": 8}
    return {
        f"xaxis{suffix}": {
            **ticks,
            "domain": dom[0],
            "anchor": f"y{suffix}",
            "title": x_title,
            "constrain": "domain",
            "constraintoward": "left",  # the square beside its labels, not centred in its cell
        },
        f"yaxis{suffix}": {
            **ticks,
            "domain": dom[1],
            "anchor": f"x{suffix}",
            "autorange": "reversed",
            "scaleanchor": f"x{suffix}",
            "constrain": "domain",
            "constraintoward": "top",
            "title": {"text": esc(text["query"]) if k % cols == 0 else ""},
        },
    }


def training_maps_figure(
    frames: Sequence[dict],
    texts: Sequence[str],
    *,
    active: int,
    text: Mapping[str, str],
    cols: int = 2,
    classroom: bool = False,
    phone: bool = False,
) -> go.Figure:
    """Every head's weight map (one subplot each) with one animation frame per checkpoint.

    frames: per checkpoint {"name": step label, "title": figure title, "weights": (h, n, n),
    "head_titles": h subplot titles}; texts: the n tokens; active: frame shown first; text:
    "play", "pause", "prefix", "query", "key", "bar" (UI strings). The slider and the play
    button switch frames in the browser, without a round trip to the server. cols: maps to a
    row; phone: small maps, the colour bar under them.
    """
    h, n, _ = np.shape(frames[0]["weights"])
    labels, size = token_labels(texts), fonts(classroom)["base"]
    map_px = max(200, (30 if classroom else 24) * n)
    if phone:
        map_px = min(map_px, 280)
    label_px = max((text_px(lab, size) for lab in labels), default=size)
    upright = n * (label_px + 6) <= map_px  # x labels fit side by side: keep them horizontal
    ticks_px = (size if upright else label_px) + 14
    colours, bar_px, right = _colour_axis(text["bar"], phone, size)
    title_px = _title_room(cols, label_px + 2 * size + 16, right, map_px)
    titles = [wrap(x, size + 1, title_px) for f in frames for x in f["head_titles"]]
    band_px = max(map(len, titles)) * (size + 8) + 20 + ticks_px  # subplot titles, tick labels
    domains, plot_px = _grid_domains(h, cols, map_px, band_px=band_px)
    slider_px, controls_px = _controls_px(size)
    top = 2 * size + 20 + controls_px  # figure title, buttons, slider
    bottom = ticks_px + 2 * size + 10 + bar_px  # the bottom row's tick labels, key-axis title
    margin = {"l": label_px + 2 * size + 16, "r": right, "t": top, "b": bottom}
    lay = layout("", plot_px + top + bottom, classroom, margin=margin, coloraxis=colours)
    for k, dom in enumerate(domains):
        lay.update(_subplot_axes(k, h, cols, dom, labels, text))
        lay["xaxis" if k == 0 else f"xaxis{k + 1}"]["tickangle"] = 0 if upright else -90
    lay.update(_frame_layout(frames[active], domains, classroom, title_px))
    lay["sliders"] = [_slider(frames, active, text["prefix"])]
    lay["updatemenus"] = [_play_buttons(text["play"], text["pause"], slider_px)]
    spec_frames = [
        {
            "name": str(f["name"]),
            "data": [
                {"type": "heatmap", "z": weights_to_pct(f["weights"][k]).tolist()} for k in range(h)
            ],
            "traces": list(range(h)),
            "layout": _frame_layout(f, domains, classroom, title_px),
        }
        for f in frames
    ]
    return figure(_map_traces(frames[active]["weights"], labels), lay, spec_frames)


def _map_traces(weights: np.ndarray, labels: list[str]) -> list[dict]:
    """One heatmap per head (weights (h, n, n)) on the shared colour axis, subplot k each."""
    hover = "%{y} → %{x}: %{z}%<extra></extra>"
    return [
        {
            "type": "heatmap",
            "z": weights_to_pct(w).tolist(),  # frames are sent as plain JSON
            "x": labels,
            "y": labels,
            "coloraxis": "coloraxis",
            "hovertemplate": hover,
            "xgap": 1,
            "ygap": 1,
            "xaxis": "x" if k == 0 else f"x{k + 1}",
            "yaxis": "y" if k == 0 else f"y{k + 1}",
        }
        for k, w in enumerate(weights)
    ]
