"""Latency by pixels: Chromium's screencast, the maps' region of a page, inputs on one clock.

The method (frames, region, stillness, clock) is BENCHMARKS.md's "latency (pixels)" row. The
clock: a frame's `metadata.timestamp` is the wall clock of Python's `time.time()` (DevTools builds
it from `base::Time`, content/browser/devtools/protocol/page_handler.cc), the frame's begin-frame
time on the 60 Hz grid, so a latency `frame stamp − input time` has a resolution of one frame.
"""

from __future__ import annotations

import base64
import io
import itertools
import math
import time
from dataclasses import dataclass, field
from pathlib import Path

QUIET_S = 0.8  # the page stayed still this long: whatever it does for this input is drawn
SETTLE_TIMEOUT_S = 60.0  # a sample that does not settle by then is a failure, said so
START_QUIET_S = 0.3  # before an input: the screencast's first frame, then this long still
LAG_MARGIN_S = 0.2  # added to the longest capture → arrival delay seen, when judging stillness
MIN_SIDE_PX = 32  # smaller SVGs/canvases are icons, not maps
# A frame changes the region when ≥ MIN_PIXELS of its pixels moved by > PIXEL_DELTA (of 255) in
# some channel. Below that is compositing noise: while a rerun runs, Streamlit composites stale
# elements in a layer of their own, which re-rasterises antialiased edges at fractional offsets
# (seen: ≤ 17 levels on ~40 pixels of a map's labels; ≤ 8 levels over a plotly colour bar).
PIXEL_DELTA = 8
MIN_PIXELS = 64
CAST = {  # Page.startScreencast parameters
    "format": "png",
    "everyNthFrame": 1,
    "maxFramesInFlight": 4,  # acks come back within ms; 4 keeps encoding, not acking, the limit
    "sendLastFrame": True,  # the last frame of a burst is held and sent on ack, never dropped
}

REGION_JS = """(minSide) => {
  const main = document.querySelector('[data-testid="stMain"]') || document.body;
  const m = main.getBoundingClientRect();
  const left = Math.max(0, m.left), top = Math.max(0, m.top);
  const right = Math.min(innerWidth, m.right), bottom = Math.min(innerHeight, m.bottom);
  const rects = [];
  const visit = (root) => {
    for (const e of root.querySelectorAll('.js-plotly-plot, canvas, svg')) {
      if (e.parentElement && e.parentElement.closest('.js-plotly-plot')) continue;
      const r = e.getBoundingClientRect();
      if (r.width < minSide || r.height < minSide) continue;
      if (getComputedStyle(e).visibility === 'hidden') continue;
      const x0 = Math.max(left, r.left), y0 = Math.max(top, r.top);
      const x1 = Math.min(right, r.right), y1 = Math.min(bottom, r.bottom);
      if (x1 - x0 >= 1 && y1 - y0 >= 1) rects.push([x0, y0, x1, y1].map(Math.round));
    }
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) visit(e.shadowRoot);
  };
  visit(main);
  return rects;
}"""

BUSY_JS = """() => {
  const stale = document.querySelector('[data-stale="true"]');
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  return !!stale || (status !== null && status.innerText.trim().length > 0);
}"""

CLICK_IN_PAGE_JS = """(el) => { const t = Date.now(); el.click(); return t; }"""


@dataclass
class Frame:
    """One screencast frame: when it was captured, and its PNG."""

    stamp: float  # metadata.timestamp, wall clock (s)
    png: bytes
    width_css: float  # metadata.deviceWidth: CSS px across the frame


@dataclass
class Sample:
    """What one interaction did to the maps' region."""

    latency_ms: float  # input → last frame in which the region changed (NaN: none changed)
    first_ms: float  # input → first frame in which it changed
    changed: list[float] = field(default_factory=list)  # stamps of the changing frames
    frames: int = 0  # frames received after the input


class Screencast:
    """Chromium's screencast of one page, with prompt acks; its frames and websocket messages."""

    def __init__(self, page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("Page.screencastFrame", self._on_frame)
        self.frames: list[Frame] = []
        self.last_arrival = 0.0
        self.last_stamp = 0.0  # capture time of the newest frame
        self.lag = 0.0  # the longest capture → arrival delay seen since start()
        self.messages = 0  # websocket frames from the server since mark()
        self.last_message = 0.0
        self.received = 0  # bytes of every server websocket frame, as delivered (decompressed)
        page.on("websocket", lambda ws: ws.on("framereceived", self._on_message))
        self.casting = False

    def _on_frame(self, event: dict) -> None:
        post(self.cdp, "Page.screencastFrameAck", {"sessionId": event["sessionId"]}, check=False)
        meta = event["metadata"]
        now = time.time()
        stamp = meta.get("timestamp") or now
        png = base64.b64decode(event["data"])
        self.frames.append(Frame(stamp, png, float(meta.get("deviceWidth") or 0)))
        self.last_arrival = now
        self.last_stamp = max(self.last_stamp, stamp)
        self.lag = max(self.lag, now - stamp)

    def _on_message(self, payload) -> None:
        self.received += len(payload.encode() if isinstance(payload, str) else payload)
        self.messages += 1
        self.last_message = time.time()

    def start(self) -> None:
        """Start casting; wait for the first frame and START_QUIET_S of stillness."""
        self.frames.clear()
        self.lag = 0.0
        self.cdp.send("Page.startScreencast", CAST)
        self.casting = True
        deadline = time.time() + 20
        while not self.frames or time.time() - self.last_arrival < START_QUIET_S:
            if time.time() > deadline:
                got = len(self.frames)
                raise TimeoutError(f"screencast: page not still before the input ({got} frames)")
            self.page.wait_for_timeout(20)

    def stop(self) -> None:
        """Stop casting, once every posted command (inputs, acks) was answered."""
        flush(self.page)
        if self.casting:
            self.cdp.send("Page.stopScreencast")
            self.casting = False

    def around(self, act, need_message: bool = True, then=None) -> float:
        """Cast from a still page through act() (it gives the input time) until the page is still
        again and then(page) returned; the input time (the frames are in self.frames)."""
        self.start()
        try:
            self.mark()
            t = act()
            self.settle(t, need_message)
            if then is not None:
                then(self.page)
            return t
        finally:
            self.stop()

    def mark(self) -> None:
        """Count the server's websocket messages from now on."""
        self.messages = 0

    def settle(self, since: float, need_message: bool = True) -> None:
        """Wait until the page has been still for QUIET_S after the input at `since`.

        Still = no frame captured, no server message and no running script for QUIET_S. A frame
        reaches us `lag` after its capture (PNG encoding, the driver; up to ~0.7 s on a loaded
        machine), so stillness is only known up to `now − lag − LAG_MARGIN_S`.
        """
        deadline = time.time() + SETTLE_TIMEOUT_S
        while True:
            self.page.wait_for_timeout(50)
            now = time.time()
            known = now - self.lag - LAG_MARGIN_S  # every frame captured before this is here
            frames_still = known - max(self.last_stamp, since) >= QUIET_S
            quiet = frames_still and now - max(self.last_message, since) >= QUIET_S
            if quiet and (self.messages or not need_message) and not self.page.evaluate(BUSY_JS):
                return
            if now > deadline:
                raise TimeoutError(
                    f"screencast: page not still {SETTLE_TIMEOUT_S:.0f} s after the input "
                    f"({len(self.frames)} frames, {self.messages} server messages)"
                )


# --- the maps' region ------------------------------------------------------------------------


def region(page) -> list[tuple[int, int, int, int]]:
    """Visible plots/canvases/SVGs of the main area (CSS px, viewport coordinates)."""
    return [tuple(r) for r in page.evaluate(REGION_JS, MIN_SIDE_PX)]


def crops(frame: Frame, rects) -> list:
    """The frame's pixels inside each rectangle (PIL images, RGB)."""
    from PIL import Image

    image = Image.open(io.BytesIO(frame.png)).convert("RGB")
    scale = image.width / frame.width_css if frame.width_css else 1.0
    return [image.crop(tuple(round(v * scale) for v in r)) for r in rects]


def differs(before: list, after: list, exact: bool = False) -> bool:
    """True when ≥ MIN_PIXELS pixels of the region moved by > PIXEL_DELTA in some channel.

    exact: any pixel that differs (for a drag, where no rerun composites anything and a step of
    τ may move every colour by less than PIXEL_DELTA).
    """
    from PIL import ImageChops

    moved = 0
    for a, b in zip(before, after, strict=True):
        if a.tobytes() == b.tobytes():
            continue
        if exact:
            return True
        red, green, blue = ImageChops.difference(a, b).split()
        most = ImageChops.lighter(ImageChops.lighter(red, green), blue)  # (h, w) max channel
        moved += sum(most.histogram()[PIXEL_DELTA + 1 :])
        if moved >= MIN_PIXELS:
            return True
    return False


def changes(frames: list[Frame], rects, dump: str = "", exact: bool = False) -> list[float]:
    """Stamps of the frames (after the first, the reference) whose region differs from before.

    Frames are taken in capture order: with several frames in flight Chromium encodes them in
    parallel and may deliver them out of order. dump: a path prefix; each changing frame is
    written there as PNG (BENCH_FRAMES, to look at).
    """
    if not frames:
        return []
    frames = sorted(frames, key=lambda f: f.stamp)  # stable: ties keep their arrival order
    out, prev = [], crops(frames[0], rects)
    if dump:
        Path(dump + "-ref.png").write_bytes(frames[0].png)
    for frame in frames[1:]:
        now = crops(frame, rects)
        if differs(prev, now, exact):
            out.append(frame.stamp)
            if dump:
                Path(f"{dump}-{len(out)}.png").write_bytes(frame.png)
        prev = now
    return out


def sample_of(
    frames: list[Frame], rects, t_input: float, dump: str = "", exact: bool = False
) -> Sample:
    """The region's changes after the input (compared with the last frame captured before it)."""
    frames = sorted(frames, key=lambda f: f.stamp)
    after = [f for f in frames[1:] if f.stamp >= t_input]
    before = [f for f in frames if f.stamp < t_input][-1:] or frames[:1]
    stamps = changes(before + after, rects, dump, exact)
    if not stamps:
        return Sample(math.nan, math.nan, [], len(after))
    ms = [(s - t_input) * 1000 for s in stamps]
    return Sample(ms[-1], ms[0], stamps, len(after))


# --- inputs through CDP (one clock: time.time() just before the command) ----------------------


def centre(page, selector: str) -> tuple[float, float]:
    """The viewport centre of the first element matching selector (shadow roots pierced)."""
    box = page.locator(selector).first.bounding_box()
    if box is None:
        raise RuntimeError(f"{selector}: not on the page")
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def post(cdp, method: str, params: dict, check: bool = True) -> None:
    """Send a CDP command without waiting for its reply, as a device sends input.

    `CDPSession.send` of the sync API waits for the reply, and Chromium replies to an input
    event only once the renderer has handled it: a drag would then go at the renderer's pace,
    not the hand's. This queues the command on the sync API's own event loop instead (a private
    attribute of Playwright's sync wrapper); it is sent at the next wait and runs in order.
    """
    task = cdp._loop.create_task(cdp._impl_obj.send(method, params, None))
    if check:
        task.add_done_callback(_raise_later)
    PENDING[:] = [t for t in PENDING if not t.done()] + [task]


PENDING: list = []  # posted commands not yet answered


def _raise_later(task) -> None:
    if not task.cancelled() and task.exception() is not None:
        FAILED.append(task.exception())


FAILED: list = []


def flush(page) -> None:
    """Wait until every posted command was answered; raise the first failure."""
    while any(not t.done() for t in PENDING):
        page.wait_for_timeout(10)
    PENDING.clear()
    if FAILED:
        error = FAILED[0]
        FAILED.clear()
        raise RuntimeError(f"a CDP input command failed: {error}")


def mouse(cdp, kind: str, x: float, y: float, pressed: bool = False) -> None:
    """One Input.dispatchMouseEvent (left button), posted."""
    event = {"type": kind, "x": x, "y": y, "button": "left", "buttons": 1 if pressed else 0}
    if kind != "mouseMoved":
        event["clickCount"] = 1
    post(cdp, "Input.dispatchMouseEvent", event)


def click(cdp, x: float, y: float) -> float:
    """A left click at (x, y); returns the input time."""
    mouse(cdp, "mouseMoved", x, y)
    t = time.time()
    mouse(cdp, "mousePressed", x, y, pressed=True)
    mouse(cdp, "mouseReleased", x, y)
    return t


KEYS = {"ArrowLeft": 37, "ArrowRight": 39, "Enter": 13}


def key(cdp, name: str) -> float:
    """One key press (keyDown + keyUp) to the focused element; returns the input time."""
    code = KEYS[name]
    t = time.time()
    for kind in ("rawKeyDown", "keyUp"):
        event = {"type": kind, "key": name, "code": name, "windowsVirtualKeyCode": code}
        post(cdp, "Input.dispatchKeyEvent", event)
    return t


def click_in_page(page, selector: str) -> float:
    """element.click() inside the page (no hit test: the element may be off-screen).

    Returns the page's Date.now() just before the click, in seconds: the same wall clock.
    """
    return page.locator(selector).first.evaluate(CLICK_IN_PAGE_JS) / 1000


def gaps_ms(stamps: list[float]) -> list[float]:
    """Intervals between consecutive stamps, in ms."""
    return [(b - a) * 1000 for a, b in itertools.pairwise(stamps)]


CANVAS_PAGE = """<canvas id="c" width="790" height="420"></canvas><script>
const ctx = document.getElementById("c").getContext("2d"); window.frames_drawn = 0;
(function draw() {
  const k = ++window.frames_drawn;
  ctx.fillStyle = `hsl(${(k * 37) % 360}, 70%, 50%)`; ctx.fillRect(0, 0, 790, 420);
  requestAnimationFrame(draw);
})();
</script>"""


def ceiling(browser, viewport: dict, seconds: float = 2.0) -> tuple[list[float], float]:
    """Frame intervals of a canvas redrawn on every animation frame, and its draws per s: the
    shortest intervals the screencast can show on this machine at this moment."""
    page = browser.new_page(viewport=viewport)
    try:
        page.set_content(CANVAS_PAGE)
        cast = Screencast(page)
        box = page.locator("#c").bounding_box()
        rects = [(0, 0, round(box["x"] + box["width"]), round(box["y"] + box["height"]))]
        cast.cdp.send("Page.startScreencast", CAST)
        cast.casting = True
        page.wait_for_timeout(300)
        drawn0, t0 = page.evaluate("window.frames_drawn"), time.time()
        cast.frames.clear()
        page.wait_for_timeout(seconds * 1000)
        drawn = (page.evaluate("window.frames_drawn") - drawn0) / (time.time() - t0)
        cast.stop()
        stamps = changes(cast.frames, rects, exact=True)
        return gaps_ms(stamps), drawn
    finally:
        page.close()
