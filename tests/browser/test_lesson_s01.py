"""§1 in Chromium: every word of the sentence drawn at 1024 × 768 and on a 390 × 844 touch phone
(the column when a row would crowd one out), with ▶ on the screen; a one-token sentence is blocked
with a notice; the pronoun head's counts are labels in human-written sentences, and its number is
not said before §6 asks for it."""

from __future__ import annotations

import pytest

from demo_model import describe_heads
from tests.lesson_support import (
    DECK,
    drawn,
    open_lesson,
    phone_walk,
    press,
)
from tests.ui.lesson.test_s01 import raw_pronoun_labels
from ui.text import t

pytestmark = pytest.mark.browser

WORDS = f"() => {DECK}.querySelector('[data-testid=\"lesson-canvas\"]').dataset.words"


CAPTION = f"() => {DECK}.querySelector('[data-testid=\"lesson-caption\"]').textContent"


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_word_is_drawn_on_a_phone_and_on_the_projector(browser, streamlit_server, lang):
    """On a phone, every step: one screen, nothing under the step bar, no text under 14 px
    (phone_walk), every word drawn; in English every word's gloss, the pronoun's too
    (他 "he" was left out while 小明, 书, 桌子, 走 had theirs: issue 39 item 21); the RNN's step
    says what its chain carries: one fixed-size vector in which the head's answer fades (22)."""

    def words(page, step: int) -> list[str]:
        found = page.evaluate(WORDS)
        out = [] if found == "13/13" else [f"words drawn {found}"]
        said = " ".join(drawn(page))
        if lang == "en" and not ("他" in said and " he " in f" {said} "):
            out.append(f"step {step + 1}: 他 without its gloss: {said[:80]}")
        if step == 2:
            caption = page.evaluate(CAPTION)
            carries = ("大小固定的向量", "变淡") if lang == "zh" else ("fixed-size vector", "fades")
            if not all(w in caption for w in (*carries, "小明")):
                out.append(f"the RNN's caption: {caption}")
        return out

    phone_walk(browser, streamlit_server, 1, lang, words)


def on_the_projector(page, lang: str, step: int) -> list[str]:
    """Each step of §1 in the projector walks (test_lesson.py at 1024 × 768 in zh and en,
    test_lesson_rules.py at 1024 × 680): every word drawn."""
    words = page.evaluate(WORDS)
    return [] if words == "13/13" else [f"words drawn {words}"]


def test_a_one_token_sentence_is_blocked_with_a_notice(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=1&s=他")
    need = page.locator('[data-testid="lesson-need"]')
    assert need.is_visible() and t("lesson.need.two", "zh") in need.inner_text()
    assert page.locator('[data-testid="lesson-choice"]').count() == 0
    assert "0 步" not in page.locator('[data-testid="lesson"]').inner_text()


def test_the_pronoun_heads_counts_say_labels_and_sentences(page, streamlit_server):
    labels, sentences, _ = raw_pronoun_labels()
    open_lesson(page, streamlit_server, "?at=1")
    press(page, "ArrowRight")  # the reveal
    readout = page.locator('[data-testid="lesson-readout"]').inner_text()
    assert f"{sentences} 句、{labels} 个代词标注中对了 308 个" in readout
    verdict = page.locator('[data-testid="lesson-verdict"]').inner_text()
    assert f"{labels} 个代词标注对了 308 个" in verdict and f"{labels} 句" not in verdict
    # §6 asks which head finds pronouns: §1's reveal shows its row and its job, not its number
    number = next(h.head for h in describe_heads() if h.relation == "pronoun_antecedent") + 1
    shown = page.locator('[data-testid="lesson"]').inner_text() + " ".join(
        page.locator("canvas[aria-label]").evaluate_all("(cs) => cs.map((c) => c.ariaLabel)")
    )
    assert "找 他/她/它 指谁" in readout and f"头 {number}" not in shown
