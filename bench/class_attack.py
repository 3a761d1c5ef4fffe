"""The live class under attack (`make load SCENARIO=class ATTACK=1`, bench/load_class.py --attack):
what a student with a script can do to a class on `make serve WORKERS=2`, measured in three parts
(BENCHMARKS.md, "The class under a script's attack", says how and what the last runs gave):

1. Flood: real phones join and follow a class while one client guesses codes and another sends
   answers with made-up tokens; beside the same class without the attack, in the same run.
2. Made-up tokens: the class's tally and memory stay bounded by the cap of phones.
3. Ends: every stream closes after E E and after the class expires.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import secrets
import sys
import time
from dataclasses import dataclass, field

from bench.class_client import Client, Follower, changes, follow, new_class, until
from bench.class_flood import flood, hammer, pacer
from bench.common import markdown, percentile
from bench.load_target import cpu_seconds

QUESTION = {"id": "attack-q", "choices": ["a", "b", "c", "d"], "answer": "b"}
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"


def made_up_token(i: int) -> str:
    """A well-formed token the server never signed (the server checks its HMAC)."""
    return f"fake-{i:012d}-{secrets.token_hex(4)}.{int(time.time())}.{secrets.token_urlsafe(32)}"


def random_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(6))


def answer(code: str, token: str, choice: str) -> tuple[str, bytes]:
    """A phone's answer to QUESTION: the POST's path and JSON body."""
    body = {"token": token, "question": QUESTION["id"], "choice": choice}
    return f"/class/{code}/answer", json.dumps(body).encode()


def made_up_answers(code: str, stop):
    """Answers with a new made-up token each, until `stop` (a multiprocessing Event) is set."""
    i = 0
    while not stop.is_set():
        yield answer(code, made_up_token(i), "a")
        i += 1


def _flood(base: str, code: str, rate: float, stop, out) -> None:
    """(A process of its own.) Answers with made-up tokens at `rate` a second until `stop`."""
    statuses, took = asyncio.run(flood(base, made_up_answers(code, stop), rate))
    out.put((dict(statuses), took))


# ---- the attacked class ------------------------------------------------------------------------


async def join_all(url: str, code: str, count: int, prefix: str) -> tuple[list[Follower], int]:
    """`count` phones join and open their streams (one attempt each: a refusal counts)."""
    followed = []
    for i in range(count):
        phone = Client(url)
        body = {"phone": f"{prefix}-{i:04d}-abcdefghijklmnop"}
        said = await phone.call("POST", f"/class/{code}/join", body)
        if said.status == 200 and (got := await follow(phone, code, said.json()["token"], 1)):
            followed.append(got)
    return followed, count - len(followed)


async def answers(code: str, phones: list[Follower]) -> tuple[int, int]:
    """Every joined phone answers once (its first attempt: a refusal counts): (sent, refused)."""
    refused = 0
    for i, phone in enumerate(phones):
        path, body = answer(code, phone.token, "abcd"[i % 4])
        said = await phone.client.call("POST", path, raw=body, timeout=30)
        refused += said.status != 200
    return len(phones), refused


async def guesser(url: str, rate: float, stop: asyncio.Event, statuses: collections.Counter):
    """Unknown codes at `rate` a second, a new phone id each time (one connection each)."""
    pace = pacer(rate)
    while not stop.is_set():
        await pace()
        with contextlib.suppress(OSError, TimeoutError):
            body = {"phone": f"guess-{secrets.token_hex(12)}"}
            said = await Client(url).call("POST", f"/class/{random_code()}/join", body)
            statuses[said.status] += 1


@dataclass
class Session:
    """What one class measured (with or without the attack)."""

    joins_refused: int
    answers_sent: int
    answers_refused: int
    follow: list[float]
    tally: int
    guesses: dict = field(default_factory=dict)
    flood: dict = field(default_factory=dict)
    flood_seconds: float = 0.0


async def session(args, url: str, attack: bool) -> Session:
    teacher, code = await new_class(url, question=QUESTION)
    stop, guesses, flood = asyncio.Event(), collections.Counter(), None
    if attack:
        spawn = multiprocessing.get_context("spawn")
        flood_out, flood_stop = spawn.Queue(), spawn.Event()
        flood = spawn.Process(
            target=_flood, daemon=True, args=(url, code, args.flood_rate, flood_stop, flood_out)
        )
        flood.start()
        guessing = asyncio.create_task(guesser(url, args.guess_rate, stop, guesses))
        await asyncio.sleep(5)  # the flood at full rate before the first phone joins
    phones, joins_refused = await join_all(
        url, code, args.attack_phones, "attack" if attack else "base"
    )
    times = (await changes(teacher, code, phones, args.changes))["every"]
    sent, refused = await answers(code, phones)
    tally = (await teacher.call("GET", f"/class/{code}", timeout=30)).json()["tally"]["total"]
    result = Session(joins_refused, sent, refused, times, tally)
    if attack:
        stop.set()
        flood_stop.set()
        await guessing
        result.guesses = dict(guesses)
        got = await asyncio.get_running_loop().run_in_executor(None, flood_out.get)
        result.flood, result.flood_seconds = got
        flood.join(timeout=30)
    for phone in phones:
        phone.stop()
    return result


# ---- 10,000 made-up tokens: the tally and the memory ----------------------------------------


def deep_size(obj: object, seen: set | None = None) -> int:
    """Bytes of a Python object and everything it holds (dicts, lists, sets, strings)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(deep_size(x, seen) for x in obj)
    elif hasattr(obj, "__dict__"):
        size += deep_size(vars(obj), seen)
    return size


def requests_of(code: str, count: int, prefix: str) -> tuple[list, list]:
    """`count` answers with made-up tokens, `count` joins with new ids."""
    answers = [answer(code, made_up_token(i), "a") for i in range(count)]
    joins = [
        (f"/class/{code}/join", json.dumps({"phone": f"{prefix}-{i:06d}-abcdefghijkl"}).encode())
        for i in range(count)
    ]
    return answers, joins


async def fill(url: str, code: str, count: int, prefix: str) -> dict:
    """The attack on one class over HTTP: made-up answers, then joins with new ids, then every
    phone that got in answers. What each step got."""
    answers, joins = requests_of(code, count, prefix)
    fake, _ = await hammer(url, answers, 1e9, connections=16)
    tokens: list[bytes] = []
    joined, _ = await hammer(url, joins, 1e9, connections=16, kept=tokens)
    real = [answer(code, json.loads(t)["token"], "b") for t in tokens]
    counted, _ = await hammer(url, real, 1e9, connections=8)
    return {"fake": dict(fake), "joins": dict(joined), "answers": dict(counted)}


def redis_bytes(client, prefix: str, code: str) -> int:
    """MEMORY USAGE of every key of one class."""
    keys = list(client.scan_iter(match=f"{prefix}{code}*", count=1000))
    return sum(client.memory_usage(k) or 0 for k in keys)


async def on_redis(url: str, redis_url: str, count: int, cap: int) -> dict:
    """The made-up tokens against `make serve`'s Redis: a class of `cap` real phones (the
    baseline) beside a class that also took `count` made-up answers and `count` joins."""
    import redis

    client = redis.Redis.from_url(redis_url)
    teacher, base = await new_class(url, question=QUESTION)
    await fill(url, base, cap, "real")  # exactly the cap: the class as it should be
    used = client.info("memory")["used_memory"]
    teacher, code = await new_class(url, question=QUESTION)
    got = await fill(url, code, count, "made")
    tally = (await teacher.call("GET", f"/class/{code}", timeout=30)).json()["tally"]["total"]
    return {
        **got,
        "tally": tally,
        "bytes_base": redis_bytes(client, "al:class:", base),
        "bytes": redis_bytes(client, "al:class:", code),
        "used": (used, client.info("memory")["used_memory"]),
    }


def on_memory(count: int, cap: int) -> dict:
    """The same against the memory store (`make run`), through its routes in this process."""
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from classroom import Classroom, make_routes
    from classroom.service import Settings
    from classroom.store import MemoryStore

    store = MemoryStore()
    service = Classroom(store, Settings(max_phones=cap))
    app = Starlette(routes=make_routes(service), lifespan=service.lifespan)
    origin = {"Origin": "http://testserver"}
    sizes, tallies = [], []
    with TestClient(app) as client:
        for n in (cap, count):
            code = client.post("/class/new", json={"question": QUESTION}, headers=origin).json()
            code = code["code"]
            answers, joins = requests_of(code, n, f"m{n}")
            for (a_path, a_body), (j_path, j_body) in zip(answers, joins, strict=True):
                client.post(a_path, content=a_body, headers=origin)
                said = client.post(j_path, content=j_body, headers=origin)
                if said.status_code == 200:
                    path, body = answer(code, said.json()["token"], "b")
                    client.post(path, content=body, headers=origin)
            sizes.append(deep_size(store._classes[code]))
            tallies.append(sum(store.tally(code, QUESTION["id"])[0].values()))
            client.cookies.clear()
    return {"bytes_base": sizes[0], "bytes": sizes[1], "tally": tallies[1]}


# ---- the ends of a class's streams -------------------------------------------------------------


async def after_end(url: str, phones: int) -> dict:
    """Seconds from the teacher's end (its reply) to each of the class's streams closing."""
    teacher, code = await new_class(url, question=QUESTION)
    following, _ = await join_all(url, code, phones, "end")
    await asyncio.sleep(1)
    said = await teacher.call("POST", f"/class/{code}/end", timeout=30)
    answered = time.perf_counter()
    assert said.status == 200, said.body
    await until(lambda: all(p.ended for p in following), 30)
    closed = [p.ended - answered for p in following if p.ended]
    return {"end": closed, "end_open": len(following) - len(closed)}


async def after_expiry(url: str, phones: int) -> dict:
    """Seconds from the class's `expires` to each of its streams closing (a class made now:
    it lives CLASS_TTL_S; the other measurements run meanwhile)."""
    teacher, code = await new_class(url, question=QUESTION)
    expires = (await teacher.call("GET", f"/class/{code}")).json()["expires"]
    following, _ = await join_all(url, code, phones, "expire")
    await until(lambda: all(p.ended for p in following), expires - time.time() + 60)
    closed = [p.ended_at - expires for p in following if p.ended]
    return {"expiry": closed, "expiry_open": len(following) - len(closed)}


# ---- the run and its tables ----------------------------------------------------------------------


async def drive(args, url: str, redis_url: str, pids: list[tuple[str, int]]) -> dict:
    """Every measurement on one serve group (`pids`: its app processes and nginx's)."""
    load = [os.getloadavg()]
    base = await session(args, url, attack=False)
    cpu = {name: cpu_seconds(pid) for name, pid in pids}
    attacked = await session(args, url, attack=True)
    cpu = {name: cpu_seconds(pid) - cpu[name] for name, pid in pids}
    load.append(os.getloadavg())
    expiring = asyncio.create_task(after_expiry(url, args.attack_phones))
    tokens = await on_redis(url, redis_url, args.made_up, args.cap)
    memory = await asyncio.get_running_loop().run_in_executor(
        None, on_memory, args.made_up, args.cap
    )
    closed = {**await after_end(url, args.attack_phones), **await expiring}
    load.append(os.getloadavg())
    return {
        "base": base,
        "attacked": attacked,
        "redis": tokens,
        "memory": memory,
        "ends": closed,
        "load": load,
        "cpu": cpu,
    }


def report(args, got: dict) -> int:
    """Print the tables; 1 when a target is missed."""
    base, hit, red, mem, end = (got[k] for k in ("base", "attacked", "redis", "memory", "ends"))
    guesses = sum(hit.guesses.values())
    answered = sum(v for k, v in hit.flood.items() if isinstance(k, int))
    loads = " -> ".join(", ".join(f"{x:.1f}" for x in la) for la in got["load"])
    print(
        f"\nThe live class under attack: make serve WORKERS={args.workers} (nginx, Redis), "
        f"{args.attack_phones} real phones in one class; machine load average (1, 5, 15 min) "
        f"{loads} on {os.cpu_count()} cores, shared with other work\n"
    )
    print(
        f"attack: one client guesses {args.guess_rate:g} codes/s (a new phone id each), another "
        f"sends {args.flood_rate:g} answers/s with made-up tokens\n"
    )
    right = [s.tally == s.answers_sent - s.answers_refused for s in (base, hit)]
    rows = [
        ("joins of real phones refused", base.joins_refused, hit.joins_refused, ""),
        ("answers of joined phones refused", base.answers_refused, hit.answers_refused, ""),
        ("tally = answers accepted", *right, ""),
    ]
    for q in (50, 95):
        a, b = 1000 * percentile(base.follow, q), 1000 * percentile(hit.follow, q)
        name = f"teacher change -> each phone p{q} (ms)"
        rows.append((name, f"{a:.0f}", f"{b:.0f}", f"{b / a:.2f}"))
    markdown(("measure", "no attack", "attack", "ratio"), rows)
    took = hit.flood_seconds or 1
    spent = " + ".join(f"{name} {seconds:.1f} s" for name, seconds in got["cpu"].items())
    refused = answered + guesses
    print(
        f"\nCPU while attacked: {spent}: {1000 * sum(got['cpu'].values()) / max(1, refused):.1f}"
        f" ms a refused request"
    )
    print(f"guesses sent {guesses}: {hit.guesses}")
    print(
        f"made-up answers: sent {hit.flood.get('sent', 0)} in {took:.0f} s = "
        f"{hit.flood.get('sent', 0) / took:.0f}/s (asked {args.flood_rate:g}/s), answered "
        f"{answered / took:.0f}/s: {hit.flood}"
    )
    print(
        f"\n{args.made_up:,} made-up tokens and {args.made_up:,} joins with new ids on one class "
        f"(cap {args.cap} phones)"
    )
    print(f"  Redis: answers {red['fake']}, joins {red['joins']}, real answers {red['answers']}")
    print(
        f"  Redis: tally {red['tally']}; class keys {red['bytes']:,} B (a class of exactly "
        f"{args.cap} phones: {red['bytes_base']:,} B); "
        f"INFO used_memory {red['used'][0]:,} -> {red['used'][1]:,} B over the attack (other "
        "classes of this run expire meanwhile)"
    )
    print(
        f"  memory store: tally {mem['tally']}; the class {mem['bytes']:,} B (a class of "
        f"exactly {args.cap} phones: {mem['bytes_base']:,} B)"
    )
    print(
        f"\nstreams of {args.attack_phones} phones closed after E E: max "
        f"{max(end['end'], default=float('nan')):.2f} s, still open {end['end_open']}; after "
        f"expiry (CLASS_TTL_S={args.ttl}): max {max(end['expiry'], default=float('nan')):.2f} s, "
        f"still open {end['expiry_open']}"
    )
    missed = [
        hit.joins_refused,
        hit.answers_refused,
        red["tally"] > args.cap,
        mem["tally"] > args.cap,
        end["end_open"],
        end["expiry_open"],
        max(end["end"], default=9) > 2,
        max(end["expiry"], default=9) > 5,
    ]
    return 1 if any(missed) else 0
