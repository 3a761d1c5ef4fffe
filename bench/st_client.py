"""A minimal Streamlit websocket client speaking the app's own protobuf protocol (for load tests).

It does what the browser's frontend does, and no more:

1. GET `/_stcore/health` (and `/_stcore/host-config`) to receive the `_streamlit_xsrf` cookie
   (and, behind `make serve`'s nginx, its sticky-session cookie), keeping every cookie as a
   browser does;
2. open `ws://HOST:PORT/_stcore/stream` with the subprotocols
   `["streamlit", <xsrf cookie or "PLACEHOLDER_AUTH_TOKEN">]` (plus the last session id when
   reconnecting), the cookies and a same-origin `Origin` header;
3. send a `BackMsg.rerun_script` (a `ClientState` with the query string, the current page's
   script hash and *all* widget values it knows, keyed by widget id);
4. read `ForwardMsg`s (new_session, navigation, page_info_changed, deltas …) until
   `script_finished` for that run.

Widgets are found by their user `key`: Streamlit's widget ids look like `$$ID-<hash>-<key>`.
A widget inside an `st.fragment` is rerun as that fragment, as the browser does. Large elements
are cached as the frontend caches them (bench/st_cache.py): each rerun lists the hashes held,
and the server answers those with a reference instead of the element.

Usage (inside asyncio):

    async with StreamlitSession("http://127.0.0.1:8501", query_string="s=hi") as session:
        first = await session.connect()          # RunResult of the first run
        run = await session.set_widgets(pos=True, heads="4")
        print(run.elapsed, run.exceptions, run.text[:200])
        run = await session.connect()            # again, after the server dropped it (as a page)
"""

from __future__ import annotations

import asyncio
import json
import struct
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.Slider_pb2 import Slider
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from bench.st_cache import CacheMiss, MessageCache

XSRF_COOKIE = "_streamlit_xsrf"
NO_TOKEN = "PLACEHOLDER_AUTH_TOKEN"  # what the frontend sends when it has no xsrf cookie
EARLY = ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN
COMPILE_ERROR = ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR
MAX_FRAME = 256 * 2**20  # bytes; Streamlit's own server.maxMessageSize default is 200 MB

# Element field → text a person would read in it (used for cross-talk checks).
_TEXT_FIELDS = {
    **dict.fromkeys(("markdown", "alert", "text", "heading", "json"), ("body",)),
    "code": ("code_text",),
    "plotly_chart": ("spec",),
    "exception": ("type", "message"),
    **dict.fromkeys(("text_input", "text_area"), ("label", "value")),
}
# Widget kind → WidgetState value field (as in streamlit/elements/widgets/*: value_type=…).
_VALUE_FIELD = {
    "checkbox": "bool_value",
    **dict.fromkeys(
        ("text_input", "text_area", "selectbox", "radio", "color_picker"), "string_value"
    ),
    "number_input": "double_value",
    "slider": "double_array_value",
    **dict.fromkeys(("select_slider", "multiselect", "button_group"), "string_array_value"),
    "button": "trigger_value",
    "bidi_component": "json_value",  # a components-v2 element's state, e.g. the attention view's
}
VIEW_MAGIC = b"ALV1"  # ui/explorer's payload: magic, uint32 header length, header JSON, scores


class SessionError(RuntimeError):
    """The server closed the connection or did not finish a run in time."""


@dataclass(frozen=True)
class Widget:
    """A widget seen in the last run: its Streamlit id, kind, fragment and element proto."""

    id: str
    kind: str
    fragment_id: str
    proto: Any


@dataclass
class RunResult:
    """What one script run sent: elements, exception elements, readable text, timing."""

    elapsed: float = 0.0  # seconds from sending the rerun to `script_finished`
    status: int = -1  # ForwardMsg.ScriptFinishedStatus value
    elements: list[Any] = field(default_factory=list)  # Element protos in arrival order
    exceptions: list[str] = field(default_factory=list)  # "Type: message" of st.exception elements
    texts: list[str] = field(default_factory=list)  # markdown/alert/plotly spec/… strings
    views: list[dict] = field(default_factory=list)  # headers of the attention view's payloads

    @property
    def text(self) -> str:
        """Everything readable this run sent, joined by newlines."""
        return "\n".join(self.texts)

    def of_kind(self, kind: str) -> list[Any]:
        """Inner protos of every element of one proto field, e.g. `run.of_kind("plotly_chart")`."""
        return [getattr(el, kind) for el in self.elements if el.WhichOneof("type") == kind]


def widget_key(widget_id: str) -> str | None:
    """The user key inside a widget id `$$ID-<hash>-<key>`, or None for keyless widgets."""
    parts = widget_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] != "None" else None


def widget_state(widget: Widget, value: Any) -> WidgetState:
    """A WidgetState carrying `value` in the field the widget's kind reads."""
    state = WidgetState(id=widget.id)
    name = _VALUE_FIELD.get(widget.kind)
    if name is None:
        raise ValueError(f"widget kind {widget.kind!r} is not supported by st_client")
    if name.endswith("_array_value"):
        values = value if isinstance(value, list | tuple) else [value]
        getattr(state, name).data.extend(values)
    elif name == "double_value":
        state.double_value = float(value)
    elif name == "string_value":
        state.string_value = str(value)
    elif name == "json_value":
        state.json_value = value if isinstance(value, str) else json.dumps(value)
    else:
        setattr(state, name, bool(value))
    return state


def cookie_header(cookies: dict[str, str]) -> dict[str, str]:
    """A `Cookie` request header carrying every cookie, or no header for none."""
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}


def fetch_cookies(
    base_url: str, cookies: dict[str, str] | None = None, timeout: float = 10.0
) -> dict[str, str]:
    """GET the health and host-config endpoints like the frontend, sending the cookies held so
    far; return them updated with every `Set-Cookie` (xsrf, and a proxy's sticky cookie)."""
    jar = dict(cookies or {})
    for path in ("/_stcore/health", "/_stcore/host-config"):
        request = urllib.request.Request(base_url + path, headers=cookie_header(jar))
        with urllib.request.urlopen(request, timeout=timeout) as response:
            for header in response.headers.get_all("Set-Cookie") or ():
                jar.update({name: morsel.value for name, morsel in SimpleCookie(header).items()})
    return jar


class StreamlitSession:
    """One browser tab's worth of Streamlit session, driven from asyncio."""

    def __init__(self, base_url: str, *, query_string: str = "") -> None:
        self.base_url = base_url.rstrip("/")
        self.query_string = query_string  # updated by the server's page_info_changed
        self.page_script_hash = ""
        self.session_id = ""
        self.widgets: dict[str, Widget] = {}  # by user key, from the latest run
        self._states: dict[str, WidgetState] = {}  # by widget id, sent with every rerun
        self.cookies: dict[str, str] = {}  # kept across reconnects, as a browser keeps them
        self._socket: Any = None
        self._inbox: asyncio.Queue[ForwardMsg | None] = asyncio.Queue()
        self._reader: asyncio.Task | None = None
        self.closed_reason: str | None = None
        self.last_view: dict | None = None  # the attention view's latest header (ui/explorer)
        self.view_seq = 0  # sequence number of the view states sent, as view.js counts them
        self.via = "sidebar"  # where a load-test client clicks (bench/load.py --via)
        self.cache = MessageCache()  # the browser's ForwardMsg cache, kept across reconnects
        self._fragment_ids: list[str] = []  # of the run under way ([] for the whole page)

    async def __aenter__(self) -> StreamlitSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self, timeout: float = 60.0) -> RunResult:
        """Open the websocket and run the page once, as a freshly loaded tab does.

        After the old websocket closed, a page whose server went away does the same: same
        cookies (so a sticky proxy picks a live process), same address bar, its widget values
        (a new process starts a new session).
        """
        await self.close()
        self._inbox = asyncio.Queue()
        host = urlsplit(self.base_url).netloc
        self.cookies = await asyncio.to_thread(fetch_cookies, self.base_url, self.cookies)
        protocols = ["streamlit", self.cookies.get(XSRF_COOKIE, NO_TOKEN)]
        if self.session_id:  # the frontend asks to resume its session when it reconnects
            protocols.append(self.session_id)
        self._socket = await ws_connect(
            f"ws://{host}/_stcore/stream",
            subprotocols=protocols,
            origin=self.base_url,
            additional_headers=cookie_header(self.cookies),
            max_size=MAX_FRAME,
            open_timeout=30,
        )
        self.closed_reason = None
        self._reader = asyncio.create_task(self._read_forever())
        return await self.rerun(timeout=timeout)

    async def _read_forever(self) -> None:
        """Parse every binary frame into a ForwardMsg; None in the inbox marks the end."""
        try:
            async for frame in self._socket:
                msg = ForwardMsg()
                msg.ParseFromString(frame)
                await self._inbox.put(self.cache.process(msg, frame))
        except ConnectionClosed as exc:
            self.closed_reason = f"closed: {exc}"
        except CacheMiss as exc:  # what makes the frontend throw: an error of this session
            self.closed_reason = f"cache miss: {exc}"
        finally:
            self.closed_reason = self.closed_reason or "closed by server"
            await self._inbox.put(None)

    async def set_widgets(self, timeout: float = 60.0, **values: Any) -> RunResult:
        """Set widgets by key (values as the user would pick them) and wait for the rerun."""
        fragments = set()
        for key, value in values.items():
            widget = self.widgets.get(key)
            if widget is None:
                raise KeyError(f"no widget with key {key!r}; seen: {sorted(self.widgets)}")
            self._states[widget.id] = widget_state(widget, value)
            fragments.add(widget.fragment_id)
        # One fragment's widgets rerun only that fragment; anything else reruns the page.
        fragment_id = fragments.pop() if len(fragments) == 1 else ""
        return await self.rerun(fragment_id=fragment_id, timeout=timeout)

    async def rerun(self, *, fragment_id: str = "", timeout: float = 60.0) -> RunResult:
        """Send `rerun_script` with every known widget value; collect the run's messages."""
        back = BackMsg()
        state = back.rerun_script
        state.query_string = self.query_string
        state.page_script_hash = self.page_script_hash
        state.fragment_id = fragment_id
        state.widget_states.widgets.extend(self._states.values())
        state.cached_message_hashes.extend(self.cache.hashes())
        self._fragment_ids = [fragment_id] if fragment_id else []
        started = time.perf_counter()
        await self._send(back.SerializeToString())
        result = await self._collect(started, timeout, full_run=not fragment_id)
        self._reset_triggers()
        return result

    async def _send(self, payload: bytes) -> None:
        if self._socket is None or self.closed_reason:
            raise SessionError(self.closed_reason or "session is not open")
        try:
            await self._socket.send(payload)
        except ConnectionClosed as exc:
            raise SessionError(f"closed while sending: {exc}") from exc

    async def _collect(self, started: float, timeout: float, *, full_run: bool) -> RunResult:
        """Read messages until this run's non-early `script_finished`."""
        result, seen_ids, kinds = RunResult(), set(), Counter()
        deadline = started + timeout
        while True:
            remaining = deadline - time.perf_counter()
            try:
                if remaining <= 0:
                    raise TimeoutError
                msg = await asyncio.wait_for(self._inbox.get(), remaining)
            except TimeoutError as exc:
                got = ", ".join(f"{k} x{n}" for k, n in kinds.items()) or "nothing"
                raise SessionError(f"run did not finish within {timeout:.0f} s; got {got}") from exc
            if msg is None:
                raise SessionError(self.closed_reason or "closed")
            kinds[msg.WhichOneof("type")] += 1
            if self._handle(msg, result, seen_ids):
                break
        result.elapsed = time.perf_counter() - started
        if full_run and result.status != COMPILE_ERROR:
            self._forget_unseen(seen_ids)
        return result

    def _handle(self, msg: ForwardMsg, result: RunResult, seen_ids: set[str]) -> bool:
        """Apply one ForwardMsg; True when it ends the run."""
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self.session_id = msg.new_session.initialize.session_id or self.session_id
            self.page_script_hash = msg.new_session.page_script_hash or self.page_script_hash
        elif kind == "navigation":
            self.page_script_hash = msg.navigation.page_script_hash or self.page_script_hash
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            self._element(msg.delta.new_element, msg.delta.fragment_id, result, seen_ids)
        elif kind == "script_finished" and msg.script_finished != EARLY:
            result.status = msg.script_finished
            self.cache.finished(self._fragment_ids)
            return True
        return False

    def _element(self, element: Any, fragment_id: str, result: RunResult, seen: set[str]) -> None:
        """Record an element's text, exceptions and (for widgets) its id by key."""
        kind = element.WhichOneof("type")
        inner = getattr(element, kind) if kind else None
        if kind == "slider" and inner.type == Slider.Type.SELECT_SLIDER:
            kind = "select_slider"  # same proto, but its values are option labels
        result.elements.append(element)
        for name in _TEXT_FIELDS.get(kind, ()):
            result.texts.append(str(getattr(inner, name)))
        if kind == "exception":
            result.exceptions.append(f"{inner.type}: {inner.message}")
        if kind == "bidi_component" and inner.bytes[:4] == VIEW_MAGIC:
            (size,) = struct.unpack("<I", inner.bytes[4:8])
            header = inner.bytes[8 : 8 + size].decode()
            result.views.append(json.loads(header))
            self.last_view = result.views[-1]
            result.texts.append(header)
        widget_id = getattr(inner, "id", "") if kind in _VALUE_FIELD else ""
        if widget_id:
            seen.add(widget_id)
            key = widget_key(widget_id)
            if key is not None:
                self.widgets[key] = Widget(widget_id, kind, fragment_id, inner)

    def _forget_unseen(self, seen_ids: set[str]) -> None:
        """After a full run, drop widgets that were not drawn (the frontend does the same)."""
        self._states = {i: s for i, s in self._states.items() if i in seen_ids}
        self.widgets = {k: w for k, w in self.widgets.items() if w.id in seen_ids}

    def _reset_triggers(self) -> None:
        """Buttons are one-shot: their trigger is not sent again."""
        self._states = {
            i: s for i, s in self._states.items() if s.WhichOneof("value") != "trigger_value"
        }

    async def close(self) -> None:
        """Close the websocket and stop the reader."""
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        self._socket = None
