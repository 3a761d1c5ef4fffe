"""Every page opened straight from its link logs no error: no console error, no page error and
no failed request — but for Streamlit's own probe of a sub-page's base URL (below) — and asks
nothing of another host."""

from __future__ import annotations

import re

import pytest

import app
from tests.browser_support import open_settled

pytestmark = pytest.mark.browser

# Every page of app.PAGES by its link: the default one at /, the lesson on a scene past the first.
PAGES = tuple(
    "" if i == 0 else url + ("?at=3" if url == "lesson" else "")
    for i, (_, url, *_) in enumerate(app.PAGES)
)
# Opened at /<page>, Streamlit's frontend first asks /<page>/_stcore/health and host-config in
# case the app is served under /<page>, gets 404 and falls back to / (streamlit/streamlit#7074,
# open upstream). Answering them would make /<page> the app's base, so they stay 404s.
PROBE = re.compile(r"^/[a-z]+/_stcore/(health|host-config)$")


def test_pages_opened_by_link_log_nothing_and_ask_nothing_of_another_host(page, streamlit_server):
    """One walk over every page (issue 40: test_main.py walked them all again for the hosts):
    nothing logged but Streamlit's probe, and offline means offline: every page, its favicon
    included, loads from the app's own server (a ":material/…:" page icon made Streamlit fetch
    the favicon from Google)."""
    origin = streamlit_server.rstrip("/")
    failed, errors, outside = [], [], []
    page.on("response", lambda r: r.status >= 400 and failed.append((r.status, r.url)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "request",
        lambda r: None if r.url.startswith((origin, "data:", "blob:")) else outside.append(r.url),
    )
    for name in PAGES:
        open_settled(page, f"{streamlit_server}/{name}", (1024, 768))
        page.wait_for_load_state("networkidle")
    assert outside == []
    icon = page.evaluate("() => document.querySelector('link[rel~=icon]')?.href || ''")
    assert icon.startswith(origin)
    paths = [re.sub(r"^https?://[^/]+", "", url).split("?")[0] for _, url in failed]
    assert [p for p in paths if not PROBE.match(p)] == [], failed
    probes = sum(1 for p in paths if PROBE.match(p))
    # what the console says of those probes, and nothing else
    assert [e for e in errors if "404 (Not Found)" not in e] == [], errors
    assert len(errors) <= probes, (errors, failed)
