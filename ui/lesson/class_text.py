"""The class's words for the deck: each error code of the class's routes (classroom/errors.py)
and each state of a phone's link to the class, as its key in ui/text/classroom.toml."""

from __future__ import annotations

from ui.text import SECTIONS, t

ERROR = "classroom.error."
# Each error code of classroom/errors.py ERRORS → its words, classroom.error.<code>: derived from
# ui/text/classroom.toml, not a hand copy (tests/classroom/test_errors.py: the same codes).
ERROR_KEYS = {k.removeprefix(ERROR): k for k in SECTIONS["classroom"] if k.startswith(ERROR)}
# What `class-status` says, and the class's other words, by the name the deck reads them by.
WORD_KEYS = {
    "joined": "classroom.status.joined",
    "alone": "classroom.status.alone",
    "lost": "classroom.status.lost",
    "reconnecting": "classroom.status.reconnecting",
    "ended": "classroom.status.ended",
    "start": "classroom.start",
    "end": "classroom.end",
    "join_prompt": "classroom.join_prompt",
    "unreachable": "classroom.unreachable",
    "no_lan": "classroom.no_lan",
    "follow": "classroom.follow",
    "open_alone": "classroom.open_alone",
    "answered": "classroom.answered",
    "right": "classroom.right",
    "wrong": "classroom.wrong",
    "answered_of": "classroom.answered_of",
    "lead": "classroom.status.lead",
    "lead_ended": "classroom.status.lead_ended",
    "waiting": "classroom.status.waiting",
    "no_question_tally": "classroom.no_question_tally",
    "no_question_reveal": "classroom.no_question_reveal",
    "no_question_reset": "classroom.no_question_reset",
    "summary_after_end": "classroom.summary_after_end",
    "summary_title": "classroom.summary_title",
    "summary_wait": "classroom.summary_wait",
    "summary_joined": "classroom.summary_joined",
    "summary_none": "classroom.summary_none",
    "summary_right": "classroom.summary_right",
    "summary_open": "classroom.summary_open",
    "summary_hardest": "classroom.summary_hardest",
    "export": "classroom.export",
    "review": "classroom.review",
    "passcode": "classroom.passcode",
    "tally_hidden": "classroom.tally_hidden",
    "join_button": "classroom.join_button",
    "tally_button": "classroom.tally_button",
    "reset": "classroom.reset",
    "end_again": "classroom.end_again",
    "close": "classroom.close",
    "scan": "classroom.scan",
    "qr_alt": "classroom.qr_alt",
    "class_at": "classroom.class_at",
}


def class_text(lang: str) -> dict[str, dict[str, str]]:
    """The deck's table: {"error": {code: text}, "word": {name: text}} ({placeholders} kept)."""
    return {
        "error": {code: t(key, lang) for code, key in ERROR_KEYS.items()},
        "word": {name: t(key, lang) for name, key in WORD_KEYS.items()},
    }
