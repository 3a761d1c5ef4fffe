"""The class's deck side without a browser: every word the class's files ask for is in the
class's table in zh and en, the link's room= and join= are known keys the page passes on, and
the class's keys are in the key map (its README table: tests/ui/lesson/test_deck.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pages import lesson
from ui.lesson import deck
from ui.lesson.class_text import ERROR_KEYS, WORD_KEYS, class_text
from ui.links import PARAMS, parse_query

HERE = Path(__file__).resolve().parents[3] / "ui" / "lesson"
CLASS_FILES = (*sorted(p.name for p in HERE.glob("class*.js")), "quiz.js")


def words_asked() -> set[str]:
    code = "".join((HERE / name).read_text(encoding="utf-8") for name in CLASS_FILES)
    asked = set(re.findall(r'classWord\(D, "(\w+)"', code))
    asked |= set(re.findall(r"text\.word\.(\w+)", code))
    for line in code.splitlines():  # class-status says the status's own word
        if re.search(r"K\.status = |^    status: ", line):
            asked |= set(re.findall(r'"(\w+)"', line))
    return asked


def test_every_word_the_class_files_ask_for_is_in_the_table():
    asked = words_asked()
    assert {"joined", "lost", "follow", "open_alone", "answered_of", "answered"} <= asked
    assert asked <= set(WORD_KEYS), asked - set(WORD_KEYS)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_class_table_is_whole_in_both_languages(lang):
    table = class_text(lang)
    assert set(table["word"]) == set(WORD_KEYS) and set(table["error"]) == set(ERROR_KEYS)
    for text in [*table["word"].values(), *table["error"].values()]:
        assert text and not text.startswith("classroom."), text
    if lang == "en":
        assert all(not re.search(r"[\u4e00-\u9fff]", s) for s in table["word"].values())


def test_room_and_join_are_the_lesson_pages_own_link_keys():
    assert PARAMS["room"].field is None and PARAMS["join"].field is None
    _, notes = parse_query({"room": ["new"], "join": ["K7MX2Q"]}, trained_ok=False)
    assert not [n for n in notes if n[1] == "notice.param_unknown"]  # a reload keeps the class


@pytest.mark.parametrize(
    ("room", "join", "want"),
    [
        ("new", None, ("new", None)),
        ("K7MX2Q", None, ("K7MX2Q", None)),
        ("k7mx2q", None, (None, None)),  # a teacher's code is as the server wrote it
        ("<script>", None, (None, None)),
        (None, "k7mx2q", (None, "K7MX2Q")),  # typed on a phone: either case
        (None, "ZZZZZZZZZZZZ", (None, "ZZZZZZZZ")),  # cut; the server says no such class
    ],
)
def test_the_page_passes_the_class_in_the_link_to_the_deck(monkeypatch, room, join, want):
    params = {k: v for k, v in (("room", room), ("join", join)) if v is not None}
    monkeypatch.setattr(lesson.st, "query_params", params)
    got = lesson.class_of("en")
    assert (got["room"], got["join"]) == want
    assert got["text"] == class_text("en")


def test_the_class_keys_are_in_the_key_map_and_bound():
    actions = {action for action, _, _ in deck.KEY_MAP}
    assert {"class_join", "class_tally", "class_reveal", "class_reset", "class_end"} <= actions
