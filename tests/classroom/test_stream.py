"""The push channel over real sockets (uvicorn in a thread): Server-Sent Events carry each change
with its version, a reconnect starts from the current state, the teacher's tally arrives, and
two app processes sharing one Redis push to each other's browsers."""

from __future__ import annotations

import uuid

import pytest

from bench.class_client import Client
from classroom import Classroom
from classroom.redis_store import RedisStore
from tests.classroom.class_support import PHONES, QUESTION, run, served


def kind(name: str):
    return lambda event: event.event == name


async def start(teacher: Client, **body) -> str:
    made = await teacher.call("POST", "/class/new", {"scene": "s1", "step": "s1.a", **body})
    assert made.status == 201, made.body
    return made.json()["code"]


def test_a_change_reaches_a_following_phone_with_its_version_and_a_reconnect_rereads(store):
    async def body(url: str) -> None:
        teacher, phone = Client(url), Client(url)
        code = await start(teacher)
        stream = await phone.events(f"/class/{code}/events?phone={PHONES[0]}")
        assert stream.status == 200 and stream.headers["content-type"][0].startswith(
            "text/event-stream"
        )
        first = await stream.until(kind("state"))
        assert (first.id, first.data["step"]) == ("1", "s1.a")
        await teacher.call("POST", f"/class/{code}/state", {"scene": "s2", "step": "s2.b"})
        moved = await stream.until(kind("state"))
        assert (moved.id, moved.data["v"], moved.data["step"]) == ("2", 2, "s2.b")
        stream.close()
        await teacher.call("POST", f"/class/{code}/state", {"step": "s2.c"})  # while away
        again = await phone.events(f"/class/{code}/events")
        back = await again.until(kind("state"))
        assert (back.data["v"], back.data["step"]) == (3, "s2.c")
        again.close()

    with served(Classroom(store)) as url:
        run(body(url))


def test_the_teacher_sees_the_tally_and_phones_only_once_it_is_shown(store):
    async def body(url: str) -> None:
        teacher, phone = Client(url), Client(url)
        code = await start(teacher, question=QUESTION)
        lead = await teacher.events(f"/class/{code}/events")
        follow = await phone.events(f"/class/{code}/events")
        for token, choice in zip(PHONES[:5], "aabbc", strict=True):
            body = {"phone": token, "question": "q1", "choice": choice}
            said = await phone.call("POST", f"/class/{code}/answer", body)
            assert said.status == 200
        tally = await lead.until(lambda e: e.event == "tally" and e.data["total"] == 5)
        assert tally.data["counts"] == {"a": 2, "b": 2, "c": 1} and not tally.data["visible"]
        await teacher.call("POST", f"/class/{code}/state", {"tally_visible": True})
        seen = []
        shown = await follow.until(lambda e: seen.append(e.event) or e.event == "tally")
        assert "tally" not in seen[:-1] and shown.data["total"] == 5 and shown.data["visible"]
        await teacher.call("POST", f"/class/{code}/state", {"revealed": True})
        revealed = await follow.until(kind("state"))
        assert revealed.data["question"]["answer"] == "b"
        lead.close()
        follow.close()

    with served(Classroom(store)) as url:
        run(body(url))


def test_events_of_an_unknown_class_are_404_and_the_stream_ends_when_the_server_stops(store):
    async def body(url: str) -> None:
        phone = Client(url)
        missing = await phone.events("/class/K7MX2Q/events")
        assert missing.status == 404
        missing.close()
        code = await start(Client(url))
        return await phone.events(f"/class/{code}/events")

    service = Classroom(store)
    with served(service) as url:
        stream = run(body(url))
    assert stream.status == 200  # served() ended the streams as the signal hook does


def test_two_processes_on_one_redis_push_to_each_other_s_browsers(redis_url):
    prefix = f"t{uuid.uuid4().hex}:"
    one, two = (Classroom(RedisStore(redis_url, prefix=prefix)) for _ in range(2))

    async def body(url_one: str, url_two: str) -> None:
        teacher, phone = Client(url_one), Client(url_two)
        code = await start(teacher, question=QUESTION)
        lead = await teacher.events(f"/class/{code}/events")
        follow = await phone.events(f"/class/{code}/events")
        await follow.until(kind("state"))
        await teacher.call("POST", f"/class/{code}/state", {"step": "s1.z"})
        assert (await follow.until(kind("state"))).data["step"] == "s1.z"
        await phone.call("POST", f"/class/{code}/answer",
                         {"phone": PHONES[9], "question": "q1", "choice": "c"})  # fmt: skip
        tally = await lead.until(lambda e: e.event == "tally" and e.data["total"] == 1)
        assert tally.data["counts"]["c"] == 1
        lead.close()
        follow.close()

    with served(one) as url_one, served(two) as url_two:
        run(body(url_one, url_two))


@pytest.mark.parametrize("store", ["memory"], indirect=True)
def test_a_heartbeat_comment_keeps_a_quiet_stream_open(store, monkeypatch):
    monkeypatch.setattr("classroom.hub.HEARTBEAT_S", 0.1)

    async def body(url: str) -> None:
        code = await start(Client(url))
        stream = await Client(url).events(f"/class/{code}/events")
        await stream.until(kind("state"))
        assert (await stream.next()).event == ":"
        stream.close()

    with served(Classroom(store)) as url:
        run(body(url))
