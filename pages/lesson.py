"""The lesson: the article's §1–§10 as scenes for a projector, one at a time (/lesson?at=N)."""

import streamlit as st

from ui.lesson import page
from ui.routing import ensure_router
from ui.sidebar import current_settings
from ui.text import t

ensure_router()  # a fresh server's first visit may skip app.py: rerun through it

s = current_settings()
st.html(page.PAGE_CSS)  # the deck fills the screen: no padding, no header band
with st.container(key="lesson_h1"):  # the page's name for screen readers; each scene has an h2
    st.title(t("lesson.nav", s.lang))
at = page.scene_from_link(s.lang)  # ?at=N, the nearest scene for a bad one (with a notice)
page.show(s, at)  # every scene's numbers for this sentence; the browser steps through them
page.write_link(at)
