"""§3 in Chromium: the readout says which of the 48 numbers is largest as people count (17, 32, 44
for the example's 他: numpy's argmax + 1), for another word too; every step fits a phone with
its W drawn large (screenshots of each step in test-artifacts/lesson; at 1024 × 768 by
test_lesson.py's walk)."""

from __future__ import annotations

import numpy as np
import pytest

from demo_model import load_demo_model
from tests.lesson_support import open_lesson, phone_walk, press, settle
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


def piece_on_a_phone(sentence: str, word: str) -> dict[str, dict]:
    """{"q": {p, dk, j, whole}, …}: the head in view (the one whose row of `word` has the largest
    share, as §4 picks it), 1-based, and the largest |value| in its piece of q, k, v: within
    the piece (j) and in the whole row (whole; the heads' pieces side by side)."""
    run = load_demo_model().run(sentence)
    i = run.tokens.texts.index(word)
    att = run.attention
    w = att.heads.weights  # (h, n, n)
    head = int(np.argmax([w[h, i].max() for h in range(w.shape[0])]))
    out = {}
    for name in ("q", "k", "v"):
        per = getattr(att, name)[head, i]  # (d_k,)
        j = int(np.argmax(np.abs(per)))
        dk = per.shape[0]
        out[name] = {"p": head + 1, "dk": dk, "j": j + 1, "whole": head * dk + j + 1}
    return out


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_step_fits_a_phone(browser, streamlit_server, lang):
    """Issue 39 on a phone (390 × 844), every step: one screen, nothing under the step bar, map
    cells ≥ 10 px (W_Q / W_V were 48 × 48 at 4 px), no text under 14 px (phone_walk)."""
    piece = piece_on_a_phone(SENTENCE, "他")

    def counted(page, step: int) -> list[str]:
        """Steps q, k, v: W named, not drawn; the piece of the head in view large, its number
        furthest from 0 counted within the piece and in the whole row (numpy's)."""
        if step == 0:
            return []
        name = "qkv"[step - 1]
        said = page.locator(READOUT).inner_text()
        want = t("lesson.s3.row_phone", lang, q="他", name=name, d=48, **piece[name])
        return [] if said == want else [f"step {step}: {said!r} is not {want!r}"]

    phone_walk(browser, streamlit_server, 3, lang, counted)
