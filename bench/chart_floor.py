"""The floor under the latency target: what the maps cost in Streamlit with nothing else around.

Clicks √d_k, interleaved, on bench/baseline_app.py, on bench/chart_floor_app.py drawing one of
the app's head maps, four, four plus the focus bars, or four as one figure with subplots, and
on the main page (example sentence, 4 heads). Same method as bench/ui_latency.py: latency =
input event → last plot mutation, median of `clicks`; browser CPU = traced renderer main-thread
time per click. The ratio of "4 maps" against the baseline is the least the main page can cost
while a √d_k click redraws four plotly charts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/chart_floor.py`

from bench.common import (
    BASELINE_APP,
    CASES,
    MAIN_APP,
    REPO_ROOT,
    Row,
    chromium,
    chromium_ok,
    main_app_ready,
    print_table,
    ratio_row,
    running,
)
from bench.ui_latency import (
    SCALE_KEY,
    Subject,
    click_toggle,
    cpu_pass,
    interleaved,
    median_ms,
    open_page,
    warm_up,
)

FLOOR_APP = REPO_ROOT / "bench" / "chart_floor_app.py"
VARIANTS = {
    "1": "one app head map",
    "4": "four head maps",
    "5": "four head maps + focus bars",
    "grid": "four head maps as one figure",
}
CPU_CLICKS = 4


def run(clicks: int = 10) -> list[Row]:
    """One row pair (latency, browser CPU) per variant and for the main page, vs the baseline."""
    if not (chromium_ok() and main_app_ready()):
        print("chart_floor: skipped (needs /usr/bin/chromium, playwright and app.py)")
        return []
    toggle = {"scale": [click_toggle(SCALE_KEY)]}
    with (
        chromium() as browser,
        running(BASELINE_APP) as base_url,
        running(FLOOR_APP) as floor_url,
        running(MAIN_APP) as main_url,
    ):
        warm_up(browser, main_url)
        subjects = [Subject("baseline", open_page(browser, base_url), toggle, 4)]
        for charts, label in VARIANTS.items():
            page = open_page(browser, f"{floor_url}/?charts={charts}")
            subjects.append(Subject(label, page, toggle, 4))
        main_page = open_page(browser, f"{main_url}/{CASES[0].query_string()}")
        subjects.append(Subject(f"main page, {CASES[0].name}", main_page, toggle, 4))
        interleaved(subjects, "scale", clicks)
        cpu_pass(browser, subjects, "scale", CPU_CLICKS)
    base, rows = subjects[0], []
    for sub in subjects[1:]:
        for what, bench in (("scale", "floor latency"), ("scale cpu", "floor browser CPU")):
            value, ref = median_ms(sub, what), median_ms(base, what)
            rows.append(ratio_row(bench, f"√d_k click: {sub.name}", value, ref, "ms"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=10, help="clicks per page (≥10)")
    args = parser.parse_args()
    print_table(run(args.clicks), "What the maps alone cost (median)")


if __name__ == "__main__":
    main()
