"""The Redis store (REDIS_URL): the Store interface of classroom/store.py for every app process
on every machine that shares one Redis.

Keys, all expiring with the class (EXPIREAT its `expires`), under a prefix ("al:class:"):

    P{CODE}          hash: state (JSON), lead (the SHA-256 of the teacher's secret)
    P{CODE}:rev      the class's tally revision (one more on every answer and reset)
    P{CODE}:qs       set of the question ids that have answers
    P{CODE}:a:{Q}    hash: phone token → choice
    P{CODE}:t:{Q}    hash: choice → count

Every write is one Lua script, so it is atomic across processes and publishes its message on
the channel P"events" in the same step; a teacher's change is compare-and-set on the version
(read, change in Python, commit if the version is still the one read, else again). The scripts
build the answer keys of a class from its prefix: a single Redis, not Redis Cluster.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TypeVar

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from classroom.errors import ClassError
from classroom.store import Change, Listener

T = TypeVar("T")
COMMIT_ATTEMPTS = 20  # a teacher's change against another window's, both retried
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
LISTEN_BACKOFF_S = (0.1, 2.0)  # the subscriber's first and longest wait between reconnections

CREATE = """
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'lead', ARGV[2])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[4], '{"kind":"state","state":' .. ARGV[1] .. '}')
return 1
"""

# KEYS: class, qs, rev, answers and tally of the dropped question (or unused);
# ARGV: version read, new state, its expires, dropped question id or '', channel, key prefix, code
COMMIT = """
local raw = redis.call('HGET', KEYS[1], 'state')
if not raw then return 'no_class' end
if cjson.decode(raw).v ~= tonumber(ARGV[1]) then return 'conflict' end
local v = cjson.decode(ARGV[2]).v
redis.call('HSET', KEYS[1], 'state', ARGV[2])
redis.call('PUBLISH', ARGV[5], '{"kind":"state","state":' .. ARGV[2] .. '}')
if ARGV[4] ~= '' then
  redis.call('DEL', KEYS[4], KEYS[5])
  redis.call('SREM', KEYS[2], ARGV[4])
  local rev = redis.call('INCR', KEYS[3])
  redis.call('PUBLISH', ARGV[5], cjson.encode({kind='tally', code=ARGV[7], question=ARGV[4],
    counts={}, rev=rev, v=v}))
end
redis.call('EXPIREAT', KEYS[1], ARGV[3])
redis.call('EXPIREAT', KEYS[2], ARGV[3])
redis.call('EXPIREAT', KEYS[3], ARGV[3])
for _, q in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('EXPIREAT', ARGV[6] .. ':a:' .. q, ARGV[3])
  redis.call('EXPIREAT', ARGV[6] .. ':t:' .. q, ARGV[3])
end
return 'ok'
"""

# The rules of classroom/state.py's check_answer, in Redis. KEYS: class, qs, rev, answers, tally;
# ARGV: question id, phone token, choice, channel, code.
ANSWER = """
local raw = redis.call('HGET', KEYS[1], 'state')
if not raw then return 'no_class' end
local s = cjson.decode(raw)
if s.ended then return 'ended' end
local q = s.question
if type(q) ~= 'table' or q.id ~= ARGV[1] then return 'unknown_question' end
if s.revealed then return 'revealed' end
local valid = false
for _, c in ipairs(q.choices) do if c == ARGV[3] then valid = true end end
if not valid then return 'bad_choice' end
local old = redis.call('HGET', KEYS[4], ARGV[2])
if old == ARGV[3] then return 'same' end
if old then redis.call('HINCRBY', KEYS[5], old, -1) end
redis.call('HINCRBY', KEYS[5], ARGV[3], 1)
redis.call('HSET', KEYS[4], ARGV[2], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[1])
local rev = redis.call('INCR', KEYS[3])
local at = string.format('%d', s.expires)
for i = 2, 5 do redis.call('EXPIREAT', KEYS[i], at) end
local flat = redis.call('HGETALL', KEYS[5])
local counts = {}
for i = 1, #flat, 2 do counts[flat[i]] = tonumber(flat[i + 1]) end
redis.call('PUBLISH', ARGV[4], cjson.encode({kind='tally', code=ARGV[5], question=ARGV[1],
  counts=counts, rev=rev, v=s.v}))
if old then return 'changed' end
return 'new'
"""


def connect(url: str) -> redis.Redis:
    """A client that fails fast (the routes answer 503) and retries once (a restarted Redis)."""
    return redis.Redis.from_url(
        url,
        socket_timeout=2,
        socket_connect_timeout=1,
        retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), 1),
        decode_responses=True,
    )


class RedisStore:
    """Classes in Redis, shared by every app process that has the same REDIS_URL."""

    def __init__(self, url: str, prefix: str = "al:class:") -> None:
        self._redis = connect(url)
        self._prefix = prefix
        self._channel = f"{prefix}events"
        self._create = self._redis.register_script(CREATE)
        self._commit = self._redis.register_script(COMMIT)
        self._answer = self._redis.register_script(ANSWER)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def _keys(self, code: str, question: str = "") -> list[str]:
        """class, qs, rev, answers and tally keys of a class (and one question)."""
        base = f"{self._prefix}{code}"
        return [base, f"{base}:qs", f"{base}:rev", f"{base}:a:{question}", f"{base}:t:{question}"]

    def _call(self, fn: Callable[[], T]) -> T:
        """Run a Redis call; an unreachable Redis becomes ClassError store_unavailable."""
        try:
            return fn()
        except UNREACHABLE as err:
            raise ClassError("store_unavailable", f"Redis: {err}") from err

    def create(self, state: dict, lead_hash: str) -> bool:
        keys = self._keys(state["code"])[:2]
        args = [json.dumps(state), lead_hash, state["expires"], self._channel]
        return bool(self._call(lambda: self._create(keys=keys, args=args)))

    def get(self, code: str) -> dict | None:
        raw = self._call(lambda: self._redis.hget(self._keys(code)[0], "state"))
        return None if raw is None else json.loads(raw)

    def lead_hash(self, code: str) -> str | None:
        return self._call(lambda: self._redis.hget(self._keys(code)[0], "lead"))

    def update(self, code: str, change: Change, *, drop: str | None = None) -> dict:
        keys = self._keys(code, drop or "")
        for _ in range(COMMIT_ATTEMPTS):
            state = self.get(code)
            if state is None:
                raise ClassError("no_class")
            new = change(state)
            args = [state["v"], json.dumps(new), new["expires"], drop or "", self._channel,
                    keys[0], code]  # fmt: skip
            said = self._call(lambda args=args: self._commit(keys=keys, args=args))
            if said == "ok":
                return new
            if said == "no_class":
                raise ClassError("no_class")
        raise ClassError("busy", "the class changed too often at once; try again")

    def answer(self, code: str, question: str, phone: str, choice: str) -> str:
        keys = self._keys(code, question)
        args = [question, phone, choice, self._channel, code]
        said = self._call(lambda: self._answer(keys=keys, args=args))
        if said in ("new", "changed", "same"):
            return said
        raise ClassError(said)

    def tally(self, code: str, question: str) -> tuple[dict[str, int], int]:
        keys = self._keys(code, question)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(keys[4]).get(keys[2])
            counts, rev = self._call(pipe.execute)
        return {c: int(n) for c, n in counts.items()}, int(rev or 0)

    def mine(self, code: str, question: str, phone: str) -> str | None:
        return self._call(lambda: self._redis.hget(self._keys(code, question)[3], phone))

    def listen(self, listener: Listener) -> None:
        self._thread = threading.Thread(
            target=self._listen, args=(listener,), name="classroom-redis", daemon=True
        )
        self._thread.start()

    def _listen(self, listener: Listener) -> None:
        """Subscribe; on a lost connection say so, wait (backing off), subscribe again."""
        wait, lost = LISTEN_BACKOFF_S[0], False
        while not self._stopping.is_set():
            try:
                with self._redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    pubsub.subscribe(self._channel)
                    if lost:
                        listener({"kind": "store", "ok": True})
                    wait, lost = LISTEN_BACKOFF_S[0], False
                    self._relay(pubsub, listener)
            except UNREACHABLE:
                if not lost:
                    listener({"kind": "store", "ok": False})
                lost = True
                self._stopping.wait(wait)
                wait = min(wait * 2, LISTEN_BACKOFF_S[1])

    def _relay(self, pubsub: redis.client.PubSub, listener: Listener) -> None:
        """Pass each published message on until close()."""
        while not self._stopping.is_set():
            message = pubsub.get_message(timeout=0.25)
            if message is not None and message["type"] == "message":
                listener(json.loads(message["data"]))

    def ping(self) -> bool:
        """True when Redis answers now."""
        try:
            return bool(self._redis.ping())
        except UNREACHABLE:
            return False

    def close(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        self._redis.close()
