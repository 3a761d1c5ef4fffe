"""Payload sent to the browser: figure JSON bytes (AppTest) and websocket bytes (Chromium).

1. Figure JSON: the sum of the UTF-8 lengths of every `plotly_chart` element's `spec` (the
   figure JSON Streamlit puts in its protobuf) after one run of the page — the number the
   150 KB target is about. `--breakdown` splits it by figure and by trace/layout key.
2. Websocket: bytes of all frames Chromium receives on Streamlit's websocket (Playwright
   `page.on("websocket")`, payloads as delivered, i.e. after permessage-deflate if any) for
   the first page load and for one √d_k toggle click.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/payload.py`

from bench.common import (
    BASELINE_APP,
    CASES,
    MAIN_APP,
    Case,
    Row,
    chromium,
    chromium_ok,
    main_app_ready,
    print_table,
    running,
)
from bench.rerun import app_test
from bench.ui_latency import SCALE_KEY, SETTLED, click_toggle, open_page

LIMIT_KB = 150.0  # target for the 64 × 8 case


def figure_specs(at) -> list[str]:
    """The JSON spec of every plotly chart on the page AppTest last ran."""
    return [chart.proto.spec for chart in at.get("plotly_chart")]


def spec_kb(specs: list[str]) -> float:
    """Total UTF-8 size of the specs in KB (1 KB = 1000 bytes)."""
    return sum(len(s.encode()) for s in specs) / 1000


def breakdown(specs: list[str]) -> Counter:
    """Bytes per `data[].<key>` and `layout.<key>` summed over all figures."""
    parts: Counter = Counter()
    for spec in specs:
        fig = json.loads(spec)
        for trace in fig.get("data", []):
            for key, val in trace.items():
                parts[f"data.{trace.get('type', '?')}.{key}"] += len(json.dumps(val).encode())
        for key, val in fig.get("layout", {}).items():
            parts[f"layout.{key}"] += len(json.dumps(val).encode())
    return parts


def appest_rows() -> tuple[list[Row], dict[str, list[str]]]:
    """Figure JSON KB for the baseline and each main-page case (plus the specs, for breakdown)."""
    base = spec_kb(figure_specs(app_test(BASELINE_APP)))
    rows, specs = [], {}
    for case in CASES:
        specs[case.name] = figure_specs(app_test(MAIN_APP, query=case.query()))
        kb = spec_kb(specs[case.name])
        limit = LIMIT_KB if case.heads == 8 else None
        target = f"<{LIMIT_KB:g} KB" if limit else ""
        ok = None if limit is None else kb < limit
        label = f"figure JSON {case.name} ({len(specs[case.name])} charts)"
        rows.append(Row("payload", label, kb, "KB", base, target, ok))
    return rows, specs


class WireCounter:
    """Sums the sizes of frames received on every websocket of a page."""

    def __init__(self, page) -> None:
        self.bytes = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload) -> None:
        self.bytes += len(payload.encode() if isinstance(payload, str) else payload)


def wire_kb(browser, url: str, toggle_key: str) -> tuple[float, float]:
    """KB received on the websocket for the first load of url and for one toggle click."""
    counters: list[WireCounter] = []
    page = open_page(browser, url, setup=lambda p: counters.append(WireCounter(p)))
    counter = counters[0]
    load = counter.bytes
    click_toggle(toggle_key)(page)
    page.wait_for_function(SETTLED, arg=600, timeout=120_000, polling=50)
    click = counter.bytes - load
    page.close()
    return load / 1000, click / 1000


def wire_rows(browser, main_url: str, base_url: str, case: Case) -> list[Row]:
    """Websocket KB (load, toggle) on the main page for case, vs the baseline app."""
    base_load, base_click = wire_kb(browser, base_url, "scale")
    load, click = wire_kb(browser, main_url + "/" + case.query_string(), SCALE_KEY)
    return [
        Row("payload", f"websocket {case.name}: first load", load, "KB", base_load),
        Row("payload", f"websocket {case.name}: √d_k toggle", click, "KB", base_click),
    ]


def run(wire: bool = True) -> list[Row]:
    """Figure JSON rows, then websocket rows when Chromium is available."""
    if not main_app_ready():
        print("payload: skipped (no app.py yet)")
        return []
    rows, _ = appest_rows()
    if wire and chromium_ok():
        with chromium() as browser, running(BASELINE_APP) as base, running(MAIN_APP) as main:
            for case in CASES:
                rows += wire_rows(browser, main, base, case)
    return rows


def print_breakdown(top: int = 15) -> None:
    """Per-figure sizes and the largest keys, for each case."""
    _, specs = appest_rows()
    for name, case_specs in specs.items():
        sizes = ", ".join(f"{len(s.encode()) / 1000:.1f}" for s in case_specs)
        print(f"\n{name}: {spec_kb(case_specs):.1f} KB in {len(case_specs)} charts: [{sizes}] KB")
        for key, size in breakdown(case_specs).most_common(top):
            print(f"  {size / 1000:8.1f} KB  {key}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--breakdown", action="store_true", help="sizes per figure and per key")
    parser.add_argument("--no-wire", action="store_true", help="skip the Chromium websocket part")
    args = parser.parse_args()
    if args.breakdown:
        print_breakdown()
        return
    print_table(run(wire=not args.no_wire), "Payload")


if __name__ == "__main__":
    main()
