"""The pages folded into their scenes (issue 38): /steps, /heads and /library open the lesson on
their scene, with the sentence and settings of the old link kept (AppTest through the router)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest
from streamlit.util import calc_hash

from app import MOVED
from tests.app_support import APP, TIMEOUT_S
from ui.text import t


@pytest.mark.parametrize(("url", "scene"), [("steps", 3), ("heads", 6), ("library", 2)])
def test_an_old_address_opens_its_scene_with_the_sentence_kept(url, scene):
    assert MOVED[url] == scene
    at = AppTest.from_file(APP, default_timeout=TIMEOUT_S)
    link = {"s": "我打你。", "d": "32", "h": "2", "seed": "7", "lang": "en", "mode": "char"}
    for name, value in link.items():
        at.query_params[name] = value
    at._page_hash = calc_hash(url)  # what a browser's request for /steps resolves to
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    query = {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}
    assert query["at"] == str(scene)
    assert {k: query.get(k) for k in link} == link
    assert at.session_state["sentence"] == "我打你。"
    assert [e.value for e in at.title] == [t("lesson.nav", "en")]  # the lesson, not a stale page
    assert at.get("bidi_component")  # its deck
