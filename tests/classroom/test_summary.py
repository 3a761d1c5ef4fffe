"""The class's summary and its export (classroom/summary.py), against sums done by hand."""

from __future__ import annotations

import csv
import io
import json

from classroom import state as st
from classroom import summary

Q1 = {
    "id": "q1",
    "scene": "s1",
    "choices": ["a", "b", "c"],
    "answer": "b",
    "labels": {"a": {"zh": "小明", "en": "Xiaoming"}, "b": "+书", "c": "@x"},
}
Q2 = {"id": "q2", "scene": "s2", "choices": ["x", "y"], "answer": None, "labels": {}}
Q3 = {"id": "q3", "scene": "s3", "choices": ["m", "n"], "answer": "n", "labels": {}}


def made(**record) -> dict:
    state = st.new_state(
        "K7MX2Q",
        1_800_000_000,
        st.parse_change({"question": {k: v for k, v in Q3.items() if k != "scene"}}),
    )
    base = {"asked": [Q1, Q2, Q3], "counts": {}, "joined_at": {}, "joined": 0}
    return summary.class_summary(state, {**base, **record})


def test_each_question_has_its_counts_shares_right_share_and_the_hardest_is_named():
    found = made(
        counts={"q1": {"a": 1, "b": 2, "c": 1}, "q2": {"x": 3}, "q3": {"m": 3, "n": 1}},
        joined_at={"q1": 5, "q2": 6},
        joined=7,
    )
    q1, q2, q3 = found["questions"]
    assert [c["share"] for c in q1["choices"]] == [0.25, 0.5, 0.25]
    assert (q1["answered"], q1["joined"], q1["right_share"]) == (4, 5, 0.5)
    assert (q2["answer"], q2["right_share"], q2["joined"]) == (None, None, 6)
    assert (q3["right_share"], q3["joined"]) == (0.25, 7)  # the current question: joined now
    assert found["hardest"] == "q3" and found["joined"] == 7


def test_nobody_answered_no_hardest_and_zero_shares():
    found = made()
    assert found["hardest"] is None
    assert all(c["share"] == 0.0 for q in found["questions"] for c in q["choices"])


def test_the_csv_holds_the_tally_with_formulas_defused_and_the_json_the_summary():
    found = made(counts={"q1": {"a": 1, "b": 2}}, joined=3)
    rows = list(csv.DictReader(io.StringIO(summary.to_csv(found))))
    assert [r["choice"] for r in rows] == ["a", "b", "c", "x", "y", "m", "n"]
    assert {r["choice"]: int(r["count"]) for r in rows if r["question"] == "q1"} == {
        "a": 1,
        "b": 2,
        "c": 0,
    }
    assert [(r["label_zh"], r["label_en"]) for r in rows[:3]] == [
        ("小明", "Xiaoming"),
        ("'+书", ""),
        ("'@x", ""),
    ]
    assert [r["right"] for r in rows[:3]] == ["0", "1", "0"]
    assert json.loads(summary.to_json(found)) == found
