"""The integrator's checks of this round's smaller findings (issue 23), each as a user meets it."""

from __future__ import annotations

import pytest

from tests.app_support import open_app


@pytest.mark.parametrize(
    ("page", "key", "lang", "want"),
    [
        ("steps", "steps_i", "en", "他 (he)"),
        ("steps", "steps_j2", "en", "了#2 (aspect particle)"),
        ("library", "library_query", "en", "他 (he)"),
        ("steps", "steps_i", "zh", "他"),
        ("library", "library_query", "zh", "了#2"),
    ],
)
def test_token_pickers_gloss_chinese_tokens_in_english(page, key, lang, want):
    """Item 25 (English): the teaching pages' token pickers listed 他, 小明 … without a word of
    English; in English each option carries its gloss, in Chinese the bare token."""
    at = open_app(page, lang=lang, weights="random")
    assert not at.exception
    assert want in at.selectbox(key=key).options
