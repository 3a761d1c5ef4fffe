"""Chromium latency of the lesson by pixels, as same-run ratios to the baseline's checkbox.

Method: bench/ui_latency.py's, with its pieces imported (Interaction, open_subject, the
baseline's √d_k toggle, latency_median, the screencast ceiling) and bench/screencast.py's frames:
latency = input → the last frame in which the maps' region (the deck's canvases, inside its
shadow root) changed, once the page is still. A step inside a scene answers in the browser with
no rerun, so its sample does not wait for a server message; nor does a scene change (the deck
writes the link itself with history.replaceState: no rerun either). Viewport 1280 × 800; two
cases, the example (13 tokens, the trained model) and 64 tokens × 8 heads (random weights), each
sample interleaved with the baseline's.

- steps (≤ 0.3× the checkbox): §8's reveal (→, the hidden map appears), §8's answer clicked
  (judged, explained, revealed), §4's step ① → ② (→ starts a 650 ms morph: the first change is
  the answer; the last is reported too).
- scene changes (≤ 1.3×): → from §8's last step to §9, ← from §9 back to §8.
- animations at 64 tokens (frame gap p95 ≤ 33 ms): §4's morph ② → ③ and §5's τ sweep (3.2 s):
  the intervals between consecutive changing screencast frames from the animation's first to
  its last frame (the deck stamps both on the wall clock), and the deck's own draws per second
  and mean main-thread ms per draw. The screencast's PNG encoding takes the same 2 cores from
  the page (its ceiling row is the method's floor), so each animation also runs traced without
  it, as ui_latency's τ drag: the intervals between the frames Chromium presented with the
  page's drawing (cc's PipelineReporter) between the deck's performance marks.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/x.py`

from bench import common, trace
from bench import screencast as sc
from bench.common import CASES, DRAWN, Row, frame_row, percentile, ratio_row
from bench.ui_latency import (
    VIEWPORT,
    Interaction,
    baseline_interactions,
    block,
    click_on,
    latency_median,
    open_subject,
)
from bench.view_drag import Subject

STEP_TARGET, SCENE_TARGET, FPS_TARGET_MS = 0.3, 1.3, 33.0
DECK = "document.querySelector('[data-testid=\"stBidiComponentIsolated\"]')?.shadowRoot"
STILL = f"""() => {{
  const d = {DECK}?.querySelector('[data-testid="lesson"]');
  const s = d?.querySelector('[data-testid="lesson-scene"]');
  return !!s && d.dataset.ready === '1' && d.dataset.synced === '1' && !d.dataset.anim
    && !s.dataset.waiting;
}}"""
WHERE = f"""() => {{
  const s = {DECK}.querySelector('[data-testid="lesson-scene"]');
  return [Number(s.dataset.scene), Number(s.dataset.step)];
}}"""
ANIM = f"""() => {{
  const d = {DECK}.querySelector('[data-testid="lesson"]').dataset;
  return [Number(d.animStart), Number(d.animEnd), Number(d.frames), Number(d.drawMs)];
}}"""
READY = '[data-testid="lesson"][data-ready="1"]'


@dataclass
class Kind:
    """One row of the table: a lesson interaction, the baseline's, the target ratio."""

    label: str
    inter: str  # key of lesson_interactions()
    target: float
    first: bool = False  # the ratio is taken on the first change (the start of an animation)


KINDS = (
    Kind("step: §8 reveal (→)", "reveal", STEP_TARGET),
    Kind("step: §8 answer clicked (judged, revealed)", "answer", STEP_TARGET),
    Kind("step: §4 ① → ② morph (→), first change", "morph", STEP_TARGET, first=True),
    Kind("scene change: §8 → §9 (→)", "next", SCENE_TARGET),
    Kind("scene change: §9 → §8 (←)", "back", SCENE_TARGET),
)


def still(page) -> None:
    """Until the deck rests (no animation, no awaited measurement, the server caught up with its
    last change: data-synced) and Streamlit is idle."""
    page.wait_for_function(STILL, timeout=120_000, polling=50)
    while page.evaluate(sc.BUSY_JS):
        page.wait_for_timeout(50)
    page.wait_for_function(STILL, timeout=120_000, polling=50)


def go(scene: int, step: int = 0):
    """prepare(): the deck on `scene` at `step` (digits and →, as a presenter would)."""

    def prepare(page) -> None:
        if tuple(page.evaluate(WHERE)) == (scene, step):
            return
        page.keyboard.press(str(scene % 10))
        still(page)
        for _ in range(step):
            page.keyboard.press("ArrowRight")
            still(page)

    return prepare


def press(name: str):
    return lambda page, cdp: sc.key(cdp, name)


def lesson_interactions() -> dict[str, Interaction]:
    """The deck answers these in the browser: no server message to wait for, the deck's rest."""
    return {
        name: Interaction(name, prepare, act, server=False, settled=still)
        for name, prepare, act in (
            ("reveal", go(8, 0), press("ArrowRight")),
            ("answer", go(8, 0), click_on('[data-testid="lesson-choice"]')),
            ("morph", go(4, 0), press("ArrowRight")),
            ("next", go(8, 2), press("ArrowRight")),
            ("back", go(9, 0), press("ArrowLeft")),  # §9's first step
        )
    }


def animation(sub: Subject, prepare, act) -> tuple[list[float], float, float]:
    """Intervals (ms) between changing frames from the animation's first to its last frame,
    its draws per second, and the mean ms of one draw on the page's main thread."""
    page, cast = sub.page, sub.cast
    page.bring_to_front()
    prepare(page)
    rects = sc.region(page)
    t = cast.around(lambda: act(page, cast.cdp), need_message=False, then=still)
    start, end, frames, draw_ms = page.evaluate(ANIM)
    changed = sc.sample_of(cast.frames, rects, t, exact=True).changed
    stamps = [s for s in changed if start / 1000 - 0.02 <= s <= end / 1000 + 0.02]
    return sc.gaps_ms(stamps), frames / max((end - start) / 1000, 1e-3), draw_ms


def presented_between_marks(chrome: bytes) -> list[float]:
    """Intervals (ms) between the frames Chromium presented with the page's drawing
    (trace.presented_between, as ui_latency's τ drag), from the deck's performance mark
    lesson-anim-start to lesson-anim-end."""
    events = json.loads(chrome)["traceEvents"]
    marks = {e["name"]: e["ts"] for e in events if e["name"].startswith("lesson-anim-")}
    lo, hi = marks.get("lesson-anim-start"), marks.get("lesson-anim-end")
    if lo is None or hi is None:
        return []
    return trace.presented_between(events, lo, hi)


def traced(browser, sub: Subject, prepare, act) -> list[float]:
    """The same animation without the screencast, traced: presented-frame intervals (ms)."""
    page = sub.page
    page.bring_to_front()
    prepare(page)
    browser.start_tracing(page=page, categories=[*trace.CATEGORIES, "blink.user_timing"])
    try:
        act(page, sub.cast.cdp)
        sc.flush(page)
        still(page)
    finally:
        chrome = browser.stop_tracing()
    return presented_between_marks(chrome)


def animation_rows(browser, sub: Subject, runs: int) -> list[Row]:
    """§4's morph ② → ③ and §5's τ sweep, `runs` times each, by screencast and traced."""
    rows = []
    cases = (
        ("§4 morph ② → ③ (→)", go(4, 1), press("ArrowRight")),
        # §5's τ step comes after the gradient
        ("§5 τ sweep (3.2 s)", go(5, 5), click_on('[data-testid="s5-sweep"]')),
    )
    for label, prepare, act in cases:
        gaps, rates, draws = [], [], []
        for _ in range(runs):
            g, rate, draw_ms = animation(sub, prepare, act)
            gaps += g
            rates.append(rate)
            draws.append(draw_ms)
        case = (
            f"{sub.name}: {label}, screencast p95 of {len(gaps)} intervals (p50 "
            f"{percentile(gaps, 50):.0f} ms; the deck drew {percentile(rates, 50):.0f}/s, "
            f"{percentile(draws, 50):.1f} ms a draw)"
        )
        rows.append(frame_row(case, gaps, FPS_TARGET_MS))
        presented = []
        for _ in range(runs):
            presented += traced(browser, sub, prepare, act)
        case = (
            f"{sub.name}: {label}, presented frames (trace, no screencast), p95 of "
            f"{len(presented)} intervals (p50 {percentile(presented, 50):.0f} ms)"
        )
        rows.append(frame_row(case, presented, FPS_TARGET_MS))
    return rows


def lesson_url(base: str, case) -> str:
    from urllib.parse import urlencode

    query = {"at": "1"} if case is CASES[0] else {"at": "1", **case.query()}
    return f"{base}/lesson?{urlencode(query)}"


def rows_from(base: Subject, subjects: list[Subject]) -> list[Row]:
    rows = []
    for kind in KINDS:
        ref = latency_median(base.samples[f"{kind.inter}:toggle"])
        for sub in subjects:
            got = sub.samples[kind.inter]
            last, first = latency_median(got), latency_median(got, first=True)
            value = first if kind.first else last
            case = f"{sub.name}: {kind.label} (first change {first:.0f} ms, last {last:.0f} ms)"
            rows.append(ratio_row("latency", case, value, ref, "ms", kind.target))
    return rows


def run(clicks: int = 5, runs: int = 3) -> list[Row]:
    if not common.chromium_ok("lesson_latency"):
        return []
    servers = common.running(common.BASELINE_APP), common.running(common.MAIN_APP)
    with common.chromium() as browser, servers[0] as base_url, servers[1] as url:
        base = open_subject(browser, "baseline", base_url, DRAWN["baseline"])
        subjects = []
        for case in CASES:
            sub = open_subject(browser, case.name, lesson_url(url, case), READY, case)
            still(sub.page)
            subjects.append(sub)
        toggle = baseline_interactions()["toggle"]
        mine = lesson_interactions()
        for kind in KINDS:  # ui_latency's block: the baseline's checkbox and each case in turn
            block(base, toggle, [(s, mine[kind.inter]) for s in subjects], clicks, False)
        rows = rows_from(base, subjects)
        rows += animation_rows(browser, subjects[-1], runs)
        intervals, drawn = sc.ceiling(browser, VIEWPORT)
    label = f"screencast ceiling, p95 (canvas redrawn every frame, {drawn:.0f} draws/s)"
    return [*rows, frame_row(label, intervals)]


def main() -> None:
    args = common.options(
        __doc__, clicks=(5, "samples per interaction"), runs=(3, "runs of each animation")
    )
    started = time.time()
    common.print_table(
        run(args.clicks, args.runs), "The lesson in Chromium: latency by pixels (median)"
    )
    print(f"\n({time.time() - started:.0f} s)")


if __name__ == "__main__":
    main()
