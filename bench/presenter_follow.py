"""How fast the teacher's other window follows a step, against the driven window's own next task.

Method: Chromium, one browser context (BroadcastChannel is per context and origin), the projector
(1024 × 768) and the presenter window S opens (1280 × 800), both on /lesson. Each sample presses
→ (or ←, to stay inside §3–§4) in one window, alternating which, and records on the wall clock
both windows share (Date.now, one machine) when each window's `lesson-scene` took the new step
(a MutationObserver in each page). "follow": the keydown → the other window's step (channel.js's
goto, stage.js goPlace). The baseline, "next task": the same keydown → the driven window's own
next task (a setTimeout 0 queued right after the key: the step is drawn, the page runs again).
Both windows share a renderer's main thread, so the baseline takes every stall the follow takes:
on a loaded machine (the load average is printed) both stretch, and the ratio is the channel's
own cost. No timed asserts anywhere: this prints a table.

    PYTHONPATH=. .venv/bin/python bench/presenter_follow.py --presses 20
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/x.py`

from bench.common import MAIN_APP, Row, chromium, chromium_ok, running, table_main

DECK = "document.querySelector('[data-testid=\"stBidiComponentIsolated\"]')?.shadowRoot"
SCENE = f"{DECK}?.querySelector('[data-testid=\"lesson-scene\"]')"
READY = f'() => {DECK}?.querySelector(\'[data-testid="lesson"][data-ready="1"]\')'
# Every step change of this page, on the wall clock: [[ms, "scene|step"], …].
WATCH = f"""() => {{
  window.benchSeen = [];
  const s = {SCENE};
  const seen = () => window.benchSeen.push([Date.now(), s.dataset.scene + '|' + s.dataset.step]);
  const watched = {{attributes: true, attributeFilter: ['data-step', 'data-scene']}};
  new MutationObserver(seen).observe(s, watched);
}}"""
WHERE = f"() => {SCENE}.dataset.scene + '|' + {SCENE}.dataset.step"
LOAD_MS = 120_000
POLL_MS = 50


def seen_at(page, place: str, after: float) -> float:
    """When this page first showed `place` after `after` (ms since 1970)."""
    page.wait_for_function(
        "([p, t]) => window.benchSeen.some(([ms, at]) => at === p && ms >= t)",
        arg=[place, after],
        timeout=LOAD_MS,
        polling=POLL_MS,
    )
    return page.evaluate(
        "([p, t]) => window.benchSeen.find(([ms, at]) => at === p && ms >= t)[0]", [place, after]
    )


def sample(driven, other, key: str) -> tuple[float, float]:
    """(own ms, follow ms) of one key pressed in `driven`."""
    before = driven.evaluate(WHERE)
    t0 = driven.evaluate(
        """(key) => { const t = Date.now();
          window.benchTask = 0;
          document.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true}));
          setTimeout(() => { window.benchTask = Date.now(); }, 0);
          return t; }""",
        key,
    )
    place = driven.evaluate(WHERE)
    assert place != before, (key, before)
    follow = seen_at(other, place, t0) - t0
    driven.wait_for_function("() => window.benchTask > 0", timeout=LOAD_MS, polling=POLL_MS)
    return driven.evaluate("() => window.benchTask") - t0, follow


def p95(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.95 * len(xs)) - 1)]


def run(presses: int) -> list[Row]:
    if not chromium_ok("presenter_follow"):
        return []
    own: dict[str, list[float]] = {"projector": [], "presenter": []}
    follow: dict[str, list[float]] = {"projector": [], "presenter": []}
    with chromium() as browser, running(MAIN_APP) as url:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        projector = context.new_page()
        projector.set_viewport_size({"width": 1024, "height": 768})
        projector.goto(f"{url}/lesson?at=3")
        projector.wait_for_function(READY, timeout=LOAD_MS)
        with context.expect_page(timeout=LOAD_MS) as opened:
            projector.keyboard.press("s")
        presenter = opened.value
        presenter.wait_for_function(READY, timeout=LOAD_MS)
        for page in (projector, presenter):
            page.evaluate(WATCH)
        windows = {"projector": (projector, presenter), "presenter": (presenter, projector)}
        for i in range(presses):
            name = "projector" if i % 2 == 0 else "presenter"
            driven, other = windows[name]
            key = "ArrowRight" if (i // 4) % 2 == 0 else "ArrowLeft"  # 4 on, 4 back: §3–§4
            a, b = sample(driven, other, key)
            own[name].append(a)
            follow[name].append(b)
        context.close()
    rows = []
    print(f"load average during the run: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    for name in ("projector", "presenter"):
        mine, theirs = statistics.median(own[name]), statistics.median(follow[name])
        case = (f"→ in the {name}: the other window's step vs the driven one's next task "
                f"(median; p95 {p95(follow[name]):.0f} vs {p95(own[name]):.0f} ms)")  # fmt: skip
        rows.append(Row("presenter", case, theirs, "ms", mine, ""))
    return rows


if __name__ == "__main__":
    table_main(
        __doc__,
        "The teacher's two windows: the other window's step against the driven one's own",
        run,
        "presses",
        default=20,
        help="key presses, alternating the driven window",
    )
