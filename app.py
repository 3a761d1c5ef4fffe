"""Attention Lab's router: page config, shared sidebar, navigation over pages/, share-link sync."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from ui import controls
from ui.routing import ensure_router
from ui.text import t

ROOT = Path(__file__).resolve().parent
STYLE = ROOT / "assets" / "style.css"
# (file stem in pages/, ASCII url path, title key, icon); the first is the default page.
PAGES = (
    ("main", "main", "nav.main", ":material/grid_view:"),
    ("steps", "steps", "nav.steps", ":material/stairs:"),
    ("scaling", "scaling", "nav.scaling", ":material/straighten:"),
    ("heads", "heads", "nav.heads", ":material/view_module:"),
    ("cost", "cost", "nav.cost", ":material/speed:"),
    ("order", "order", "nav.order", ":material/swap_horiz:"),
    ("library", "library", "nav.library", ":material/local_library:"),
    ("learned", "learned", "nav.learned", ":material/school:"),
)
# Static CSS only (no user text): larger type and stronger contrast for projection.
CLASSROOM_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 20px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"] { font-size: 1.1rem; }
[data-testid="stAppViewContainer"] { color: #000; }
[data-testid="stMarkdownContainer"] h1 { font-size: 2.4rem; }
[data-testid="stMarkdownContainer"] :is(h2, h3) { font-size: 1.7rem; }
</style>
"""


def page_entries(lang: str) -> list:
    """st.Page for every pages/ file that exists now (other pages may still be in progress)."""
    entries = []
    for stem, url, key, icon in PAGES:
        path = ROOT / "pages" / f"{stem}.py"
        if path.exists():
            default = stem == "main"
            entries.append(
                st.Page(
                    path,
                    title=t(key, lang),
                    icon=icon,
                    default=default,
                    url_path=None if default else url,
                )
            )
    return entries


def frame_style(classroom: bool) -> None:
    """The app's static stylesheet (phone layout, chips) plus the classroom overrides."""
    css = STYLE.read_text(encoding="utf-8") if STYLE.exists() else ""
    st.html(f"<style>{css}</style>" + (CLASSROOM_CSS if classroom else ""))


def main() -> None:
    ensure_router()
    controls.init_state()
    ss = st.session_state
    lang, classroom = controls.current_lang(), bool(ss.get("classroom"))
    # Decided once per session: a link with class=1 opens with the sidebar collapsed. Changing
    # it mid-session re-lays the sidebar out under the user's hand, so the switch only
    # enlarges type; the « button collapses the sidebar.
    sidebar = ss.setdefault("_sidebar_state", "collapsed" if classroom else "auto")
    st.set_page_config(
        page_title=t("app.title", lang),
        page_icon=":material/grid_view:",
        layout="wide",
        initial_sidebar_state=sidebar,
    )
    frame_style(classroom)
    settings = controls.sidebar()
    # Before the page runs: widget values and callbacks have already landed in the session,
    # and an update sent after the page's elements reaches the address bar one run late.
    controls.sync_query(settings)
    nav = st.navigation(page_entries(settings.lang))
    nav.run()


main()
