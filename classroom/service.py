"""One app process's class service: its store, hub, limits and settings, started and stopped with
the server (a Starlette lifespan), and what the Python pages may ask of it (`is_teacher`,
`leads_any`, `exposed`). The routes that serve it are classroom/routes.py's `make_routes`."""

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

from classroom import summary, tokens
from classroom.codes import (
    COOKIE_PREFIX,
    cookie_name,
    new_code,
    normal_code,
    secret_hash,
    secret_matches,
)
from classroom.errors import ClassError
from classroom.hub import GRACE_S, LEASE_S, Hub
from classroom.join import Join, is_loopback, join_link, public_origin
from classroom.limits import Limits, open_file_limit, stream_cap
from classroom.state import ENDED_GRACE_S, TTL_S, new_state
from classroom.store import MemoryStore, Store, tally_message
from classroom.tokens import TOKEN_CAP

CODE_ATTEMPTS = 10  # random codes tried before giving up (all taken: a full store)
KEY_RECHECK_S = 1.0  # a token that fails re-reads the signing key at most this often
LEAD_COOKIES = 8  # teacher's cookies of one browser looked at by leads_any (the newest)
PASSCODE_CAP = 100  # characters of TEACHER_PASSCODE (codes.secret_matches compares no more)
# The settings read from the environment: variable → (field, default, smallest allowed).
LIMIT_VARS = {
    "CLASS_MAX_PHONES": ("max_phones", 200, 1),
    "CLASS_MAX_LIVE": ("max_classes", 50, 1),
    "CLASS_MAX_STREAMS": ("max_streams", 0, 0),
    "CLASS_TTL_S": ("ttl_s", TTL_S, 10),
}


@dataclass(frozen=True)
class Settings:
    """Where phones reach this server (PUBLIC_URL wins; else the address the server listens on:
    SERVE_HOST, which `make serve` sets to nginx's HOST, else Streamlit's server.address), the
    teachers' passcode, and the caps (classroom/README.md "Settings")."""

    public_url: str = ""
    listen_host: Callable[[], str] = lambda: "127.0.0.1"
    passcode: str = ""  # TEACHER_PASSCODE: when set, starting a class needs it
    max_phones: int = 200  # phones that may join one class
    max_classes: int = 50  # classes not ended that may live at once (in this store)
    max_streams: int = 0  # event streams of this process (0: from its open-file limit)
    ttl_s: int = TTL_S  # a class expires this long after it was made

    @classmethod
    def from_env(cls, listen_host: Callable[[], str], env: Mapping[str, str] = os.environ):
        serve_host = env.get("SERVE_HOST", "")
        host = (lambda: serve_host) if serve_host else listen_host
        limits = {name: _int_setting(env, var, *rest) for var, (name, *rest) in LIMIT_VARS.items()}
        public = env.get("PUBLIC_URL", "").strip()
        passcode = env.get("TEACHER_PASSCODE", "")
        if len(passcode) > PASSCODE_CAP:
            raise ValueError(f"TEACHER_PASSCODE: at most {PASSCODE_CAP} characters")
        return cls(public, host, passcode, **limits)

    def exposed(self) -> bool:
        """True when browsers beyond this machine may reach the server: PUBLIC_URL is set, or it
        listens on an address other than loopback (all addresses included)."""
        return bool(self.public_url) or not is_loopback(self.listen_host() or "")

    def stream_cap(self) -> int:
        """Event streams this process may hold: CLASS_MAX_STREAMS, never above what its own
        open-file limit allows (classroom/limits.py stream_cap)."""
        own = stream_cap(open_file_limit())
        return min(self.max_streams, own) if self.max_streams else own


def _int_setting(env: Mapping[str, str], var: str, default: int, least: int) -> int:
    raw = env.get(var, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or int(raw) < least:
        raise ValueError(f"{var}={raw!r}: a whole number of at least {least} is needed")
    return int(raw)


class Classroom:
    """The class service: the routes (classroom/routes.py) call it; pages call is_teacher()."""

    def __init__(
        self, store: Store, settings: Settings | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.clock = clock
        self.limits = Limits()
        self.hub = Hub(self, max_streams=self.settings.stream_cap())
        self._key: bytes | None = None
        self._key_read = 0.0  # time.monotonic() of the last read of the signing key

    @classmethod
    def from_env(cls, listen_host: Callable[[], str] = lambda: "127.0.0.1") -> Classroom:
        """Redis when REDIS_URL is set (several processes), else memory (one process)."""
        url = os.environ.get("REDIS_URL", "").strip()
        settings = Settings.from_env(listen_host)
        if url:
            from classroom.redis_store import RedisStore

            return cls(RedisStore(url), settings)
        return cls(MemoryStore(), settings)

    # ---- the teacher ---------------------------------------------------------------------------

    def create(self, patch: dict, secret: str) -> dict:
        """A new class under a free random code, led by whoever holds `secret`."""
        for _ in range(CODE_ATTEMPTS):
            state = new_state(new_code(), self.clock(), patch, self.settings.ttl_s)
            if self.store.create(state, secret_hash(secret), self.settings.max_classes):
                return state
        raise ClassError("busy", "no free join code was found")

    def passcode_ok(self, given: object) -> bool:
        """True when no passcode is set, or `given` is it (constant-time comparison)."""
        want = self.settings.passcode
        return not want or (isinstance(given, str) and secret_matches(given, secret_hash(want)))

    def leads(self, code: str, secret: str | None) -> bool:
        """True when `secret` is class CODE's teacher's (False without a secret: no lookup)."""
        return bool(secret) and secret_matches(secret, self.store.lead_hash(code))

    def summary(self, code: str) -> dict:
        """The class's summary (classroom/summary.py); ClassError no_class."""
        state, record = self.store.get(code), self.store.record(code)
        if state is None or record is None:
            raise ClassError("no_class")
        return summary.class_summary(state, record)

    def join(self, code: str, host_header: str, scheme: str) -> Join:
        """Class CODE's join link for a request that came in on `host_header`."""
        origin = public_origin(
            host_header,
            scheme,
            public_url=self.settings.public_url,
            listen_host=self.settings.listen_host(),
        )
        return join_link(code, origin)

    # ---- phones --------------------------------------------------------------------------------

    def now(self) -> float:
        return self.clock()

    def _ms(self, ahead_s: float = 0.0) -> int:
        return int((self.clock() + ahead_s) * 1000)

    def signing_key(self) -> bytes:
        """(A worker thread: it may ask the store.) The key that signs phones' tokens."""
        if self._key is None:
            self._read_key()
        return self._key

    def _read_key(self) -> None:
        self._key, self._key_read = self.store.signing_key(), time.monotonic()

    def admit(self, code: str, phone: str) -> tuple[dict, str]:
        """(A worker thread.) Phone `phone` joins class CODE: (the state, its signed token)."""
        state, _ = self.store.join(code, phone, self.settings.max_phones, self._ms(LEASE_S))
        return state, tokens.sign(self.signing_key(), code, phone, int(self.clock()))

    def phone_of(self, code: str, token: object) -> str | None:
        """The phone id of a token signed for class CODE (None: forged, another class's, too
        old). Never waits for the store: a well-formed token that fails has the key read again
        in the background (at most every KEY_RECHECK_S: a Redis that lost its key and got
        another from a process that started since)."""
        key = self._key
        age = self.settings.ttl_s + ENDED_GRACE_S
        found = key and tokens.phone_of(key, code, token, self.clock(), age)
        if found:
            return found
        stale = time.monotonic() - self._key_read >= KEY_RECHECK_S
        if stale and isinstance(token, str) and tokens.TOKEN_RE.fullmatch(token[:TOKEN_CAP]):
            self._key_read = time.monotonic()
            threading.Thread(target=self._key_again, daemon=True).start()
        return None

    def _key_again(self) -> None:
        with contextlib.suppress(ClassError):
            self._read_key()

    def answer(self, code: str, question: str, phone: str, choice: str) -> str:
        return self.store.answer(code, question, phone, choice, self._ms(LEASE_S))

    # ---- the hub's source (classroom/hub.py Source) ----------------------------------------------

    def refresh(self, code: str, *, room: bool = False) -> list[dict]:
        try:
            state = self.store.get(code)
            if state is None:
                return [{"kind": "gone", "code": code}]
            messages = [{"kind": "state", "state": state}]
            question = (state["question"] or {}).get("id")
            if question is not None:
                messages.append(tally_message(state, question, *self.store.tally(code, question)))
            if room:
                messages.append({"kind": "counts", "code": code, "room": self.room(code)})
            return messages
        except ClassError:
            return [{"kind": "store", "ok": False}]

    def room(self, code: str) -> dict[str, int]:
        """{"joined": phones that joined, "following": phones following now} (README "M")."""
        return self.store.room(code, self._ms())

    def lease(self, code: str, phones: list[str]) -> int:
        until = self._ms(LEASE_S)
        self.store.lease(code, phones, until)
        return until

    def release(self, code: str, phone: str, stamp: int) -> None:
        self.store.release(code, phone, stamp, self._ms(GRACE_S))

    def announce(self, message: dict) -> None:
        self.store.announce(message)

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: object) -> AsyncIterator[None]:
        """Start listening to the store; on the way out end every stream, then stop."""
        global _running
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ClassError):  # a Redis that is down: read when it is back
            await loop.run_in_executor(None, self.signing_key)
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


def leads_any(cookies: Mapping[str, str]) -> bool:
    """For a page: does this browser lead any class that still lives (one of its teacher's
    cookies holds a live class's secret)? False when unsure."""
    codes = [
        normal_code(name[len(COOKIE_PREFIX) :])
        for name in cookies
        if name.startswith(COOKIE_PREFIX)
    ]
    return any(is_teacher(code, cookies) for code in codes[-LEAD_COOKIES:] if code)


def exposed(listen_host: str) -> bool:
    """For a page: may browsers beyond this machine reach this server? (PUBLIC_URL, SERVE_HOST,
    else `listen_host`: Streamlit's server.address.) The running service's settings when there
    is one."""
    service = running()
    settings = service.settings if service else Settings.from_env(lambda: listen_host)
    return settings.exposed()


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
