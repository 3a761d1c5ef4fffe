"""Rate limits: token buckets per phone token and per process (classroom/limits.py)."""

from __future__ import annotations

import pytest

from classroom import limits
from classroom.errors import ClassError
from tests.classroom.class_support import PHONES


class Ticks:
    """A monotonic clock the test moves."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_bucket_gives_its_burst_then_refills_at_its_rate():
    ticks = Ticks()
    bucket = limits.Buckets(limits.Rate(burst=3, per_s=2), ticks)
    assert [bucket.take("p") for _ in range(3)] == [0, 0, 0]
    assert bucket.take("p") == pytest.approx(0.5)
    assert bucket.take("q") == 0, "another key has its own bucket"
    ticks.now += 0.5
    assert bucket.peek("p") == 0 and bucket.peek("p") == 0, "peek takes nothing"
    assert bucket.take("p") == 0 and bucket.take("p") > 0


def test_buckets_are_bounded_and_the_oldest_key_goes_first(monkeypatch):
    monkeypatch.setattr(limits, "MAX_KEYS", 3)
    bucket = limits.Buckets(limits.Rate(burst=1, per_s=0.001), Ticks())
    for key in "abcd":
        bucket.take(key)
    assert bucket.take("a") == 0, "a was forgotten: a full bucket again"
    assert bucket.take("d") > 0


def test_a_flooding_phone_is_refused_and_another_phone_is_not():
    own = limits.Limits(Ticks())
    for _ in range(int(limits.ANSWERS.burst)):
        own.answer(PHONES[0])
    with pytest.raises(ClassError) as caught:
        own.answer(PHONES[0])
    assert caught.value.code == "too_many_requests" and caught.value.retry_after > 0
    own.answer(PHONES[1])


def test_guessing_is_limited_per_phone_and_per_process():
    own = limits.Limits(Ticks())
    for _ in range(int(limits.GUESSES_PER_PHONE.burst)):
        own.may_look_up(PHONES[0])
        own.missed(PHONES[0])
    with pytest.raises(ClassError, match="too_many_guesses"):
        own.may_look_up(PHONES[0])
    own.may_look_up(PHONES[1])
    for phone in PHONES[2 : 2 + int(limits.GUESSES_PER_PROCESS.burst)]:
        own.missed(phone)  # a guesser making a new token per try
    with pytest.raises(ClassError, match="too_many_guesses"):
        own.may_look_up(PHONES[1])
