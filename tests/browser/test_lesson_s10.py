"""§10 in Chromium: the map beside the RNN's chain reads from the back (cells ≥ 20 px, all 13
words) at 1024 × 680; the learning curve names its set, generated held-out sentences, beside the
human-written test sentences' count, in zh and en, with the file's numbers; on a phone one figure
and a tap between the chain and the map. Screenshots: test-artifacts/lesson/s10_*.png."""

from __future__ import annotations

import numpy as np
import pytest

from demo_model.model import DEMO_PATH
from pages import lesson as page_mod
from tests.lesson_support import (
    ROOT,
    open_lesson,
    phone_page,
    phone_shot,
    phone_walk,
    press,
    shot,
    tap,
    where,
)
from ui.settings import DEFAULTS

pytestmark = pytest.mark.browser

MAPS = (
    f"() => [...{ROOT}.querySelectorAll('canvas[data-cell]')].filter((c) => c.getClientRects()"
    ".length).map((c) => [Number(c.dataset.cell), c.dataset.labelled])"
)


def on_the_projector(page, lang: str, step: int) -> list[str]:
    """In the projector walks (test_lesson.py at 1024 × 768 in zh and en, test_lesson_rules.py
    at 1024 × 680): the map beside the chain is there and reads from the back (cells ≥ 20 px, all
    13 words)."""
    if step != 0:
        return []
    maps = page.evaluate(MAPS)
    return [] if maps and all(c >= 20 and n == "13/13" for c, n in maps) else [f"maps {maps}"]


@pytest.mark.parametrize(
    ("lang", "held", "human"),
    [("zh", "生成的留出句", "人写的测试句"), ("en", "generated held-out", "Human-written test")],
)
def test_the_curve_names_its_sentences_and_the_other_sets_count(
    page, streamlit_server, lang, held, human
):
    z = np.load(DEMO_PATH)
    res, _ = page_mod.sentence_set(page_mod.lesson_settings(DEFAULTS), "e.")
    head = res["trained"]["quiz"]["head"]
    hits = z["eval_relations"][:, head, 0, 0]  # pronoun_antecedent is the file's first relation
    labels = int(z["human_counts"][0])
    right = round(float(z["human_relations"][-1, head, 0, 0]) * labels)
    open_lesson(page, streamlit_server, f"?at=10&lang={lang}")
    press(page, "ArrowRight")
    assert where(page) == (10, 1)
    said = page.locator('[data-testid="lesson-readout"]').inner_text()
    assert held in said and human in said
    assert f"{hits[0]:.0%} → {hits[-1]:.0%}" in said
    assert str(right) in said and str(labels) in said and f"{right / labels:.1%}" in said
    caption = page.locator('[data-testid="lesson-caption"]').inner_text()
    assert held.lower() in caption.lower()
    shot(page, f"s10_learned_1024x768_{lang}.png")


def test_on_a_phone_one_figure_and_a_tap_between_the_chain_and_the_map(browser, streamlit_server):
    page = phone_page(browser, streamlit_server, "?at=10&lang=en")
    assert page.evaluate(MAPS) == []  # the chain first
    assert not phone_shot(page, "s10_chain_390x844_en.png")
    tap(page.locator('[data-testid="s10-which-1"]'))
    assert len(page.evaluate(MAPS)) == 1 and where(page) == (10, 0)
    assert not phone_shot(page, "s10_map_390x844_en.png")
    press(page, "ArrowRight")
    assert not phone_shot(page, "s10_learned_390x844_en.png")
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_on_a_phone_every_step_is_one_screen_with_nothing_under_the_step_bar(
    browser, streamlit_server, lang
):
    """Issue 39: every step one screen, nothing under the step bar, map cells ≥ 10 px, no text
    under 14 px (phone_walk), in zh and en."""
    phone_walk(browser, streamlit_server, 10, lang)
