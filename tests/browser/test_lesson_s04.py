"""§4 in Chromium: softmax opened up on the focus row (exp(x) / sum(exp(x))) against numpy on
the core's scores, ④'s A·V readable from the back row, the softmax map's numbers on a phone,
and → reaching every step. The rules every step meets: tests/browser/test_lesson_rules.py."""

from __future__ import annotations

import numpy as np
import pytest

from demo_model import load_demo_model
from tests.lesson_support import (
    ROOT,
    SENTENCE,
    chosen_head,
    map_problems,
    open_lesson,
    phone_page,
    phone_shot,
    phone_walk,
    press,
    settle,
    shot,
    step_id,
    values,
    where,
)
from ui.text import t

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("head", [None, 0])
def test_softmax_opened_up_is_exp_over_the_rows_sum(page, streamlit_server, head):
    """③′: x = the focus row's Q·Kᵀ ÷ √d_k, eˣ, Σ eˣ and eˣ / Σ are numpy's on the core's raw
    scores, in the head on screen (the scene's pick, then head 1 picked by hand)."""
    attention = load_demo_model().run(SENTENCE).attention
    scores, d_k = attention.heads.scores, attention.q.shape[-1]  # (h, n, n), d_k
    i = scores.shape[1] - 4  # 他
    open_lesson(page, streamlit_server, "?at=4&step=exp")
    assert step_id(page) == "exp"
    if head is not None:
        page.locator(f'[data-testid="lesson-side"] [data-key="head-{head}"]').click()
        settle(page)
    shown = chosen_head(page)
    got = values(page)
    assert (got["head"], got["row"]) == (shown, i)
    x = scores[shown, i] / np.sqrt(d_k)  # (n,)
    e = np.exp(x)
    np.testing.assert_allclose(got["x"], x, rtol=1e-5)
    np.testing.assert_allclose(got["exp"], e, rtol=1e-5)
    assert got["total"] == pytest.approx(e.sum(), rel=1e-5)
    np.testing.assert_allclose(got["share"], e / e.sum(), rtol=1e-5, atol=1e-12)
    readout = page.locator('[data-testid="lesson-readout"]').inner_text()
    assert f"{(e / e.sum()).sum():.3f}" in readout and "1.000" in readout
    caption = page.locator('[data-testid="lesson-caption"]').inner_text()
    assert "exp(x) / sum(exp(x))" in caption and "他" in caption


def test_keys_reach_every_step_in_order(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=4")
    seen = [step_id(page)]
    while True:
        press(page, "ArrowRight")
        if where(page)[0] != 4:
            break
        seen.append(step_id(page))
    assert seen[:3] == ["scores", "scaled", "softmax"]
    assert seen.index("exp") == seen.index("softmax") + 1 and seen.index("mix") > seen.index("exp")
    assert seen.index("play") > seen.index("mix")


def test_a_v_reads_from_the_back_row_and_shows_the_focus_rows_output(page, streamlit_server):
    """④ at 1024 × 680 and 1024 × 768: A's cells ≥ 20 px, 13 of 13 labelled; the words under V
    name the focus word's output."""
    for size in ((1024, 680), (1024, 768)):
        open_lesson(page, streamlit_server, "?at=4&step=mix", size)
        assert step_id(page) == "mix"
        assert map_problems(page) == []
        shot(page, f"s04_mix_{size[1]}.png")
    cell = page.evaluate(f"() => Number({ROOT}.querySelector('canvas[data-cell]').dataset.cell)")
    assert cell >= 20


def test_on_a_phone_the_softmax_map_shows_its_numbers_and_each_step_fits(browser, streamlit_server):
    """A phone's softmax map: numbers in its cells at ≥ 14 px or none (issue 39: no text under
    14 px; 13 cells across a phone hold no "100" at 14 px), the focus row's shares at ③′."""
    page = phone_page(browser, streamlit_server, "?at=4&step=softmax&lang=en")
    fonts = page.evaluate(f"() => {ROOT}.querySelector('canvas[data-cell]').dataset.cellFonts")
    assert all(float(v) >= 14 for v in fonts.split(",") if v)
    press(page, "ArrowRight")
    assert step_id(page) == "exp" and phone_shot(page, "s04_phone_exp_en.png") == []
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_a_phone_every_step_fits_under_the_step_bar(browser, streamlit_server, lang):
    """Issue 39 on a phone (390 × 844), every step: one screen, nothing under the step bar (the
    takeaway at steps 3 and 7 was, by 17–37 px), map cells ≥ 10 px, no text under 14 px
    (phone_walk), in zh and en."""
    phone_walk(browser, streamlit_server, 4, lang)


def test_a_long_sentence_keeps_the_largest_shares_and_sums_the_rest(page, streamlit_server):
    """64 tokens do not fit the table: the largest shares stand, one line holds the others, and
    the shares still add up to 1."""
    long = "小明把书放在了桌子上，然后他走了。小红拿起那本书，看了看封面，又把它放回了桌子上。"
    open_lesson(page, streamlit_server, f"?at=4&step=exp&w=random&s={long}")
    got = values(page)
    assert len(got["share"]) > 20 and sum(got["share"]) == pytest.approx(1, abs=1e-9)
    alt = page.locator('[data-testid="lesson-canvas"]').get_attribute("aria-label")
    assert t("lesson.s4.exp_rest", "zh", m=1).split("1")[0] in alt


@pytest.mark.parametrize(("lang", "size", "scale"), [
    ("zh", (1024, 768), 1), ("en", (1024, 768), 1), ("zh", None, 1), ("en", None, 1),
    ("en", (1024, 768), 0),
])  # fmt: skip
def test_the_scaled_step_says_this_sentences_variance_before_and_after(
    page, browser, streamlit_server, lang, size, scale
):
    """② (issue 38, from the steps page): the variance of the head's n × n raw scores and after
    ÷√d_k, numpy's on the core's scores, in the head on screen; the step fits a 1024 × 768
    screen and a phone, nothing under the step bar."""
    attention = load_demo_model().run(SENTENCE).attention
    scores, d_k = attention.heads.scores, attention.q.shape[-1]  # (h, n, n), d_k
    query = f"?at=4&step={'scaled' if scale else 'cell'}&lang={lang}"
    if size is None:
        page = phone_page(browser, streamlit_server, query)
    else:
        open_lesson(page, streamlit_server, query, size)
    if not scale:  # the scene's √d_k switch (on its cell step), then back to ②
        page.locator('[data-testid="lesson-cell-scale"]').click()
        settle(page)
        while step_id(page) != "scaled":
            press(page, "ArrowLeft")
    assert step_id(page) == "scaled"
    head = chosen_head(page)
    caption = page.locator('[data-testid="lesson-caption"]').inner_text()
    raw = float(np.var(scores[head]))
    if scale:
        said = t("lesson.s4.var", lang, head=head + 1, a=f"{raw:.2f}", d=d_k,
                 b=f"{np.var(scores[head] / np.sqrt(d_k)):.2f}")  # fmt: skip
    else:
        said = t("lesson.s4.var_off", lang, head=head + 1, a=f"{raw:.2f}")
    assert said in caption
    name = f"s04_scaled_{lang}_{scale}_{size[0] if size else 'phone'}.png"
    assert phone_shot(page, name) == []
    if size is None:
        page.context.close()
