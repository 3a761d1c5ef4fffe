"""Cold start: `streamlit run` spawned → first heatmap drawn in a new browser page, vs baseline.

Method: BENCHMARKS.md's "cold start" row (the browser already running; one untimed warm-up per
app, then the median of `repeats` runs, alternating the two apps).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/cold_start.py`

from bench import common
from bench.common import BASELINE_APP, MAIN_APP, Row
from deploy.local import spawn_streamlit

TARGET = 1.5


def cold_start_s(browser, script: Path) -> float:
    """Seconds from spawning the server to the first heatmap visible in a fresh page."""
    server = spawn_streamlit(script)
    try:
        server.wait_ready(timeout=120, poll=0.05)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server.url + ("/" + common.CASES[0].query_string() if script == MAIN_APP else ""))
        drawn = common.DRAWN["main" if script == MAIN_APP else "baseline"]
        page.wait_for_selector(drawn, state="visible", timeout=120_000)
        elapsed = time.perf_counter() - server.started
        page.close()
        return elapsed
    finally:
        server.stop()


def run(repeats: int = 3) -> list[Row]:
    """Median cold start of app.py and of the baseline, one row with the ratio."""
    if not common.chromium_ok("cold_start"):
        return []
    samples: dict[Path, list[float]] = {MAIN_APP: [], BASELINE_APP: []}
    with common.chromium() as browser:
        for script in samples:
            cold_start_s(browser, script)  # warm-up, not counted
        for _ in range(repeats):
            for script, got in samples.items():
                got.append(cold_start_s(browser, script))
    app, base = (common.percentile(samples[s], 50) for s in (MAIN_APP, BASELINE_APP))
    return [common.ratio_row("cold start", "main page, example sentence", app, base, "s", TARGET)]


if __name__ == "__main__":
    args = common.options(__doc__, repeats=(3, "timed starts per app"))
    common.print_table(run(args.repeats), "Cold start (median)")
