"""Every refusal of the class's routes has a status, an English detail, and words in zh and en
for the deck (ui/lesson/class_text.py, ui/text/classroom.toml)."""

from __future__ import annotations

import pytest

from classroom.errors import ERRORS, ClassError
from ui.lesson.class_text import ERROR_KEYS, class_text
from ui.text import LANGS


def test_every_error_code_has_the_deck_s_words_in_every_language():
    assert set(ERROR_KEYS) == set(ERRORS)
    for lang in LANGS:
        table = class_text(lang)
        assert set(table["error"]) == set(ERRORS)
        assert all(text.strip() for text in table["error"].values())
    assert class_text("zh")["error"]["no_class"] != class_text("en")["error"]["no_class"]


def test_a_refusal_carries_its_code_status_and_detail():
    err = ClassError("too_many_guesses", retry_after=3.5)
    assert (err.status, err.body()["error"], err.retry_after) == (429, "too_many_guesses", 3.5)
    assert ClassError("bad_field", "setup too big").body()["detail"] == "setup too big"
    with pytest.raises(ValueError):
        ClassError("no_such_code")
