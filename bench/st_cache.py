"""The browser's ForwardMsg cache, as Streamlit's frontend keeps it (ForwardMessageCache.ts).

The server marks an element message of 10 KB or more `metadata.cacheable`; the frontend keeps it
by its hash, lists every hash it holds in each `rerun_script`, and the server then sends a small
`ref_hash` message instead of the element. After each finished run (a fragment's included) the
run count grows; a message not used for more than `max_age` runs (the server's
`global.maxCachedMessageAge`, sent in `new_session`) is dropped — on a fragment run, only those
of the fragments that ran. bench/st_client.py keeps one per session, so a load test sends the
server what a browser would, and gets back what a browser would.
"""

from __future__ import annotations

from dataclasses import dataclass

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

DEFAULT_MAX_AGE = 2  # Streamlit's global.maxCachedMessageAge, until new_session says otherwise


class CacheMiss(RuntimeError):
    """The server referred to a message this cache does not hold (the frontend throws too)."""


@dataclass
class _Entry:
    encoded: bytes  # the message as it arrived (the frontend keeps the bytes too)
    run_count: int  # the cache's run count when it was last used
    fragment_id: str  # the fragment its element belongs to, "" for the page


class MessageCache:
    """ForwardMsgs kept by hash, and the bookkeeping that expires them."""

    def __init__(self) -> None:
        self.messages: dict[str, _Entry] = {}
        self.run_count = 0
        self.max_age = DEFAULT_MAX_AGE
        self.hits = 0  # ref_hash messages answered from the cache

    def hashes(self) -> list[str]:
        """What the next `rerun_script` lists as cached."""
        return list(self.messages)

    def process(self, msg: ForwardMsg, encoded: bytes) -> ForwardMsg:
        """Keep a cacheable message; turn a reference into the message it refers to."""
        kind = msg.WhichOneof("type")
        if kind == "new_session" and msg.new_session.config.max_cached_message_age:
            self.max_age = msg.new_session.config.max_cached_message_age
        if kind != "ref_hash":
            if msg.metadata.cacheable and msg.hash and not self._touch(msg.hash):
                fragment = msg.delta.fragment_id if kind == "delta" else ""
                self.messages[msg.hash] = _Entry(encoded, self.run_count, fragment)
            return msg
        entry = self._touch(msg.ref_hash)
        if entry is None:
            raise CacheMiss(f"the server referred to {msg.ref_hash}, which is not cached")
        self.hits += 1
        full = ForwardMsg()
        full.ParseFromString(entry.encoded)
        full.metadata.CopyFrom(msg.metadata)
        return full

    def finished(self, fragment_ids: list[str]) -> None:
        """A run ended (not early for a rerun): age every message it could have used, drop the
        ones older than max_age; a fragment run ages only its fragments' messages."""
        self.run_count += 1
        for key, entry in list(self.messages.items()):
            if fragment_ids and entry.fragment_id not in fragment_ids:
                continue
            if self.run_count - entry.run_count > self.max_age:
                del self.messages[key]

    def _touch(self, key: str) -> _Entry | None:
        entry = self.messages.get(key)
        if entry is not None:
            entry.run_count = self.run_count
        return entry
