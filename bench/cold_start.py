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

HEATMAP = {  # what "the first heatmap drawn" is on each page
    BASELINE_APP: ".js-plotly-plot .hm image, .js-plotly-plot .hm",  # plotly's heatmap layer
    MAIN_APP: '[data-testid="explorer"][data-renders] [data-testid="explorer-map"]',
}
TARGET = 1.5


def cold_start_s(browser, script: Path) -> float:
    """Seconds from spawning the server to the first heatmap visible in a fresh page."""
    server = spawn_streamlit(script)
    try:
        server.wait_ready(timeout=120, poll=0.05)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(server.url + ("/" + common.CASES[0].query_string() if script == MAIN_APP else ""))
        page.wait_for_selector(HEATMAP[script], state="visible", timeout=120_000)
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
    app, base = common.median_of(samples[MAIN_APP]), common.median_of(samples[BASELINE_APP])
    return [common.ratio_row("cold start", "main page, example sentence", app, base, "s", TARGET)]


if __name__ == "__main__":
    help_ = "timed starts per app"
    common.table_main(__doc__, "Cold start (median)", run, "repeats", default=3, help=help_)
