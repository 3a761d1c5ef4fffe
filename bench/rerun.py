"""Server-side rerun time per page (Streamlit AppTest), median of N reruns, vs the baseline page.

A rerun here is `AppTest.run()` with nothing changed (what every widget event costs before the
changed part) and, on the main page, a rerun after flipping the √d_k toggle. `--profile` prints
cProfile's top functions for reruns of the main page on the 64 × 8 case.
"""

from __future__ import annotations

import cProfile
import functools
import io
import logging
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
    options,
    percentile,
    print_table,
    ratio_row,
)

SCALE_KEY = os.environ.get("BENCH_SCALE_KEY", "scale")
TIMEOUT_S = 120  # first runs import jieba and plotly on a shared 2-core machine
MAIN_TARGET = 2.0


def share_script_cache() -> None:
    """Make AppTest keep compiled scripts between runs, as a live server does.

    AppTest builds a new ScriptCache on every run, so each rerun recompiles (and rewrites for
    "magic") the entry script and the page: ~5 ms for a one-file baseline, tens of ms for a
    router plus a long page. A server compiles each file once; so does this bench.
    """
    from streamlit.testing.v1 import app_test as at_module
    from streamlit.testing.v1 import local_script_runner as runner_module

    if not getattr(at_module, "_bench_shared_cache", False):
        shared = at_module.ScriptCache()
        # app_test's cache compiles the entry script; the runner's own (a second ScriptCache,
        # new per run too) compiles every page that st.navigation runs.
        at_module.ScriptCache = runner_module.ScriptCache = lambda: shared
        at_module._bench_shared_cache = True


def scan_components_once() -> None:
    """Make AppTest scan installed packages for component manifests once, as a server does.

    Every new AppTest builds its own component registry, and with it reads the metadata of every
    installed package (Streamlit 1.67's manifest scan): ~120 ms per AppTest here, more than a
    page's first run, while a server scans once at start. The installed packages do not change
    within a process, so the scan's answer is kept; each AppTest still gets its own registry.
    """
    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.lru_cache(maxsize=None)(scan)


def quiet_bare_mode() -> None:
    """Silence "missing ScriptRunContext" (AppTest's caches and component registry warn once per
    call outside a script thread: hundreds of lines between the tables, nothing to act on)."""
    name = "streamlit.runtime.scriptrunner_utils.script_run_context"
    logging.getLogger(name).setLevel(logging.ERROR)


def app_test(script: Path, page: Path | None = None, query: dict | None = None):
    """An AppTest on `script` (switched to `page` if given), run once so imports are warm."""
    from streamlit.testing.v1 import AppTest

    share_script_cache()
    scan_components_once()
    quiet_bare_mode()

    at = AppTest.from_file(str(script), default_timeout=TIMEOUT_S)
    at.query_params.update(query or {})
    at.run()
    if page is not None:
        at.switch_page(str(page.relative_to(script.parent))).run()
    if at.exception:
        raise RuntimeError(f"{page or script} raised: {at.exception[0].value}")
    return at


def rerun_ms(at, reruns: int, mutate=None) -> tuple[float, float]:
    """Median (wall, CPU) milliseconds of `reruns` runs; mutate(at) first changes a widget.

    CPU is this process's CPU time (script thread + AppTest), which other load on the machine
    inflates far less than wall time.
    """
    wall, cpu = [], []
    for _ in range(reruns):
        if mutate is not None:
            mutate(at)
        t0, c0 = time.perf_counter(), time.process_time()
        at.run()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    if at.exception:
        raise RuntimeError(f"rerun raised: {at.exception[0].value}")
    return percentile(wall, 50), percentile(cpu, 50)


def pinned(case: Case | None, flip: bool = False):
    """A mutate() that re-applies the case's sidebar settings, alternating √d_k if `flip`.

    AppTest (Streamlit 1.67) drops widgets drawn before `st.navigation` (the app's sidebar)
    from its tree, and their state, from the second run on; so the sidebar values are put back
    through session state before every run (cheap, and not inside the timed part).
    """
    scale = [True]

    def mutate(at) -> None:
        if case is not None:
            at.session_state["weights"] = case.query()["w"]
            at.session_state["d_model"] = case.d_model
            at.session_state["heads"] = case.heads
        if flip:
            scale[0] = not scale[0]
        at.session_state[SCALE_KEY] = scale[0]

    return mutate


def main_rows(base: tuple, base_flip: tuple, reruns: int) -> list[Row]:
    """The main page on every case: plain rerun and rerun after a scale flip, wall and CPU."""
    rows = []
    for case in CASES:
        at = app_test(MAIN_APP, query=case.query())
        wall, cpu = rerun_ms(at, reruns, pinned(case))
        rows.append(ratio_row("rerun", f"main {case.name}", wall, base[0], "ms", MAIN_TARGET))
        rows.append(ratio_row("rerun CPU", f"main {case.name}", cpu, base[1], "ms", MAIN_TARGET))
        wall, cpu = rerun_ms(at, reruns, pinned(case, flip=True))
        rows.append(ratio_row("rerun", f"main {case.name}: √d_k flip", wall, base_flip[0], "ms"))
        rows.append(ratio_row("rerun CPU", f"main {case.name}: √d_k flip", cpu, base_flip[1], "ms"))
    return rows


def page_files() -> list[Path]:
    """Every page file under pages/ except main.py (measured above, per case)."""
    return sorted(p for p in (REPO_ROOT / "pages").glob("*.py") if p.stem != "main")


def run(reruns: int = 10) -> list[Row]:
    """Baseline, main page cases, then every other page (default settings)."""
    at = app_test(BASELINE_APP)
    base = rerun_ms(at, reruns, pinned(None))
    base_flip = rerun_ms(at, reruns, pinned(None, flip=True))
    rows = main_rows(base, base_flip, reruns)
    for page in page_files():
        try:
            wall, _ = rerun_ms(app_test(MAIN_APP, page), reruns)
        except Exception as exc:  # one broken page must not hide the others' numbers
            print(f"rerun: {page.name} failed: {exc}")
            continue
        rows.append(ratio_row("rerun", f"page {page.stem}", wall, base[0], "ms"))
    return rows


def profile(case: Case, reruns: int, top: int = 40) -> None:
    """cProfile `reruns` √d_k-flip reruns of the main page on `case` (in the script thread)."""
    from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

    at = app_test(MAIN_APP, query=case.query())
    flip, prof = pinned(case, flip=True), cProfile.Profile()
    original = ScriptRunner._run_script_thread

    def profiled(self) -> None:  # the script runs in its own thread; profile that thread
        prof.enable()
        try:
            original(self)
        finally:
            prof.disable()

    ScriptRunner._run_script_thread = profiled
    try:
        for _ in range(reruns):
            flip(at)
            at.run()
    finally:
        ScriptRunner._run_script_thread = original
    out = io.StringIO()
    stats = pstats.Stats(prof, stream=out).strip_dirs()
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top // 2)
    print(out.getvalue())


def main() -> None:
    args = options(
        __doc__,
        reruns=(10, "reruns per page (≥10)"),
        profile=(False, "cProfile the main page (BENCH_CASE=0: 13 × 4)"),
    )
    if args.profile:
        profile(CASES[int(os.environ.get("BENCH_CASE", "-1"))], args.reruns)
        return
    print_table(run(args.reruns), "Server rerun, AppTest (median)")


if __name__ == "__main__":
    main()
