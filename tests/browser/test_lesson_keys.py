"""The lesson (/lesson) in Chromium, driven by keys and links: the keys step and turn the scene
and the link follows, the notes wait for S, a share link opens its scene and step with no
what-if, a scene's what-if stays in it, a bad scene number opens the nearest scene; the deck's
records are sealed. Shared helpers: tests/lesson_support.py."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from tests.lesson_support import (
    DECK,
    LOAD_MS,
    ROOT,
    SCENE,
    open_lesson,
    press,
    settle,
    where,
)
from ui.lesson import data, deck, scenes
from ui.text import t

pytestmark = pytest.mark.browser


SCENES = data.SCENES  # how many scenes (ui/lesson/scenes.py)
LAST = max(scenes.NUMBERS.values())  # the last one's number


def verdict(page) -> tuple[str, str]:
    box = page.locator('[data-testid="lesson-verdict"]')
    return box.get_attribute("data-verdict"), box.inner_text()


def link_at(page) -> str | None:
    return (parse_qs(urlparse(page.url).query).get("at") or [None])[0]


def wait_link(page, at: int) -> None:
    page.wait_for_function(
        f"() => new URLSearchParams(location.search).get('at') === '{at}'", timeout=LOAD_MS
    )


# The deck's record D (run.js newDeck), its settings, its frame and the scene's context: sealed,
# so a field written anywhere but where the record is made throws (in strict code: the bundle).
SEALED = f"""() => {{
  "use strict";
  const D = {DECK}.parentNode.__lesson; // the component's parent: its shadow root
  const sealed = [D, D.local, D.els, D.ctx, D.ctx.local].map((r) => !!r && Object.isSealed(r));
  try {{ D.extra = 1; }} catch (e) {{ return [...sealed, e instanceof TypeError]; }}
  return [...sealed, false];
}}"""


def reveal_s5(page) -> str:
    """§5's answer, revealed with keys from wherever the deck is."""
    press(page, "5")
    for _ in range(3):  # the chart, why d_k, the question
        press(page, "ArrowRight")
    assert where(page) == (5, 3)
    return verdict(page)[1]


def test_keys_step_and_turn_the_scene_and_the_link_follows(page, streamlit_server):
    """reveal.js keys: → Space PageDown forward through steps into the next scene, ← PageUp
    Backspace back, Home / End, digits, the strip; Backspace on §1 and → on §10's last step do
    nothing; keys typed into the sentence box turn no page."""
    open_lesson(page, streamlit_server, "?at=1")
    for key in ("Backspace", "ArrowLeft", "PageUp"):
        press(page, key)
        assert where(page) == (1, 0)
    assert urlparse(page.url).path.endswith("/lesson")
    for key in ("ArrowRight", " ", "PageDown"):  # §1 has three steps: the third key leaves it
        press(page, key)
    assert where(page) == (2, 0)
    wait_link(page, 2)
    press(page, "Backspace")
    assert where(page) == (1, 2)  # back into §1 at its last step, as reveal.js does
    wait_link(page, 1)
    press(page, "End")
    wait_link(page, 10)
    last = page.evaluate(f"() => {SCENE}.querySelector('.steplabel').textContent")
    for _ in range(3):
        press(page, "ArrowRight")
    assert where(page)[0] == 10 and link_at(page) == "10"
    assert page.evaluate(f"() => {SCENE}.querySelector('.steplabel').textContent") != ""
    press(page, "Home")
    assert where(page) == (1, 0)
    press(page, "7")
    assert where(page) == (7, 0)
    page.locator('[data-testid="lesson-strip"] button[data-at="4"]').click()
    settle(page)
    assert where(page) == (4, 0)
    wait_link(page, 4)
    assert page.locator('[data-testid="lesson-strip"] [aria-current="step"]').inner_text() == "§4"
    page.locator('[data-testid="lesson-edit"]').click()
    box = page.locator('[data-testid="lesson-sentence"]')
    box.focus()
    for key in ("ArrowRight", " ", "Backspace", "PageDown", "End", "s"):
        box.press(key)
    assert where(page) == (4, 0)
    assert len(page.context.pages) == 1  # an s typed in the box opened no presenter window
    box.press("Escape")
    assert page.locator('[data-testid="lesson-editor"]').is_hidden()
    assert last  # §10 has a step label to stay on


def test_the_key_list_a_black_screen_and_the_title_takes_the_focus(page, streamlit_server):
    """Nothing beside the scene (the sidebar starts collapsed; S opens the presenter window,
    tests/browser/test_presenter.py); a scene change is announced and puts the focus on its
    title."""
    open_lesson(page, streamlit_server, "?at=3")
    assert page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed") == "true"
    press(page, "?")  # the key list, a dialog, written from the key map; Esc closes it
    assert page.get_by_role("dialog").is_visible()
    listed = page.get_by_role("dialog").inner_text()
    assert all(line in listed for line in [*deck.key_help("zh"), t("lesson.k.remote", "zh")])
    press(page, "Escape")
    assert page.locator('[data-testid="lesson-help"]').is_hidden()
    press(page, "b")  # a black screen; the next key only brings the scene back
    assert page.locator('[data-testid="lesson-black"]').is_visible()
    press(page, "ArrowRight")
    assert page.locator('[data-testid="lesson-black"]').is_hidden() and where(page) == (3, 0)
    for _ in range(4):  # out of §3's four steps into §4
        press(page, "PageDown")
    assert where(page) == (4, 0)
    focused = page.evaluate(f"() => {ROOT}.activeElement?.dataset.testid")
    assert focused == "lesson-title"
    live = page.locator('[data-testid="lesson-live"]').text_content()
    assert t("lesson.s4.title", "zh") in live


def test_the_decks_records_declare_every_field_where_they_are_made(page, streamlit_server):
    """D, D.local (the scene's settings), D.els and the scene's context are sealed where they are
    made; every step of every scene runs with them so (test_every_step_of_every_scene_fits_and_
    reads_from_the_back: a field added anywhere else throws there)."""
    open_lesson(page, streamlit_server, "?at=1")
    assert page.evaluate(SEALED) == [True] * 6
    press(page, "End")
    assert where(page)[0] == LAST and page.evaluate(SEALED) == [True] * 6


def test_a_share_link_opens_its_scene_and_step_and_carries_no_what_if(page, streamlit_server):
    """README "What a lesson link carries": the scene, the step, the sentence, the language;
    scale=0 in a link changes nothing (√d_k is each scene's own switch) and leaves the link."""
    sentence = "那天小红在公园里看见了小刚，她很高兴。"
    open_lesson(page, streamlit_server, f"?at=5&step=2&lang=en&scale=0&s={sentence}")
    assert where(page) == (5, 1)
    assert page.locator('[data-testid="lesson-title"]').inner_text() == t("lesson.s5.title", "en")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('scale')")
    query = parse_qs(urlparse(page.url).query)
    assert query["at"] == ["5"] and query["step"] == ["2"] and query["lang"] == ["en"]
    assert query["s"] == [sentence]
    press(page, "ArrowRight")
    assert parse_qs(urlparse(page.url).query)["step"] == ["3"]
    open_lesson(page, streamlit_server, "?at=5&step=reveal&lang=en")  # a step by its id
    assert where(page) == (5, 3)


def test_a_scenes_what_if_stays_in_its_scene(page, streamlit_server):
    """At §9 the mask on (its switch), then 4 → →: §4 is unmasked, §5's reveal says what it
    said before, and the link holds no causal=1."""
    open_lesson(page, streamlit_server, "?at=9")
    before = reveal_s5(page)
    press(page, "9")
    press(page, "ArrowRight")
    press(page, "ArrowRight")  # §9's mask step: the mask on
    assert page.locator('[data-testid="s9-causal"]').is_checked()
    press(page, "4")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    assert where(page) == (4, 2)
    alt = page.locator('[data-testid="lesson-canvas"]').get_attribute("aria-label")
    assert "np.where(mask" not in alt and "softmax(S" in alt
    assert reveal_s5(page) == before
    assert "causal" not in parse_qs(urlparse(page.url).query)
    press(page, "9")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    page.locator('[data-testid="s9-causal"]').uncheck()  # the what-if: off at the mask step
    settle(page)
    press(page, "8")
    press(page, "9")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    assert page.locator('[data-testid="s9-causal"]').is_checked()  # entering reset it


@pytest.mark.parametrize(
    ("raw", "scene", "lang"),
    [("0", 1, "zh"), ("99", LAST, "en"), ("x", 1, "zh"), ("3.5", 4, "en")],
)
def test_a_bad_scene_number_opens_the_nearest_scene_with_a_notice(
    page, streamlit_server, raw, scene, lang
):
    open_lesson(page, streamlit_server, f"?at={raw}&lang={lang}")
    assert where(page) == (scene, 0)
    wait_link(page, scene)
    notice = page.locator('[data-testid="lesson-notices"]').inner_text()
    assert t("lesson.at_bad", lang, value=raw, n=SCENES, used=scene) in notice
    assert not page.locator('[data-testid="stException"]').count()
