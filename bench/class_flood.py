"""Requests at a rate over connections kept open, as a script sends them (no browser): closed
loop (the next request once the reply came) or open loop (pipelined, a bounded number of replies
outstanding). bench/class_attack.py floods the class with them; bench/class_client.py is the
browser-like client (one connection per request)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import time
from urllib.parse import urlsplit

from bench.class_client import read_body, read_head

PER_CONNECTION = 900  # requests sent on one connection before a new one (nginx closes at 1000)


def head(base: str, path: str, body: bytes) -> bytes:
    """A same-origin JSON POST's request line and headers."""
    parts = urlsplit(base)
    return (
        f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nOrigin: {base}\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()


async def _keep_alive(base: str, requests, pace, statuses: collections.Counter, kept) -> None:
    """One connection: send the next (path, body) of the shared iterator `requests` when `pace`
    allows, read its reply; reconnect when the server closes it (nginx: 1000 per connection)."""
    parts = urlsplit(base)
    reader = writer = None
    for path, body in requests:
        await pace()
        for _ in range(3):
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
                writer.write(head(base, path, body) + body)
                status, answer = await _reply(reader)
                statuses[status] += 1
                if kept is not None and status == 200:
                    kept.append(answer)
                break
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError):
                statuses["reconnect"] += 1
                with contextlib.suppress(Exception):
                    writer.close()
                reader = writer = None
    if writer is not None:
        writer.close()


async def _reply(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP reply's status and body; ConnectionError when the server closes after it."""
    status, headers = await read_head(reader)
    body = await read_body(reader, headers)
    if "close" in ", ".join(headers.get("connection", [])).lower():
        raise ConnectionError("closed by the server")
    return status, body


def pacer(rate: float):
    """An awaitable that lets `rate` calls a second through (all connections together)."""
    start, sent = time.perf_counter(), 0

    async def pace() -> None:
        nonlocal sent
        sent += 1
        wait = start + sent / rate - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)

    return pace


async def hammer(base: str, requests, rate: float, connections: int, kept: list | None = None):
    """Send the requests of an iterator over `connections` keep-alive connections at `rate` a
    second at most: (status counter, seconds taken); the bodies of 200s go to `kept`."""
    return await _spread(_keep_alive, base, requests, rate, connections, kept)


async def _spread(worker, base: str, requests, rate: float, connections: int, extra):
    """`connections` workers sharing one iterator of requests and one pace, counting statuses
    in one counter: (the counter, seconds taken)."""
    statuses: collections.Counter = collections.Counter()
    pace, started = pacer(rate), time.perf_counter()
    shared = iter(requests)
    await asyncio.gather(*(worker(base, shared, pace, statuses, extra) for _ in range(connections)))
    return statuses, time.perf_counter() - started


async def _pipelined(base: str, requests, pace, sent: collections.Counter, window: int) -> None:
    """One connection after another (PER_CONNECTION requests each): requests sent when `pace`
    allows without waiting for the replies (HTTP/1.1 pipelining), at most `window` unanswered,
    until `requests` ends; replies counted by status."""
    parts = urlsplit(base)
    more = True
    while more:
        try:
            reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        except OSError:
            sent["connect_failed"] += 1
            await asyncio.sleep(0.1)
            continue
        room, expected = asyncio.Semaphore(window), asyncio.Queue()
        reading = asyncio.create_task(_replies(reader, expected, sent, room))
        more = False
        for path, body in itertools.islice(requests, PER_CONNECTION):
            more = True
            await room.acquire()
            await pace()
            writer.write(head(base, path, body) + body)
            sent["sent"] += 1
            expected.put_nowait(1)
        expected.put_nowait(None)
        with contextlib.suppress(OSError, ConnectionError, asyncio.IncompleteReadError):
            await reading
        writer.close()


async def _replies(reader, expected: asyncio.Queue, sent: collections.Counter, room) -> None:
    """Read one reply per request sent (until the sender's None), counting their statuses and
    freeing a place in the window for each."""
    while await expected.get() is not None:
        status, _ = await _reply(reader)
        sent[status] += 1
        room.release()


async def flood(base: str, requests, rate: float, connections: int = 24, window: int = 64):
    """Open-loop at `rate` a second (at most connections × window unanswered): (counter, s)."""
    return await _spread(_pipelined, base, requests, rate, connections, window)
