"""One app process's class service: its store, hub, limits and settings, started and stopped with
the server (a Starlette lifespan), and what the Python pages may ask of it (`is_teacher`)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import signal
import threading
import time
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

from classroom.codes import new_code, secret_hash, secret_matches
from classroom.errors import ClassError
from classroom.hub import Hub
from classroom.join import Join, join_link, public_origin
from classroom.limits import Limits
from classroom.state import new_state
from classroom.store import MemoryStore, Store

CODE_ATTEMPTS = 10  # random codes tried before giving up (all taken: a full store)
COOKIE_PREFIX = "al_lead_"  # the teacher's cookie of class CODE is al_lead_CODE


@dataclass(frozen=True)
class Settings:
    """Where phones reach this server: PUBLIC_URL wins; else the address the server listens on
    (SERVE_HOST, which `make serve` sets to nginx's HOST; else Streamlit's server.address)."""

    public_url: str = ""
    listen_host: Callable[[], str] = lambda: "127.0.0.1"

    @classmethod
    def from_env(cls, listen_host: Callable[[], str]) -> Settings:
        serve_host = os.environ.get("SERVE_HOST", "")
        host = (lambda: serve_host) if serve_host else listen_host
        return cls(os.environ.get("PUBLIC_URL", "").strip(), host)


def cookie_name(code: str) -> str:
    """The name of the cookie that holds class CODE's teacher's secret."""
    return f"{COOKIE_PREFIX}{code}"


class Classroom:
    """The class service: the routes (classroom/routes.py) call it; pages call is_teacher()."""

    def __init__(
        self, store: Store, settings: Settings | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.limits = Limits()
        self.hub = Hub(self.refresh)

    @classmethod
    def from_env(cls, listen_host: Callable[[], str] = lambda: "127.0.0.1") -> Classroom:
        """Redis when REDIS_URL is set (several processes), else memory (one process)."""
        url = os.environ.get("REDIS_URL", "").strip()
        if url:
            from classroom.redis_store import RedisStore

            return cls(RedisStore(url), Settings.from_env(listen_host))
        return cls(MemoryStore(), Settings.from_env(listen_host))

    def routes(self) -> list:
        """The class's Starlette routes, bound to this service."""
        from classroom.routes import make_routes

        return make_routes(self)

    def create(self, patch: dict, secret: str) -> dict:
        """A new class under a free random code, led by whoever holds `secret`."""
        for _ in range(CODE_ATTEMPTS):
            state = new_state(new_code(), self.clock(), patch)
            if self.store.create(state, secret_hash(secret)):
                return state
        raise ClassError("busy", "no free join code was found")

    def leads(self, code: str, secret: str | None) -> bool:
        """True when `secret` is class CODE's teacher's (False without a secret: no lookup)."""
        return bool(secret) and secret_matches(secret, self.store.lead_hash(code))

    def join(self, code: str, host_header: str, scheme: str) -> Join:
        """Class CODE's join link for a request that came in on `host_header`."""
        origin = public_origin(
            host_header,
            scheme,
            public_url=self.settings.public_url,
            listen_host=self.settings.listen_host(),
        )
        return join_link(code, origin)

    def refresh(self, code: str) -> list[dict]:
        """Store messages that bring a stream of class CODE up to date (state, then tally)."""
        try:
            state = self.store.get(code)
            if state is None:
                return [{"kind": "gone", "code": code}]
            messages = [{"kind": "state", "state": state}]
            question = (state["question"] or {}).get("id")
            if question is not None:
                counts, rev = self.store.tally(code, question)
                messages.append({"kind": "tally", "code": code, "question": question,
                                 "counts": counts, "rev": rev, "v": state["v"]})  # fmt: skip
            return messages
        except ClassError:
            return [{"kind": "store", "ok": False}]

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: object) -> AsyncIterator[None]:
        """Start listening to the store; on the way out end every stream, then stop."""
        global _running
        loop = asyncio.get_running_loop()
        self.hub.start(loop)
        self.store.listen(self.hub.post)
        _end_streams_on_signal(loop, self.hub)
        _running = self
        try:
            yield
        finally:
            _running = None
            self.hub.close()
            await loop.run_in_executor(None, self.store.close)


_running: Classroom | None = None  # the service of this process while its server runs


def running() -> Classroom | None:
    """This process's class service, if its server was started by the launcher."""
    return _running


def is_teacher(code: str, cookies: Mapping[str, str]) -> bool:
    """For a page (st.context.cookies): does this browser lead class CODE? False when unsure."""
    service = running()
    if service is None:
        return False
    try:
        return service.leads(code, cookies.get(cookie_name(code)))
    except ClassError:
        return False


def _end_streams_on_signal(loop: asyncio.AbstractEventLoop, hub: Hub) -> None:
    """Before the server's own SIGINT/SIGTERM handler runs, end the open event streams.

    uvicorn waits for every open response before its lifespan shutdown, so an event stream
    (which never ends by itself) would keep a stopping process alive until it is killed."""
    if threading.current_thread() is not threading.main_thread():
        return  # a test client's loop: no signals there
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if callable(previous):
            signal.signal(sig, functools.partial(_close_then, loop, hub, previous))


def _close_then(loop, hub: Hub, previous: Callable, signum: int, frame: object) -> None:
    loop.call_soon_threadsafe(hub.close)
    previous(signum, frame)
