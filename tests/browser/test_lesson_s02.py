"""§2 in Chromium: the row shown is a real mix (numpy picks the same head), its mix equals the
core's output, the question's right card is the row's top share, §2 says no formula words before
§3, and every step fits a phone (screenshots of each step in test-artifacts/lesson)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from demo_model import load_demo_model
from tests.lesson_support import (
    SHOWN,
    open_lesson,
    phone_shot,
    phone_walk,
    press,
    settle,
    values,
)
from tests.ui.lesson.test_s02 import SENTENCE, mixed_row
from ui.text import t

pytestmark = pytest.mark.browser

SIDE = '[data-testid="lesson-side"]'


def test_the_mix_is_real_and_equals_the_cores_output(page, streamlit_server):
    i, head, w = mixed_row()
    out = load_demo_model().run(SENTENCE).attention.heads.output  # (h, n, d_k)
    open_lesson(page, streamlit_server, "?at=2")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    pressed = page.locator(f'{SIDE} [data-key^="head-"][aria-pressed="true"]')
    assert pressed.get_attribute("data-key") == f"head-{head}"
    got = values(page)
    np.testing.assert_allclose(got, out[head, i], rtol=1e-4, atol=1e-5)
    top = int(np.argmax(w))
    said = page.locator('[data-testid="lesson-readout"]').inner_text()
    texts = load_demo_model().run(SENTENCE).tokens.texts
    assert t("lesson.s2.top", "zh", k=texts[top], w=f"{w[top] * 100:.0f}%",
             rest=f"{(1 - w[top]) * 100:.0f}%") == said  # fmt: skip


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_mix_adds_the_cards_largest_share_first_toward_the_output(page, streamlit_server, lang):
    """(Issue 38, from the library page) ‖Σ − output‖ before the first card and after each, the
    largest share first, numpy's on the core's weights and values; the step fits 1024 × 768."""
    _, head, w = mixed_row()
    v = load_demo_model().run(SENTENCE).attention.v[head]  # (n, d_k)
    out = w @ v
    partial = np.cumsum(
        w[np.argsort(-w, kind="stable"), None] * v[np.argsort(-w, kind="stable")], 0
    )
    want = [np.linalg.norm(out), *np.linalg.norm(partial - out, axis=1)]
    open_lesson(page, streamlit_server, f"?at=2&step=mix&lang={lang}")
    got = json.loads(page.locator('[data-testid="lesson-canvas"]').get_attribute("data-sums"))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
    assert got[0] > got[1] > got[2] and got[-1] < 1e-5  # closer with each large card, then there
    assert phone_shot(page, f"s02_sums_{lang}_1024x768.png") == []


def test_the_question_is_judged_on_the_rows_top_share(page, streamlit_server):
    _, _, w = mixed_row()
    texts = load_demo_model().run(SENTENCE).tokens.texts
    order = np.argsort(-w, kind="stable")
    open_lesson(page, streamlit_server, "?at=2")
    choices = page.locator('[data-testid="lesson-choice"]')
    assert sorted(choices.all_inner_texts()) == sorted(texts[j] for j in order[:3])
    choices.filter(has_text=texts[order[1]]).click()
    settle(page)
    box = page.locator('[data-testid="lesson-verdict"]')
    assert box.get_attribute("data-verdict") == "wrong" and f"{w[order[1]] * 100:.0f}%" in (
        box.inner_text()
    )
    press(page, "ArrowLeft")
    choices.filter(has_text=texts[order[0]]).first.click()
    settle(page)
    assert box.get_attribute("data-verdict") == "right"


def on_the_projector(page, lang: str, step: int) -> list[str]:
    """Each step of §2 in the projector walks (test_lesson.py at 1024 × 768 in zh and en,
    test_lesson_rules.py at 1024 × 680): softmax, d_k, q·k and V wait for §3/§4, on screen only
    as a glossary term's words."""
    seen = " ".join(page.evaluate(SHOWN)["texts"])
    return [f"{w} before §3" for w in ("softmax", "d_k", "q·k", "√", "·V", "v(") if w in seen]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_step_fits_a_phone(browser, streamlit_server, lang):
    """Issue 39 on a phone (390 × 844), every step: one screen, nothing under the step bar, map
    cells ≥ 10 px, no text under 14 px (phone_walk), in zh and en."""
    phone_walk(browser, streamlit_server, 2, lang)


def test_at_the_question_no_card_is_marked(page, streamlit_server):
    """Issue 39 item 14: the query's card (他) was marked as the query in the warm ink of the
    best card while "which card gets the largest share?" was open, and 他 is that card."""
    i, _, w = mixed_row()
    assert int(np.argmax(w)) == i  # the example's answer is the query's own card
    open_lesson(page, streamlit_server, "?at=2")
    canvas = page.locator('[data-testid="lesson-canvas"]')
    assert json.loads(canvas.get_attribute("data-marked")) == []
    press(page, "ArrowRight")  # revealed: the best card (and the query's) marked
    assert json.loads(canvas.get_attribute("data-marked")) == [i]
