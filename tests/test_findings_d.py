"""The integrator's checks of this round's smaller findings (issue 23), each as a user meets it."""

from __future__ import annotations

import pytest

from tests.app_support import open_app


@pytest.mark.parametrize(
    ("page", "key", "lang", "want"),
    [
        ("steps", "steps_i", "en", "他 (he)"),
        ("steps", "steps_j2", "en", "了₂ (aspect particle)"),
        ("library", "library_query", "en", "他 (he)"),
        ("steps", "steps_i", "zh", "他"),
        ("library", "library_query", "zh", "了₂"),
    ],
)
def test_token_pickers_gloss_chinese_tokens_in_english(page, key, lang, want):
    """Item 25 (English): the teaching pages' token pickers listed 他, 小明 … without a word of
    English; in English each option carries its gloss, in Chinese the bare token; repeats are
    numbered as every page names them (item 9: 了₂, where the pickers said 了#2)."""
    at = open_app(page, lang=lang, weights="random")
    assert not at.exception
    assert want in at.selectbox(key=key).options


def test_the_lessons_tokens_name_themselves_as_the_pages_do():
    """Lesson §1 in English: a choice read “小明 (Xiaoming (name))” and glosses under the row of
    tokens were left out or ran under the next token ("(aspect particle)" under 走). The deck
    now gets the pages' own wording and a short gloss for under a token (none for a function
    word whose gloss would be cut)."""
    from ui.lesson.data import tokens_of
    from ui.settings import DEFAULTS
    from ui.state import lab_for

    run, _ = lab_for(DEFAULTS)
    en = {tok["t"]: tok for tok in tokens_of(run, "en")}
    assert en["小明"]["named"] == "小明 (Xiaoming, name)"
    assert (en["小明"]["under"], en["走"]["under"], en["他"]["under"]) == ("Xiaoming", "walk", "he")
    assert en["把"]["under"] is None and en["了"]["under"] is None
    zh = {tok["t"]: tok for tok in tokens_of(run, "zh")}
    assert zh["小明"]["named"] == "小明" and zh["走"]["under"] is None


def test_the_steps_comparison_tells_two_of_the_same_word_apart():
    """Item 9, on the steps page's comparison: keys 了 and 了 (positions 4 and 11) were both
    named “了”; each now carries its number, as every other sentence of the app names it."""
    from tests.app_support import chart_specs_by_key

    at = open_app("steps", lang="en", weights="random", steps_step=3, steps_j=4, steps_j2=11)
    assert not at.exception
    names = [tr["name"] for tr in chart_specs_by_key(at)["steps_compare"]["data"]]
    assert len(names) == 2 and "了₁" in names[0] and "了₂" in names[1], names
