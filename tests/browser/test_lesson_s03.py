"""§3 in Chromium: the readout says which of the 48 numbers is largest as people count (17, 32, 44
for the example's 他: numpy's argmax + 1), for another word too; every step fits a phone with
its W drawn large (screenshots of each step in test-artifacts/lesson)."""

from __future__ import annotations

import pytest

from tests.lesson_support import open_lesson, press, settle, shot, walk_phone, walk_scene
from tests.ui.lesson.test_s03 import SENTENCE, largest_dimension
from ui.text import t

pytestmark = pytest.mark.browser

READOUT = '[data-testid="lesson-readout"]'


@pytest.mark.parametrize("word", ["他", "小明"])
def test_the_largest_number_is_said_as_people_count(page, streamlit_server, word):
    want = largest_dimension(SENTENCE, word)
    open_lesson(page, streamlit_server, "?at=3")
    if word != "他":
        page.locator(f'[data-testid="lesson-side"] button[data-i]:text-is("{word}")').click()
        settle(page)
    for name in ("q", "k", "v"):
        press(page, "ArrowRight")
        said = page.locator(READOUT).inner_text()
        assert said == t("lesson.s3.row", "zh", q=word, name=name, d=48, j=want[name]), said


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_step_fits_a_phone_and_the_projector(browser, page, streamlit_server, lang):
    problems = walk_phone(browser, streamlit_server, 3, lang)
    open_lesson(page, streamlit_server, f"?at=3&lang={lang}")
    walk_scene(page, 3, lambda step: [shot(page, f"s03_{step}_{lang}_1024.png")])
    assert not problems, "\n".join(problems)
