"""The class's state and its rules: what a teacher may change, what phones see, what an answer
must match. Pure functions on plain dicts; the stores keep these dicts as JSON."""

from __future__ import annotations

import json
import re

from classroom.codes import is_id
from classroom.errors import ClassError

TTL_S = 6 * 3600  # a class and its answers expire 6 h after it was made
ENDED_GRACE_S = 600  # an ended class stays readable 10 min, so phones learn that it ended
SETUP_CAP = 16 * 1024  # bytes of the teacher's setup blob as JSON (sentence, settings, figures)
QUESTION_CAP = 8 * 1024  # bytes of a question as JSON (ids, labels, why-texts)
CHANGE_CAP = SETUP_CAP + QUESTION_CAP + 1024  # bytes of a POST /class/CODE/state body
ANSWER_CAP = 2048  # bytes of a POST /class/CODE/answer body
MAX_CHOICES = 12
TEXT_CAP = 400  # characters of one label or why-text (per language)
LANG_RE = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})?")
CHANGE_FIELDS = ("scene", "step", "question", "revealed", "tally_visible", "setup")
PRIVATE = ("answer", "why")  # question fields phones receive only at the reveal


def new_state(code: str, now: float, patch: dict, ttl_s: int = TTL_S) -> dict:
    """A fresh class (version 1) with the teacher's validated first fields applied."""
    state = {
        "code": code, "v": 0, "scene": None, "step": None, "question": None,
        "revealed": False, "tally_visible": False, "setup": {},
        "created": int(now), "expires": int(now) + ttl_s, "ended": False,
    }  # fmt: skip
    return apply_change(state, patch)


def parse_change(body: dict) -> dict:
    """The teacher's change (any of CHANGE_FIELDS), validated; raises ClassError bad_field."""
    unknown = sorted(set(body) - set(CHANGE_FIELDS))
    if unknown:
        raise ClassError("bad_field", f"unknown field(s) {unknown}; allowed: {CHANGE_FIELDS}")
    patch = {}
    for name in ("scene", "step"):
        if name in body:
            patch[name] = _id_or_none(body[name], name)
    for name in ("revealed", "tally_visible"):
        if name in body:
            if not isinstance(body[name], bool):
                raise ClassError("bad_field", f"{name} must be true or false")
            patch[name] = body[name]
    if "question" in body:
        patch["question"] = None if body["question"] is None else parse_question(body["question"])
    if "setup" in body:
        patch["setup"] = parse_setup(body["setup"])
    return patch


def _id_or_none(value: object, name: str) -> str | None:
    if value is None or is_id(value):
        return value
    raise ClassError("bad_field", f"{name} must be an id ([A-Za-z0-9_.:-], 1–64) or null")


def parse_setup(value: object) -> dict:
    """The teacher's setup blob: any JSON object up to SETUP_CAP bytes."""
    if not isinstance(value, dict) or _size(value) > SETUP_CAP:
        raise ClassError("bad_field", f"setup must be a JSON object of at most {SETUP_CAP} bytes")
    return value


def parse_question(value: object) -> dict:
    """A question as the teacher publishes it: id, choices, answer, labels, why."""
    if not isinstance(value, dict) or _size(value) > QUESTION_CAP:
        raise ClassError("bad_field", f"question must be an object of at most {QUESTION_CAP} B")
    unknown = set(value) - {"id", "choices", "answer", "labels", "why"}
    if unknown or not is_id(value.get("id")):
        raise ClassError("bad_field", "question needs an id; fields: id choices answer labels why")
    choices = value.get("choices")
    if not isinstance(choices, list) or not 2 <= len(choices) <= MAX_CHOICES:
        raise ClassError("bad_field", f"question.choices must list 2–{MAX_CHOICES} choice ids")
    if not all(is_id(c) for c in choices) or len(set(choices)) != len(choices):
        raise ClassError("bad_field", "question.choices must be distinct ids")
    answer = value.get("answer")
    if answer is not None and answer not in choices:
        raise ClassError("bad_field", "question.answer must be one of its choices (or null)")
    question = {"id": value["id"], "choices": list(choices), "answer": answer}
    for name in ("labels", "why"):
        question[name] = _texts(value.get(name, {}), choices, f"question.{name}")
    return question


def _texts(value: object, choices: list[str], name: str) -> dict:
    """A choice id → text map; a text is a string or {lang: string}."""
    if not isinstance(value, dict) or not set(value) <= set(choices):
        raise ClassError("bad_field", f"{name} must map the question's choice ids to texts")
    for text in value.values():
        texts = text.items() if isinstance(text, dict) else [("zh", text)]
        for lang, line in texts:
            if not (LANG_RE.fullmatch(lang) and isinstance(line, str) and len(line) <= TEXT_CAP):
                raise ClassError("bad_field", f"{name}: a text is a string ≤ {TEXT_CAP} chars")
    return value


def _size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode())


def apply_change(state: dict, patch: dict) -> dict:
    """The state after a validated change: one version later. A question with a new id (or none)
    starts unrevealed (unless the change says otherwise) and with its tally hidden (always: the
    teacher shows each question's tally anew); revealing or showing needs a question."""
    if state["ended"]:
        raise ClassError("ended")
    new = {**state, **patch, "v": state["v"] + 1}
    old_id = (state["question"] or {}).get("id")
    new_id = (new["question"] or {}).get("id")
    if new_id != old_id:
        new["tally_visible"] = False
        if "revealed" not in patch:
            new["revealed"] = False
    if (new["revealed"] or new["tally_visible"]) and new["question"] is None:
        raise ClassError("no_question", "revealed and tally_visible need a current question")
    return new


def reset_question(state: dict, question_id: str) -> dict:
    """The state after the teacher reset a question's answers: if it is current, unrevealed and
    its tally hidden again (asked anew)."""
    new = apply_change(state, {})
    if (state["question"] or {}).get("id") == question_id:
        new["revealed"] = False
        new["tally_visible"] = False
    return new


def end_class(state: dict, now: float) -> dict:
    """The state of an ended class: readable for ENDED_GRACE_S more, then gone."""
    new = apply_change(state, {})
    return {**new, "ended": True, "expires": min(state["expires"], int(now) + ENDED_GRACE_S)}


def public(state: dict) -> dict:
    """What any phone may read: the right answer and why-texts only once revealed."""
    question = state["question"]
    if question is not None and not state["revealed"]:
        question = {k: v for k, v in question.items() if k not in PRIVATE}
    return {**state, "question": question}


def check_answer(state: dict, question_id: str, choice: str) -> None:
    """Raise the ClassError an answer gets, or return when the store may record it.

    RedisStore's Lua script (classroom/redis_store.py) applies these same rules in Redis."""
    if state["ended"]:
        raise ClassError("ended")
    question = state["question"]
    if question is None or question["id"] != question_id:
        raise ClassError("unknown_question")
    if state["revealed"]:
        raise ClassError("revealed")
    if choice not in question["choices"]:
        raise ClassError("bad_choice")


def tally_of(state: dict, question_id: str, counts: dict[str, int], rev: int) -> dict:
    """A tally message: counts for each of the question's choices (0 where none), total."""
    question = state["question"] or {}
    choices = question.get("choices", []) if question.get("id") == question_id else list(counts)
    full = {c: int(counts.get(c, 0)) for c in choices}
    return {"question": question_id, "counts": full, "total": sum(full.values()), "rev": rev}
