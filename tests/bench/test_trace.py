"""bench/trace.py's reading of a Chrome trace: the frames Chromium presented in a τ drag."""

from __future__ import annotations

import json

from bench.trace import presented_intervals


def frame(ts: int, state: str, host: int = 2) -> dict:
    report = {"state": state, "layer_tree_host_id": host}
    return {"name": "PipelineReporter", "ph": "b", "ts": ts, "args": {"frame_reporter": report}}


def move(ts: int) -> dict:
    return {"name": "InputLatency::MouseMove", "ph": "X", "ts": ts}


def trace(*events: dict) -> bytes:
    return json.dumps({"traceEvents": list(events)}).encode()


def test_only_frames_with_the_pages_update_count():
    ms = 1000  # trace timestamps are µs
    events = trace(
        move(0),
        frame(10 * ms, "STATE_PRESENTED_ALL"),
        frame(27 * ms, "STATE_PRESENTED_PARTIAL"),  # the compositor went on without the page
        frame(43 * ms, "STATE_PRESENTED_ALL"),
        frame(60 * ms, "STATE_DROPPED"),
        frame(77 * ms, "STATE_PRESENTED_ALL"),
        move(80 * ms),
    )
    assert presented_intervals(events) == [33.0, 34.0]


def test_frames_outside_the_drag_and_of_other_hosts_are_left_out():
    ms = 1000
    events = trace(
        frame(-500 * ms, "STATE_PRESENTED_ALL"),  # before the first move
        move(0),
        frame(5 * ms, "STATE_PRESENTED_ALL"),
        frame(10 * ms, "STATE_PRESENTED_ALL", host=7),  # another layer tree, fewer frames
        frame(22 * ms, "STATE_PRESENTED_ALL"),
        move(30 * ms),
        frame(130 * ms, "STATE_PRESENTED_ALL"),  # within 0.1 s of the last move
        frame(131 * ms, "STATE_PRESENTED_ALL"),  # after it
        {"name": "PipelineReporter", "ph": "e", "ts": 140 * ms},
    )
    assert presented_intervals(events) == [17.0, 108.0]


def test_no_frames_no_intervals():
    assert presented_intervals(trace(move(0), move(10))) == []
