"""Streamlit side of the plotly charts: one config for all."""

from __future__ import annotations

import streamlit as st

from ui import figures


def chart(figure, *, key: str, lang: str, where=None) -> None:
    """A plotly chart as every page should show it: still under a finger, toolbar out of the
    Tab order, plotly's strings in the UI language; `where` is a column or container to draw in
    (default: the current one). theme=None: the figure kit's
    own fonts and ink (Streamlit's chart theme would put its own sizes on legends and titles)."""
    (where or st).plotly_chart(
        figure,
        key=key,
        config=figures.plotly_config(lang),
        width="stretch",
        theme=None,
    )
