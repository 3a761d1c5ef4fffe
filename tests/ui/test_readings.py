"""ui/readings.py: every status of the core's reading rules told, once, by every place that meets
it, in keys the text tables hold."""

from __future__ import annotations

from dataclasses import fields

from demo_model import reading
from ui.readings import TOLD
from ui.text import TEXT

# Where a place never meets a status, or tells it its own way (ui/readings.py says why).
UNTOLD = {
    "main": (),
    "learned": (reading.NOT_ASKED, reading.SPEAKER),  # it reads the first 他/她/它 only
    "why": (reading.ANSWER, reading.UNDECIDED, reading.NO_HEAD, reading.NOT_ASKED, reading.SPEAKER),
    "lesson": (reading.ANSWER,),  # right or wrong, by the student's choice
}


def test_every_status_of_the_core_has_one_row():
    assert list(TOLD) == list(reading.STATUSES)


def test_each_place_tells_every_status_it_meets_in_a_key_that_exists():
    for place in (f.name for f in fields(next(iter(TOLD.values())))):
        told = {status: getattr(row, place) for status, row in TOLD.items()}
        assert [s for s, key in told.items() if key is None] == list(UNTOLD[place]), place
        missing = [key for key in told.values() if key is not None and key not in TEXT]
        assert not missing, (place, missing)


def test_a_place_says_different_statuses_differently():
    """Two statuses share a text only where the lesson's §1 says "not asked" for all three of
    the statuses it cannot judge a pronoun by (not asked, 我/你, one token)."""
    for place in ("main", "learned", "why"):
        keys = [getattr(row, place) for row in TOLD.values() if getattr(row, place)]
        assert len(keys) == len(set(keys)), place
    shared = [s for s, row in TOLD.items() if row.lesson == "lesson.s1.not_asked"]
    assert shared == [reading.NOT_ASKED, reading.SPEAKER, reading.ONE_TOKEN]
