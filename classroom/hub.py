"""This process's open event streams, and the fan-out of the store's messages to them.

One Hub per app process, in its event loop. The store's listener (a Redis subscriber thread, or
the memory store itself) posts every message here; the hub keeps, per class with a stream open
here, its last state, tally and room (phones joined, phones following), encodes each event once
and hands the bytes to every stream of that class. Teachers' streams get the tally, at most every
TALLY_EVERY_S (200 answers in a second make a few events, not 200), and the room; phones' streams
get the tally only while the class shows it.

Every stream has an owner and an end. A phone's stream belongs to its joined phone id: one per
phone (a new one, here or in another process, replaces the old, which is told `bye: replaced`),
and while it is open the phone counts as following (a lease in the store, renewed every
LEASE_EVERY_S for LEASE_S; a stream that closes leaves its phone counted GRACE_S more, time for
a browser to reconnect). A teacher's streams are at most TEACHER_STREAMS per class (the oldest
goes). Streams end with their class: at once when it ends, within TICK_S of its expiry, and when
the process stops. The process holds at most `max_streams` (below its open-file limit).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Protocol

from classroom.errors import ClassError
from classroom.state import public, tally_of

HEARTBEAT_S = 15.0  # a comment line this often keeps proxies and NAT boxes from closing a stream
TALLY_EVERY_S = 0.25
RETRY_MS = 2000  # EventSource waits this long before it reconnects
TICK_S = 1.0  # how often the hub looks for expired classes and recounts rooms that changed
ROOM_EVERY_S = 3.0  # a teacher's room is recounted at least this often (leases that lapsed)
LEASE_S = 30.0  # a phone with a stream open counts as following this long after each renewal
LEASE_EVERY_S = 10.0  # how often the leases of the streams open here are renewed
GRACE_S = 5.0  # a phone whose stream closed still counts this long (EventSource reconnects)
TEACHER_STREAMS = 6  # per class and process: projector, presenter, reloads (the oldest goes)
TEACHER_RESERVE = 64  # teachers' streams allowed beyond max_streams: a class is never leaderless
log = logging.getLogger(__name__)


class Source(Protocol):
    """What the hub asks of the class service (classroom/service.py); called in worker threads
    (but `now`), any may raise ClassError."""

    def refresh(self, code: str, *, room: bool = False) -> list[dict]:
        """Messages that bring a stream of class CODE up to date (state, tally; with `room`, the
        room counted: {"kind": "counts", "code", "room"})."""

    def room(self, code: str) -> dict[str, int]:
        """{"joined", "following"} of class CODE now."""

    def lease(self, code: str, phones: list[str]) -> int:
        """These phones follow class CODE: renew their leases; the lease's end (Unix ms)."""

    def release(self, code: str, phone: str, stamp: int) -> None:
        """A phone's stream closed: its lease ends GRACE_S from now (unless renewed since)."""

    def announce(self, message: dict) -> None:
        """Send a message to every process's hub through the store."""

    def now(self) -> float:
        """The service's clock (Unix seconds): classes expire by it."""


def sse(event: str, data: dict, event_id: int | None = None) -> bytes:
    """One Server-Sent Event: `event:`, optional `id:`, one `data:` line of JSON."""
    head = f"event: {event}\n" + (f"id: {event_id}\n" if event_id is not None else "")
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (head + f"data: {line}\n\n").encode()


@dataclass(eq=False)
class Stream:
    """One open event stream: what is waiting to be sent, newest only, and its wake-up."""

    code: str
    teacher: bool
    phone: str = ""  # the joined phone's id ("" for a teacher's stream)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pending: dict[str, bytes] = field(default_factory=dict)  # "store", "state", "room", "tally"
    v: int = 0  # version of the last state queued
    visible: bool = False  # the class shows its tally (per that state)
    closed: str = ""  # why the server ends it ("" while open)
    stamp: int = 0  # the end of the lease this stream last set for its phone (Unix ms)

    def offer(self, kind: str, chunk: bytes) -> None:
        """Queue an event; a newer one of the same kind replaces one not yet sent."""
        self.pending[kind] = chunk
        self.wake.set()

    def take(self) -> list[bytes]:
        """The queued events: store status first, then state, room, tally."""
        order = ("store", "state", "room", "tally")
        out = [self.pending.pop(k) for k in order if k in self.pending]
        self.wake.clear()
        return out

    def close(self, reason: str) -> None:
        if not self.closed:
            self.closed = reason
        self.wake.set()


@dataclass
class _Class:
    """What the hub knows of one class with streams here."""

    streams: list[Stream] = field(default_factory=list)  # in the order they opened
    state: dict | None = None
    tally: dict | None = None  # the last tally message (any question)
    room: dict | None = None  # the last {"joined", "following"} counted
    sent: float = 0.0  # loop time of the last tally flush
    due: bool = False  # a tally flush is scheduled
    recount_at: float = 0.0  # loop time at which the room is counted again (0: now)
    counting: bool = False  # a recount or an expiry check is under way

    def teachers(self) -> list[Stream]:
        return [s for s in self.streams if s.teacher]


class Hub:
    """Fan-out from the store to this process's streams; all methods but post() in the loop."""

    def __init__(self, source: Source, *, max_streams: int = 10_000) -> None:
        self._source = source
        self.max_streams = max_streams
        self.id = secrets.token_hex(8)  # names this hub in the "room" messages it announces
        self._classes: dict[str, _Class] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ticker: asyncio.Task | None = None
        self.open_streams = 0  # streams added and not yet removed
        self.closing = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._ticker = loop.create_task(self._tick())

    def post(self, message: dict) -> None:
        """Hand a store message to the loop (safe from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.receive, message)

    def receive(self, message: dict) -> None:
        """Dispatch one store message."""
        kind = message["kind"]
        if kind == "state":
            self._on_state(message["state"])
        elif kind == "tally":
            self._on_tally(message)
        elif kind == "room":
            self._on_room(message)
        elif kind == "counts":
            self._on_counts(message["code"], message["room"])
        elif kind == "store":
            self._on_store(message["ok"])
        elif kind == "gone":
            self.gone(message["code"])

    def add(self, stream: Stream) -> None:
        """Take a new stream: it replaces its phone's other stream here (or the class's oldest
        teacher's stream beyond TEACHER_STREAMS); ClassError too_many_streams at the cap."""
        known = self._classes.get(stream.code)
        mates = [s for s in known.streams if not s.closed] if known else []
        if stream.phone:
            old = [s for s in mates if s.phone == stream.phone]
        else:
            teachers = [s for s in mates if s.teacher]
            old = teachers[: max(0, len(teachers) + 1 - TEACHER_STREAMS)]
        cap = self.max_streams + (TEACHER_RESERVE if stream.teacher else 0)
        if self.open_streams - len(old) >= cap:  # (refused: the old stream stays open)
            raise ClassError("too_many_streams", f"at most {self.max_streams}", retry_after=5)
        for gone in old:
            gone.close("replaced")
        known = self._classes.setdefault(stream.code, _Class())
        known.streams.append(stream)
        self.open_streams += 1
        known.recount_at = 0.0
        if stream.phone:
            self._background(self._opened, stream)

    def remove(self, stream: Stream) -> None:
        known = self._classes.get(stream.code)
        if known is None or stream not in known.streams:
            return
        known.streams.remove(stream)
        self.open_streams -= 1
        if stream.phone and stream.closed != "replaced":
            self._background(self._left, stream)
        if not known.streams:
            del self._classes[stream.code]

    def _opened(self, stream: Stream) -> None:
        """(A worker thread.) A phone's stream opened: its lease, and every hub is told (another
        process closes this phone's stream there)."""
        stream.stamp = self._source.lease(stream.code, [stream.phone])
        self._source.announce(self._room_message(stream.code, stream.phone))

    def _left(self, stream: Stream) -> None:
        """(A worker thread.) A phone's stream closed: its lease ends GRACE_S from now; every
        hub recounts."""
        self._source.release(stream.code, stream.phone, stream.stamp)
        self._source.announce(self._room_message(stream.code, ""))

    def _room_message(self, code: str, phone: str) -> dict:
        return {"kind": "room", "code": code, "phone": phone, "owner": self.id}

    def seed(self, stream: Stream, messages: list[dict]) -> None:
        """A new stream's first state, room and tally: the store's messages, read after `add`."""
        for message in messages:
            self.receive(message)
        known = self._classes.get(stream.code)
        if known is None or known.state is None:
            return
        self._offer_state(stream, known.state, self._state_chunk(known.state))
        if stream.teacher and known.room is not None:
            stream.offer("room", self._room_chunk(known))
        self._offer_tally(stream, self._tally_chunk(known))
        if known.state["ended"]:
            stream.close("ended")

    def _on_state(self, state: dict) -> None:
        known = self._classes.get(state["code"])
        if known is None:
            return
        old = known.state
        if old is not None and old["created"] == state["created"] and old["v"] >= state["v"]:
            return  # a late or repeated message
        if old is not None and old["created"] != state["created"]:
            known.tally = None  # another class with the same code: forget the old one's tally
        known.state = state
        chunk = self._state_chunk(state)
        for stream in known.streams:
            self._offer_state(stream, state, chunk)
            if state["ended"]:
                stream.close("ended")
        if old is None or _tally_key(old) != _tally_key(state):
            self._schedule(state["code"], known)

    def _state_chunk(self, state: dict) -> bytes:
        return sse("state", public(state), state["v"])

    def _offer_state(self, stream: Stream, state: dict, chunk: bytes) -> None:
        if state["v"] > stream.v:
            stream.v, stream.visible = state["v"], state["tally_visible"]
            stream.offer("state", chunk)

    def _on_tally(self, message: dict) -> None:
        known = self._classes.get(message["code"])
        if known is None or (known.tally and known.tally["rev"] >= message["rev"]):
            return
        known.tally = message
        self._schedule(message["code"], known)

    def _on_room(self, message: dict) -> None:
        """Phones joined or a stream opened or closed somewhere: recount; a stream of the same
        phone opened by another hub replaces this hub's."""
        known = self._classes.get(message["code"])
        if known is None:
            return
        known.recount_at = 0.0
        if message["phone"] and message["owner"] not in ("", self.id):
            for stream in known.streams:
                if stream.phone == message["phone"]:
                    stream.close("replaced")

    def _schedule(self, code: str, known: _Class) -> None:
        """Flush the tally now, or once TALLY_EVERY_S has passed since the last flush."""
        if known.due or self._loop is None:
            return
        known.due = True
        wait = max(0.0, known.sent + TALLY_EVERY_S - self._loop.time())
        self._loop.call_later(wait, self._flush, code)

    def _flush(self, code: str) -> None:
        known = self._classes.get(code)
        if known is None or known.state is None:
            return
        known.due, known.sent = False, self._loop.time()
        chunk = self._tally_chunk(known)
        for stream in known.streams:
            self._offer_tally(stream, chunk)

    def _tally_chunk(self, known: _Class) -> bytes | None:
        """The tally event of the class's current question (zeros before any answer), with the
        room's counts: N (`total`) answered of M (`following`) phones following now."""
        state = known.state
        question = (state["question"] or {}).get("id")
        if question is None:
            return None
        raw = known.tally if known.tally and known.tally["question"] == question else None
        rev = known.tally["rev"] if known.tally else 0
        view = tally_of(state, question, raw["counts"] if raw else {}, rev)
        return sse(
            "tally",
            {**view, **(known.room or {}), "v": state["v"], "visible": state["tally_visible"]},
        )

    def _offer_tally(self, stream: Stream, chunk: bytes | None) -> None:
        if chunk is not None and (stream.teacher or stream.visible):
            stream.offer("tally", chunk)

    def _room_chunk(self, known: _Class) -> bytes:
        v = known.state["v"] if known.state else 0
        return sse("room", {**known.room, "v": v})

    def _on_store(self, ok: bool) -> None:
        """Tell every stream; once the store is back, re-read every class (missed messages)."""
        said = {"ok": ok, **({} if ok else {"error": "store_unavailable"})}
        for known in self._classes.values():
            chunk = sse("store", {**said, "v": known.state["v"] if known.state else 0})
            for stream in known.streams:
                stream.offer("store", chunk)
        if ok:
            for code in list(self._classes):
                self._background(self._catch_up, code)

    def _catch_up(self, code: str) -> None:
        """Read a class again from the store (in a thread) and post what it says."""
        for message in self._source.refresh(code):
            self.post(message)

    def gone(self, code: str) -> None:
        """The class no longer exists in the store: tell its streams and close them."""
        known = self._classes.get(code)
        for stream in list(known.streams if known else ()):
            stream.offer("state", sse("gone", {"error": "no_class", "v": stream.v}))
            stream.close("no_class")

    def close(self) -> None:
        """The process is stopping: end every stream now (their browsers reconnect elsewhere)."""
        self.closing = True
        if self._ticker is not None:
            self._ticker.cancel()
        for known in self._classes.values():
            for stream in known.streams:
                stream.close("server_stopping")

    # ---- the clock: expiry, leases, rooms ------------------------------------------------------

    async def _tick(self) -> None:
        """Every TICK_S: end the streams of expired classes, recount the rooms that changed (or
        every ROOM_EVERY_S); every LEASE_EVERY_S: renew the leases of the phones following here."""
        renewed = self._loop.time()
        while not self.closing:
            await asyncio.sleep(TICK_S)
            now = self._loop.time()
            try:
                for code, known in list(self._classes.items()):
                    self._look_at(code, known, now)
                if now - renewed >= LEASE_EVERY_S:
                    renewed = now
                    for code, known in list(self._classes.items()):
                        phones = [s for s in known.streams if s.phone and not s.closed]
                        if phones:
                            self._background(self._renew, code, phones)
            except Exception:  # a bug here must not stop the streams' ends: say it, go on
                log.exception("the class hub's tick failed")

    def _look_at(self, code: str, known: _Class, now: float) -> None:
        if known.counting or known.state is None:
            return
        expired = known.state["expires"] <= self._source.now()
        if expired or (known.teachers() and now >= known.recount_at):
            known.counting = True
            known.recount_at = now + ROOM_EVERY_S
            self._background(self._count, code, known, expired)

    def _count(self, code: str, known: _Class, expired: bool) -> None:
        """(A worker thread.) An expired class read again (gone: its streams end), or a room
        counted."""
        try:
            if expired:
                self._catch_up(code)
            else:
                self.post({"kind": "counts", "code": code, "room": self._source.room(code)})
        finally:
            known.counting = False

    def _on_counts(self, code: str, room: dict) -> None:
        """A room counted (here): told to the class's teachers' streams when it changed."""
        known = self._classes.get(code)
        if known is None or room == known.room:
            return
        known.room = room
        chunk = self._room_chunk(known)
        for stream in known.teachers():
            stream.offer("room", chunk)
        self._schedule(code, known)  # the tally's N / M

    def _renew(self, code: str, streams: list[Stream]) -> None:
        until = self._source.lease(code, [s.phone for s in streams])
        for stream in streams:
            stream.stamp = until

    def _background(self, fn: Callable, *args: object) -> None:
        """Run a store call in a worker thread; a store that fails is told by its own message."""
        if self._loop is None or self._loop.is_closed():
            return

        def call() -> None:
            with contextlib.suppress(ClassError):
                fn(*args)

        self._loop.run_in_executor(None, call)

    async def chunks(self, stream: Stream) -> AsyncIterator[bytes]:
        """The bytes of one stream until the browser leaves or the server ends it."""
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            while True:
                for chunk in stream.take():
                    yield chunk
                if stream.closed:
                    yield sse("bye", {"reason": stream.closed, "v": stream.v})
                    return
                try:
                    await asyncio.wait_for(stream.wake.wait(), HEARTBEAT_S)
                except TimeoutError:
                    yield b": ping\n\n"
        finally:
            self.remove(stream)


def _tally_key(state: dict) -> tuple:
    """What decides which tally a stream gets: the question and whether it is shown."""
    return ((state["question"] or {}).get("id"), state["tally_visible"], state["revealed"])
