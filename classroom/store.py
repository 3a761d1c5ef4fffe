"""Where classes live: the Store interface, and the in-memory store `make run` uses (one process).

A store keeps each class's state (classroom/state.py), the hash of its teacher's secret, and per
question the answers (phone token → choice) and the tally (choice → count). Every change is
atomic and announced to the listeners as a message (a dict):

    {"kind": "state", "state": {...}}                   the class's full state (private fields too)
    {"kind": "tally", "code": C, "question": Q, "counts": {...}, "rev": n, "v": state version}
    {"kind": "store", "ok": bool}                       the store became unreachable / reachable

RedisStore (classroom/redis_store.py) is the same interface for several processes and machines.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from classroom.errors import ClassError
from classroom.state import check_answer

Listener = Callable[[dict], None]
Change = Callable[[dict], dict]


class Store(Protocol):
    """What the routes need of a store; every method is thread-safe and may raise ClassError."""

    def create(self, state: dict, lead_hash: str) -> bool:
        """Store a new class; False when its code is taken (the caller draws another)."""

    def get(self, code: str) -> dict | None:
        """The class's state, or None when there is none (never made, expired)."""

    def lead_hash(self, code: str) -> str | None:
        """The hash of the class's teacher's secret, or None."""

    def update(self, code: str, change: Change, *, drop: str | None = None) -> dict:
        """Apply `change` (state → new state) atomically, dropping question `drop`'s answers;
        keys follow the new state's `expires`. Raises ClassError no_class."""

    def answer(self, code: str, question: str, phone: str, choice: str) -> str:
        """Record a phone's answer: "new", "changed" or "same" (a retry); ClassError if refused."""

    def tally(self, code: str, question: str) -> tuple[dict[str, int], int]:
        """(choice → count, revision) of a question's answers."""

    def mine(self, code: str, question: str, phone: str) -> str | None:
        """The choice a phone gave to a question, or None."""

    def listen(self, listener: Listener) -> None:
        """Send every message of every class to `listener` (any thread) until close()."""

    def close(self) -> None:
        """Stop listening and release connections."""


@dataclass
class _Class:
    """One class in memory: state, secret hash, answers and tallies per question id."""

    state: dict
    lead_hash: str
    answers: dict[str, dict[str, str]] = field(default_factory=dict)
    counts: dict[str, Counter] = field(default_factory=dict)
    rev: int = 0  # the class's tally revision: one more on every answer and reset


class MemoryStore:
    """Classes in this process's memory (`make run`): one lock; listeners are told under it, so
    they hear the messages in the order the changes happened (they must not block)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._classes: dict[str, _Class] = {}
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._clock = clock

    def _live(self, code: str) -> _Class | None:
        """The class, or None (an expired one is deleted here); call with the lock held."""
        found = self._classes.get(code)
        if found is not None and found.state["expires"] <= self._clock():
            del self._classes[code]
            return None
        return found

    def _sweep(self) -> None:
        for code in list(self._classes):
            self._live(code)

    def create(self, state: dict, lead_hash: str) -> bool:
        with self._lock:
            self._sweep()
            if state["code"] in self._classes:
                return False
            self._classes[state["code"]] = _Class(dict(state), lead_hash)
            self._tell({"kind": "state", "state": state})
        return True

    def get(self, code: str) -> dict | None:
        with self._lock:
            found = self._live(code)
            return None if found is None else found.state

    def lead_hash(self, code: str) -> str | None:
        with self._lock:
            found = self._live(code)
            return None if found is None else found.lead_hash

    def update(self, code: str, change: Change, *, drop: str | None = None) -> dict:
        with self._lock:
            found = self._live(code)
            if found is None:
                raise ClassError("no_class")
            found.state = change(found.state)
            self._tell({"kind": "state", "state": found.state})
            if drop is not None:
                found.answers.pop(drop, None)
                found.counts.pop(drop, None)
                found.rev += 1
                self._tell(self._tally_message(found, drop))
            return found.state

    def answer(self, code: str, question: str, phone: str, choice: str) -> str:
        with self._lock:
            found = self._live(code)
            if found is None:
                raise ClassError("no_class")
            check_answer(found.state, question, choice)
            answers = found.answers.setdefault(question, {})
            old = answers.get(phone)
            if old == choice:
                return "same"
            counts = found.counts.setdefault(question, Counter())
            if old is not None:
                counts[old] -= 1
            counts[choice] += 1
            answers[phone] = choice
            found.rev += 1
            self._tell(self._tally_message(found, question))
        return "new" if old is None else "changed"

    def _tally_message(self, found: _Class, question: str) -> dict:
        counts = dict(found.counts.get(question, {}))
        code, v = found.state["code"], found.state["v"]
        return {"kind": "tally", "code": code, "question": question, "counts": counts,
                "rev": found.rev, "v": v}  # fmt: skip

    def tally(self, code: str, question: str) -> tuple[dict[str, int], int]:
        with self._lock:
            found = self._live(code)
            if found is None:
                raise ClassError("no_class")
            return dict(found.counts.get(question, {})), found.rev

    def mine(self, code: str, question: str, phone: str) -> str | None:
        with self._lock:
            found = self._live(code)
            return None if found is None else found.answers.get(question, {}).get(phone)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _tell(self, message: dict) -> None:
        for listener in list(self._listeners):
            listener(message)

    def close(self) -> None:
        self._listeners.clear()
