"""bench/st_cache.py keeps, answers and expires large messages as Streamlit's frontend does."""

from __future__ import annotations

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from bench.st_cache import CacheMiss, MessageCache


def element(text: str, fragment: str = "", cacheable: bool = True) -> tuple[ForwardMsg, bytes]:
    """A new_element delta as the server sends it: its hash, `cacheable` when ≥ 10 KB."""
    msg = ForwardMsg()
    msg.delta.new_element.markdown.body = text
    msg.delta.fragment_id = fragment
    msg.hash = f"h-{text}"
    msg.metadata.cacheable = cacheable
    msg.metadata.delta_path.extend([0, 1])
    return msg, msg.SerializeToString()


def ref(key: str, path: int = 7) -> ForwardMsg:
    msg = ForwardMsg()
    msg.ref_hash = key
    msg.metadata.delta_path.extend([0, path])
    return msg


def test_a_cacheable_element_is_kept_and_a_reference_answered_with_its_new_place():
    cache = MessageCache()
    msg, raw = element("big")
    assert cache.process(msg, raw) is msg and cache.hashes() == ["h-big"]
    small, raw_small = element("small", cacheable=False)
    cache.process(small, raw_small)
    assert cache.hashes() == ["h-big"]  # only what the server marked cacheable
    full = cache.process(ref("h-big"), b"")
    assert full.delta.new_element.markdown.body == "big"
    assert list(full.metadata.delta_path) == [0, 7] and cache.hits == 1
    with pytest.raises(CacheMiss):
        cache.process(ref("h-never-sent"), b"")


def test_messages_unused_for_more_than_max_age_runs_expire_fragment_runs_age_only_theirs():
    cache = MessageCache()
    page, raw = element("page")
    view, raw_view = element("view", fragment="f1")
    cache.process(page, raw)
    cache.process(view, raw_view)
    for _ in range(5):  # fragment runs of f1 that use the view's element each time
        cache.process(ref("h-view"), b"")
        cache.finished(["f1"])
    assert set(cache.hashes()) == {"h-page", "h-view"}  # fragment runs never drop the page's
    cache.process(ref("h-page"), b"")  # a full run that sends the page's element again
    cache.finished([])
    assert set(cache.hashes()) == {"h-page", "h-view"}  # the view's: unused for 2 runs, kept
    cache.finished([])
    assert cache.hashes() == ["h-page"]  # 3 > max_age 2
    cache.finished([])
    cache.finished([])
    assert cache.hashes() == []


def test_max_age_comes_from_new_session():
    cache = MessageCache()
    hello = ForwardMsg()
    hello.new_session.config.max_cached_message_age = 5
    cache.process(hello, hello.SerializeToString())
    assert cache.max_age == 5
