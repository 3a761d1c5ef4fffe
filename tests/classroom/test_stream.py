"""The push channel over real sockets (uvicorn in a thread): Server-Sent Events carry each change
with its version, a reconnect starts from the current state, the teacher's tally and room (N
answered of M following) arrive, and two app processes sharing one Redis push to each other's
browsers. Every stream has an owner and an end: a joined phone's token or the teacher's cookie,
one stream per phone, a cap per process; the streams end with their class (ended, expired)."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from bench.class_client import Client
from classroom import Classroom, hub
from classroom.redis_store import RedisStore
from classroom.service import Settings
from tests.classroom.class_support import PHONES, QUESTION, join, run, served

# Each test serves the class on its own uvicorn (real sockets, event streams, the hub's timers):
# a server per test, so `make check` leaves them to `make test`.
pytestmark = pytest.mark.slow(s=0.3)


def kind(name: str):
    return lambda event: event.event == name


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """The hub looks at its classes every 0.1 s (expiry, rooms) instead of every second."""
    monkeypatch.setattr(hub, "TICK_S", 0.1)
    monkeypatch.setattr(hub, "ROOM_EVERY_S", 0.3)


async def start(teacher: Client, **body) -> str:
    made = await teacher.call("POST", "/class/new", {"scene": "s1", "step": "s1.a", **body})
    assert made.status == 201, made.body
    return made.json()["code"]


async def follow(phone: Client, code: str, phone_id: str):
    """A phone joins and opens its event stream (its signed token in the address)."""
    token = await join(phone, code, phone_id)
    return await phone.events(f"/class/{code}/events?token={token}")


async def ended(stream) -> list[str]:
    """Every event until the stream ends (the server closed it)."""
    seen = []
    while (event := await stream.next(timeout=20)) is not None:
        seen.append(event.event)
    return seen


def in_class(service: Classroom, body, **start_body) -> None:
    """SERVICE served on a loopback port, a teacher starts a class (START_BODY beside its scene
    and step), and BODY(teacher, phone, code) runs to its end; the streams it returns close."""

    async def main(url: str) -> None:
        teacher, phone = Client(url), Client(url)
        code = await start(teacher, **start_body)
        for stream in await body(teacher, phone, code) or ():
            stream.close()

    with served(service) as url:
        run(main(url))


def test_a_change_reaches_a_following_phone_with_its_version_and_a_reconnect_rereads(store):
    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        token = await join(phone, code, PHONES[0])
        stream = await phone.events(f"/class/{code}/events?token={token}")
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
        again = await phone.events(f"/class/{code}/events?token={token}")
        back = await again.until(kind("state"))
        assert (back.data["v"], back.data["step"]) == (3, "s2.c")
        return (again,)

    in_class(Classroom(store), body)


def test_a_stream_needs_a_joined_phone_s_token_or_the_teacher_s_cookie(store):
    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        token = await join(phone, code, PHONES[0])
        other = await start(teacher)
        for path in (
            f"/class/{code}/events",
            f"/class/{code}/events?token={PHONES[0]}",
            f"/class/{code}/events?token={token[:-2]}AA",
            f"/class/{other}/events?token={token}",
        ):
            refused = await phone.call("GET", path)
            assert (refused.status, refused.json()["error"]) == (403, "bad_token"), path
        lead = await teacher.events(f"/class/{code}/events")
        assert lead.status == 200
        return (lead,)

    in_class(Classroom(store), body)


def test_the_teacher_sees_the_tally_with_n_of_m_and_phones_only_once_it_is_shown(store):
    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        lead = await teacher.events(f"/class/{code}/events")
        tokens = [await join(phone, code, p) for p in PHONES[:5]]
        follows = [await phone.events(f"/class/{code}/events?token={t}") for t in tokens[:3]]
        for token, choice in zip(tokens, "aabbc", strict=True):
            body = {"token": token, "question": "q1", "choice": choice}
            said = await phone.call("POST", f"/class/{code}/answer", body)
            assert said.status == 200
        tally = await lead.until(lambda e: e.event == "tally" and e.data["total"] == 5)
        assert tally.data["counts"] == {"a": 2, "b": 2, "c": 1} and not tally.data["visible"]
        assert tally.data["joined"] == 5
        await teacher.call("POST", f"/class/{code}/state", {"tally_visible": True})
        seen = []
        shown = await follows[0].until(lambda e: seen.append(e.event) or e.event == "tally")
        assert "tally" not in seen[:-1] and shown.data["total"] == 5 and shown.data["visible"]
        await teacher.call("POST", f"/class/{code}/state", {"revealed": True})
        # the state that reveals (not an earlier one the tally's showing sent, under load late)
        revealed = await follows[0].until(lambda e: e.event == "state" and e.data["revealed"])
        assert revealed.data["question"]["answer"] == "b"
        await teacher.call("POST", f"/class/{code}/state", {"question": {**QUESTION, "id": "q2"}})
        hidden = await follows[0].until(
            lambda e: e.event == "state" and e.data["question"]["id"] == "q2"
        )
        assert not hidden.data["tally_visible"], "the next question starts hidden"
        return (lead, *follows)

    in_class(Classroom(store), body, question=QUESTION)


def test_m_counts_the_phones_following_now_and_drops_one_that_left(store, clock):
    """M (`following`): phones with a stream open (or that joined or answered within LEASE_S);
    a phone whose stream closed stops counting GRACE_S later."""

    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        def following_at(ahead_s: float) -> int:
            return store.room(code, int((clock() + ahead_s) * 1000))["following"]

        lead = await teacher.events(f"/class/{code}/events")
        streams = [await follow(phone, code, p) for p in PHONES[:4]]
        room = await lead.until(lambda e: e.event == "room" and e.data["joined"] == 4)
        assert room.data["following"] == 4
        streams[0].close()  # the phone leaves: counted GRACE_S more (time to reconnect)...
        for _ in range(200):
            if following_at(hub.GRACE_S + 1) == 3:
                break
            await asyncio.sleep(0.05)
        assert following_at(0) == 4 and following_at(hub.GRACE_S + 1) == 3
        clock.now += hub.GRACE_S + 1  # ...then not
        gone = await lead.until(lambda e: e.event == "room" and e.data["following"] == 3)
        assert gone.data["joined"] == 4
        return (lead, *streams[1:])

    in_class(Classroom(store, clock=clock), body, question=QUESTION)


def test_one_stream_per_phone_a_new_one_replaces_the_old(store):
    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        token = await join(phone, code, PHONES[0])
        first = await phone.events(f"/class/{code}/events?token={token}")
        await first.until(kind("state"))
        second = await phone.events(f"/class/{code}/events?token={token}")
        await second.until(kind("state"))
        bye = await first.until(kind("bye"))
        assert bye.data["reason"] == "replaced" and await first.next() is None
        other = await follow(phone, code, PHONES[1])  # another phone is not affected
        await teacher.call("POST", f"/class/{code}/state", {"step": "s1.b"})
        for stream in (second, other):
            await stream.until(lambda e: e.event == "state" and e.data["step"] == "s1.b")
        return second, other

    in_class(Classroom(store), body)


def test_a_process_holds_at_most_its_cap_of_streams_and_the_teacher_still_gets_one(store):
    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        streams = [await follow(phone, code, p) for p in PHONES[:3]]
        token = await join(phone, code, PHONES[3])
        full = await phone.call("GET", f"/class/{code}/events?token={token}")
        assert (full.status, full.json()["error"]) == (503, "too_many_streams")
        assert int(full.header("retry-after")) >= 1
        lead = await teacher.events(f"/class/{code}/events")
        assert lead.status == 200, "a class is never leaderless"
        lead.close()
        streams[0].close()
        for _ in range(200):  # until the server noticed that the phone and the teacher left
            again = await phone.events(f"/class/{code}/events?token={token}")
            if again.status == 200:
                break
            again.close()
            await asyncio.sleep(0.05)
        assert again.status == 200
        return (again, *streams[1:])

    in_class(Classroom(store, Settings(max_streams=3)), body)


def test_every_stream_of_a_class_ends_when_the_teacher_ends_it(store):
    async def body(teacher: Client, phone: Client, code: str) -> None:
        lead = await teacher.events(f"/class/{code}/events")
        streams = [await follow(phone, code, p) for p in PHONES[:3]]
        for stream in (lead, *streams):
            await stream.until(kind("state"))
        await teacher.call("POST", f"/class/{code}/end")
        for stream in (lead, *streams):
            assert (await ended(stream))[-2:] == ["state", "bye"]
        late = await phone.call("POST", f"/class/{code}/join", {"phone": PHONES[5]})
        assert late.status == 410, "an ended class takes no phone"

    in_class(Classroom(store), body, question=QUESTION)


def test_every_stream_of_a_class_ends_when_it_expires(store, clock):
    service = Classroom(store, clock=clock)

    async def body(teacher: Client, phone: Client, code: str) -> None:
        lead = await teacher.events(f"/class/{code}/events")
        streams = [await follow(phone, code, p) for p in PHONES[:2]]
        for stream in (lead, *streams):
            await stream.until(kind("state"))
        clock.now += service.settings.ttl_s + 1  # the class's six hours are up...
        if isinstance(store, RedisStore):  # ...and Redis expires its keys (EXPIREAT, now)
            store._redis.pexpire(store._keys(code)[0], 1)
        for stream in (lead, *streams):
            assert (await ended(stream))[-2:] == ["gone", "bye"]

    in_class(service, body)


def test_events_of_an_unknown_class_are_404_and_the_stream_ends_when_the_server_stops(store):
    async def body(url: str) -> None:
        phone, teacher = Client(url), Client(url)
        code = await start(teacher)
        token = await join(phone, code, PHONES[0])
        missing = await phone.events(f"/class/K7MX2Q/events?token={token}")
        assert missing.status == 403  # its token is another class's: nothing looked up
        missing.close()
        return await phone.events(f"/class/{code}/events?token={token}")

    service = Classroom(store)
    with served(service) as url:
        stream = run(body(url))
    assert stream.status == 200  # served() ended the streams as the signal hook does


def test_two_processes_on_one_redis_push_count_and_replace_for_each_other(redis_url):
    prefix = f"t{uuid.uuid4().hex}:"
    one, two = (Classroom(RedisStore(redis_url, prefix=prefix)) for _ in range(2))

    async def body(url_one: str, url_two: str) -> None:
        teacher, phone = Client(url_one), Client(url_two)
        code = await start(teacher, question=QUESTION)
        lead = await teacher.events(f"/class/{code}/events")
        token = await join(phone, code, PHONES[9])  # joined on process two...
        follow_ = await Client(url_one).events(f"/class/{code}/events?token={token}")  # ...one
        await follow_.until(kind("state"))
        await teacher.call("POST", f"/class/{code}/state", {"step": "s1.z"})
        assert (await follow_.until(kind("state"))).data["step"] == "s1.z"
        await phone.call(
            "POST", f"/class/{code}/answer", {"token": token, "question": "q1", "choice": "c"}
        )
        tally = await lead.until(lambda e: e.event == "tally" and e.data["total"] == 1)
        assert tally.data["counts"]["c"] == 1
        others = [await follow(phone, code, p) for p in PHONES[:3]]  # on process two
        room = await lead.until(lambda e: e.event == "room" and e.data["joined"] == 4)
        assert room.data["following"] == 4
        moved = await phone.events(f"/class/{code}/events?token={token}")  # the phone, on two
        assert (await follow_.until(kind("bye"))).data["reason"] == "replaced"
        for stream in (lead, moved, *others):
            stream.close()

    with served(one) as url_one, served(two) as url_two:
        run(body(url_one, url_two))


@pytest.mark.parametrize("store", ["memory"], indirect=True)
def test_a_heartbeat_comment_keeps_a_quiet_stream_open(store, monkeypatch):
    monkeypatch.setattr(hub, "HEARTBEAT_S", 0.1)

    async def body(teacher: Client, phone: Client, code: str) -> tuple:
        stream = await follow(phone, code, PHONES[0])
        await stream.until(kind("state"))
        assert (await stream.next()).event == ":"
        return (stream,)

    in_class(Classroom(store), body)
