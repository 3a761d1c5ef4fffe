"""The pages folded into their scenes (issue 38): /steps, /heads and /library open the lesson on
their scene, the link's sentence and settings carried to the lesson's link (AppTest through the
router; the deck drawing the link's sentence: tests/browser/test_moved.py); the lab pages link
their scenes."""

from __future__ import annotations

from urllib.parse import parse_qs

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from app import MOVED
from tests.app_support import APP, TIMEOUT_S, open_app
from tests.pages.test_lesson import payload
from ui.text import t


@pytest.mark.parametrize(("url", "scene"), [("steps", 3), ("heads", 6), ("library", 2)])
def test_an_old_address_opens_its_scene_with_the_sentence_kept(url, scene):
    assert url in MOVED
    at = AppTest.from_file(APP, default_timeout=TIMEOUT_S)
    link = {"s": "我打你。", "d": "32", "h": "2", "seed": "7", "lang": "en", "mode": "char"}
    for name, value in {**link, "class": "1"}.items():
        at.query_params[name] = value
    at._page_hash = calc_hash(url)  # what a browser's request for /steps resolves to
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    query = {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}
    assert query["at"] == str(scene) and "class" not in query  # only what KEPT names
    assert {k: query.get(k) for k in link} == link
    header, _ = payload(at)  # the lesson's deck, on the scene (AppTest's switched run starts
    assert header["at"] == scene  # its session afresh: the words and sentence are Chromium's)
    assert [e.value for e in at.title] == [t("lesson.nav", header["lang"])]


@pytest.mark.parametrize(
    ("page", "scenes"), [("scaling", [5]), ("cost", [7]), ("order", [8]), ("learned", [6, 10])]
)
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_lab_page_links_its_scenes_in_the_lesson_with_the_sentence(page, scenes, lang):
    """The way back of the scene's "try it in the lab" (tests/browser/test_moved.py)."""
    at = open_app(page, sentence="他走了。", lang=lang, weights="random")
    assert not at.exception, [e.value for e in at.exception]
    links = [e.proto for e in at.get("page_link")]
    assert [(p.page, p.label) for p in links] == [
        ("lesson", t("teach.in_lesson", lang, n=n)) for n in scenes
    ]
    for n, p in zip(scenes, links, strict=True):
        query = {k: v[0] for k, v in parse_qs(p.query_string).items()}
        assert (query["at"], query["s"], query["lang"]) == (str(n), "他走了。", lang)
