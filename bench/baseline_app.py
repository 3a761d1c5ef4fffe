"""Baseline for the benchmarks: the smallest Streamlit page with one 13×13 plotly heatmap."""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

TOKENS = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]


def weights(scale: bool, heads: int) -> np.ndarray:
    """Softmax of a seeded random Q·Kᵀ for 13 tokens; d_k = 64 / heads."""
    n, d_k = len(TOKENS), 64 // heads
    rng = np.random.default_rng(heads)
    q, k = rng.standard_normal((2, n, d_k))  # (n, d_k) each
    s = q @ k.T  # (n, n)
    s = s / np.sqrt(d_k) if scale else s
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


st.title("baseline")
scale = st.toggle("√d_k", value=True, key="scale")
heads = st.select_slider("heads", [1, 2, 4, 8, 16], value=4, key="heads")  # as the app
pos = list(range(len(TOKENS)))
fig = go.Figure(
    go.Heatmap(z=weights(scale, heads), x=pos, y=pos, zmin=0, zmax=1, colorscale="Viridis")
)
fig.update_layout(height=420, margin={"l": 60, "r": 20, "t": 20, "b": 60})
fig.update_xaxes(tickvals=pos, ticktext=TOKENS)
fig.update_yaxes(tickvals=pos, ticktext=TOKENS, autorange="reversed")
st.plotly_chart(fig, key="heatmap")
