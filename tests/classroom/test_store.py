"""The stores, memory and Redis alike: classes, versions, joins (capped), answers of joined phones
only, tallies, who follows (leases), the summary's record, the cap on live classes, the signing
key, expiry, messages, and nothing lost when many threads (or processes: two Redis clients)
write at once."""

from __future__ import annotations

import queue
import threading
import time
import uuid

import pytest

from classroom import state as st
from classroom.codes import new_code
from classroom.errors import ClassError
from classroom.redis_store import RedisStore
from classroom.store import MemoryStore
from deploy.redis_local import start_redis
from tests.classroom.class_support import PHONES, QUESTION, REDIS_SLOW, redis_or_skip

LIVE = 50  # the cap on live classes the tests' classes are made under
CAP = 500  # phones per class


def make_class(store, clock, phones: int = 8, **patch) -> str:
    """A class with QUESTION current (and `patch`) in `store`, PHONES[:phones] joined; its code."""
    fresh = st.new_state(new_code(), clock(), st.parse_change({"question": QUESTION, **patch}))
    assert store.create(fresh, "hash-of-secret", LIVE)
    for phone in PHONES[:phones]:
        store.join(fresh["code"], phone, CAP, ms(clock))
    return fresh["code"]


def ms(clock, ahead_s: float = 0.0) -> int:
    return int((clock() + ahead_s) * 1000)


def change(store, code: str, **patch) -> dict:
    return store.update(code, lambda s: st.apply_change(s, st.parse_change(patch)))


def heard(store) -> queue.Queue:
    """A queue of every message the store announces."""
    messages: queue.Queue = queue.Queue()
    if not isinstance(store, RedisStore):
        store.listen(messages.put)
        return messages
    before = subscribers(store)
    store.listen(messages.put)
    deadline = time.monotonic() + 10
    while subscribers(store) == before:  # until the subscriber thread has subscribed
        assert time.monotonic() < deadline, "the store's listener never subscribed"
        time.sleep(0.01)
    return messages


def subscribers(store: RedisStore) -> int:
    """How many connections Redis counts on the store's channel (PUBSUB NUMSUB)."""
    return store._redis.pubsub_numsub(store._channel)[0][1]


def next_of(messages: queue.Queue, kind: str) -> dict:
    while True:
        message = messages.get(timeout=10)
        if message["kind"] == kind:
            return message


def test_a_class_is_created_once_per_code_and_read_back(store, clock):
    code = make_class(store, clock, scene="s1")
    assert store.get(code)["scene"] == "s1" and store.lead_hash(code) == "hash-of-secret"
    assert not store.create(st.new_state(code, clock(), {}), "other", LIVE)
    assert store.get("ZZZZZZ") is None and store.lead_hash("ZZZZZZ") is None


def test_a_change_is_one_version_later_and_announced_with_its_state(store, clock):
    messages = heard(store)
    code = make_class(store, clock)
    assert next_of(messages, "state")["state"]["v"] == 1
    changed = change(store, code, step="s1.b")
    assert changed["v"] == 2 and store.get(code) == changed
    assert next_of(messages, "state")["state"] == changed
    with pytest.raises(ClassError, match="no_class"):
        change(store, "ZZZZZZ", step="x")


def test_answers_are_counted_replaced_and_a_retry_counts_once(store, clock):
    messages = heard(store)
    code = make_class(store, clock)
    assert store.answer(code, "q1", PHONES[0], "a") == "new"
    assert store.answer(code, "q1", PHONES[0], "a") == "same"
    assert store.answer(code, "q1", PHONES[1], "a") == "new"
    assert store.answer(code, "q1", PHONES[0], "b") == "changed"
    counts, rev = store.tally(code, "q1")
    assert {k: v for k, v in counts.items() if v} == {"a": 1, "b": 1} and rev == 3
    assert store.mine(code, "q1", PHONES[0]) == "b" and store.mine(code, "q1", PHONES[2]) is None
    last = [next_of(messages, "tally") for _ in range(3)][-1]
    assert (last["question"], last["rev"], last["counts"]["b"]) == ("q1", 3, 1)


@pytest.mark.parametrize(
    ("question", "choice", "error"),
    [("q1", "z", "bad_choice"), ("q9", "a", "unknown_question")],
)
def test_a_refused_answer_leaves_the_tally_alone(store, clock, question, choice, error):
    code = make_class(store, clock)
    store.answer(code, "q1", PHONES[0], "a")
    with pytest.raises(ClassError, match=error):
        store.answer(code, question, PHONES[1], choice)
    assert store.tally(code, "q1") == ({"a": 1}, 1)


def test_after_the_reveal_and_the_end_answers_are_refused(store, clock):
    code = make_class(store, clock)
    store.answer(code, "q1", PHONES[0], "a")
    change(store, code, revealed=True)
    with pytest.raises(ClassError, match="revealed"):
        store.answer(code, "q1", PHONES[0], "b")
    store.update(code, lambda s: st.end_class(s, clock()))
    with pytest.raises(ClassError, match="ended"):
        store.answer(code, "q1", PHONES[1], "b")
    assert store.tally(code, "q1") == ({"a": 1}, 1)
    with pytest.raises(ClassError, match="no_class"):
        store.answer("ZZZZZZ", "q1", PHONES[0], "a")


def test_a_reset_drops_the_question_s_answers_and_moves_the_tally_on(store, clock):
    messages = heard(store)
    code = make_class(store, clock)
    store.answer(code, "q1", PHONES[0], "a")
    change(store, code, revealed=True)
    new = store.update(code, lambda s: st.reset_question(s, "q1"), drop="q1")
    assert not new["revealed"] and store.tally(code, "q1") == ({}, 2)
    assert store.mine(code, "q1", PHONES[0]) is None
    assert next_of(messages, "tally")["rev"] == 1
    assert next_of(messages, "tally") == {
        "kind": "tally",
        "code": code,
        "question": "q1",
        "counts": {},
        "rev": 2,
        "v": new["v"],
    }
    assert store.answer(code, "q1", PHONES[0], "c") == "new"


def test_a_class_past_its_expiry_is_gone(store, clock):
    old = st.new_state(new_code(), clock() - st.TTL_S - 1, {})  # expired a second ago
    assert store.create(old, "h", LIVE) or isinstance(store, RedisStore)
    assert store.get(old["code"]) is None


def test_the_memory_store_forgets_a_class_when_its_six_hours_are_up(clock):
    store = MemoryStore(clock)
    code = make_class(store, clock)
    clock.now += st.TTL_S - 1
    assert store.get(code) is not None
    clock.now += 2
    assert store.get(code) is None and store.lead_hash(code) is None


@REDIS_SLOW
def test_redis_keys_expire_with_the_class_and_sooner_once_it_ended(redis_url, clock):
    store = RedisStore(redis_url, prefix=f"t{uuid.uuid4().hex}:")
    code = make_class(store, clock)
    store.answer(code, "q1", PHONES[0], "a")
    keys = [f"{store._prefix}{code}{tail}" for tail in ("", ":qs", ":rev", ":a:q1", ":t:q1")]
    ttls = [store._redis.ttl(key) for key in keys]
    assert all(st.TTL_S - 60 < ttl <= st.TTL_S for ttl in ttls), ttls
    store.update(code, lambda s: st.end_class(s, clock()))
    ttls = [store._redis.ttl(key) for key in keys]
    assert all(0 < ttl <= st.ENDED_GRACE_S for ttl in ttls), ttls
    store.close()


def test_concurrent_answers_and_changes_lose_nothing(store, clock):
    code = make_class(store, clock, phones=len(PHONES))
    # Redis: two more clients, as two app processes would write (each with its own connections)
    others = [store] if isinstance(store, MemoryStore) else [_twin(store), _twin(store)]
    phones = [PHONES[i::8] for i in range(8)]

    def answer_all(k: int) -> None:
        for phone in phones[k]:
            others[k % len(others)].answer(code, "q1", phone, "abc"[k % 3])

    def move(k: int) -> None:
        for i in range(15):
            change(others[k % len(others)], code, step=f"s{k}.{i}")

    threads = [threading.Thread(target=answer_all, args=(k,)) for k in range(8)]
    threads += [threading.Thread(target=move, args=(k,)) for k in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    counts, rev = store.tally(code, "q1")
    assert sum(counts.values()) == len(PHONES) == rev
    assert store.get(code)["v"] == 1 + 30, "every change is one version, none lost"


def _twin(store: RedisStore) -> RedisStore:
    """Another client of the same Redis and prefix."""
    kwargs = store._redis.connection_pool.connection_kwargs
    return RedisStore(f"redis://{kwargs['host']}:{kwargs['port']}/0", prefix=store._prefix)


def test_an_unreachable_redis_is_store_unavailable():
    store = RedisStore("redis://127.0.0.1:1/0")
    for call in (lambda: store.get("K7MX2Q"), lambda: store.answer("K7MX2Q", "q", PHONES[0], "a")):
        with pytest.raises(ClassError) as caught:
            call()
        assert caught.value.code == "store_unavailable" and caught.value.status == 503
    store.close()


@pytest.mark.slow
def test_a_restarted_redis_keeps_every_class_and_answer_and_the_subscriber_says_so(tmp_path, clock):
    redis_or_skip()
    server = start_redis(tmp_path / "redis", persist=True)
    try:
        store = RedisStore(server.url)
        messages = heard(store)
        code = make_class(store, clock)
        store.answer(code, "q1", PHONES[0], "c")
        server.stop()
        assert next_of(messages, "store") == {"kind": "store", "ok": False}
        with pytest.raises(ClassError, match="store_unavailable"):
            store.get(code)
        server.start()
        assert next_of(messages, "store") == {"kind": "store", "ok": True}
        assert store.get(code)["question"]["id"] == "q1"
        assert store.tally(code, "q1") == ({"c": 1}, 1)
        assert store.answer(code, "q1", PHONES[1], "c") == "new"
        assert list((tmp_path / "redis").glob("appendonlydir/*.aof")), "no append-only file"
        store.close()
    finally:
        server.stop()


def test_phones_join_up_to_the_cap_and_only_joined_phones_answer(store, clock):
    messages = heard(store)
    code = make_class(store, clock, phones=0)
    state, new = store.join(code, PHONES[0], 2, ms(clock, 30))
    assert new and state["code"] == code
    assert next_of(messages, "room") == {
        "kind": "room",
        "code": code,
        "phone": PHONES[0],
        "owner": "",
    }
    assert store.join(code, PHONES[0], 2, ms(clock, 30))[1] is False, "joined again: the same"
    store.join(code, PHONES[1], 2, ms(clock, 30))
    with pytest.raises(ClassError, match="class_full"):
        store.join(code, PHONES[2], 2, ms(clock, 30))
    assert store.member(code, PHONES[1]) and not store.member(code, PHONES[2])
    with pytest.raises(ClassError, match="bad_token"):
        store.answer(code, "q1", PHONES[2], "a")
    assert store.answer(code, "q1", PHONES[1], "a") == "new"
    assert store.tally(code, "q1") == ({"a": 1}, 1)
    with pytest.raises(ClassError, match="no_class"):
        store.join("ZZZZZZ", PHONES[0], 2, 0)
    store.update(code, lambda s: st.end_class(s, clock()))
    with pytest.raises(ClassError, match="ended"):
        store.join(code, PHONES[0], 2, 0)


def test_a_phone_follows_while_its_lease_runs_and_a_closed_stream_releases_it(store, clock):
    code = make_class(store, clock, phones=3)  # joined: each counted for 0 s (until = now)
    assert store.room(code, ms(clock)) == {"joined": 3, "following": 0}
    store.lease(code, [PHONES[0], PHONES[1], "never-joined-phone-abcdef"], ms(clock, 30))
    assert store.room(code, ms(clock)) == {"joined": 3, "following": 2}
    assert store.room(code, ms(clock, 31))["following"] == 0
    store.lease(code, [PHONES[0]], ms(clock, 10))  # a lease never shortens another
    assert store.room(code, ms(clock, 20))["following"] == 2
    store.release(code, PHONES[0], ms(clock, 30), ms(clock, 5))  # its stream closed
    assert store.room(code, ms(clock, 6))["following"] == 1
    store.lease(code, [PHONES[1]], ms(clock, 40))  # another stream renewed it since
    store.release(code, PHONES[1], ms(clock, 30), ms(clock, 5))  # the old stream's release
    assert store.room(code, ms(clock, 35))["following"] == 1, "the newer lease holds"
    store.answer(code, "q1", PHONES[2], "a", ms(clock, 30))  # an answer counts as following
    assert store.room(code, ms(clock, 6))["following"] == 2
    with pytest.raises(ClassError, match="no_class"):
        store.room("ZZZZZZ", 0)


def test_every_question_asked_is_recorded_with_its_tally_and_the_phones_then_joined(store, clock):
    code = make_class(store, clock, phones=3, scene="s1")
    store.answer(code, "q1", PHONES[0], "b")
    q2 = {"id": "q2", "choices": ["x", "y"], "answer": "x"}
    change(store, code, scene="s2", question=q2)
    store.join(code, PHONES[3], CAP, 0)
    store.answer(code, "q2", PHONES[3], "y")
    change(store, code, scene="s1", question=QUESTION)  # asked again: once, first-asked order
    record = store.record(code)
    assert [(q["id"], q["scene"]) for q in record["asked"]] == [("q1", "s1"), ("q2", "s2")]
    assert record["asked"][0]["answer"] == "b" and record["asked"][0]["choices"] == ["a", "b", "c"]
    assert record["counts"] == {"q1": {"b": 1}, "q2": {"y": 1}}
    assert record["joined_at"] == {"q1": 3, "q2": 4} and record["joined"] == 4
    assert store.record("ZZZZZZ") is None


def test_live_classes_are_capped_and_an_ended_class_frees_its_place(store, clock):
    made = [st.new_state(new_code(), clock(), {}) for _ in range(3)]
    assert store.create(made[0], "h", 2) and store.create(made[1], "h", 2)
    with pytest.raises(ClassError, match="too_many_classes"):
        store.create(made[2], "h", 2)
    store.update(made[0]["code"], lambda s: st.end_class(s, clock()))
    assert store.create(made[2], "h", 2)


def test_the_signing_key_is_made_once_and_shared(store):
    key = store.signing_key()
    assert len(key) == 32 and store.signing_key() == key
    if isinstance(store, RedisStore):
        assert _twin(store).signing_key() == key, "every process signs with the same key"
