"""What the maps alone cost: the baseline's two widgets with the app's own figures, nothing else.

`?charts=` picks what is drawn for the example sentence (13 tokens, d_model 64, 4 heads):
`1` one of the app's head maps, `4` all four, `5` the four and the focus bars, `grid` the four
as one figure with subplots (the "Fix B" of BENCHMARKS.md). bench/chart_floor.py clicks √d_k
on each next to bench/baseline_app.py: the page's other sections are not part of this floor.
"""

import copy
import sys
from pathlib import Path

import plotly.graph_objects as go
import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the app's ui/ package

from ui import figures as fig
from ui.state import compute_lab

EXAMPLE = "小明把书放在了桌子上，然后他走了。"


def grid_figure(maps: list[go.Figure], cols: int = 2) -> go.Figure:
    """The head maps as subplots of one figure, one colour bar (as measured for Fix B)."""
    first = maps[0].to_plotly_json()
    layout, data = copy.deepcopy(first["layout"]), []
    rows = -(-len(maps) // cols)
    gap = 0.1
    for i, figure in enumerate(maps):
        suffix = "" if i == 0 else str(i + 1)
        trace = figure.to_plotly_json()["data"][0]
        trace.update(xaxis=f"x{suffix}", yaxis=f"y{suffix}", showscale=i == cols - 1)
        data.append(trace)
        col, row = i % cols, i // cols
        x_axis, y_axis = (
            copy.deepcopy(first["layout"]["xaxis"]),
            copy.deepcopy(first["layout"]["yaxis"]),
        )
        x_axis.update(domain=[col / cols, (col + 1) / cols - gap], anchor=f"y{suffix}")
        y_axis.update(
            domain=[1 - (row + 1) / rows + gap, 1 - row / rows],
            anchor=f"x{suffix}",
            scaleanchor=f"x{suffix}",
        )
        layout[f"xaxis{suffix}"], layout[f"yaxis{suffix}"] = x_axis, y_axis
    layout["height"] = first["layout"]["height"] * rows
    return go.Figure({"data": data, "layout": layout})


charts = st.query_params.get("charts", "1")
scale = st.toggle("√d_k", value=True, key="scale")
heads = st.select_slider("heads", [1, 2, 4, 8, 16], value=4, key="heads")  # as the app
lab = compute_lab(EXAMPLE, "word", 64, heads, scale, False, False, 0, "random")
cols = fig.grid_columns(lab.heads, len(lab.tokens))
maps = fig.head_heatmaps(lab.result.heads.weights, lab.texts, cols=cols)
if charts == "grid":
    st.plotly_chart(grid_figure(maps, cols), key="grid", config=fig.PLOTLY_CONFIG)
else:
    shown = maps[: 1 if charts == "1" else len(maps)]
    for start in range(0, len(shown), cols):
        for i, column in enumerate(st.columns(cols), start=start):
            if i < len(shown):
                with column:
                    st.plotly_chart(shown[i], key=f"head_{i}", config=fig.PLOTLY_CONFIG)
    if charts == "5":
        bars = fig.focus_bars(lab.result.heads.weights, lab.texts.index("他"), lab.texts)
        st.plotly_chart(bars, key="focus_bars", config=fig.PLOTLY_CONFIG)
