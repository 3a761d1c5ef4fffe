"""Keep every run behind app.py's router, even on a fresh server's first visit to a sub-page.

The one place that touches Streamlit's private PagesManager. Called by app.py and by the page
opening every page starts with (ui/widgets.open_page; the lesson calls it itself), because a
bare run of pages/x.py executes nothing else. No supported way exists: Streamlit's docs say only
that "as soon as any session of your app executes st.navigation, your app will ignore the pages/
directory (across all sessions)"; no setting turns the legacy pages/ folder off, and renaming
the folder (app_pages/, as Streamlit now advises) would break the layout the project promises.
So the patch is pinned: tests/ui/test_routing.py names the Streamlit versions it was checked on
(CHECKED_ON) and fails on any other, and fails when Streamlit stops taking its legacy path, so
the patch can go then.
"""

from __future__ import annotations

import sys

import streamlit as st

# Streamlit releases on which the patch below was read against Streamlit's source and the
# fresh-server browser test passed (tests/browser/test_main.py); requirements.txt pins one.
CHECKED_ON = ("1.67.0",)


def ensure_router() -> None:
    """Rerun through app.py when Streamlit took its legacy pages/-folder path for this run: a
    new server runs the first visit to /learned (say) as a bare script, with no sidebar and the
    folder's file names as navigation, until app.py's st.navigation has run once."""
    try:
        from streamlit.runtime.pages_manager import PagesManager
    except ImportError:  # a Streamlit without the legacy path: nothing to leave
        return
    # AppTest resets the flag before every run, so it would rerun (and drop button clicks) on
    # each one; a real server needs this once per process and never loads the test harness.
    if "streamlit.testing.v1.app_test" in sys.modules:
        return
    if getattr(PagesManager, "uses_pages_directory", False):
        PagesManager.uses_pages_directory = False
        st.rerun()


# What an old page's link keeps when it opens its lesson scene: the sentence and the settings.
KEPT = ("s", "w", "d", "h", "seed", "pos", "mode", "lang")


def open_scene(at: int) -> None:
    """A page folded into a lesson scene (issue 38): its old address opens scene `at` of the
    lesson, the link's sentence and settings kept."""
    ensure_router()
    kept = {k: st.query_params[k] for k in KEPT if k in st.query_params}
    st.session_state.pop("_link_read", None)  # the lesson's run reads its link as a first run
    st.switch_page("pages/lesson.py", query_params={"at": str(at), **kept})
