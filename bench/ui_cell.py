"""Why this cell, by pixels: selecting a cell → its breakdown drawn, and a τ drag with the
breakdown and the query–key map open, against bench/baseline_app.py in the same run.

Method: bench/ui_latency.py's (Chromium's screencast; latency = the input → the last frame in
which the watched region changed, the page still for 0.8 s after; interleaved sample by sample
with the baseline's √d_k toggle, a Streamlit rerun redrawing one plotly heatmap, under the same
load; one warm-up each, then the median of `clicks`). Viewport 1280 × 800, device scale 1.

- select a cell: the first map's keyboard cursor is put on key 1 or key 2 of the focus row in
  turn (untimed; the map is focused without scrolling), then Enter (a CDP key event, timed). The
  watched region is the breakdown (explorer-cell), scrolled under Streamlit's header: what a
  person sees change is the breakdown, which the browser draws from Q and K without a rerun.
- τ drag: ui_latency's drag (the mouse takes the τ thumb to the track's end in 90 steps over
  1.5 s, DRAGS times, alternating) after a cell was taken apart, so every frame redraws the maps
  and the breakdown (the q–k map is open below; τ does not move its points); p95 of the
  intervals between frames whose maps changed. Its baseline: the same drags, interleaved, with
  the breakdown closed (Esc): what the breakdown costs a drag on this machine at this load.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/ui_cell.py`

from bench import screencast as sc
from bench import ui_latency as ul
from bench.common import (
    BASELINE_APP,
    CASES,
    MAIN_APP,
    Row,
    chromium,
    chromium_ok,
    median_of,
    ratio_row,
    running,
    table_main,
)

TARGET = 0.15  # the breakdown drawn: ≤ 0.15 × the baseline's toggle
DRAGS = 4
CELL = '[data-testid="explorer-cell"]'
MAP = '[data-testid="explorer-map"]'


def cell_rects(page) -> list[tuple[int, int, int, int]]:
    """The breakdown's box, cut to the viewport (CSS px)."""
    box = page.locator(CELL).first.bounding_box()
    top, bottom = max(0, box["y"]), min(ul.VIEWPORT["height"], box["y"] + box["height"])
    return [(int(box["x"]), int(top), int(box["x"] + box["width"]), int(bottom))]


def prepare_cell(page, turn: list[int]) -> None:
    """The breakdown under the header; the first map's cursor on key 1 or 2 of its focus row."""
    ul.scroll_to(CELL)(page)
    page.locator(MAP).first.evaluate("c => c.focus({ preventScroll: true })")
    page.keyboard.press("Home")
    if turn[0] % 2:
        page.keyboard.press("ArrowRight")
    turn[0] += 1
    page.wait_for_timeout(300)  # the cursor's ring and the live line drawn before the cast


def measure_cell(sub: ul.Subject, turn: list[int]) -> sc.Sample:
    """One Enter on the map, from a still page to a still page; the breakdown's pixels."""
    page, cast = sub.page, sub.cast
    page.bring_to_front()
    prepare_cell(page, turn)
    rects = cell_rects(page)
    cast.start()
    try:
        cast.mark()
        t = sc.key(cast.cdp, "Enter")
        cast.settle(t, need_message=False)  # the breakdown asks the server nothing
    finally:
        cast.stop()
    return sc.sample_of(cast.frames, rects, t)


def show_cell(page, shown: bool) -> None:
    """Take the first map's cursor cell apart (Enter) or close the breakdown (Esc)."""
    page.locator(MAP).first.evaluate("c => c.focus({ preventScroll: true })")
    page.keyboard.press("Enter" if shown else "Escape")
    page.wait_for_timeout(300)


def measure_base(base: ul.Subject) -> sc.Sample:
    inter = ul.baseline_interactions()["toggle"]
    return ul.measure(base, inter)


def run(clicks: int = 7) -> list[Row]:
    """The rows: per case, the breakdown's latency against the baseline's toggle, then the τ
    drag's frame intervals with the breakdown open."""
    if not chromium_ok("ui_cell"):
        return []
    with chromium() as browser, running(BASELINE_APP) as base_url, running(MAIN_APP) as url:
        ul.warm_up(browser, url)
        base = ul.open_subject(browser, "baseline", base_url, ul.DRAWN["baseline"])
        subjects = [
            ul.open_subject(browser, c.name, f"{url}/{c.query_string()}", ul.DRAWN["main"], c)
            for c in CASES
        ]
        turns = {s.name: [0] for s in subjects}
        for sub in subjects:  # warm-up: the first breakdown replaces the hint
            measure_cell(sub, turns[sub.name])
        measure_base(base)
        got: dict[str, list[float]] = {s.name: [] for s in [base, *subjects]}
        for _ in range(clicks):
            got[base.name].append(measure_base(base).latency_ms)
            for sub in subjects:
                got[sub.name].append(measure_cell(sub, turns[sub.name]).latency_ms)
        if clicks % 2:  # the baseline's toggle back where it started
            measure_base(base)
        drags = {s.name: {True: [], False: []} for s in subjects}  # breakdown open / closed
        for i in range(DRAGS):
            for sub in subjects:
                for turn, shown in enumerate((True, False) if i % 2 else (False, True)):
                    show_cell(sub.page, shown)  # each drag goes back the way the last came
                    drags[sub.name][shown].extend(ul.drag(sub, leftwards=bool(turn % 2))[0])
    ok = lambda xs: [x for x in xs if not math.isnan(x)]  # noqa: E731 — samples that settled
    ref = median_of(ok(got[base.name]))
    rows = []
    for sub in subjects:
        value = median_of(ok(got[sub.name]))
        count = len(ok(got[sub.name]))
        label = f"{sub.name}: select a cell (Enter) → the breakdown drawn, {count} samples"
        rows.append(ratio_row("latency", label, value, ref, "ms", TARGET))
    for sub in subjects:
        shut, shown = drags[sub.name][False], drags[sub.name][True]
        p95, ref95 = sc.percentile(shown, 95), sc.percentile(shut, 95)
        target = sub.case.heads == 8
        rows.append(Row(
            "frame interval",
            f"{sub.name}: τ drag with the breakdown and the q–k map open, p95 of {len(shown)} "
            f"intervals (p50 {sc.percentile(shown, 50):.0f} ms); baseline: the same drags with "
            f"the breakdown closed ({len(shut)} intervals, p50 {sc.percentile(shut, 50):.0f} ms)",
            p95, "ms", ref95, f"≤{ul.FPS_TARGET_MS:g} ms" if target else "",
            (p95 <= ul.FPS_TARGET_MS) if target else None,
        ))  # fmt: skip
    return rows


if __name__ == "__main__":
    started = time.time()
    title = "Why this cell: the breakdown by pixels (median), against the baseline's toggle"
    table_main(__doc__, title, run, "clicks", default=7, help="samples per interaction (odd)")
    print(f"\n({time.time() - started:.0f} s)")
