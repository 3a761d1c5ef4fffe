"""The per-process fan-out: one encoding per event, newest state wins, tallies throttled and
shown to phones only when the class shows them, lost-store notices, streams ended on stop."""

from __future__ import annotations

import asyncio

from bench.class_client import _parse
from classroom import hub as hub_module
from classroom import state as st
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


async def started(refresh=lambda code: []) -> Hub:
    hub = Hub(refresh)
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
        await asyncio.sleep(0.5)
        tallies = [e for e in seen[teacher] if e.event == "tally"]
        assert 1 <= len(tallies) <= 6, len(tallies)
        assert tallies[-1].data["counts"] == {"a": 200, "b": 0, "c": 0}
        assert not [e for e in seen[phone] if e.event == "tally"]
        hub.receive({"kind": "state", "state": state_at(3, tally_visible=True)})
        await asyncio.sleep(0.4)
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
        await asyncio.sleep(0.3)
        hub.close()
        await task
        assert [e.event for e in seen].count(":") >= 2

    run(body())
