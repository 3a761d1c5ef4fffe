"""The lesson's view steps in Chromium: §4's step "cell" takes 他 → 小明 apart with the core's
numbers (and fits a phone), §6's steps "qk0" and "qk" draw the trained head's plane, the arrow
keys reach them. The view's own breakdown and map: tests/browser/test_cell.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.browser.cell_support import SENTENCE, check, lab_of, plane
from ui.state import first_step_lab

pytestmark = pytest.mark.browser


def lesson_values(page, testid: str, inner: str = "") -> dict:
    from tests.lesson_support import SCENE

    raw = page.evaluate(
        f"([t, inner]) => {SCENE}.querySelector(`[data-testid='${{t}}'] ${{inner}}`)"
        ".getAttribute('data-values')",
        [testid, inner],
    )
    return json.loads(raw)


def test_the_lessons_cell_step_takes_he_to_xiaoming_apart_with_the_cores_numbers(
    page, streamlit_server
):
    from tests.lesson_support import SCENE, open_lesson, settle, where

    open_lesson(page, streamlit_server, "?at=4&step=cell")
    assert where(page) == (4, 6)  # after ③′ (softmax opened up) and the play step
    lab = lab_of("trained")
    b = lesson_values(page, "lesson-cell")
    assert (lab.texts[b["i"]], lab.texts[b["j"]]) == ("他", "小明")
    check(b, lab, b["head"], b["i"], b["j"], True, False)
    small = page.evaluate(
        f"""() => [...{SCENE}.querySelectorAll('[data-testid="lesson-cell"] *')]
          .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim()))
          .filter((e) => e.getClientRects().length && !e.closest('.sr-only'))
          .map((e) => parseFloat(getComputedStyle(e).fontSize)).filter((px) => px < 20)"""
    )
    assert small == [], "text under 20 px at 1024 × 768"
    page.evaluate(
        f"() => {SCENE}.getRootNode().querySelector('[data-testid=\"lesson-cell-scale\"]').click()"
    )
    settle(page)
    off = lesson_values(page, "lesson-cell")
    assert off["divisor"] == 1
    check(off, lab, off["head"], off["i"], off["j"], False, False)


def test_the_lessons_cell_step_fits_a_phone(browser, streamlit_server):
    from tests.lesson_support import phone_page, phone_problems, shot

    page = phone_page(browser, streamlit_server, "?at=4&step=cell")
    problems = phone_problems(page)
    shot(page, "cell_s4_phone.png")
    page.context.close()
    assert not problems, problems


@pytest.mark.parametrize("step", ["qk0", "qk"])
def test_the_lessons_qk_steps_draw_the_trained_heads_plane(page, streamlit_server, step):
    from tests.lesson_support import open_lesson

    open_lesson(page, streamlit_server, f"?at=6&step={step}")
    got = lesson_values(page, "lesson-qk", "svg")
    lab = lab_of("trained")
    if step == "qk0":
        lab = first_step_lab((SENTENCE, "word", 64, 4, True, False, False, 0, "trained"))
    f = got["focus"]
    assert lab.texts[f] == "他"
    heads = [
        h for h in range(lab.heads)
        if np.allclose(np.array(got["keys"])[:, 0] * got["qnorm"], lab.result.heads.scores[h, f],
                       rtol=1e-5, atol=1e-4)
    ]  # fmt: skip
    assert len(heads) == 1, "x · |q| is the focus row's scores of exactly one head"
    keys, _ = plane(lab.result.q[heads[0]].astype(np.float32),
                    lab.result.k[heads[0]].astype(np.float32), f)  # fmt: skip
    np.testing.assert_allclose(got["keys"], keys, rtol=1e-5, atol=1e-5 * np.abs(keys).max())


def test_arrow_keys_reach_the_cell_and_qk_steps(page, streamlit_server):
    from tests.lesson_support import SCENE, open_lesson, press

    step = f"() => {SCENE}.dataset.stepId"
    open_lesson(page, streamlit_server, "?at=4&step=play")
    press(page, "ArrowRight")
    assert page.evaluate(step) == "cell"
    open_lesson(page, streamlit_server, "?at=6&step=h4")  # after the question and the heads
    press(page, "ArrowRight")
    assert page.evaluate(step) == "qk0"
    early = lesson_values(page, "lesson-qk", "svg")
    press(page, "ArrowRight")
    assert page.evaluate(step) == "qk"
    assert lesson_values(page, "lesson-qk", "svg")["keys"] != early["keys"]  # step 0 ↔ trained
