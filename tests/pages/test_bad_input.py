"""Bad input on every page, in both languages: the notice that says what happened is shown in
the UI's language (never a traceback), and the sentence the user typed is kept as typed."""

from __future__ import annotations

import pytest

import app
from tests.app_support import open_app
from ui.text import t

# every page of app.PAGES but the lesson, whose bad input tests/pages/test_lesson.py checks
PAGES = tuple(stem for stem, *_ in app.PAGES if stem != "lesson")
EMPTY = {"cost": "cost.cells_empty"}  # page → its own words for an empty sentence
CUT = {"cost": "cost.cells_cut"}  # page → its own words for a cut (per panel: words, characters)
LONG = "我们明天去公园散步，" * 500  # 5,000 characters, far over 128 words after the 2,000 cut


def shown(at) -> list[str]:
    """Every warning and info the last run showed."""
    return [m.value for m in [*at.warning, *at.info]]


def says(at, key: str, lang: str) -> bool:
    """A notice of `key` is on the page in `lang` (its text up to the first placeholder)."""
    start = t(key, lang).split("{")[0]
    return any(message.startswith(start) for message in shown(at))


@pytest.mark.slow  # 128 tokens on every page in both languages: make test runs it
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page", PAGES)
def test_a_long_sentence_is_cut_and_says_so(page, lang):
    """> 2,000 characters and then > 128 words: both cuts are announced, the page still draws,
    and the session keeps the whole sentence the user typed."""
    at = open_app(page, weights="random", sentence=LONG, lang=lang)
    assert not at.exception, [e.value for e in at.exception]
    assert says(at, "notice.chars_cut", lang), shown(at)
    assert says(at, CUT.get(page, "notice.tokens_cut"), lang), shown(at)
    other = "en" if lang == "zh" else "zh"
    assert not says(at, "notice.chars_cut", other)
    assert at.session_state["sentence"] == LONG


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("page", PAGES)
def test_an_empty_sentence_says_so(page, lang):
    at = open_app(page, weights="random", sentence=" \u200b\n", lang=lang)
    assert not at.exception, [e.value for e in at.exception]
    assert says(at, EMPTY.get(page, "notice.empty"), lang), shown(at)
    assert at.session_state["sentence"] == " \u200b\n"


@pytest.mark.parametrize("page", PAGES)
def test_markup_is_text_never_html(page):
    """A sentence of markup is computed as text: no notice of emptiness, nothing rendered."""
    typed = "<b>他</b><img src=x onerror=alert(1)>"
    at = open_app(page, weights="random", sentence=typed, lang="en")
    assert not at.exception, [e.value for e in at.exception]
    assert not says(at, "notice.empty", "en")
    html = [e.proto.body for e in at.get("markdown") if getattr(e.proto, "allow_html", False)]
    assert not any("onerror" in body for body in html)
