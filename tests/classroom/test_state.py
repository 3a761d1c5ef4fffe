"""The class's state rules: changes, versions, what phones see, what an answer must match."""

from __future__ import annotations

import pytest

from classroom import state as st
from classroom.errors import ClassError
from tests.classroom.class_support import QUESTION

NOW = 1_800_000_000


def refused(code: str, fn, *args) -> ClassError:
    with pytest.raises(ClassError) as caught:
        fn(*args)
    assert caught.value.code == code, caught.value
    return caught.value


def asked(**more) -> dict:
    """A class at version 2 with QUESTION current."""
    patch = st.parse_change({"question": QUESTION, **more})
    return st.apply_change(st.new_state("K7MX2Q", NOW, {}), patch)


def test_a_new_class_is_version_one_and_expires_in_six_hours():
    fresh = st.new_state("K7MX2Q", NOW, st.parse_change({"scene": "s1", "step": "s1.a"}))
    assert (fresh["v"], fresh["scene"], fresh["step"]) == (1, "s1", "s1.a")
    assert fresh["expires"] - fresh["created"] == st.TTL_S == 6 * 3600
    assert not fresh["ended"] and fresh["question"] is None


@pytest.mark.parametrize(
    "body",
    [
        {"colour": "red"},
        {"scene": "§1"},
        {"step": ""},
        {"revealed": "yes"},
        {"tally_visible": 1},
        {"setup": []},
        {"setup": {"s": "字" * (st.SETUP_CAP // 3 + 1)}},
        {"question": {"id": "q1", "choices": ["a"]}},
        {"question": {"id": "q1", "choices": ["a", "a"]}},
        {"question": {"id": "q1", "choices": ["a", "b"], "answer": "c"}},
        {"question": {"id": "q1", "choices": ["a", "b"], "labels": {"c": "?"}}},
        {"question": {"id": "q1", "choices": ["a", "b"], "why": {"a": "x" * 401}}},
        {"question": {"id": "q1", "choices": ["a", "b"], "why": {"a": {"ZH!": "x"}}}},
        {"question": {"id": "q1", "choices": [f"c{i}" for i in range(13)]}},
        {"question": {"id": "q 1", "choices": ["a", "b"]}},
        {"question": {"id": "q1", "choices": ["a", "b"], "extra": 1}},
        {"question": "q1"},
    ],
)
def test_a_malformed_change_is_refused_with_bad_field(body):
    refused("bad_field", st.parse_change, body)


def test_a_change_bumps_the_version_and_a_new_question_starts_hidden():
    shown = st.apply_change(asked(), {"revealed": True, "tally_visible": True})
    assert shown["v"] == 3 and shown["revealed"] and shown["tally_visible"]
    moved = st.apply_change(shown, {"question": {**QUESTION, "id": "q2"}})
    assert moved["v"] == 4 and not moved["revealed"] and not moved["tally_visible"]
    same = st.apply_change(shown, {"question": QUESTION, "step": "s2.b"})
    assert same["revealed"] and same["tally_visible"], "the same question keeps reveal and tally"
    cleared = st.apply_change(shown, {"question": None})
    assert not cleared["revealed"] and not cleared["tally_visible"]


def test_the_tally_is_hidden_at_every_new_question_whatever_the_change_says():
    shown = st.apply_change(asked(), {"tally_visible": True})
    asked_anew = st.apply_change(
        shown, {"question": {**QUESTION, "id": "q2"}, "tally_visible": True}
    )
    assert not asked_anew["tally_visible"], "T never carries over to the next question"
    assert st.apply_change(asked_anew, {"tally_visible": True})["tally_visible"]


@pytest.mark.parametrize("patch", [{"revealed": True}, {"tally_visible": True}])
def test_revealing_or_showing_without_a_question_is_no_question(patch):
    refused("no_question", st.apply_change, st.new_state("K7MX2Q", NOW, {}), patch)


def test_phones_see_the_right_answer_and_why_only_after_the_reveal():
    hidden = st.public(asked())
    assert hidden["question"] == {"id": "q1", "choices": ["a", "b", "c"], "labels": {}}
    shown = st.public(st.apply_change(asked(), {"revealed": True}))
    assert shown["question"]["answer"] == "b" and shown["question"]["why"] == QUESTION["why"]


@pytest.mark.parametrize(
    ("state", "question", "choice", "code"),
    [
        (asked(), "q2", "a", "unknown_question"),
        (st.new_state("K7MX2Q", NOW, {}), "q1", "a", "unknown_question"),
        (asked(), "q1", "d", "bad_choice"),
        (asked(revealed=True), "q1", "a", "revealed"),
        (st.end_class(asked(), NOW), "q1", "a", "ended"),
    ],
)
def test_an_answer_must_match_the_current_open_question(state, question, choice, code):
    refused(code, st.check_answer, state, question, choice)


def test_an_ended_class_takes_no_change_and_is_gone_ten_minutes_later():
    ended = st.end_class(asked(), NOW + 60)
    assert ended["ended"] and ended["expires"] == NOW + 60 + st.ENDED_GRACE_S
    refused("ended", st.apply_change, ended, {"step": "s2"})


def test_a_reset_hides_the_current_question_and_its_tally_again():
    shown = st.apply_change(asked(), {"revealed": True, "tally_visible": True})
    again = st.reset_question(shown, "q1")
    assert not again["revealed"] and not again["tally_visible"]
    other = st.reset_question(shown, "q0")  # another question's answers only
    assert other["revealed"] and other["tally_visible"]


def test_a_tally_counts_every_choice_of_the_question():
    tally = st.tally_of(asked(), "q1", {"b": 2}, 7)
    assert tally == {"question": "q1", "counts": {"a": 0, "b": 2, "c": 0}, "total": 2, "rev": 7}
