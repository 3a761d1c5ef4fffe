"""The pages folded into their scenes (issue 38) in Chromium: an old address lands on its scene
with the link's sentence kept (the AppTest side: tests/pages/test_moved.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, quote, urlparse

import pytest

from tests.browser_support import LOAD_MS
from tests.lesson_support import (
    open_lesson,
    phone_page,
    phone_shot,
    press,
    settle,
    where,
)
from ui.text import t

pytestmark = pytest.mark.browser


def test_steps_lands_on_section_3_with_the_sentence_kept(page, streamlit_server):
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{streamlit_server}/steps?s={quote('我打你。')}&lang=en&seed=7")
    page.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    settle(page)
    assert where(page)[0] == 3
    url = urlparse(page.url)
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert url.path.endswith("/lesson") and query["at"] == "3"
    assert (query["s"], query["lang"], query["seed"]) == ("我打你。", "en", "7")
    side = page.locator('[data-testid="lesson-side"]').inner_text()
    assert "打 · hit" in side and "小明" not in side  # the link's sentence, in English


def test_heads_after_a_visit_lands_on_section_6_with_the_settings_kept(page, streamlit_server):
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{streamlit_server}/order?lang=en")  # a session that saw another page first
    page.goto(f"{streamlit_server}/heads?s={quote('他走了。')}&lang=en&seed=3")
    page.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    settle(page)
    assert where(page)[0] == 6
    query = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
    assert (query["at"], query["s"], query["lang"], query["seed"]) == ("6", "他走了。", "en", "3")
    shown = page.locator('[data-testid="lesson-scene"]').inner_text()
    assert "Many heads" in shown and "小明" not in shown  # English, the link's sentence


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_scene_links_its_lab_page_with_the_sentence_kept(page, streamlit_server, lang):
    """§5's "try it in the lab" opens /scaling on the lesson's sentence (the way back:
    tests/pages/test_moved.py); at the scene's last step alone (the others keep their room),
    above the step bar, inside the side panel at 1024 × 768."""
    open_lesson(page, streamlit_server, f"?at=5&lang={lang}&s={quote('他走了。')}")
    link = page.locator('[data-testid="lesson-lab"]')
    seen = []
    while where(page)[0] == 5:
        seen.append(link.is_visible())
        press(page, "ArrowRight")
    press(page, "ArrowLeft")  # back to §5's last step
    assert seen[-1] and not any(seen[:-1]) and link.is_visible()
    assert link.inner_text() == t("lesson.lab", lang)
    box, bar = (
        page.locator(f'[data-testid="{k}"]').bounding_box() for k in ("lesson-lab", "lesson-prev")
    )
    assert box["y"] + box["height"] <= bar["y"]  # above the step bar, not under it
    assert phone_shot(page, f"s05_lab_link_{lang}_1024x768.png") == []
    link.click()
    page.wait_for_url("**/scaling?*", timeout=LOAD_MS)
    query = {k: v[0] for k, v in parse_qs(urlparse(page.url).query).items()}
    assert (query["s"], query["lang"]) == ("他走了。", lang) and "at" not in query
    title = page.locator("h1").first
    title.wait_for(timeout=LOAD_MS)
    assert title.inner_text().startswith(t("scaling.title", lang)[:6])


def test_on_a_phone_the_lab_link_leaves_every_step_to_the_scene(browser, streamlit_server):
    """A phone's screen holds one step and its maps (§5's last one, the τ maps, had cells of
    9 px with the link under them); the lab's sweeps want a wider screen."""
    page = phone_page(browser, streamlit_server, "?at=5&lang=en")
    link = page.locator('[data-testid="lesson-lab"]')
    while where(page)[0] == 5:
        assert not link.is_visible()
        press(page, "ArrowRight")
    page.context.close()
