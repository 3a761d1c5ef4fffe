"""Chrome traces of a τ drag: the renderer main thread's CPU, and the frames Chromium presented
with the page's update (bench/ui_latency.py's "presented frames" and "browser CPU" rows)."""

from __future__ import annotations

import itertools
import json

CATEGORIES = [
    "devtools.timeline",
    "disabled-by-default-devtools.timeline",
    "toplevel",
    "benchmark",  # PipelineReporter: each frame the compositor presented, and with what
    "disabled-by-default-devtools.timeline.frame",
    "input",
]
DRAG_TAIL_US = 100_000  # presented frames counted until 0.1 s after the last mouse move


def main_thread_cpu_ms(trace: bytes) -> float:
    """CPU (thread time) of the renderer main threads' top-level tasks in a Chrome trace."""
    events = json.loads(trace)["traceEvents"]
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e["name"] == "thread_name"
        if e["args"].get("name") == "CrRendererMain"
    }
    return sum(
        e["tdur"] / 1000
        for e in events
        if e.get("ph") == "X" and e["name"] == "RunTask" and "tdur" in e
        if (e["pid"], e["tid"]) in main
    )


def presented_intervals(trace: bytes) -> list[float]:
    """Intervals (ms) between the frames Chromium presented with the page's main-thread update
    (PipelineReporter state STATE_PRESENTED_ALL) from the first to 0.1 s after the last mouse
    move of a drag. PRESENTED_PARTIAL frames (the compositor went on without the page's new
    drawing) and DROPPED ones are not counted, so a slow draw shows as a longer interval."""
    events = json.loads(trace)["traceEvents"]
    moves = [e["ts"] for e in events if e["name"].startswith("InputLatency::MouseMove")]
    if not moves:
        moves = [e["ts"] for e in events if e["name"] == "EventDispatch"]
    return presented_between(events, min(moves), max(moves) + DRAG_TAIL_US)


def presented_between(events: list[dict], lo: float, hi: float) -> list[float]:
    """Intervals (ms) between the frames Chromium presented with the page's main-thread update
    (PipelineReporter STATE_PRESENTED_ALL) with timestamps lo … hi (µs, the trace's clock)."""
    hosts: dict[int, list[int]] = {}
    for e in events:
        if e["name"] != "PipelineReporter" or e.get("ph") != "b":
            continue
        frame = e.get("args", {}).get("frame_reporter", {})
        if frame.get("state") == "STATE_PRESENTED_ALL" and lo <= e["ts"] <= hi:
            hosts.setdefault(frame.get("layer_tree_host_id", 0), []).append(e["ts"])
    stamps = sorted(max(hosts.values(), key=len)) if hosts else []
    return [(b - a) / 1000 for a, b in itertools.pairwise(stamps)]
