"""Load test of the live class (`make load SCENARIO=class`): 1 teacher + N phones in one class.

On `make serve`'s stack (deploy/serve.py), or with --groups 2 two such groups sharing one Redis.
What it measures and the last runs: BENCHMARKS.md, "The live class: 1 teacher + 200 phones".

    PYTHONPATH=. .venv/bin/python bench/load_class.py                  # 200 phones, WORKERS=2
    PYTHONPATH=. .venv/bin/python bench/load_class.py --groups 2 --phones 200
    PYTHONPATH=. .venv/bin/python bench/load_class.py --attack         # bench/class_attack.py

Opt-in (minutes, both cores); every client runs in this one Python process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import class_attack
from bench.class_client import Client, Follower, changes, follow, new_class, until
from bench.common import markdown, options, percentile, spread
from bench.load_target import cpu_seconds, process_tree
from deploy.serve import Cluster, start_cluster

QUESTION = {"id": "load-q", "choices": ["a", "b", "c", "d"], "answer": "b"}


@dataclass
class Room:
    """The class under load: its code, the teacher and its two windows, the phones."""

    code: str
    teacher: Client
    leads: list[Follower]
    phones: list[Follower]


@contextlib.contextmanager
def groups(args: argparse.Namespace) -> Iterator[tuple[str, str, list[tuple[str, int]]]]:
    """(teacher's URL, phones' URL, (name, pid) of every server process) of the serve groups."""
    with (
        tempfile.TemporaryDirectory(prefix="attention-lab-class-load-") as logs,
        contextlib.ExitStack() as stack,
    ):
        clusters: list[Cluster] = []
        for g in range(args.groups):  # each its own logs; the second uses the first's Redis
            (log_dir := Path(logs) / f"group-{g + 1}").mkdir()
            redis_url = clusters[0].redis.url if clusters else None
            cluster = start_cluster(args.workers, log_dir=log_dir, timeout=240, redis_url=redis_url)
            clusters.append(stack.enter_context(cluster))
        yield clusters[0].url, clusters[-1].url, processes(clusters)


def processes(clusters: list[Cluster]) -> list[tuple[str, int]]:
    """Every server process to sample: app processes, nginx (master + workers), Redis."""
    found = []
    for g, cluster in enumerate(clusters, start=1):
        found += [(f"group {g} app {k}", w.process.pid) for k, w in enumerate(cluster.workers, 1)]
        found += [(f"group {g} nginx", pid) for pid in process_tree(cluster.nginx.process.pid)]
    found.append(("redis-server", clusters[0].redis.process.pid))
    return found


async def open_room(teacher_url: str, phone_url: str, count: int) -> Room:
    """A class with a question, the teacher's two windows and `count` phones following."""
    teacher, code = await new_class(teacher_url)
    phones = [Client(phone_url) for _ in range(count)]
    tokens = []
    for i, phone in enumerate(phones):  # a join: the phone's token, and nginx's route cookie
        body = {"phone": f"load-phone-{i:05d}-0123456789"}
        said = await phone.call("POST", f"/class/{code}/join", body, timeout=30)
        tokens.append(said.json()["token"])
    opened = [follow(teacher, code), follow(teacher, code)]
    opened += [follow(p, code, t) for p, t in zip(phones, tokens, strict=True)]
    followers = list(await asyncio.gather(*opened))
    if None in followers:
        raise RuntimeError(f"an event stream of {code} stayed refused")
    return Room(code, teacher, followers[:2], followers[2:])


async def answer(phone: Follower, code: str, choice: str) -> bool:
    """One answer, retried with the same token as a phone does; True once the server took it."""
    body = {"token": phone.token, "question": QUESTION["id"], "choice": choice}
    for _ in range(5):
        with contextlib.suppress(OSError, TimeoutError):
            said = await phone.client.call("POST", f"/class/{code}/answer", body, timeout=30)
            if said.status == 200:
                return True
        await asyncio.sleep(0.2)
    return False


async def answers(room: Room, rate: float) -> dict:
    """Every phone answers once, `rate` a second (not waiting for each other): when did the
    teacher's tally first count as many answers as had been sent up to each one?"""
    await room.teacher.call("POST", f"/class/{room.code}/state", {"question": QUESTION})
    lead, sent, calls = room.leads[0], [], []
    for i, phone in enumerate(room.phones):
        sent.append(time.perf_counter())
        calls.append(asyncio.create_task(answer(phone, room.code, "abcd"[i % 4])))
        await asyncio.sleep(max(0.0, sent[-1] + 1 / rate - time.perf_counter()))
    took = sum(await asyncio.gather(*calls))
    await until(lambda: any(t >= took for _, t in lead.totals), 10)
    latencies = []
    for n, started in enumerate(sent[:took], start=1):
        counted = next((at for at, t in lead.totals if t >= n), None)
        if counted is not None:
            latencies.append(counted - started)
    return {"latencies": latencies}


async def burst(room: Room) -> dict:
    """Every phone answers again at once, half changing their mind: nothing lost, few events."""
    lead = room.leads[0]
    before, started = lead.tallies, time.perf_counter()
    choices = ["abcd"[i % 4] if i % 2 else "abcd"[(i + 1) % 4] for i in range(len(room.phones))]
    took = await asyncio.gather(
        *(answer(p, room.code, choices[i]) for i, p in enumerate(room.phones))
    )
    want = {c: choices.count(c) for c in "abcd"}
    settled = await until(lambda: lead.counts == want, 30)
    state = await room.teacher.call("GET", f"/class/{room.code}")
    tally = state.json()["tally"]
    return {
        "accepted": sum(took),
        "seconds": time.perf_counter() - started,
        "settled": settled,
        "events": lead.tallies - before,
        "total": tally["total"],
        "lost": sum(want.values()) - tally["total"] + _diff(want, tally["counts"]),
    }


def _diff(want: dict, got: dict) -> int:
    return sum(abs(want[c] - got.get(c, 0)) for c in want) // 2


async def idle(pids: list[tuple[str, int]], seconds: float) -> dict[str, float]:
    """CPU of each server process, in % of one core, while the phones follow and nothing changes."""
    before = {name: cpu_seconds(pid) for name, pid in pids}
    await asyncio.sleep(seconds)
    return {name: 100 * (cpu_seconds(pid) - before[name]) / seconds for name, pid in pids}


def report(args: argparse.Namespace, moved: dict, paced: dict, burst_: dict, cpu: dict) -> int:
    """Print the tables; 1 when a target is missed (p95 > 1 s, an answer lost or unseen)."""
    where = "teacher on group 1, phones on group 2" if args.groups == 2 else "one group"
    print(
        f"\nLive class: 1 teacher (2 windows) + {args.phones} phones, {args.groups} serve "
        f"group(s) of {args.workers} app processes, one Redis ({where})\n"
    )
    rows = [
        ("teacher's change -> last phone (per change)", moved["last"]),
        ("teacher's change -> each phone", moved["every"]),
        (f"one answer -> teacher's tally ({args.rate:g}/s)", paced["latencies"]),
    ]
    header = ("measure", "n", "p50 ms", "p95 ms", "max ms")
    markdown(header, [(name, len(values), *spread(values, 1000)) for name, values in rows])
    print(f"\nphones that missed a change: {moved['missed']}")
    print(
        f"burst: {burst_['accepted']}/{args.phones} answers accepted at once; tally complete "
        f"after {burst_['seconds']:.2f} s; {burst_['events']} tally events to the teacher; "
        f"answers lost: {burst_['lost']}"
    )
    print(
        f"\nCPU in % of a core over {args.idle:g} s: before any class, and while "
        f"{args.phones} phones follow and nothing changes"
    )
    for name, (before, share) in cpu.items():
        print(f"  {name:<22}{before:6.2f} %  ->{share:6.2f} %")
    slow = percentile(moved["last"], 95) > 1 or percentile(paced["latencies"], 95) > 1
    lost = moved["missed"] or burst_["lost"] or len(paced["latencies"]) < args.phones
    return 1 if slow or lost or not burst_["settled"] else 0


async def drive(args: argparse.Namespace, teacher_url: str, phone_url: str, pids) -> int:
    alone = await idle(pids, args.idle)  # the same processes before any class
    room = await open_room(teacher_url, phone_url, args.phones)
    try:
        moved = await changes(room.teacher, room.code, room.phones, args.changes)
        paced = await answers(room, args.rate)
        burst_ = await burst(room)
        cpu = {name: (alone[name], share) for name, share in (await idle(pids, args.idle)).items()}
    finally:
        for follower in room.leads + room.phones:
            follower.stop()
    return report(args, moved, paced, burst_, cpu)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return options(
        __doc__,
        argv,
        phones=(200, "simulated phones"),
        workers=(2, "app processes per serve group"),
        groups=(1, "serve groups", 1, 2),
        changes=(20, "teacher's changes to time"),
        rate=(40.0, "paced answers a second"),
        idle=(20.0, "seconds of each CPU sample"),
        attack=(False, "the attack run instead (bench/class_attack.py), with the options below"),
        attack_phones=(30, "--attack: real phones in the class"),
        guess_rate=(40.0, "--attack: unknown codes a second"),
        flood_rate=(1500.0, "--attack: answers a second with made-up tokens"),
        made_up=(10_000, "--attack: made-up tokens and joins"),
        cap=(200, "--attack: CLASS_MAX_PHONES"),
        ttl=(240, "--attack: CLASS_TTL_S, seconds a class lives"),
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.attack:
        return attack(args)
    with groups(args) as (teacher_url, phone_url, pids):
        return asyncio.run(drive(args, teacher_url, phone_url, pids))


def attack(args: argparse.Namespace) -> int:
    """bench/class_attack.py on one serve group whose classes live --ttl seconds."""
    env = {"CLASS_TTL_S": str(args.ttl), "CLASS_MAX_PHONES": str(args.cap)}
    with (
        tempfile.TemporaryDirectory(prefix="attention-lab-class-attack-") as logs,
        start_cluster(args.workers, log_dir=Path(logs), timeout=240, env=env) as cluster,
    ):
        pids = [(f"app {k}", w.process.pid) for k, w in enumerate(cluster.workers, 1)]
        pids += [(f"nginx {i}", p) for i, p in enumerate(process_tree(cluster.nginx.process.pid))]
        got = asyncio.run(class_attack.drive(args, cluster.url, cluster.redis.url, pids))
    return class_attack.report(args, got)


if __name__ == "__main__":
    sys.exit(main())
