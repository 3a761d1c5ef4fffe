"""The per-process fan-out: one encoding per event, newest state wins, tallies throttled and
shown to phones only when the class shows them, lost-store notices; every stream's owner and
end: one per phone (here or in another process), a few per teacher, a cap per process, the end
of the class and the stop of the process end them."""

from __future__ import annotations

import asyncio

import pytest

from bench.class_client import _parse
from classroom import hub as hub_module
from classroom import state as st
from classroom.errors import ClassError
from classroom.hub import Hub, Stream
from tests.classroom.class_support import QUESTION, run

CODE = "K7MX2Q"


def state_at(v: int, **patch) -> dict:
    base = st.new_state(CODE, 1_800_000_000, st.parse_change({"question": QUESTION}))
    return {**base, "v": v, **patch}


def tally(rev: int, **counts) -> dict:
    return {"kind": "tally", "code": CODE, "question": "q1", "counts": counts, "rev": rev, "v": 1}


async def collect(hub: Hub, stream: Stream, into: list) -> None:
    """Parse every event of a stream into `into` until it ends."""
    async for chunk in hub.chunks(stream):
        for block in chunk.decode().split("\n\n"):
            if block.strip() and not block.startswith("retry"):
                into.append(_parse(block))


class Source:
    """The hub's questions to the class service, answered from the test (classroom/hub.py
    Source): `refresh` as the test gives it, an empty room, leases and announcements kept."""

    def __init__(self, refresh) -> None:
        self.refresh_fn = refresh
        self.announced: list[dict] = []
        self.released: list[str] = []

    def refresh(self, code: str, *, room: bool = False) -> list[dict]:
        return self.refresh_fn(code)

    def room(self, code: str) -> dict:
        return {"joined": 0, "following": 0}

    def lease(self, code: str, phones: list[str]) -> int:
        return 1

    def release(self, code: str, phone: str, stamp: int) -> None:
        self.released.append(phone)

    def announce(self, message: dict) -> None:
        self.announced.append(message)

    def now(self) -> float:
        return 1_800_000_000.0


async def started(refresh=lambda code: [], **kwargs) -> Hub:
    hub = Hub(Source(refresh), **kwargs)
    hub.start(asyncio.get_running_loop())
    return hub


def test_one_state_is_encoded_once_for_every_stream_and_stale_ones_are_dropped():
    async def body():
        hub = await started()
        streams = [Stream(CODE, teacher=False) for _ in range(3)]
        for stream in streams:
            hub.add(stream)
        hub.receive({"kind": "state", "state": state_at(5, step="s2")})
        chunks = [stream.take() for stream in streams]
        assert all(c[0] is chunks[0][0] for c in chunks), "encoded once, shared"
        hub.receive({"kind": "state", "state": state_at(4, step="s1")})  # late: dropped
        assert all(stream.take() == [] for stream in streams)
        event = _parse(chunks[0][0].decode().strip())
        assert (event.event, event.id, event.data["step"]) == ("state", "5", "s2")
        assert "answer" not in event.data["question"], "no right answer before the reveal"

    run(body())


def is_tally(event, answers: int) -> bool:
    return event.event == "tally" and event.data["counts"].get("a") == answers


async def until(reached, limit_s: float = 10.0) -> None:
    """Wait until reached() is true (looked at every 10 ms), failing after limit_s."""
    for _ in range(int(limit_s / 0.01)):
        if reached():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not reached within {limit_s} s")


def test_200_answers_make_a_few_tally_events_and_phones_see_none_while_hidden(monkeypatch):
    monkeypatch.setattr(hub_module, "TALLY_EVERY_S", 0.2)

    async def body():
        hub = await started()
        teacher, phone = Stream(CODE, teacher=True), Stream(CODE, teacher=False)
        seen: dict[Stream, list] = {teacher: [], phone: []}
        for stream in seen:
            hub.add(stream)
        tasks = [asyncio.create_task(collect(hub, s, seen[s])) for s in seen]
        hub.receive({"kind": "state", "state": state_at(2)})
        for rev in range(1, 201):
            hub.receive(tally(rev, a=rev))
            if rev % 20 == 0:
                await asyncio.sleep(0.01)
        await until(lambda: any(is_tally(e, 200) for e in seen[teacher]))  # not a fixed 0.5 s
        tallies = [e for e in seen[teacher] if e.event == "tally"]
        assert 1 <= len(tallies) <= 6, len(tallies)
        assert tallies[-1].data["counts"] == {"a": 200, "b": 0, "c": 0}
        assert not [e for e in seen[phone] if e.event == "tally"]
        hub.receive({"kind": "state", "state": state_at(3, tally_visible=True)})
        await until(lambda: any(e.event == "tally" for e in seen[phone]))  # not a fixed 0.4 s
        shown = [e for e in seen[phone] if e.event == "tally"]
        assert shown and shown[-1].data["total"] == 200 and shown[-1].data["visible"]
        hub.close()
        await asyncio.gather(*tasks)
        assert (
            seen[phone][-1].event == "bye" and seen[phone][-1].data["reason"] == "server_stopping"
        )

    run(body())


def test_a_lost_store_is_told_and_every_class_is_read_again_when_it_is_back():
    asked: list[str] = []

    def refresh(code: str) -> list[dict]:
        asked.append(code)
        return [{"kind": "state", "state": state_at(9, step="s9")}]

    async def body():
        hub = await started(refresh)
        stream = Stream(CODE, teacher=False)
        hub.add(stream)
        hub.seed(stream, [{"kind": "state", "state": state_at(3)}])
        stream.take()
        hub.receive({"kind": "store", "ok": False})
        assert _parse(stream.take()[0].decode().strip()).data == {
            "ok": False,
            "error": "store_unavailable",
            "v": 3,
        }
        hub.receive({"kind": "store", "ok": True})
        for _ in range(100):
            await asyncio.sleep(0.02)
            if stream.v == 9:
                break
        events = [_parse(c.decode().strip()) for c in stream.take()]
        assert [e.event for e in events] == ["store", "state"] and asked == [CODE]
        assert events[1].data["step"] == "s9"

    run(body())


def test_a_class_that_is_gone_closes_its_streams():
    async def body():
        hub = await started()
        stream, seen = Stream(CODE, teacher=False), []
        hub.add(stream)
        task = asyncio.create_task(collect(hub, stream, seen))
        hub.receive({"kind": "gone", "code": CODE})
        await asyncio.wait_for(task, 5)
        assert [e.event for e in seen] == ["gone", "bye"]

    run(body())


def test_a_quiet_stream_sends_heartbeat_comments(monkeypatch):
    monkeypatch.setattr(hub_module, "HEARTBEAT_S", 0.05)

    async def body():
        hub = await started()
        stream, seen = Stream(CODE, teacher=False), []
        hub.add(stream)
        task = asyncio.create_task(collect(hub, stream, seen))
        await until(lambda: [e.event for e in seen].count(":") >= 2)  # not a fixed 0.3 s
        hub.close()
        await task
        assert [e.event for e in seen].count(":") >= 2

    run(body())


def test_a_phone_has_one_stream_a_teacher_a_few_and_the_process_a_cap():
    async def body():
        hub = await started(max_streams=4)
        first, second = Stream(CODE, False, phone="p" * 22), Stream(CODE, False, phone="p" * 22)
        hub.add(first)
        hub.add(second)
        assert first.closed == "replaced" and not second.closed
        hub.remove(first)
        teachers = [Stream(CODE, teacher=True) for _ in range(hub_module.TEACHER_STREAMS + 1)]
        for stream in teachers:
            hub.add(stream)
        assert [s.closed for s in teachers] == ["replaced"] + [""] * hub_module.TEACHER_STREAMS
        hub.remove(teachers[0])
        assert hub.open_streams == 1 + hub_module.TEACHER_STREAMS
        with pytest.raises(ClassError, match="too_many_streams"):
            hub.add(Stream(CODE, False, phone="q" * 22))
        await asyncio.sleep(0.05)
        assert hub._source.released == [], "a replaced stream keeps its phone's lease"

    run(body())


def test_another_process_s_stream_of_the_same_phone_replaces_this_one():
    async def body():
        hub = await started()
        mine, other = Stream(CODE, False, phone="p" * 22), Stream(CODE, False, phone="q" * 22)
        hub.add(mine)
        hub.add(other)
        hub.receive({"kind": "room", "code": CODE, "phone": "p" * 22, "owner": hub.id})
        assert not mine.closed, "this hub's own announcement"
        hub.receive({"kind": "room", "code": CODE, "phone": "", "owner": "elsewhere"})
        assert not mine.closed, "a stream closed elsewhere replaces nothing"
        hub.receive({"kind": "room", "code": CODE, "phone": "p" * 22, "owner": "elsewhere"})
        assert mine.closed == "replaced" and not other.closed

    run(body())


def test_an_ended_class_ends_its_streams_with_its_last_state():
    async def body():
        hub = await started()
        stream, seen = Stream(CODE, teacher=False, phone="p" * 22), []
        hub.add(stream)
        hub.seed(stream, [{"kind": "state", "state": state_at(3)}])
        task = asyncio.create_task(collect(hub, stream, seen))
        hub.receive({"kind": "state", "state": state_at(4, ended=True)})
        await asyncio.wait_for(task, 5)
        assert [e.event for e in seen] == ["state", "bye"]  # the newest state replaced v3
        assert seen[0].data["ended"] and seen[1].data == {"reason": "ended", "v": 4}
        assert hub.open_streams == 0
        await asyncio.sleep(0.05)
        assert hub._source.released == ["p" * 22], "the phone that left: its lease ends"

    run(body())
