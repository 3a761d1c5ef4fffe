"""The "before" reference: what plotly maps per head cost, by the same pixels as the new view.

Until the attention view (ui/explorer) the main page drew one plotly chart per head, and every
√d_k click redrew them through a Streamlit rerun; this bench measured that floor. The main page
no longer has it, so `make bench` (bench/run_all.py) leaves it out; run it alone to compare the
new view's numbers with what plotly-per-head would cost on the same machine.

Clicks √d_k, interleaved, on bench/baseline_app.py and on bench/chart_floor_app.py drawing one of
the app's head maps, four, four plus the focus bars, or four as one figure with subplots.
Method: bench/ui_latency.py (latency by pixels: input → last frame in which the plots changed,
median of `clicks`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/chart_floor.py`

from bench.common import (
    BASELINE_APP,
    REPO_ROOT,
    Row,
    chromium,
    chromium_ok,
    print_table,
    ratio_row,
    running,
)
from bench.ui_latency import DRAWN, baseline_interactions, block, latency_median, open_subject

FLOOR_APP = REPO_ROOT / "bench" / "chart_floor_app.py"
VARIANTS = {
    "1": "one app head map",
    "4": "four head maps",
    "5": "four head maps + focus bars",
    "grid": "four head maps as one figure",
}


def run(clicks: int = 7) -> list[Row]:
    """One latency row per variant, against the baseline in the same rounds."""
    if not chromium_ok():
        print("chart_floor: skipped (needs /usr/bin/chromium and playwright)")
        return []
    toggle = baseline_interactions()["toggle"]  # the floor app has the baseline's widgets
    with chromium() as browser, running(BASELINE_APP) as base_url, running(FLOOR_APP) as url:
        subjects = [open_subject(browser, "baseline", base_url, DRAWN["baseline"])]
        for charts, label in VARIANTS.items():
            page_url = f"{url}/?charts={charts}"
            subjects.append(open_subject(browser, label, page_url, DRAWN["baseline"]))
        block([(sub, toggle) for sub in subjects], clicks, toggles=True)
    ms = {sub.name: latency_median(sub.samples["toggle"]) for sub in subjects}
    return [
        ratio_row("floor latency", f"√d_k click: {name}", ms[name], ms["baseline"], "ms")
        for name in VARIANTS.values()
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=7, help="clicks per page")
    args = parser.parse_args()
    print_table(run(args.clicks), "What the maps alone cost (median)")


if __name__ == "__main__":
    main()
