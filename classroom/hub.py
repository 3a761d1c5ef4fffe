"""This process's open event streams, and the fan-out of the store's messages to them.

One Hub per app process, in its event loop. The store's listener (a Redis subscriber thread, or
the memory store itself) posts every message here; the hub keeps, per class with a stream open
here, its last state and tally, encodes each event once and hands the bytes to every stream of
that class. Teachers' streams get the tally, at most every TALLY_EVERY_S (200 answers in a second
make a few events, not 200); phones' streams get it only while the class shows it.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from classroom.state import public, tally_of

HEARTBEAT_S = 15.0  # a comment line this often keeps proxies and NAT boxes from closing a stream
TALLY_EVERY_S = 0.25
RETRY_MS = 2000  # EventSource waits this long before it reconnects


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
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    pending: dict[str, bytes] = field(default_factory=dict)  # "store", "state", "tally" → event
    v: int = 0  # version of the last state queued
    visible: bool = False  # the class shows its tally (per that state)
    closed: str = ""  # why the server ends it ("" while open)

    def offer(self, kind: str, chunk: bytes) -> None:
        """Queue an event; a newer one of the same kind replaces one not yet sent."""
        self.pending[kind] = chunk
        self.wake.set()

    def take(self) -> list[bytes]:
        """The queued events, store status first, then state, then tally."""
        out = [self.pending.pop(k) for k in ("store", "state", "tally") if k in self.pending]
        self.wake.clear()
        return out

    def close(self, reason: str) -> None:
        self.closed = reason
        self.wake.set()


@dataclass
class _Class:
    """What the hub knows of one class with streams here."""

    streams: set[Stream] = field(default_factory=set)
    state: dict | None = None
    tally: dict | None = None  # the last tally message (any question)
    sent: float = 0.0  # time.monotonic() of the last tally flush
    due: bool = False  # a tally flush is scheduled


class Hub:
    """Fan-out from the store to this process's streams; all methods but post() in the loop."""

    def __init__(self, refresh: Callable[[str], list[dict]]) -> None:
        self._refresh = refresh  # code → the messages that bring it up to date (runs in a thread)
        self._classes: dict[str, _Class] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closing = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def post(self, message: dict) -> None:
        """Hand a store message to the loop (safe from any thread)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.receive, message)

    def receive(self, message: dict) -> None:
        """Dispatch one store message."""
        if message["kind"] == "state":
            self._on_state(message["state"])
        elif message["kind"] == "tally":
            self._on_tally(message)
        elif message["kind"] == "store":
            self._on_store(message["ok"])
        elif message["kind"] == "gone":
            self.gone(message["code"])

    def add(self, stream: Stream) -> None:
        self._classes.setdefault(stream.code, _Class()).streams.add(stream)

    def remove(self, stream: Stream) -> None:
        known = self._classes.get(stream.code)
        if known is not None:
            known.streams.discard(stream)
            if not known.streams:
                del self._classes[stream.code]

    def seed(self, stream: Stream, messages: list[dict]) -> None:
        """A new stream's first state and tally: the store's messages, read after `add`."""
        for message in messages:
            self.receive(message)
        known = self._classes.get(stream.code)
        if known is not None and known.state is not None:
            self._offer_state(stream, known.state, self._state_chunk(known.state))
            self._offer_tally(stream, self._tally_chunk(known))

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

    def _schedule(self, code: str, known: _Class) -> None:
        """Flush the tally now, or once TALLY_EVERY_S has passed since the last flush."""
        if known.due or self._loop is None:
            return
        known.due = True
        wait = max(0.0, known.sent + TALLY_EVERY_S - time.monotonic())
        self._loop.call_later(wait, self._flush, code)

    def _flush(self, code: str) -> None:
        known = self._classes.get(code)
        if known is None or known.state is None:
            return
        known.due, known.sent = False, time.monotonic()
        chunk = self._tally_chunk(known)
        for stream in known.streams:
            self._offer_tally(stream, chunk)

    def _tally_chunk(self, known: _Class) -> bytes | None:
        """The tally event of the class's current question (zeros before any answer)."""
        state = known.state
        question = (state["question"] or {}).get("id")
        if question is None:
            return None
        raw = known.tally if known.tally and known.tally["question"] == question else None
        rev = known.tally["rev"] if known.tally else 0
        view = tally_of(state, question, raw["counts"] if raw else {}, rev)
        return sse("tally", {**view, "v": state["v"], "visible": state["tally_visible"]})

    def _offer_tally(self, stream: Stream, chunk: bytes | None) -> None:
        if chunk is not None and (stream.teacher or stream.visible):
            stream.offer("tally", chunk)

    def _on_store(self, ok: bool) -> None:
        """Tell every stream; once the store is back, re-read every class (missed messages)."""
        said = {"ok": ok, **({} if ok else {"error": "store_unavailable"})}
        for known in self._classes.values():
            chunk = sse("store", {**said, "v": known.state["v"] if known.state else 0})
            for stream in known.streams:
                stream.offer("store", chunk)
        if ok and self._loop is not None:
            for code in list(self._classes):
                self._loop.run_in_executor(None, self._catch_up, code)

    def _catch_up(self, code: str) -> None:
        """Read a class again from the store (in a thread) and post what it says."""
        for message in self._refresh(code):
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
        for known in self._classes.values():
            for stream in known.streams:
                stream.close("server_stopping")

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
