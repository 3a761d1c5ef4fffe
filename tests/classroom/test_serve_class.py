"""A class on `make serve WORKERS=2` (deploy/serve.py: nginx, two app processes, redis-server):
an app process killed mid-class and Redis stopped and started again lose no answer, and every
phone comes back to the class's current step."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from bench.class_client import Client, EventStream
from deploy import serve
from tests.browser_support import skip_missing
from tests.classroom.class_support import PHONES, QUESTION, join, redis_or_skip, run

pytestmark = pytest.mark.slow
PHONE_COUNT = 12  # spread over both processes by nginx's random cookie (all on one: 1 in 2048)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if serve.find_nginx() is None:
        skip_missing("nginx is not installed", "run `make test` as root to install nginx")
    redis_or_skip()
    logs = tmp_path_factory.mktemp("serve-logs")
    with serve.start_cluster(2, log_dir=logs, timeout=240) as started:
        yield started


async def follow(phone: Client, code: str, token: str) -> EventStream:
    """Open a phone's event stream, retrying as EventSource does while nginx finds a process."""
    for _ in range(20):
        try:
            stream = await phone.events(f"/class/{code}/events?token={token}")
            if stream.status == 200:
                return stream
            stream.close()
        except OSError:
            pass
        await asyncio.sleep(0.5)
    raise AssertionError("the phone could not reconnect")


async def answer(phone: Client, code: str, token: str, choice: str) -> int:
    """A phone's answer, retried with the same token until the server takes or refuses it."""
    for _ in range(20):
        try:
            body = {"token": token, "question": "q1", "choice": choice}
            said = await phone.call("POST", f"/class/{code}/answer", body)
            if said.status < 500 or said.json().get("error") == "store_unavailable":
                return said.status
        except (TimeoutError, OSError):
            pass
        await asyncio.sleep(0.5)
    raise AssertionError("the answer never got through")


async def step_of(stream: EventStream) -> str:
    """The step of the stream's latest state event (None once the stream ends)."""
    event = await stream.until(lambda e: e.event in ("state", "bye"))
    return event.data.get("step") if event.event == "state" else None


def test_a_killed_app_process_loses_no_answer_and_its_phones_land_on_the_current_step(cluster):
    async def body() -> None:
        teacher = Client(cluster.url)
        made = await teacher.call("POST", "/class/new", {"step": "s1", "question": QUESTION})
        code = made.json()["code"]
        phones = [Client(cluster.url) for _ in range(PHONE_COUNT)]
        tokens = [await join(p, code, PHONES[i]) for i, p in enumerate(phones)]
        streams = [await follow(p, code, tokens[i]) for i, p in enumerate(phones)]
        assert [await step_of(s) for s in streams] == ["s1"] * PHONE_COUNT
        for i, phone in enumerate(phones):
            assert await answer(phone, code, tokens[i], "a") == 200
        os.killpg(cluster.workers[0].process.pid, signal.SIGKILL)
        cluster.workers[0].process.wait(timeout=10)
        assert (await teacher.call("POST", f"/class/{code}/state", {"step": "s2"})).status == 200
        for i, phone in enumerate(phones):  # changed minds, some of them retried after the kill
            assert await answer(phone, code, tokens[i], "b" if i % 2 else "a") == 200
        dropped = 0
        for i, phone in enumerate(phones):
            if await _latest_step(streams[i]) != "s2":
                dropped += 1
                streams[i].close()
                streams[i] = await follow(phone, code, tokens[i])
                assert await step_of(streams[i]) == "s2"
        assert dropped >= 1, "no phone was on the killed process"
        state = (await teacher.call("GET", f"/class/{code}")).json()
        half = PHONE_COUNT // 2
        assert state["tally"]["counts"] == {"a": half, "b": half, "c": 0}
        for stream in streams:
            stream.close()

    run(body())


async def _latest_step(stream: EventStream) -> str | None:
    """The step the stream shows once it has said all it had: None if it ended."""
    step = None
    try:
        while (event := await stream.next(timeout=3)) is not None:
            if event.event == "state":
                step = event.data["step"]
                if step == "s2":
                    return step
            if event.event == "bye":
                return None
    except (TimeoutError, OSError):
        return step
    return None


def test_redis_stopped_gives_503_and_after_its_restart_nothing_is_lost(cluster):
    async def body() -> None:
        teacher, phone = Client(cluster.url), Client(cluster.url)
        made = await teacher.call("POST", "/class/new", {"step": "s3", "question": QUESTION})
        code = made.json()["code"]
        token = await join(phone, code, PHONES[0])
        assert await answer(phone, code, token, "c") == 200
        stream = await follow(phone, code, token)
        await stream.until(lambda e: e.event == "state")
        cluster.redis.stop()  # SIGTERM: it writes its append-only file out
        lost = await phone.call("GET", f"/class/{code}")
        assert (lost.status, lost.json()["error"]) == (503, "store_unavailable")
        said = await stream.until(lambda e: e.event == "store")
        assert said.data == {"ok": False, "error": "store_unavailable", "v": 1}
        assert (await teacher.call("GET", "/lesson")).status == 200, "the lesson goes on alone"
        serve._keep_redis(cluster)  # make serve's watch loop: start it again, same port and data
        back = await stream.until(lambda e: e.event == "store")
        assert back.data == {"ok": True, "v": 1}  # (a state follows only if it changed)
        state = (await teacher.call("GET", f"/class/{code}")).json()
        assert state["step"] == "s3" and state["tally"]["counts"] == {"a": 0, "b": 0, "c": 1}
        assert await answer(phone, code, await join(phone, code, PHONES[1]), "a") == 200
        await teacher.call("POST", f"/class/{code}/state", {"step": "s4"})
        assert await step_of(stream) == "s4"
        stream.close()

    run(body())
