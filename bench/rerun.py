"""Server-side rerun time per page (Streamlit AppTest), median of N reruns, vs the baseline page.

A rerun here is `AppTest.run()` with nothing changed (what every widget event costs before the
changed part) and, on the main page, a rerun after flipping the √d_k toggle. `--profile` prints
cProfile's top functions for reruns of the main page on the 64 × 8 case.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/rerun.py`

from bench.common import (
    BASELINE_APP,
    CASES,
    MAIN_APP,
    REPO_ROOT,
    Case,
    Row,
    main_app_ready,
    median_of,
    print_table,
    ratio_row,
)

SCALE_KEY = os.environ.get("BENCH_SCALE_KEY", "scale")
TIMEOUT_S = 120  # first runs import jieba and plotly on a shared 2-core machine
MAIN_TARGET = 2.0


def app_test(script: Path, page: Path | None = None, query: dict | None = None):
    """An AppTest on `script` (switched to `page` if given), run once so imports are warm."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(script), default_timeout=TIMEOUT_S)
    at.query_params.update(query or {})
    at.run()
    if page is not None:
        at.switch_page(str(page.relative_to(script.parent))).run()
    if at.exception:
        raise RuntimeError(f"{page or script} raised: {at.exception[0].value}")
    return at


def rerun_ms(at, reruns: int, mutate=None) -> float:
    """Median milliseconds of `reruns` runs; mutate(at) before each run changes a widget."""
    samples = []
    for _ in range(reruns):
        if mutate is not None:
            mutate(at)
        t0 = time.perf_counter()
        at.run()
        samples.append((time.perf_counter() - t0) * 1000)
    return median_of(samples)


def flip_scale(at) -> None:
    """Flip the √d_k toggle (a toggle or a checkbox with key SCALE_KEY)."""
    for kind in (at.toggle, at.checkbox):
        try:
            widget = kind(key=SCALE_KEY)
        except KeyError:
            continue
        widget.set_value(not widget.value)
        return
    raise KeyError(f"no toggle or checkbox with key {SCALE_KEY!r}")


def main_rows(base: float, base_flip: float, reruns: int) -> list[Row]:
    """The main page on every case: plain rerun and rerun after a scale flip."""
    rows = []
    for case in CASES:
        at = app_test(MAIN_APP, query=case.query())
        ms = rerun_ms(at, reruns)
        rows.append(ratio_row("rerun", f"main {case.name}", ms, base, "ms", MAIN_TARGET))
        ms = rerun_ms(at, reruns, flip_scale)
        rows.append(ratio_row("rerun", f"main {case.name}: √d_k flip", ms, base_flip, "ms"))
    return rows


def page_files() -> list[Path]:
    """Every page file under pages/."""
    return sorted((REPO_ROOT / "pages").glob("*.py"))


def run(reruns: int = 10) -> list[Row]:
    """Baseline, main page cases, then every other page (default settings)."""
    if not main_app_ready():
        print("rerun: skipped (no app.py yet)")
        return []
    at = app_test(BASELINE_APP)
    base = rerun_ms(at, reruns)
    base_flip = rerun_ms(at, reruns, flip_scale)
    rows = main_rows(base, base_flip, reruns)
    for page in page_files():
        try:
            ms = rerun_ms(app_test(MAIN_APP, page), reruns)
        except Exception as exc:  # one broken page must not hide the others' numbers
            print(f"rerun: {page.name} failed: {exc}")
            continue
        rows.append(ratio_row("rerun", f"page {page.stem}", ms, base, "ms"))
    return rows


def profile(case: Case, reruns: int, top: int = 30) -> None:
    """cProfile `reruns` reruns of the main page on `case`; print the top functions."""
    at = app_test(MAIN_APP, query=case.query())
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(reruns):
        flip_scale(at)
        at.run()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
    print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=10, help="reruns per page (≥10)")
    parser.add_argument("--profile", action="store_true", help="cProfile the 64 × 8 main page")
    args = parser.parse_args()
    if args.profile:
        profile(CASES[-1], args.reruns)
        return
    print_table(run(args.reruns), "Server rerun, AppTest (median)")


if __name__ == "__main__":
    main()
