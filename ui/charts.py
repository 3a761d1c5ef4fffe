"""Streamlit side of the plotly charts: one config for all, square maps sized by their column."""

from __future__ import annotations

import re

import streamlit as st

from ui import figures

_KEY = re.compile(r"[^A-Za-z0-9_-]")


def chart(figure, *, key: str, lang: str, alt: str | None = None, where=None) -> None:
    """A plotly chart as every page should show it: still under a finger, toolbar out of the
    Tab order, plotly's strings in the UI language, `alt` as its text alternative; `where` is
    a column or container to draw in (default: the current one). theme=None: the figure kit's
    own fonts and ink (Streamlit's chart theme would put its own sizes on legends and titles)."""
    (where or st).plotly_chart(
        figure,
        key=key,
        config=figures.plotly_config(lang),
        width="stretch",
        alt=alt or None,
        theme=None,
    )


def square_map(figure, *, key: str, lang: str, alt: str | None = None) -> None:
    """A token × token map whose plot area is a square as wide as its column allows.

    Plotly's height is fixed while the column sets the width, which left blank bands above
    and below the square. Here the height follows the width (CSS container units in
    assets/style.css): height = column width + ui.figures.square_offset(figure), capped at the
    window's height, so one map fits a projector's screen.
    """
    box = f"sqmap_{_KEY.sub('_', key)}"
    offset = figures.square_offset(figure)
    with st.container(key=box):
        # A <style>-only st.html goes to Streamlit's event container: no room taken on the page.
        st.html(f"<style>.st-key-{box}{{--sq-offset:{offset}px}}</style>")
        st.plotly_chart(
            figure,
            key=key,
            config=figures.plotly_config(lang),
            width="stretch",
            height="stretch",
            alt=alt or None,
            theme=None,
        )
