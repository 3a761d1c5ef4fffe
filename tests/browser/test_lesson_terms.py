"""The lesson's terms and glossary (ui/lesson/terms.js, ui/text/glossary.toml) in Chromium: the
glossary page lists its terms in the order a student walking the lesson first meets them marked,
and every term it lists is marked somewhere on the way. Opening a term and the glossary by key
and by touch: tests/browser/test_lesson_rules.py."""

from __future__ import annotations

import pytest

from tests.lesson_support import SCENE, open_lesson, press, walk_every_step

pytestmark = pytest.mark.browser

MARKED = f"""() => [...{SCENE}.querySelectorAll('[data-testid="lesson-term"]')]
  .filter((b) => b.getClientRects().length).map((b) => b.dataset.term)"""
LISTED = """() => [...document.querySelector('[data-testid="stBidiComponentIsolated"]').shadowRoot
  .querySelectorAll('[data-testid="lesson-glossary"] dt')].map((dt) => dt.dataset.term)"""


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_glossary_lists_its_terms_in_the_order_the_lesson_first_marks_them(
    page, streamlit_server, lang
):
    open_lesson(page, streamlit_server, f"?at=1&lang={lang}")
    met: list[str] = []

    def meet(scene: int, step: int) -> list[str]:
        met.extend(slug for slug in page.evaluate(MARKED) if slug not in met)
        return []

    walk_every_step(page, meet)
    press(page, "g")
    assert page.evaluate(LISTED) == met
