"""Attention Lab's router: page config, shared sidebar, navigation over pages/, share-link sync."""

from __future__ import annotations

import html
import json
from pathlib import Path
from urllib.parse import urlparse

import streamlit as st

from ui import sidebar, text
from ui.routing import ensure_router
from ui.text import SECTIONS, t

ROOT = Path(__file__).resolve().parent
STYLE = ROOT / "assets" / "style.css"
SCRIPT = ROOT / "assets" / "frame.js"
FAVICON = ROOT / "assets" / "favicon.png"
# (file stem in pages/, ASCII url path, title key, icon, weights the page always uses or None
# when it follows the sidebar); the first is the default page.
PAGES = (
    ("main", "main", "nav.main", ":material/grid_view:", None),
    ("lesson", "lesson", "lesson.nav", ":material/co_present:", None),
    ("scaling", "scaling", "nav.scaling", ":material/straighten:", None),
    ("cost", "cost", "nav.cost", ":material/speed:", "random"),
    ("order", "order", "nav.order", ":material/swap_horiz:", "random"),
    ("learned", "learned", "nav.learned", ":material/school:", "trained"),
)
# Pages folded into their lesson scene (issue 38): each file only opens its scene with the link's
# sentence and settings (ui/routing.open_scene); hidden from the navigation.
MOVED = ("steps", "heads", "library")
# Streamlit's and plotly's English names and hints that assets/frame.js puts in the UI language:
# the whole of ui/text/chrome.toml (derived, not a hand copy), keyed there by their exact English.
CHROME_KEYS = SECTIONS["chrome"]
# Static CSS only (no user text): larger type and stronger contrast for projection.
CLASSROOM_CSS = """
<style>
html, body, [data-testid="stAppViewContainer"] { font-size: 20px; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"] { font-size: 1.1rem; }
[data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p { font-size: 2.4rem; }
[data-testid="stAppViewContainer"] { color: #000; }
[data-testid="stMarkdownContainer"] h1 { font-size: 2.4rem; }
[data-testid="stMarkdownContainer"] h2 { font-size: 1.9rem; }
[data-testid="stMarkdownContainer"] h3 { font-size: 1.5rem; }
[data-testid="stSidebar"] [data-testid="stMarkdownContainer"] h2 { font-size: 1.3rem; }
</style>
"""


def page_entries(lang: str) -> list:
    """st.Page for every page of PAGES, and the moved ones' hidden."""
    entries = [
        st.Page(
            ROOT / "pages" / f"{stem}.py",
            title=t(key, lang),
            icon=icon,
            default=stem == "main",
            url_path=None if stem == "main" else url,
        )
        for stem, url, key, icon, _ in PAGES
    ]
    hidden = [
        st.Page(ROOT / "pages" / f"{url}.py", url_path=url, visibility="hidden") for url in MOVED
    ]
    return entries + hidden


def opens_lesson() -> bool:
    """True when the browser asks for /lesson. Read before st.navigation, so the first and only
    page config already starts the sidebar collapsed (a second call after the navigation lost
    the race about one load in two; navigating first sent the page's Google-hosted icon)."""
    path = urlparse(st.context.url or "").path.rstrip("/")
    return path.endswith("/lesson") or path.rsplit("/", 1)[-1] in MOVED


def page_url(page) -> str:
    """The page's url path ("main" for the default page)."""
    return getattr(page, "url_path", "") or "main"


def page_weights(page) -> str | None:
    """The weights a page always uses whatever the sidebar says (None: it follows the sidebar)."""
    path = page_url(page)
    return next((fixed for _, url, _, _, fixed in PAGES if url == path), None)


def frame_style(classroom: bool) -> None:
    """The app's static stylesheet (phone layout, focus ring, chips) and classroom overrides."""
    css = STYLE.read_text(encoding="utf-8")
    st.html(f"<style>{css}</style>" + (CLASSROOM_CSS if classroom else ""))


def frame_script(lang: str) -> None:
    """assets/frame.js with its settings: page language, Streamlit's and plotly's names.

    Static code and strings from ui/text only, never user text. Its element is hidden by
    style.css, so it takes no room on the page.
    """
    table = {t(key, "en"): t(key, lang) for key in CHROME_KEYS}  # "Help for {label}" a pattern
    data = {
        "lang": text.LANGUAGES[lang].html,
        "scrolls": t("frame.scrolls", lang),
        "chrome": json.dumps(table, ensure_ascii=False),
    }
    attrs = " ".join(f'data-{k}="{html.escape(v)}"' for k, v in data.items())
    script = SCRIPT.read_text(encoding="utf-8")
    st.html(
        f'<div id="al-frame" hidden {attrs}></div><script>{script}</script>',
        unsafe_allow_javascript=True,
    )


def main() -> None:
    ensure_router()
    sidebar.init_state()
    ss = st.session_state
    lang, classroom = sidebar.current_lang(), bool(ss.get("classroom"))
    # Decided once per session: a link with class=1 opens with the sidebar collapsed. Changing
    # it mid-session re-lays the sidebar out under the user's hand, so the switch only
    # enlarges type; the « button collapses the sidebar.
    side = ss.setdefault(sidebar.SIDEBAR_STATE, "collapsed" if classroom else "auto")
    if opens_lesson():  # the projected lesson: nothing beside it
        side = "collapsed"
    st.set_page_config(
        page_title=t("app.title", lang),
        page_icon=str(FAVICON),  # served by the app (a ":material/…:" icon comes from Google)
        layout="wide",
        initial_sidebar_state=side,
    )
    frame_style(classroom)
    nav = st.navigation(page_entries(lang))
    # Before the page runs: widget values and callbacks have already landed in the session,
    # and an update sent after the page's elements reaches the address bar one run late.
    sidebar.sync_query(sidebar.current_settings(), lesson=page_url(nav) == "lesson")
    nav.run()
    # The sidebar and the frame script after the page: a sidebar click's rerun then delivers
    # the page (the attention view first of all) before twenty sidebar widgets, so the browser
    # shows the new maps while it is still re-rendering the rest (BENCHMARKS.md).
    sidebar.draw(fixed_weights=page_weights(nav))
    frame_script(lang)


if __name__ == "__main__":  # streamlit run and AppTest run it as __main__; tests import it
    main()
