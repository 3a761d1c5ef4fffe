"""The rules every step of every scene meets, in Chromium (issues 31 and 34), and the deck's frame.

Each (size, language, order) walk of the steps happens once (issue 40), every check that applies
run in it:
- 1024 × 768, zh and en, in the lesson's order: test_lesson.py's walk (step_checks): no spoilers
  (nothing on screen outside a question's choice buttons holds a choice's words or its why before
  its reveal), a caption, the maps read from the back (cells ≥ 20 px, every token labelled,
  numbers ≥ 20 px), glosses (en), terms in the glossary's order, no answer seen before its reveal
  across scenes, and each scene file's own checks.
- 390 × 844 with touch, per scene and language: the scene file's phone walk
  (lesson_support.walk_phone_rules): one screen with its ▶, nothing clipped, nothing under the
  step bar, no text under 14 px, no spoilers, a caption, and the scene's own checks.
- Here: the maps at 1024 × 680, and a student who jumps (§10 first, back to §1).
- Keys reach every interactive step; the frame: terms and the glossary, the overview, the printed
  handout, the phone's swipe and its Reveal, progress and the review.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.test_lesson import own_checks, walked
from tests.lesson_support import (
    CANVAS_WORDS,
    DECK,
    ROOT,
    answers_before_reveal,
    map_problems,
    open_lesson,
    phone_page,
    press,
    settle,
    step_id,
    walk_every_step,
    walk_seen,
    where,
)
from ui.lesson.data import SCENES
from ui.lesson.scenes import NUMBERS
from ui.text import t

pytestmark = pytest.mark.browser

# ---- answers across scenes, for a student who jumps -------------------------------------------


def test_nothing_seen_before_a_question_is_revealed_states_its_answer_jumping_back(
    page, streamlit_server
):
    """Issue 39: what a step shows (text, caption, a canvas's text) states no question's answer
    before its reveal, in its own scene or any other, for a student who jumps (§10 first, then
    back to §1: every question still open). A number of times counts however it is written (§7's
    "约 4 倍" told as "×4" or "格子变成 4 倍"). In the lesson's order, zh and en: test_lesson.py's
    walk at 1024 × 768 (step_checks)."""
    page.add_init_script(CANVAS_WORDS)  # the words drawn on the figures too
    open_lesson(page, streamlit_server, "?at=1&lang=zh")
    scenes = sorted(NUMBERS.values())
    seen = walk_seen(page, scenes[::-1])
    assert {s for s, *_ in seen} == set(scenes)
    problems = answers_before_reveal(seen)
    assert not problems, "\n".join(problems)


# ---- the maps' cells at 1024 × 680 -----------------------------------------------------------


def test_maps_of_the_example_read_from_the_back_row_at_1024x680(page, streamlit_server):
    """Every step of every scene at 1024 × 680, one walk: cells ≥ 20 px, every token labelled,
    numbers ≥ 20 px (map_problems), and each scene file's on_the_projector and projector_walked.
    At 1024 × 768: test_lesson.py's walk (step_checks)."""
    open_lesson(page, streamlit_server, "?at=1&lang=zh", (1024, 680))
    ids: dict = {}

    def check(scene: int, step: int) -> list[str]:
        ids.setdefault(scene, []).append(step_id(page))
        return map_problems(page) + own_checks(page, "zh", scene, step)

    problems = [f"1024×680 {p}" for p in walk_every_step(page, check)] + walked(ids)
    assert not problems, "\n".join(problems)


# ---- keys reach every step that shows something -------------------------------------------------


def test_keys_reach_every_interactive_step(page, streamlit_server):
    """What took the mouse is a step → reaches: §4's four steps in a row, §5's τ sweep, §6's
    heads before and after training, §9's causal mask."""
    open_lesson(page, streamlit_server, "?at=4")
    for _ in range(8):  # → through §4's steps until its last
        if step_id(page) == "play":
            break
        press(page, "ArrowRight")
    assert where(page)[0] == 4 and step_id(page) == "play"
    open_lesson(page, streamlit_server, "?at=5&step=grad")
    began = page.evaluate(f"() => {DECK}.dataset.animStart ?? ''")
    page.keyboard.press("ArrowRight")  # the sweep plays (reduced motion: its last frame at once)
    page.wait_for_function(
        f"b => ({DECK}.dataset.animStart ?? '') !== b", arg=began, timeout=10_000
    )
    settle(page)
    assert step_id(page) == "tau"
    press(page, "6")
    chip = '[aria-pressed="true"][data-key^="s6-"]'
    pressed = f"() => {ROOT}.querySelector('{chip}').dataset.key"
    assert (step_id(page), page.evaluate(pressed)) == ("before", "s6-before")
    press(page, "ArrowRight")
    assert (step_id(page), page.evaluate(pressed)) == ("after", "s6-after")
    press(page, "9")
    assert step_id(page) == "code" and page.locator('[data-testid="s9-causal"]').count() == 0
    press(page, "ArrowRight")  # the question: what will the mask do? (no switch to peek with)
    assert step_id(page) == "ask" and page.locator('[data-testid="s9-causal"]').count() == 0
    press(page, "ArrowRight")
    assert step_id(page) == "mask" and page.locator('[data-testid="s9-causal"]').is_checked()
    assert "step=3" in page.url


# ---- terms and the glossary ---------------------------------------------------------------------


def test_a_term_opens_its_definition_on_click_and_enter_and_esc_closes_it(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=5")
    term = page.locator('[data-testid="lesson-term"][data-term="variance"]')
    pop = page.locator('[data-testid="lesson-term-pop"]')
    term.click()
    settle(page)
    assert pop.is_visible() and t("glossary.variance", "zh") in pop.inner_text()
    press(page, "Escape")
    assert pop.is_hidden() and where(page) == (5, 0)  # Esc closed the term, nothing else
    focused = f"() => {ROOT}.activeElement?.dataset.term"
    assert page.evaluate(focused) == "variance"  # the focus is back on the term
    press(page, "Enter")
    assert pop.is_visible()
    press(page, "g")
    glossary = page.locator('[data-testid="lesson-glossary"]')
    assert glossary.is_visible() and pop.is_hidden()
    assert t("glossary.kv_cache.term", "zh") in glossary.inner_text()


def test_on_a_touch_screen_a_tapped_term_opens_and_question_mark_opens_the_glossary(
    browser, streamlit_server
):
    page = phone_page(browser, streamlit_server, "?at=9&lang=en")
    page.locator('[data-testid="lesson-term"]').first.tap()
    settle(page)
    assert page.locator('[data-testid="lesson-term-pop"]').is_visible()
    page.locator('[data-testid="lesson-keys"]').tap()
    settle(page)
    assert page.locator('[data-testid="lesson-glossary"]').is_visible()
    assert page.locator('[data-testid="lesson-help"]').is_hidden()
    page.context.close()


# ---- the phone: swipe, Reveal -------------------------------------------------------------------

SWIPE = f"""(dx) => {{
  const el = {ROOT}.querySelector('[data-testid="lesson-figure"]');
  const at = (x) => new Touch({{ identifier: 1, target: el, clientX: x, clientY: 300 }});
  const send = (type, x, on) => el.dispatchEvent(new TouchEvent(type, {{ touches: on ? [at(x)] : [],
    changedTouches: [at(x)], bubbles: true, composed: true }}));
  send('touchstart', 200, true);
  send('touchend', 200 + dx, false);
}}"""


def test_on_a_phone_a_swipe_steps_and_reveal_names_no_key(browser, streamlit_server):
    page = phone_page(browser, streamlit_server, "?at=8")
    assert page.locator('[data-testid="lesson-reveal"]').inner_text() == "揭晓"
    page.evaluate(SWIPE, -150)  # a finger from right to left: on
    settle(page)
    assert where(page) == (8, 1)
    page.evaluate(SWIPE, 150)
    settle(page)
    assert where(page) == (8, 0)
    page.evaluate(SWIPE, -20)  # too short to be a swipe
    settle(page)
    assert where(page) == (8, 0)
    page.context.close()


# ---- the overview and the handout ---------------------------------------------------------------


def test_the_overview_lists_every_scene_on_o_and_on_esc_with_nothing_open(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=3")
    overview = page.locator('[data-testid="lesson-overview"]')
    press(page, "o")
    assert overview.is_visible()
    assert overview.get_by_role("button").filter(has_text="§").count() == SCENES
    assert t("lesson.s7.title", "zh") in overview.inner_text()
    focused = f"() => {ROOT}.activeElement?.dataset.at"
    assert page.evaluate(focused) == "3"  # on the scene on screen
    press(page, "ArrowDown")
    press(page, "Enter")
    assert where(page) == (4, 0) and overview.is_hidden()
    press(page, "Escape")  # nothing open: the overview
    assert overview.is_visible()
    press(page, "Escape")
    assert overview.is_hidden()


def test_the_handout_prints_a_page_per_scene_with_its_figure_and_takeaway(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=2&lang=en")
    page.evaluate("() => { window.print = () => { window.__printed = true; }; }")
    press(page, "o")
    page.locator('[data-testid="lesson-print"]').click()
    page.wait_for_selector('[data-testid="lesson"][data-handout="ready"]', timeout=300_000)
    settle(page)
    assert page.evaluate("() => window.__printed") and where(page) == (2, 0)
    measured = page.locator('[data-testid="lesson"]').get_attribute("data-measured")
    assert measured == "cost variance"  # both asked at once, both came (not a 60 s wait for one)
    pages = page.locator('[data-testid="lesson-handout"] .page')
    assert pages.count() == SCENES
    assert all(pages.nth(k).locator("img").count() >= 1 for k in range(SCENES))
    assert t("lesson.s3.take", "en") in pages.nth(2).inner_text()
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == SCENES


# ---- progress on the phone alone ----------------------------------------------------------------


def test_progress_survives_a_reload_and_a_wrong_answer_comes_back_in_the_review(
    browser, streamlit_server
):
    page = phone_page(browser, streamlit_server, "?at=8")
    page.get_by_role("button", name=t("lesson.s8.c_diff", "zh")).click()  # wrong
    settle(page)
    press(page, "4")
    press(page, "ArrowRight")
    again = page.context.new_page()  # the student comes back: /lesson, no scene in the link
    open_lesson(again, streamlit_server, "", (390, 844))
    assert where(again) == (4, 1)
    press(again, "End")
    press(again, "ArrowRight")
    press(again, "ArrowRight")  # past the last step: the review
    review = again.locator('[data-testid="lesson-review"]')
    assert review.is_visible() and t("lesson.s8.question", "zh") in review.inner_text()
    review.get_by_role("button", name=t("lesson.review_again", "zh")).click()
    settle(again)
    assert where(again) == (8, 0) and again.locator('[data-testid="lesson-choice"]').count() == 3
    again.get_by_role("button", name=t("lesson.s8.c_perm", "zh")).click()  # now right
    settle(again)
    press(again, "o")
    assert again.locator('[data-testid="lesson-review-open"]').count() == 0
    page.context.close()
