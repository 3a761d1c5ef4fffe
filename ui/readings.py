"""How the app tells each status of the core's reading rules: one row per status, its text keys."""

from __future__ import annotations

from dataclasses import dataclass

from demo_model import reading


@dataclass(frozen=True)
class Told:
    """A reading status in the words of each place that tells one (None: that place never meets
    the status, or tells it its own way)."""

    main: str  # the main page's line under the view (pages/main.py)
    learned: str | None  # the learned page's headline about the first 他/她/它 (pages/learned.py)
    why: str | None  # … and, shorter, why a training frame's pick is no answer
    lesson: str | None  # §1's verdict when the pick is no answer (ui/lesson/data.py; ANSWER: right
    # or wrong, by the student's choice)


# The core decides the status (demo_model/reading.py); this table is what the UI says for it.
# A new status is one row here and its texts.
TOLD = {
    reading.ANSWER: Told("main.read.answer", "learned.read.answer", None, None),
    reading.UNDECIDED: Told(
        "main.read.undecided", "learned.read.undecided", None, "lesson.s1.undecided"
    ),
    reading.LOOKS_AHEAD: Told(
        "main.read.looks_ahead",
        "learned.read.looks_ahead",
        "learned.why.looks_ahead",
        "lesson.s1.ahead",
    ),
    reading.IMPLAUSIBLE: Told(
        "main.read.implausible",
        "learned.read.implausible",
        "learned.why.implausible",
        "lesson.s1.implausible",
    ),
    reading.AMBIGUOUS: Told(
        "main.read.ambiguous",
        "learned.read.ambiguous",
        "learned.why.ambiguous",
        "lesson.s1.ambiguous",
    ),
    reading.UNKNOWN_WORDS: Told(
        "main.read.unknown_words",
        "learned.read.unknown_words",
        "learned.why.unknown_words",
        "lesson.s1.unknown",
    ),
    reading.NO_CANDIDATE: Told(
        "main.read.no_candidate",
        "learned.read.no_candidate",
        "learned.why.no_candidate",
        "lesson.s1.no_candidate",
    ),
    reading.NO_HEAD: Told("main.read.no_head", "learned.read.no_head", None, "lesson.s1.no_head"),
    # The learned page reads the first 他/她/它 only: it never meets the next two.
    reading.NOT_ASKED: Told("main.read.not_asked", None, None, "lesson.s1.not_asked"),
    reading.SPEAKER: Told("main.read.first_second_person", None, None, "lesson.s1.not_asked"),
    reading.ONE_TOKEN: Told(
        "main.read.one_token",
        "learned.read.one_token",
        "learned.why.one_token",
        "lesson.s1.not_asked",
    ),
}
