"""The Redis store (REDIS_URL): the Store interface of classroom/store.py for every app process
on every machine that shares one Redis.

Keys, all expiring with the class (EXPIREAT its `expires`), under a prefix ("al:class:"):

    P{CODE}          hash: state (JSON), lead (the SHA-256 of the teacher's secret)
    P{CODE}:rev      the class's tally revision (one more on every answer and reset)
    P{CODE}:qs       set of the question ids that have answers
    P{CODE}:a:{Q}    hash: phone id → choice
    P{CODE}:t:{Q}    hash: choice → count
    P{CODE}:ph       set of the phone ids that joined (at most the class's cap)
    P{CODE}:seen     sorted set: phone id → until when it counts as following (Unix ms)
    P{CODE}:asked    hash: question id → the question as published, with its scene (summary)
    P{CODE}:order    list of the question ids in the order first asked
    P{CODE}:jat      hash: question id → phones joined when it stopped being current

and two that do not expire: P"live" (sorted set: code → expires of every class not ended, for
the cap on live classes) and P"key" (the key that signs phones' tokens, made once by SET NX).

Every write is one Lua script, so it is atomic across processes and publishes its message on
the channel P"events" in the same step; a teacher's change is compare-and-set on the version
(read, change in Python, commit if the version is still the one read, else again). The scripts
build the answer keys of a class from its prefix: a single Redis, not Redis Cluster.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable
from typing import TypeVar

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from classroom.errors import ClassError
from classroom.store import Change, Listener, asked_of
from classroom.tokens import KEY_BYTES

T = TypeVar("T")
COMMIT_ATTEMPTS = 20  # a teacher's change against another window's, both retried
UNREACHABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError)
LISTEN_BACKOFF_S = (0.1, 2.0)  # the subscriber's first and longest wait between reconnections
LISTEN_POLL_S = 0.05  # how long the subscriber waits for a message before it looks for close()
# Indexes (from 1, as Lua counts) of a class's keys in RedisStore._keys.
CLASS, QS, REV, ANSWERS, TALLY, PHONES, SEEN, ASKED, ORDER, JAT, LIVE = range(1, 12)

KEY = """
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
"""

# KEYS: every key of _keys (and live); ARGV: state, lead, expires, channel, asked record or '',
# its question id, now (s), the cap on live classes, code.
CREATE = """
if redis.call('EXISTS', KEYS[1], KEYS[2]) > 0 then return 0 end
redis.call('ZREMRANGEBYSCORE', KEYS[11], '-inf', ARGV[7])
if redis.call('ZCARD', KEYS[11]) >= tonumber(ARGV[8]) then return -1 end
redis.call('ZADD', KEYS[11], ARGV[3], ARGV[9])
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'lead', ARGV[2])
redis.call('EXPIREAT', KEYS[1], ARGV[3])
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[8], ARGV[6], ARGV[5])
  redis.call('RPUSH', KEYS[9], ARGV[6])
  redis.call('EXPIREAT', KEYS[8], ARGV[3])
  redis.call('EXPIREAT', KEYS[9], ARGV[3])
end
redis.call('PUBLISH', ARGV[4], '{"kind":"state","state":' .. ARGV[1] .. '}')
return 1
"""

# KEYS: every key of _keys with the dropped question's (or unused), and live;
# ARGV: version read, new state, its expires, dropped question id or '', channel, key prefix,
# code, the asked record or '', its question id, the question that left or '', ended (1/0)
COMMIT = """
local raw = redis.call('HGET', KEYS[1], 'state')
if not raw then return 'no_class' end
if cjson.decode(raw).v ~= tonumber(ARGV[1]) then return 'conflict' end
local v = cjson.decode(ARGV[2]).v
redis.call('HSET', KEYS[1], 'state', ARGV[2])
if ARGV[8] ~= '' and redis.call('HSET', KEYS[8], ARGV[9], ARGV[8]) == 1 then
  redis.call('RPUSH', KEYS[9], ARGV[9])
end
if ARGV[10] ~= '' then redis.call('HSET', KEYS[10], ARGV[10], redis.call('SCARD', KEYS[6])) end
if ARGV[11] == '1' then redis.call('ZREM', KEYS[11], ARGV[7]) end
redis.call('PUBLISH', ARGV[5], '{"kind":"state","state":' .. ARGV[2] .. '}')
if ARGV[4] ~= '' then
  redis.call('DEL', KEYS[4], KEYS[5])
  redis.call('SREM', KEYS[2], ARGV[4])
  local rev = redis.call('INCR', KEYS[3])
  redis.call('PUBLISH', ARGV[5], cjson.encode({kind='tally', code=ARGV[7], question=ARGV[4],
    counts={}, rev=rev, v=v}))
end
for _, i in ipairs({1, 2, 3, 6, 7, 8, 9, 10}) do redis.call('EXPIREAT', KEYS[i], ARGV[3]) end
for _, q in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  redis.call('EXPIREAT', ARGV[6] .. ':a:' .. q, ARGV[3])
  redis.call('EXPIREAT', ARGV[6] .. ':t:' .. q, ARGV[3])
end
return 'ok'
"""

# KEYS: class, phones, seen; ARGV: phone id, cap, until (ms), channel, code.
JOIN = """
local raw = redis.call('HGET', KEYS[1], 'state')
if not raw then return {'no_class'} end
local s = cjson.decode(raw)
if s.ended then return {'ended'} end
local new = 0
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 0 then
  if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return {'class_full'} end
  redis.call('SADD', KEYS[2], ARGV[1])
  new = 1
end
redis.call('ZADD', KEYS[3], 'GT', ARGV[3], ARGV[1])
local at = string.format('%d', s.expires)
redis.call('EXPIREAT', KEYS[2], at)
redis.call('EXPIREAT', KEYS[3], at)
if new == 1 then
  redis.call('PUBLISH', ARGV[4], cjson.encode({kind='room', code=ARGV[5], phone=ARGV[1],
    owner=''}))
end
return {'ok', raw, new}
"""

# The rules of classroom/state.py's check_answer, in Redis, for a phone that joined.
# KEYS: class, qs, rev, answers, tally, phones, seen; ARGV: question id, phone id, choice,
# channel, code, until (ms; 0: no lease).
ANSWER = """
local raw = redis.call('HGET', KEYS[1], 'state')
if not raw then return 'no_class' end
if redis.call('SISMEMBER', KEYS[6], ARGV[2]) == 0 then return 'bad_token' end
local s = cjson.decode(raw)
if s.ended then return 'ended' end
local q = s.question
if type(q) ~= 'table' or q.id ~= ARGV[1] then return 'unknown_question' end
if s.revealed then return 'revealed' end
local valid = false
for _, c in ipairs(q.choices) do if c == ARGV[3] then valid = true end end
if not valid then return 'bad_choice' end
if tonumber(ARGV[6]) > 0 then redis.call('ZADD', KEYS[7], 'GT', ARGV[6], ARGV[2]) end
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

# KEYS: phones, seen; ARGV: until (ms), phone ids… (only those that joined count).
LEASE = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl <= 0 then return 0 end
for i = 2, #ARGV do
  if redis.call('SISMEMBER', KEYS[1], ARGV[i]) == 1 then
    redis.call('ZADD', KEYS[2], 'GT', ARGV[1], ARGV[i])
  end
end
redis.call('PEXPIRE', KEYS[2], ttl)
return 1
"""

# KEYS: seen; ARGV: phone id, the stamp its stream set, until (ms).
RELEASE = """
local z = redis.call('ZSCORE', KEYS[1], ARGV[1])
if z and tonumber(z) == tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
end
return 1
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
        scripts = (KEY, CREATE, COMMIT, JOIN, ANSWER, LEASE, RELEASE)
        (
            self._key,
            self._create,
            self._commit,
            self._join,
            self._answer,
            self._lease,
            self._release,
        ) = (self._redis.register_script(s) for s in scripts)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def _keys(self, code: str, question: str = "") -> list[str]:
        """Every key of a class (and of one question), in the order CLASS … JAT, then live."""
        base = f"{self._prefix}{code}"
        return [
            base,
            f"{base}:qs",
            f"{base}:rev",
            f"{base}:a:{question}",
            f"{base}:t:{question}",
            f"{base}:ph",
            f"{base}:seen",
            f"{base}:asked",
            f"{base}:order",
            f"{base}:jat",
            f"{self._prefix}live",
        ]

    def _pick(self, code: str, *indexes: int, question: str = "") -> list[str]:
        keys = self._keys(code, question)
        return [keys[i - 1] for i in indexes]

    def _call(self, fn: Callable[[], T]) -> T:
        """Run a Redis call; an unreachable Redis becomes ClassError store_unavailable."""
        try:
            return fn()
        except UNREACHABLE as err:
            raise ClassError("store_unavailable", f"Redis: {err}") from err

    def signing_key(self) -> bytes:
        made = secrets.token_bytes(KEY_BYTES).hex()
        keys, args = [f"{self._prefix}key"], [made]
        return bytes.fromhex(self._call(lambda: self._key(keys=keys, args=args)))

    def create(self, state: dict, lead_hash: str, live_cap: int) -> bool:
        asked = asked_of(state)
        code, expires = state["code"], state["expires"]
        args = [
            json.dumps(state),
            lead_hash,
            expires,
            self._channel,
            json.dumps(asked) if asked else "",
            asked["id"] if asked else "",
            state["created"],
            live_cap,
            code,
        ]
        said = self._call(lambda: self._create(keys=self._keys(code), args=args))
        if said == -1:
            raise ClassError("too_many_classes", f"at most {live_cap} live classes")
        return bool(said)

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
            asked = asked_of(new) if new["question"] != state["question"] else None
            left = (state["question"] or {}).get("id")
            left = left if left and left != (new["question"] or {}).get("id") else ""
            args = [
                state["v"],
                json.dumps(new),
                new["expires"],
                drop or "",
                self._channel,
                keys[0],
                code,
                json.dumps(asked) if asked else "",
                asked["id"] if asked else "",
                left,
                int(new["ended"]),
            ]
            said = self._call(lambda args=args: self._commit(keys=keys, args=args))
            if said == "ok":
                return new
            if said == "no_class":
                raise ClassError("no_class")
        raise ClassError("busy", "the class changed too often at once; try again")

    def join(self, code: str, phone: str, cap: int, until: int) -> tuple[dict, bool]:
        keys = self._pick(code, CLASS, PHONES, SEEN)
        args = [phone, cap, until, self._channel, code]
        said = self._call(lambda: self._join(keys=keys, args=args))
        if said[0] != "ok":
            raise ClassError(said[0], f"at most {cap} phones" if said[0] == "class_full" else "")
        return json.loads(said[1]), bool(said[2])

    def member(self, code: str, phone: str) -> bool:
        key = self._pick(code, PHONES)[0]
        return bool(self._call(lambda: self._redis.sismember(key, phone)))

    def answer(self, code: str, question: str, phone: str, choice: str, until: int = 0) -> str:
        keys = self._pick(code, CLASS, QS, REV, ANSWERS, TALLY, PHONES, SEEN, question=question)
        args = [question, phone, choice, self._channel, code, until]
        said = self._call(lambda: self._answer(keys=keys, args=args))
        if said in ("new", "changed", "same"):
            return said
        raise ClassError(said)

    def tally(self, code: str, question: str) -> tuple[dict[str, int], int]:
        tally, rev = self._pick(code, TALLY, REV, question=question)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.hgetall(tally).get(rev)
            counts, rev = self._call(pipe.execute)
        return {c: int(n) for c, n in counts.items()}, int(rev or 0)

    def mine(self, code: str, question: str, phone: str) -> str | None:
        key = self._pick(code, ANSWERS, question=question)[0]
        return self._call(lambda: self._redis.hget(key, phone))

    def lease(self, code: str, phones: list[str], until: int) -> None:
        keys = self._pick(code, PHONES, SEEN)
        self._call(lambda: self._lease(keys=keys, args=[until, *phones]))

    def release(self, code: str, phone: str, stamp: int, until: int) -> None:
        keys = self._pick(code, SEEN)
        self._call(lambda: self._release(keys=keys, args=[phone, stamp, until]))

    def room(self, code: str, now: int) -> dict[str, int]:
        base, phones, seen = self._pick(code, CLASS, PHONES, SEEN)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.exists(base).scard(phones).zcount(seen, f"({now}", "+inf")
            exists, joined, following = self._call(pipe.execute)
        if not exists:
            raise ClassError("no_class")
        return {"joined": int(joined), "following": int(following)}

    def record(self, code: str) -> dict | None:
        base, phones, asked, order, jat = self._pick(code, CLASS, PHONES, ASKED, ORDER, JAT)
        with self._redis.pipeline(transaction=True) as pipe:
            pipe.exists(base).hgetall(asked).lrange(order, 0, -1).hgetall(jat).scard(phones)
            exists, records, ids, joined_at, joined = self._call(pipe.execute)
        if not exists:
            return None
        with self._redis.pipeline(transaction=True) as pipe:
            for qid in ids:
                pipe.hgetall(self._pick(code, TALLY, question=qid)[0])
            tallies = self._call(pipe.execute) if ids else []
        counts = {q: {c: int(n) for c, n in t.items()} for q, t in zip(ids, tallies, strict=True)}
        return {
            "asked": [json.loads(records[q]) for q in ids if q in records],
            "counts": counts,
            "joined_at": {q: int(n) for q, n in joined_at.items()},
            "joined": int(joined),
        }

    def announce(self, message: dict) -> None:
        self._call(lambda: self._redis.publish(self._channel, json.dumps(message)))

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
            except ValueError:  # close() closed the connection under a slow read: done
                if not self._stopping.is_set():
                    raise

    def _relay(self, pubsub: redis.client.PubSub, listener: Listener) -> None:
        """Pass each published message on until close()."""
        while not self._stopping.is_set():
            message = pubsub.get_message(timeout=LISTEN_POLL_S)
            if message is not None and message["type"] == "message":
                listener(json.loads(message["data"]))

    def close(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=3)
        self._redis.close()
