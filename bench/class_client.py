"""A small HTTP/1.1 client for the class's routes (asyncio streams, no dependencies): JSON
requests with a cookie jar, a Server-Sent Events reader, and a window following a class (the
teacher's moves timed to every phone). bench/load_class.py, bench/class_attack.py and
tests/classroom/ drive the routes with it, directly or through nginx."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

TIMEOUT_S = 10.0


@dataclass
class Reply:
    """An HTTP response: status, headers (lower-case name → values), body."""

    status: int
    headers: dict[str, list[str]]
    body: bytes = b""

    def json(self) -> dict:
        return json.loads(self.body)

    def header(self, name: str) -> str:
        return ", ".join(self.headers.get(name, []))


@dataclass
class Event:
    """One Server-Sent Event (a comment line has event ":")."""

    event: str
    data: dict | str
    id: str = ""


@dataclass
class Client:
    """One browser: a base URL (direct or nginx) and its cookies."""

    base: str
    cookies: dict[str, str] = field(default_factory=dict)

    def _head(self, method: str, path: str, extra: dict[str, str]) -> bytes:
        host = urlsplit(self.base).netloc
        lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{k}: {v}" for k, v in extra.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    async def _open(self, method: str, path: str, body: bytes | None, extra: dict) -> tuple:
        parts = urlsplit(self.base)
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        if body is not None:
            extra = {"Content-Type": "application/json", "Content-Length": str(len(body)),
                     "Origin": self.base, **extra}  # fmt: skip
        writer.write(self._head(method, path, extra) + (body or b""))
        await writer.drain()
        status, headers = await read_head(reader)
        for value in headers.get("set-cookie", []):
            name, _, rest = value.partition("=")
            self.cookies[name.strip()] = rest.split(";", 1)[0]
        return reader, writer, status, headers

    async def call(self, method: str, path: str, payload=None, *, raw: bytes | None = None,
                   headers: dict | None = None, timeout: float = TIMEOUT_S) -> Reply:  # fmt: skip
        """One request; `payload` goes as JSON (or `raw` bytes as they are)."""
        body = raw if raw is not None else None if payload is None else json.dumps(payload).encode()
        if method == "POST" and body is None:
            body = b""

        async def run() -> Reply:
            reader, writer, status, head = await self._open(method, path, body, headers or {})
            try:
                return Reply(status, head, await read_body(reader, head))
            finally:
                writer.close()

        return await asyncio.wait_for(run(), timeout)

    async def events(self, path: str, timeout: float = TIMEOUT_S) -> EventStream:
        """Open an event stream (status 200 expected; the stream's reply otherwise)."""
        opened = await asyncio.wait_for(self._open("GET", path, None, {}), timeout)
        return EventStream(*opened)


@dataclass
class EventStream:
    """An open /class/CODE/events response."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int
    headers: dict[str, list[str]]
    _buffer: bytes = b""

    async def next(self, timeout: float = TIMEOUT_S) -> Event | None:
        """The next event or comment; None when the stream ended."""
        while b"\n\n" not in self._buffer:
            chunk = await asyncio.wait_for(self._chunk(), timeout)
            if not chunk:
                return None
            self._buffer += chunk
        block, self._buffer = self._buffer.split(b"\n\n", 1)
        return _parse(block.decode())

    async def _chunk(self) -> bytes:
        if "chunked" not in self.headers.get("transfer-encoding", [""])[0]:
            return await self.reader.read(65536)
        size = int((await self.reader.readline()).strip() or b"0", 16)
        data = await self.reader.readexactly(size) if size else b""
        await self.reader.readline()
        return data

    async def until(self, want, timeout: float = TIMEOUT_S) -> Event:
        """Events until one for which want(event) holds; raise if the stream ends first."""
        while True:
            event = await self.next(timeout)
            if event is None:
                raise ConnectionError("the event stream ended")
            if want(event):
                return event

    def close(self) -> None:
        self.writer.close()


@dataclass
class Follower:
    """A window following a class (a phone, or the teacher's): its client and signed token, its
    event stream, and when each version and each tally total first reached it (perf_counter)."""

    client: Client
    stream: EventStream
    token: str = ""
    versions: dict[int, float] = field(default_factory=dict)
    totals: list[tuple[float, int]] = field(default_factory=list)  # (time, tally total)
    tallies: int = 0  # tally events received
    counts: dict = field(default_factory=dict)  # the last tally's counts
    ended: float = 0.0  # perf_counter() when its stream ended (0: open)
    ended_at: float = 0.0  # time.time() then (a class's `expires` is Unix time)
    reading: asyncio.Task | None = None

    def start(self) -> Follower:
        """Read its stream in a task from now on."""
        self.reading = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError, ConnectionError, TimeoutError):
            while (event := await self.stream.next(timeout=3600)) is not None:
                now = time.perf_counter()
                if event.event == "state":
                    self.versions.setdefault(event.data["v"], now)
                elif event.event == "tally":
                    self.tallies += 1
                    self.totals.append((now, event.data["total"]))
                    self.counts = event.data["counts"]
        self.ended, self.ended_at = time.perf_counter(), time.time()

    def stop(self) -> None:
        if self.reading:
            self.reading.cancel()
        self.stream.close()


async def follow(client: Client, code: str, token: str = "", tries: int = 10) -> Follower | None:
    """Open the class's event stream (retrying a refused one `tries` times) and start reading
    it; None when it stayed refused."""
    query = f"?token={token}" if token else ""
    for attempt in range(tries):
        stream = await client.events(f"/class/{code}/events{query}", timeout=30)
        if stream.status == 200:
            return Follower(client, stream, token).start()
        stream.close()
        if attempt < tries - 1:
            await asyncio.sleep(0.5)
    return None


async def new_class(url: str, **body) -> tuple[Client, str]:
    """A teacher's client and the code of the class it made (on scene s1), or raise."""
    teacher = Client(url)
    made = await teacher.call("POST", "/class/new", {"scene": "s1", "step": "s1.a", **body})
    if made.status != 201:
        raise RuntimeError(f"no class: {made.status} {made.body[:200]!r}")
    return teacher, made.json()["code"]


async def changes(teacher: Client, code: str, phones: list[Follower], count: int) -> dict:
    """The teacher moves `count` steps, 1 s apart: seconds until the last phone had each one
    ("last"), until each phone had each one ("every"), and the phones that never did."""
    last, every, missed = [], [], 0
    for k in range(count):
        started = time.perf_counter()
        said = await teacher.call("POST", f"/class/{code}/state", {"step": f"s1.{k}"}, timeout=30)
        v = said.json()["state"]["v"]
        if not await until(lambda v=v: all(v in p.versions for p in phones)):
            missed += sum(v not in p.versions for p in phones)
        seen = [p.versions[v] - started for p in phones if v in p.versions]
        last.append(max(seen, default=float("nan")))
        every += seen
        await asyncio.sleep(1.0)
    return {"last": last, "every": every, "missed": missed}


async def until(condition, seconds: float = 30.0, every: float = 0.01) -> bool:
    """Poll `condition()` every `every` s until it holds (True) or `seconds` pass (False)."""
    deadline = time.perf_counter() + seconds
    while not condition():
        if time.perf_counter() > deadline:
            return False
        await asyncio.sleep(every)
    return True


def _parse(block: str) -> Event:
    fields: dict[str, str] = {}
    for line in block.splitlines():
        if line.startswith(":"):
            return Event(":", line[1:].strip())
        name, _, value = line.partition(":")
        fields[name] = value.removeprefix(" ")
    data = fields.get("data", "")
    try:
        parsed = json.loads(data) if data else {}
    except ValueError:
        parsed = data
    return Event(fields.get("event", "message"), parsed, fields.get("id", ""))


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, list[str]]]:
    status = int((await reader.readline()).split()[1])
    headers: dict[str, list[str]] = {}
    while (line := (await reader.readline()).decode().rstrip("\r\n")) != "":
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    return status, headers


async def read_body(reader: asyncio.StreamReader, headers: dict[str, list[str]]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", [""])[0]:
        body = b""
        while size := int((await reader.readline()).strip() or b"0", 16):
            body += await reader.readexactly(size)
            await reader.readline()
        return body
    if "content-length" in headers:
        return await reader.readexactly(int(headers["content-length"][0]))
    return await reader.read()
