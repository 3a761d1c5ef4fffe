"""Rate limits: token buckets per phone, per code tried, per teacher's browser; no budget for the
whole process; the streams a process may hold below its open-file limit (classroom/limits.py)."""

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


def test_guessing_is_limited_per_phone_id_and_per_code_tried():
    own = limits.Limits(Ticks())
    for k in range(int(limits.GUESSES_PER_PHONE.burst)):
        own.may_look_up(f"AAAAA{k + 2}", PHONES[0])
        own.missed(f"AAAAA{k + 2}", PHONES[0])
    with pytest.raises(ClassError, match="too_many_guesses"):
        own.may_look_up("K7MX2Q", PHONES[0])  # this phone id is out of guesses, at any code
    own.may_look_up("K7MX2Q", PHONES[1])  # another phone is not
    own.may_look_up("K7MX2Q", None)
    for phone in PHONES[2 : 2 + int(limits.GUESSES_PER_CODE.burst)]:
        own.missed("ZZZZZZ", phone)  # one code tried again and again, a new id each time
    with pytest.raises(ClassError, match="too_many_guesses"):
        own.may_look_up("ZZZZZZ", PHONES[100])
    own.may_look_up("K7MX2Q", PHONES[100])


def test_a_guesser_with_a_new_id_per_try_spends_no_budget_of_anyone_else():
    """No process-wide budget: thousands of misses at thousands of codes, each with a new id,
    leave every other phone id and every other code its whole budget."""
    own = limits.Limits(Ticks())
    for k in range(5000):
        code = f"{k:06d}".translate(str.maketrans("01", "AB"))
        own.may_look_up(code, f"guess-{k:06d}-abcdefghijklmnop")
        own.missed(code, f"guess-{k:06d}-abcdefghijklmnop")
    for phone in PHONES[:50]:
        own.may_look_up("K7MX2Q", phone)


def test_buckets_forget_the_oldest_keys_beyond_their_bound_and_forgetting_refuses_nobody(
    monkeypatch,
):
    monkeypatch.setattr(limits, "MAX_KEYS", 100)
    own = limits.Limits(Ticks())
    for k in range(1000):
        own.missed(f"C{k:05d}", f"guess-{k:06d}-abcdefghijklmnop")
    assert len(own.codes) == len(own.guesses) == 100, "memory bounded"
    own.may_look_up("C00000", "guess-000000-abcdefghijklmnop")  # forgotten: a full bucket again


def test_a_browser_starts_a_few_classes_then_one_a_minute():
    ticks = Ticks()
    own = limits.Limits(ticks)
    for _ in range(int(limits.CLASSES_PER_BROWSER.burst)):
        own.new_class("browser-a")
    with pytest.raises(ClassError) as caught:
        own.new_class("browser-a")
    assert caught.value.code == "too_many_requests" and 0 < caught.value.retry_after <= 60
    own.new_class("browser-b")
    ticks.now += 60
    own.new_class("browser-a")


@pytest.mark.parametrize(
    ("open_files", "cap"), [(1024, 768), (20000, 15000), (300, 44), (100, 16), (1 << 20, 786432)]
)
def test_streams_stay_below_the_open_file_limit_with_headroom(open_files, cap):
    assert limits.stream_cap(open_files) == cap
    assert cap <= max(16, open_files - limits.FILE_HEADROOM)


def test_the_open_file_limit_is_this_process_s_soft_limit():
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert limits.open_file_limit() == (soft if soft != resource.RLIM_INFINITY else 1 << 20)
