"""The class's words for the deck: each error code of the class's routes (classroom/errors.py)
and each state of a phone's link to the class, as its key in ui/text/classroom.toml."""

from __future__ import annotations

from ui.text import t

ERROR_KEYS = {
    "bad_origin": "classroom.error.bad_origin",
    "not_teacher": "classroom.error.not_teacher",
    "bad_passcode": "classroom.error.bad_passcode",
    "bad_token": "classroom.error.bad_token",
    "no_class": "classroom.error.no_class",
    "ended": "classroom.error.ended",
    "class_full": "classroom.error.class_full",
    "bad_json": "classroom.error.bad_json",
    "too_large": "classroom.error.too_large",
    "bad_field": "classroom.error.bad_field",
    "bad_phone": "classroom.error.bad_phone",
    "unknown_question": "classroom.error.unknown_question",
    "bad_choice": "classroom.error.bad_choice",
    "revealed": "classroom.error.revealed",
    "no_question": "classroom.error.no_question",
    "too_many_requests": "classroom.error.too_many_requests",
    "too_many_guesses": "classroom.error.too_many_guesses",
    "too_many_classes": "classroom.error.too_many_classes",
    "busy": "classroom.error.busy",
    "too_many_streams": "classroom.error.too_many_streams",
    "store_unavailable": "classroom.error.store_unavailable",
    "server_stopping": "classroom.error.server_stopping",
}
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
