"""The class's summary for its teacher: per question asked, how many answered of how many had
joined, each choice's count and share, the right choice and its share, the hardest question;
and its export as CSV and JSON. Pure functions on what the store keeps; nothing in them names a
phone or the order in which phones answered."""

from __future__ import annotations

import csv
import io
import json

# CSV columns, one row per question and choice (the tally, flattened).
CSV_FIELDS = (
    "question",
    "scene",
    "choice",
    "label_zh",
    "label_en",
    "count",
    "share",
    "right",
    "answered",
    "joined",
)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet would run such a cell


def share(count: int, total: int) -> float:
    """count / total rounded to 4 places (0.0 when nobody answered)."""
    return round(count / total, 4) if total else 0.0


def question_summary(asked: dict, counts: dict[str, int], joined: int) -> dict:
    """One question: `asked` as the store recorded it ({id, scene, choices, answer, labels}),
    its tally's counts, and the phones that had joined while it was current."""
    choices = asked["choices"]
    full = {c: int(counts.get(c, 0)) for c in choices}
    answered = sum(full.values())
    right = asked.get("answer")
    rows = [
        {
            "id": c,
            "label": asked.get("labels", {}).get(c),
            "count": full[c],
            "share": share(full[c], answered),
            "right": c == right,
        }
        for c in choices
    ]
    return {
        "id": asked["id"],
        "scene": asked.get("scene"),
        "answered": answered,
        "joined": max(joined, answered),
        "choices": rows,
        "answer": right,
        "right_share": None if right is None else share(full[right], answered),
    }


def class_summary(state: dict, record: dict) -> dict:
    """The class from the store's record of it: `asked` (its questions in the order first asked),
    `counts` (question id → choice → count), `joined_at` (question id → phones joined when it
    stopped being current) and `joined` (phones joined now: the current question's).
    The hardest question: the lowest right share among those with a right answer and answers
    (the first asked on a tie), or None."""
    current = (state["question"] or {}).get("id")
    questions = []
    for asked in record["asked"]:
        qid = asked["id"]
        joined = record["joined"] if qid == current else record["joined_at"].get(qid, 0)
        questions.append(question_summary(asked, record["counts"].get(qid, {}), joined))
    graded = [q for q in questions if q["right_share"] is not None and q["answered"]]
    hardest = min(graded, key=lambda q: q["right_share"], default=None)
    return {
        "code": state["code"],
        "created": state["created"],
        "ended": state["ended"],
        "joined": record["joined"],
        "questions": questions,
        "hardest": None if hardest is None else hardest["id"],
    }


def _label(label: object, lang: str) -> str:
    """A label (a string, or {lang: string}) in one language ("" when it has none)."""
    if isinstance(label, dict):
        text = label.get(lang, "")
    else:
        text = label if isinstance(label, str) and lang == "zh" else ""
    return "'" + text if text.startswith(FORMULA_START) else text  # text, never a formula


def to_csv(summary: dict) -> str:
    """The summary as CSV: a header row, then one row per question and choice."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)
    for q in summary["questions"]:
        for c in q["choices"]:
            writer.writerow(
                [
                    q["id"],
                    q["scene"] or "",
                    c["id"],
                    _label(c["label"], "zh"),
                    _label(c["label"], "en"),
                    c["count"],
                    f"{c['share']:.4f}",
                    int(c["right"]),
                    q["answered"],
                    q["joined"],
                ]
            )
    return out.getvalue()


def to_json(summary: dict) -> str:
    """The summary as a JSON document (UTF-8, indented for a person to read)."""
    return json.dumps(summary, ensure_ascii=False, indent=2) + "\n"
