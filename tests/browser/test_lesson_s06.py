"""§6 in Chromium: one head per step on a map read from the back row, the question "which head
finds 他's person?" (no head's job on screen while it is open; judged by the measured pronoun
head), heads 1 and 4's shared job told apart, the split into heads, the phone; screenshots."""

from __future__ import annotations

import json

import pytest

from demo_model import describe_heads, load_demo_history, load_demo_model
from tests.lesson_support import (
    ROOT,
    SENTENCE,
    open_lesson,
    phone_page,
    phone_shot,
    phone_walk,
    settle,
    shot,
    step_id,
    where,
)
from ui.text import t

pytestmark = pytest.mark.browser

HEADS = describe_heads()
HISTORY = load_demo_history()
PRONOUN = next(h.head for h in HEADS if h.relation == "pronoun_antecedent")
READOUT = f"() => {ROOT}.querySelector('[data-testid=\"lesson-readout\"]')?.textContent || ''"
STEPS = ["before", "after", "who", "h1", "h2", "h3", "h4", "split"]


def projector_walked(step_ids: list[str]) -> list[str]:
    """test_lesson.py's and test_lesson_rules.py's walks (maps at 1024 × 680 and × 768, cells
    ≥ 20 px, every token labelled): §6's steps as walked, one head per step (`cell` may add its
    own step)."""
    walked = [s for s in STEPS if s in step_ids]
    return [] if walked == STEPS else [f"§6 walked {step_ids}, not every one of {STEPS}"]


def test_the_question_hides_the_jobs_and_its_answer_is_the_measured_pronoun_head(
    page, streamlit_server
):
    open_lesson(page, streamlit_server, "?at=6&step=after")
    assert step_id(page) == "after"
    shown = page.locator('[data-testid="lesson"]').inner_text()
    for h in HEADS:  # no head's job on screen while the question is open
        assert t(f"lesson.job.{h.relation}", "zh") not in shown
    choices = page.locator('[data-testid="lesson-choice"]')
    assert choices.count() == len(HEADS)
    wrong = (PRONOUN + 1) % len(HEADS)
    page.locator(f'[data-choice="h{wrong + 1}"]').click()  # a choice reveals: the next step
    settle(page)
    assert step_id(page) == "who"
    verdict = page.locator('[data-testid="lesson-verdict"]')
    assert verdict.get_attribute("data-verdict") == "wrong"
    right = page.locator('[data-testid="lesson-choice"].right')
    assert right.get_attribute("data-choice") == f"h{PRONOUN + 1}"
    assert "小明" in verdict.inner_text() and "308" in verdict.inner_text()
    said = page.evaluate(READOUT)
    counts = t("lesson.job.hits", "zh", hits=HEADS[PRONOUN].hits, total=HEADS[PRONOUN].total)
    assert said.startswith(counts) and "他 → 小明" in said


def test_each_head_step_shows_its_own_head_and_the_twins_say_which_the_app_reads(
    page, streamlit_server
):
    twins = [h.head for h in HEADS if h.relation == "modifier_noun"]
    read = max(twins, key=lambda k: HEADS[k].heldout_hits / HEADS[k].heldout_total)
    other = next(k for k in twins if k != read)
    for k in range(len(HEADS)):
        open_lesson(page, streamlit_server, f"?at=6&step=h{k + 1}")
        pressed = page.locator('[data-testid="lesson-heads"] [aria-pressed="true"]')
        assert pressed.get_attribute("data-key") == f"head-{k}"
        said = page.evaluate(READOUT)  # the counts of the job the map's title names
        assert said.startswith(t("lesson.job.hits", "zh", hits=HEADS[k].hits, total=HEADS[k].total))
        title = page.locator('[data-testid="lesson-figure"]').inner_text()
        assert t(f"lesson.job.{HEADS[k].relation}", "zh") in title
        if k in twins:
            a, b = HEADS[read], HEADS[other]
            fields = {"a": read + 1, "b": other + 1, "t": a.heldout_total, "ha": a.heldout_hits}
            fields |= {"hb": b.heldout_hits, "total": a.total, "ta": a.hits, "tb": b.hits}
            line = t("lesson.s6.twins", "zh", **fields)
            assert line in said
    open_lesson(page, streamlit_server, "?at=6&step=h3")
    assert "放在 → 小明" in page.evaluate(READOUT)  # the verb head on a verb, not on 他


def test_the_split_step_says_d_model_into_heads_and_back_through_w_o(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=6&step=split&lang=en")
    canvas = page.locator('[data-testid="s6-split"]')
    assert canvas.is_visible()
    label = canvas.get_attribute("aria-label")
    assert "48" in label and "4 heads × 12" in label and "W_O" in label
    shot(page, "s06_split_1024x768_en.png")


def flops(n: int, d: int, h: int) -> int:
    """One layer's operations counted by hand: Q, K, V (3 · 2nd²), Q·Kᵀ over the heads (2n²d),
    softmax (max, subtract, exp, sum, divide: 5 per score, h·n² scores), A·V (2n²d), W_O (2nd²)."""
    return 3 * 2 * n * d * d + 2 * n * n * d + 5 * h * n * n + 2 * n * n * d + 2 * n * d * d


@pytest.mark.parametrize(("lang", "size"), [("zh", (1024, 768)), ("en", (1024, 768)),
                                            ("zh", None), ("en", None)])  # fmt: skip
def test_the_split_step_counts_the_cost_at_every_h(page, browser, streamlit_server, lang, size):
    """(Issue 38, from the heads page) every h that divides d_model, up to 16: its d_k, its
    operations (about the same at every h) and its h·n² scores, on a projector and a phone."""
    query = f"?at=6&step=split&lang={lang}"
    if size is None:
        page = phone_page(browser, streamlit_server, query)
    else:
        open_lesson(page, streamlit_server, query, size)
    canvas = page.locator('[data-testid="s6-split"]')
    rows = json.loads(canvas.get_attribute("data-values"))
    n, d = len(load_demo_model().run(SENTENCE).tokens), HISTORY.config.d_model
    hs = [h for h in range(1, 17) if d % h == 0]
    assert rows == [
        {"h": h, "d_k": d // h, "flops": flops(n, d, h), "cells": h * n * n} for h in hs
    ]
    assert f"h = 16: {flops(n, d, 16):,}" in canvas.get_attribute("aria-label")
    assert phone_shot(page, f"s06_cost_{lang}_{size[0] if size else 'phone'}.png") == []
    if size is None:
        page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_a_phone_every_step_fits_and_screenshots(browser, streamlit_server, lang):
    """Issue 39 on a phone (390 × 844), every step: one screen, nothing under the step bar, map
    cells ≥ 10 px, no text under 14 px (phone_walk), in zh and en."""
    phone_walk(browser, streamlit_server, 6, lang)


def test_projector_screenshots(page, streamlit_server):
    for lang in ("zh", "en"):
        for step in ("after", "who", "h4"):
            open_lesson(page, streamlit_server, f"?at=6&step={step}&lang={lang}")
            assert where(page)[0] == 6
            shot(page, f"s06_{step}_1024x768_{lang}.png")
