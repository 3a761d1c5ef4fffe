"""§3 in Chromium: the readout says which of the 48 numbers is largest as people count (17, 32, 44
for the example's 他: numpy's argmax + 1), for another word too; every step fits a phone with
its W drawn large (screenshots of each step in test-artifacts/lesson)."""

from __future__ import annotations

import pytest

from tests.lesson_support import (
    PHONE,
    open_lesson,
    phone_page,
    phone_problems,
    press,
    settle,
    shot,
    walk_scene,
)
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
    phone = phone_page(browser, streamlit_server, f"?at=3&lang={lang}")

    def check(step: int) -> list[str]:
        shot(phone, f"s03_{step}_{lang}_{PHONE[0]}.png")
        return phone_problems(phone)

    problems = walk_scene(phone, 3, check)
    phone.context.close()
    open_lesson(page, streamlit_server, f"?at=3&lang={lang}")
    walk_scene(page, 3, lambda step: [shot(page, f"s03_{step}_{lang}_1024.png")])
    assert not problems, "\n".join(problems)
