"""Helpers for the class's tests: a clock to turn, the class's routes served by uvicorn in a
thread (real sockets, real event streams), and short async drivers built on bench/class_client."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from starlette.applications import Starlette

from classroom import Classroom, make_routes
from deploy.redis_local import find_redis
from tests.browser_support import skip_missing

# A test on a real redis-server: `make test` runs it, `make check` (no servers) leaves it out; the
# store's and the routes' tests run their memory half there.
REDIS_SLOW = pytest.mark.slow(s=0.05)
PHONES = [f"phone-token-{i:04d}-abcdefghij" for i in range(400)]  # well-formed, 31 characters
QUESTION = {"id": "q1", "choices": ["a", "b", "c"], "answer": "b",
            "why": {"b": {"zh": "他指小明", "en": "he is Xiaoming"}}}  # fmt: skip


def redis_or_skip() -> None:
    """Skip without Debian's redis-server (a failure under CI=true, tests/conftest.py)."""
    if find_redis() is None:
        skip_missing("redis-server is not installed", "run `make test` as root to install it")


class Clock:
    """A wall clock the test turns (classes expire by it); it starts at the real time, which
    Redis's own expiry follows."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))

    def __call__(self) -> float:
        return self.now


def app_of(service: Classroom) -> Starlette:
    """The class's routes alone, as the launcher mounts them beside Streamlit's."""
    return Starlette(routes=make_routes(service), lifespan=service.lifespan)


@contextlib.contextmanager
def served(service: Classroom) -> Iterator[str]:
    """uvicorn serving the class's routes on a free loopback port, in a thread; its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app_of(service), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        loop = service.hub._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(service.hub.close)  # as the launcher's signal hook does
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


async def join(phone, code: str, phone_id: str) -> str:
    """A phone (bench/class_client.py Client) joins class CODE: its signed token."""
    said = await phone.call("POST", f"/class/{code}/join", {"phone": phone_id})
    assert said.status == 200, said.body
    return said.json()["token"]


def run(coro):
    """Run one async test body to its end, on a thread of its own (a Playwright test in the same
    process may hold a running event loop on this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, 120)).result()
