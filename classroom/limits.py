"""Rate limits: token buckets per key, never per address (a school's phones share one) and never
one budget for the whole process that a stranger could spend for everyone.

Keys: a joined phone's id (from its signed token), the id a phone supplies before it joined, a
class code tried, the teacher's browser (its maker cookie). A request with a valid token never
meets a guessing budget. What protects the process itself refuses nobody: each limit keeps at
most MAX_KEYS buckets (the least recently used are forgotten, i.e. full again), and the number
of open streams is bounded by the open-file limit (stream_cap). The buckets live in each app
process's memory; nginx's sticky cookie keeps a browser on one process.
"""

from __future__ import annotations

import resource
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from classroom.errors import ClassError

MAX_KEYS = 20_000  # buckets kept per limit; the least recently used go first (a full one again)
FILE_HEADROOM = 256  # open files kept for Streamlit's websockets, page loads, Redis, logs
FILE_SHARE = 0.75  # at most this share of the open-file limit goes to event streams


@dataclass(frozen=True)
class Rate:
    """A bucket of `burst` tokens that refills at `per_s` tokens a second."""

    burst: float
    per_s: float


class Buckets:
    """One token bucket per key."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key → (tokens, t)
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Take one token: 0.0 if there was one, else the seconds until there will be."""
        return self._use(key, take=True)

    def peek(self, key: str) -> float:
        """0.0 if a token is there now, else the seconds until there will be (takes none)."""
        return self._use(key, take=False)

    def __len__(self) -> int:
        return len(self._buckets)

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


# A joined phone answers, changes its mind and retries: 10 at once, then 2 a second.
ANSWERS = Rate(burst=10, per_s=2)
# A phone's other requests (joins, reads with its token): a reload, a reconnect, a retry.
PHONE_REQUESTS = Rate(burst=20, per_s=2)
# Unknown codes, before a phone joined: a phone mistypes a few, then gets one every 10 s; and a
# code that does not exist is tried a few times, then once every 10 s (by anyone).
GUESSES_PER_PHONE = Rate(burst=5, per_s=0.1)
GUESSES_PER_CODE = Rate(burst=5, per_s=0.1)
# New classes per teacher's browser (its maker cookie): a few at once, then one a minute.
CLASSES_PER_BROWSER = Rate(burst=3, per_s=1 / 60)


class Limits:
    """The limits one app process applies."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.answers = Buckets(ANSWERS, clock)
        self.requests = Buckets(PHONE_REQUESTS, clock)
        self.guesses = Buckets(GUESSES_PER_PHONE, clock)
        self.codes = Buckets(GUESSES_PER_CODE, clock)
        self.classes = Buckets(CLASSES_PER_BROWSER, clock)

    def answer(self, phone: str) -> None:
        """A joined phone's answer: too_many_requests when this phone answers too fast."""
        _check(self.answers.take(phone), "too_many_requests")

    def request(self, phone: str) -> None:
        """A phone's join or read: too_many_requests when this phone asks too often."""
        _check(self.requests.take(phone), "too_many_requests")

    def may_look_up(self, code: str, phone: str | None) -> None:
        """Before a stranger (no valid token) looks a code up: refuse while this phone id, or this
        code, is out of guesses, whether the code exists or not (else a refused guesser could
        still tell a hit). A code that exists is never out of guesses: only misses spend them."""
        _check(self.codes.peek(code), "too_many_guesses")
        if phone:
            _check(self.guesses.peek(phone), "too_many_guesses")

    def missed(self, code: str, phone: str | None) -> None:
        """Count a lookup of an unknown code against the code and the phone id."""
        self.codes.take(code)
        if phone:
            self.guesses.take(phone)

    def new_class(self, browser: str) -> None:
        """A teacher's browser starts a class: too_many_requests when it starts them too fast."""
        _check(self.classes.take(browser), "too_many_requests")


def _check(wait: float, code: str) -> None:
    if wait > 0:
        raise ClassError(code, retry_after=wait)


def open_file_limit() -> int:
    """This process's soft limit on open files (RLIMIT_NOFILE)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


def stream_cap(open_files: int) -> int:
    """Event streams one process may hold: below its open-file limit, with FILE_HEADROOM files
    and a quarter of the limit left for everything else (at least 16 streams)."""
    return max(16, min(open_files - FILE_HEADROOM, int(open_files * FILE_SHARE)))
