"""Where classes live: the Store interface, and the in-memory store `make run` uses (one process).

A store keeps each class's state (classroom/state.py), the hash of its teacher's secret, the
phones that joined (their random ids, at most the class's cap) and until when each counts as
following, every question asked (as published, for the summary) with the phones joined when it
stopped being current, and per question the answers (phone id → choice) and the tally (choice →
count); and, for all its classes, the one key that signs phones' tokens (classroom/tokens.py). Every
change is atomic and announced to the listeners as a message (a dict):

    {"kind": "state", "state": {...}}                   the class's full state (private fields too)
    {"kind": "tally", "code": C, "question": Q, "counts": {...}, "rev": n, "v": state version}
    {"kind": "room", "code": C, "phone": P, "owner": O} phones joined or streams opened/closed
                                                        (O: the hub whose stream it was, or "")
    {"kind": "store", "ok": bool}                       the store became unreachable / reachable

Times (`now`, `until`) are Unix milliseconds given by the caller (the service's clock).

RedisStore (classroom/redis_store.py) is the same interface for several processes and machines.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from classroom.errors import ClassError
from classroom.state import check_answer
from classroom.tokens import KEY_BYTES

Listener = Callable[[dict], None]
Change = Callable[[dict], dict]


class Store(Protocol):
    """What the routes need of a store; every method is thread-safe and may raise ClassError."""

    def signing_key(self) -> bytes:
        """The key that signs phones' tokens: made once, the same for every process."""

    def create(self, state: dict, lead_hash: str, live_cap: int) -> bool:
        """Store a new class; False when its code is taken (the caller draws another); ClassError
        too_many_classes when `live_cap` classes that have not ended live already."""

    def get(self, code: str) -> dict | None:
        """The class's state, or None when there is none (never made, expired)."""

    def lead_hash(self, code: str) -> str | None:
        """The hash of the class's teacher's secret, or None."""

    def update(self, code: str, change: Change, *, drop: str | None = None) -> dict:
        """Apply `change` (state → new state) atomically, dropping question `drop`'s answers;
        keys follow the new state's `expires`; a question published is recorded. Raises
        ClassError no_class."""

    def join(self, code: str, phone: str, cap: int, until: int) -> tuple[dict, bool]:
        """Phone `phone` joins (again): (the state, whether it is new); it counts as following
        until `until`. ClassError no_class, ended, or class_full when `cap` phones joined."""

    def member(self, code: str, phone: str) -> bool:
        """True when the phone joined the class."""

    def answer(self, code: str, question: str, phone: str, choice: str, until: int = 0) -> str:
        """Record a joined phone's answer: "new", "changed" or "same" (a retry); it counts as
        following until `until`. ClassError if refused (bad_token: the phone never joined)."""

    def tally(self, code: str, question: str) -> tuple[dict[str, int], int]:
        """(choice → count, revision) of a question's answers."""

    def mine(self, code: str, question: str, phone: str) -> str | None:
        """The choice a phone gave to a question, or None."""

    def lease(self, code: str, phones: list[str], until: int) -> None:
        """These joined phones (with a stream open) count as following until `until` at least."""

    def release(self, code: str, phone: str, stamp: int, until: int) -> None:
        """A stream closed: its phone counts until `until` instead, unless another stream renewed
        its lease since this one set it to `stamp`."""

    def room(self, code: str, now: int) -> dict[str, int]:
        """{"joined": phones joined, "following": phones counted as following at `now`}."""

    def record(self, code: str) -> dict | None:
        """What the summary reads (classroom/summary.py class_summary), or None without a class."""

    def announce(self, message: dict) -> None:
        """Send a message to every process's listeners (a stream opened here, for instance)."""

    def listen(self, listener: Listener) -> None:
        """Send every message of every class to `listener` (any thread) until close()."""

    def close(self) -> None:
        """Stop listening and release connections."""


def asked_of(state: dict) -> dict | None:
    """The record of the state's question for the summary: as published, with its scene."""
    question = state["question"]
    if question is None:
        return None
    keep = ("id", "choices", "answer", "labels")
    return {**{k: question.get(k) for k in keep}, "scene": state["scene"]}


def tally_message(state: dict, question: str, counts: dict[str, int], rev: int) -> dict:
    """The "tally" message of a question's counts at revision `rev`, under the class's state."""
    return {
        "kind": "tally",
        "code": state["code"],
        "question": question,
        "counts": counts,
        "rev": rev,
        "v": state["v"],
    }


@dataclass
class _Class:
    """One class in memory: state, secret hash, phones, answers and tallies per question id."""

    state: dict
    lead_hash: str
    phones: set[str] = field(default_factory=set)
    until: dict[str, int] = field(default_factory=dict)  # phone → counted as following until
    asked: dict[str, dict] = field(default_factory=dict)  # question id → record (first-asked order)
    joined_at: dict[str, int] = field(default_factory=dict)  # question id → phones when it left
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
        self._key = secrets.token_bytes(KEY_BYTES)

    def signing_key(self) -> bytes:
        return self._key

    def _live(self, code: str) -> _Class | None:
        """The class, or None (an expired one is deleted here); call with the lock held."""
        found = self._classes.get(code)
        if found is not None and found.state["expires"] <= self._clock():
            del self._classes[code]
            return None
        return found

    def _found(self, code: str) -> _Class:
        found = self._live(code)
        if found is None:
            raise ClassError("no_class")
        return found

    def create(self, state: dict, lead_hash: str, live_cap: int) -> bool:
        with self._lock:
            for code in list(self._classes):  # the expired go first: they hold no place
                self._live(code)
            if state["code"] in self._classes:
                return False
            if sum(not c.state["ended"] for c in self._classes.values()) >= live_cap:
                raise ClassError("too_many_classes", f"at most {live_cap} live classes")
            made = _Class(dict(state), lead_hash)
            self._record(made, None, made.state)
            self._classes[state["code"]] = made
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
            found = self._found(code)
            old, found.state = found.state, change(found.state)
            self._record(found, old, found.state)
            self._tell({"kind": "state", "state": found.state})
            if drop is not None:
                found.answers.pop(drop, None)
                found.counts.pop(drop, None)
                found.rev += 1
                self._tell(self._tally_message(found, drop))
            return found.state

    @staticmethod
    def _record(found: _Class, old: dict | None, new: dict) -> None:
        """The question published (for the summary); the phones joined when one left."""
        asked = asked_of(new)
        if asked is not None and (old is None or old["question"] != new["question"]):
            found.asked[asked["id"]] = asked
        left = (old or {}).get("question") or {}
        if left and left["id"] != (new["question"] or {}).get("id"):
            found.joined_at[left["id"]] = len(found.phones)

    def join(self, code: str, phone: str, cap: int, until: int) -> tuple[dict, bool]:
        with self._lock:
            found = self._found(code)
            if found.state["ended"]:
                raise ClassError("ended")
            new = phone not in found.phones
            if new and len(found.phones) >= cap:
                raise ClassError("class_full", f"at most {cap} phones")
            found.phones.add(phone)
            found.until[phone] = max(found.until.get(phone, 0), until)
            if new:
                self._tell({"kind": "room", "code": code, "phone": phone, "owner": ""})
            return found.state, new

    def member(self, code: str, phone: str) -> bool:
        with self._lock:
            found = self._live(code)
            return found is not None and phone in found.phones

    def answer(self, code: str, question: str, phone: str, choice: str, until: int = 0) -> str:
        with self._lock:
            found = self._found(code)
            if phone not in found.phones:
                raise ClassError("bad_token", "this phone has not joined the class")
            check_answer(found.state, question, choice)
            found.until[phone] = max(found.until.get(phone, 0), until)
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
        return tally_message(found.state, question, counts, found.rev)

    def tally(self, code: str, question: str) -> tuple[dict[str, int], int]:
        with self._lock:
            found = self._found(code)
            return dict(found.counts.get(question, {})), found.rev

    def mine(self, code: str, question: str, phone: str) -> str | None:
        with self._lock:
            found = self._live(code)
            return None if found is None else found.answers.get(question, {}).get(phone)

    def lease(self, code: str, phones: list[str], until: int) -> None:
        with self._lock:
            found = self._live(code)
            for phone in phones if found is not None else ():
                if phone in found.phones:
                    found.until[phone] = max(found.until.get(phone, 0), until)

    def release(self, code: str, phone: str, stamp: int, until: int) -> None:
        with self._lock:
            found = self._live(code)
            if found is not None and found.until.get(phone) == stamp:
                found.until[phone] = until

    def room(self, code: str, now: int) -> dict[str, int]:
        with self._lock:
            found = self._found(code)
            following = sum(until > now for until in found.until.values())
            return {"joined": len(found.phones), "following": following}

    def record(self, code: str) -> dict | None:
        with self._lock:
            found = self._live(code)
            if found is None:
                return None
            counts = {q: dict(c) for q, c in found.counts.items()}
            return {
                "asked": list(found.asked.values()),
                "counts": counts,
                "joined_at": dict(found.joined_at),
                "joined": len(found.phones),
            }

    def announce(self, message: dict) -> None:
        with self._lock:
            self._tell(message)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _tell(self, message: dict) -> None:
        for listener in list(self._listeners):
            listener(message)

    def close(self) -> None:
        self._listeners.clear()
