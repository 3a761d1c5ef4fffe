"""The attention view in a page and the τ drag measured on it (bench/ui_latency.py's "τ drag"
rows): the view scrolled under Streamlit's header, how often it drew, a drag across the τ
slider's track with the screencast's changing frames, and the same drag traced for the
renderer's CPU per draw and the frames Chromium presented."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench import screencast as sc
from bench import trace
from bench.common import Case, percentile


@dataclass
class Subject:
    """One open page (bench/ui_latency.py opens them): its name, page, screencast and samples per
    interaction."""

    name: str  # "baseline" or a case name
    page: object
    cast: sc.Screencast
    case: Case | None = None
    samples: dict[str, list[sc.Sample]] = field(default_factory=dict)
    failures: int = 0  # samples that never settled
    dumps: int = 0  # samples measured (names the BENCH_FRAMES files)


VERBOSE = os.environ.get("BENCH_VERBOSE") == "1"
HEADER_PX = 72  # Streamlit's header (64 px, transparent, on top of the main area) and a margin
DRAG_S, DRAG_STEPS = 1.5, 90
DRAG_TAIL_S = 0.1  # frames this soon after the release still show moves the renderer queued
VIEW = '[data-testid="explorer"]'
SCROLL_JS = """(e, top) => {
  const main = document.querySelector('[data-testid="stMain"]');
  main.scrollTop += e.getBoundingClientRect().top - top;
}"""


def scroll_to(selector: str, top: float = HEADER_PX) -> Callable:
    """prepare(): scroll the main area so selector's top is `top` px below the viewport top."""
    return lambda page: page.locator(selector).first.evaluate(SCROLL_JS, top)


def renders(page) -> int:
    """How many times the view has drawn itself (its root's data-renders)."""
    return int(page.locator(VIEW).first.get_attribute("data-renders") or 0)


@dataclass
class Drag:
    """Where a τ drag goes: the thumb's centre to one end of the track, at height y."""

    x_from: float
    x_to: float
    y: float


def drag_path(sub: Subject, leftwards: bool) -> Drag:
    """prepare(): the page in front, the view under the header, the mouse over the τ slider's
    thumb; the way from there to the far end."""
    page = sub.page
    page.bring_to_front()
    scroll_to(VIEW)(page)
    slider = page.locator('[data-testid="explorer-tau"]').first
    box = slider.bounding_box()
    left, right = box["x"] + 4, box["x"] + box["width"] - 4
    value = float(slider.input_value()) / 1000  # the range input's value, 0 … 1000
    y = box["y"] + box["height"] / 2
    path = Drag(left + value * (right - left), left if leftwards else right, y)
    sc.mouse(sub.cast.cdp, "mouseMoved", path.x_from, path.y)
    return path


def drag_moves(page, cdp, path: Drag) -> tuple[float, float, int]:
    """Press, DRAG_STEPS moves over DRAG_S, release; (press time, release time, view draws)."""
    drawn = renders(page)
    t_press = time.time()
    sc.mouse(cdp, "mousePressed", path.x_from, path.y, pressed=True)
    for i in range(1, DRAG_STEPS + 1):
        wait = t_press + i * DRAG_S / DRAG_STEPS - time.time()
        if wait > 0:
            page.wait_for_timeout(wait * 1000)
        x = path.x_from + (path.x_to - path.x_from) * i / DRAG_STEPS
        sc.mouse(cdp, "mouseMoved", x, path.y, pressed=True)
    drawn = renders(page) - drawn
    t_release = time.time()
    sc.mouse(cdp, "mouseReleased", path.x_to, path.y)
    return t_press, t_release, drawn


def drag(sub: Subject, leftwards: bool) -> tuple[list[float], float]:
    """One τ drag across the slider's track: (intervals between changing frames in ms, the
    view's own draws per second during the drag)."""
    page, cast = sub.page, sub.cast
    path = drag_path(sub, leftwards)
    rects = sc.region(page)
    cast.start()
    try:
        cast.mark()
        t_press, t_release, drawn = drag_moves(page, cast.cdp, path)
        cast.settle(t_press)
    finally:
        cast.stop()
    changed = sc.sample_of(cast.frames, rects, t_press, exact=True).changed
    stamps = [s for s in changed if s <= t_release + DRAG_TAIL_S]
    intervals = sc.gaps_ms(stamps)
    rate = drawn / (t_release - t_press)
    if VERBOSE:
        print(
            f"  {sub.name:18} τ drag: {len(stamps)} changing frames, {drawn} draws in "
            f"{t_release - t_press:.2f} s, interval p50 {percentile(intervals, 50):.1f} ms "
            f"p95 {percentile(intervals, 95):.1f} ms"
        )
    return intervals, rate


def drag_cpu(browser, sub: Subject, leftwards: bool) -> tuple[float, list[float]]:
    """One traced τ drag (no screencast): renderer main-thread CPU per view draw, and the
    intervals between the frames Chromium presented with the view's new drawing.

    Thread time, not wall time: what a quiet machine would need per frame (a 30 fps drag needs
    well under 33 ms), far less inflated by other load than the frame intervals. The presented
    frames are the trace's own count (cc's PipelineReporter), free of the screencast's PNG
    encoding, which on 2 cores takes CPU from the page it watches.
    """
    page, cast = sub.page, sub.cast
    path = drag_path(sub, leftwards)
    browser.start_tracing(page=page, categories=trace.CATEGORIES)
    try:
        cast.mark()
        t_press, _, drawn = drag_moves(page, cast.cdp, path)
        sc.flush(page)
    finally:
        chrome = browser.stop_tracing()
    cast.settle(t_press)
    return trace.main_thread_cpu_ms(chrome) / max(drawn, 1), trace.presented_intervals(chrome)
