"""The class's refusals: one exception, and every error code the routes answer with."""

from __future__ import annotations

# code → (HTTP status, what it means). The deck shows `classroom.error.<code>` from
# ui/text/classroom.toml (ui/lesson/class_text.py maps the codes to those keys).
ERRORS: dict[str, tuple[int, str]] = {
    "bad_origin": (403, "the request's Origin is not this site"),
    "not_teacher": (403, "only the teacher's browser (its cookie) may change the class"),
    "bad_passcode": (403, "starting a class on this server needs the teachers' passcode"),
    "bad_token": (403, "join the class first: this phone's token is missing or not this class's"),
    "no_class": (404, "no class has this code (never made, expired or mistyped)"),
    "ended": (410, "the teacher has ended this class"),
    "class_full": (409, "this class has as many phones as it takes"),
    "bad_json": (400, "the body is not a JSON object"),
    "too_large": (413, "the body is larger than this route accepts"),
    "bad_field": (422, "a field is missing or not what this route accepts"),
    "bad_phone": (422, "the phone token is malformed"),
    "unknown_question": (409, "that question is not the class's current question"),
    "bad_choice": (422, "that choice is not one of the question's"),
    "revealed": (409, "the answer has been revealed: answers are closed"),
    "no_question": (409, "this step asks no question: no answers to show, reveal or reset"),
    "too_many_requests": (429, "too many requests from this phone or browser: wait a moment"),
    "too_many_guesses": (429, "too many unknown codes tried: wait a moment"),
    "too_many_classes": (429, "this server runs as many live classes as it may"),
    "busy": (429, "this server is taking too many requests: wait a moment"),
    "too_many_streams": (503, "this app process follows as many streams as it can: retry"),
    "store_unavailable": (503, "the class store (Redis) cannot be reached"),
    "server_stopping": (503, "this app process is shutting down: reconnect"),
}


class ClassError(Exception):
    """A refusal with its error code; `detail` says which field or limit, in English."""

    def __init__(self, code: str, detail: str = "", retry_after: float | None = None) -> None:
        if code not in ERRORS:
            raise ValueError(f"unknown class error code {code!r}")
        super().__init__(f"{code}: {detail or ERRORS[code][1]}")
        self.code = code
        self.detail = detail or ERRORS[code][1]
        self.retry_after = retry_after

    @property
    def status(self) -> int:
        return ERRORS[self.code][0]

    def body(self) -> dict:
        """The JSON body of the refusal: {"error": code, "detail": text}."""
        return {"error": self.code, "detail": self.detail}
