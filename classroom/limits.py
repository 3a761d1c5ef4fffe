"""Rate limits: token buckets per phone token (never per address: a school's phones share one)
and per process as a backstop. They live in each app process's memory; nginx's sticky cookie
keeps a phone on one process, so a phone gets about one process's allowance."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from classroom.errors import ClassError

MAX_KEYS = 20_000  # buckets kept per limit; the least recently used go first (a full one again)


@dataclass(frozen=True)
class Rate:
    """A bucket of `burst` tokens that refills at `per_s` tokens a second."""

    burst: float
    per_s: float


class Buckets:
    """One token bucket per key (a phone token, or "" for the whole process)."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key → (tokens, t)
        self._lock = threading.Lock()

    def take(self, key: str = "") -> float:
        """Take one token: 0.0 if there was one, else the seconds until there will be."""
        return self._use(key, take=True)

    def peek(self, key: str = "") -> float:
        """0.0 if a token is there now, else the seconds until there will be (takes none)."""
        return self._use(key, take=False)

    def _use(self, key: str, *, take: bool) -> float:
        with self._lock:
            now = self._clock()
            tokens, then = self._buckets.pop(key, (self.rate.burst, now))
            tokens = min(self.rate.burst, tokens + (now - then) * self.rate.per_s)
            wait = 0.0 if tokens >= 1 else (1 - tokens) / self.rate.per_s
            self._buckets[key] = (tokens - 1 if take and wait == 0 else tokens, now)
            if len(self._buckets) > MAX_KEYS:
                self._buckets.popitem(last=False)
            return wait


# A phone answers, changes its mind and retries: 10 at once, then 2 a second.
ANSWERS = Rate(burst=10, per_s=2)
# Unknown codes: a phone mistypes a few; a guesser gets one every 10 s, and the process as a
# whole 5 a second (a guesser that makes a new token per try meets this one).
GUESSES_PER_PHONE = Rate(burst=5, per_s=0.1)
GUESSES_PER_PROCESS = Rate(burst=50, per_s=5)
# New classes per process: a school starts a few at once, not thousands.
CLASSES_PER_PROCESS = Rate(burst=20, per_s=1)
# Every phone request per process (answers, reads), far above a class's needs.
PHONE_REQUESTS_PER_PROCESS = Rate(burst=2000, per_s=1000)


class Limits:
    """The limits one app process applies."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.answers = Buckets(ANSWERS, clock)
        self.guesses = Buckets(GUESSES_PER_PHONE, clock)
        self.all_guesses = Buckets(GUESSES_PER_PROCESS, clock)
        self.classes = Buckets(CLASSES_PER_PROCESS, clock)
        self.requests = Buckets(PHONE_REQUESTS_PER_PROCESS, clock)

    def answer(self, phone: str) -> None:
        """Raise ClassError too_many_requests (or busy) when this answer is over a limit."""
        _check(self.requests.take(), "busy")
        _check(self.answers.take(phone), "too_many_requests")

    def may_look_up(self, phone: str | None) -> None:
        """Before a phone looks a code up: refuse while it, or this process, is out of guesses,
        whether the code exists or not (else a refused guesser could still tell a hit)."""
        _check(self.all_guesses.peek(), "too_many_guesses")
        if phone:
            _check(self.guesses.peek(phone), "too_many_guesses")

    def missed(self, phone: str | None) -> None:
        """Count a lookup of an unknown code against the phone and this process."""
        self.all_guesses.take()
        if phone:
            self.guesses.take(phone)

    def new_class(self) -> None:
        _check(self.classes.take(), "busy")


def _check(wait: float, code: str) -> None:
    if wait > 0:
        raise ClassError(code, retry_after=wait)
