"""Run every user-facing benchmark and print one combined table (what `make bench` should call).

    PYTHONPATH=. .venv/bin/python bench/run_all.py            # the full table (~20 min, 2 cores)
    PYTHONPATH=. .venv/bin/python bench/run_all.py --only rerun payload

bench/core.py (the core's own table) runs first as a subprocess when it exists; the load test
(bench/load.py) is not run here: it takes minutes of both cores and is opt-in on its own. (The
plotly-per-head floor, bench/chart_floor.py, went with the plotly maps; its figures stay in
docs/benchmarks-history.md.)
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/run_all.py`

from bench import cold_start, lesson_latency, payload, rerun, ui_latency
from bench.common import REPO_ROOT, Row, options, print_table

BENCHES = {
    "latency": lambda a: ui_latency.run(a.clicks),
    "lesson": lambda a: lesson_latency.run(a.lesson_clicks, a.lesson_runs),
    "rerun": lambda a: rerun.run(a.reruns),
    "cold": lambda a: cold_start.run(a.repeats),
    "payload": lambda a: payload.run(),
}
DEFAULT = ["core", "latency", "lesson", "rerun", "cold", "payload"]


def run_core() -> None:
    """bench/core.py's own table (it prints it)."""
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    subprocess.run([sys.executable, "bench/core.py"], cwd=REPO_ROOT, env=env, check=False)


def load() -> str:
    """The 1, 5 and 15 min load averages (as `uptime` prints them)."""
    return ", ".join(f"{v:.2f}" for v in os.getloadavg())


def machine() -> str:
    """One line: date and time, cores, memory, Python, load average."""
    mem_kb = next(
        int(line.split()[1])
        for line in Path("/proc/meminfo").read_text().splitlines()
        if line.startswith("MemTotal")
    )
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now} · {os.cpu_count()} cores · {mem_kb / 2**20:.0f} GiB · "
        f"Python {platform.python_version()} · load average {load()}"
    )


def main() -> None:
    args = options(
        __doc__,
        only=(DEFAULT, "subset to run", *DEFAULT),
        clicks=(7, "latency: samples per series"),
        lesson_clicks=(5, "lesson: samples per step"),
        lesson_runs=(3, "lesson: runs per animation"),
        reruns=(10, "rerun: reruns per page"),
        repeats=(3, "cold start: starts per app"),
    )
    chosen = args.only or DEFAULT
    print(machine())
    started = time.monotonic()
    if "core" in chosen:
        run_core()
    rows: list[Row] = []
    for name, bench in BENCHES.items():
        if name in chosen:
            clock = datetime.datetime.now(datetime.UTC).strftime("%H:%M UTC")
            print(f"… {name} ({clock}, load average {load()})", flush=True)
            rows += bench(args)
    print_table(rows, "User-facing benchmarks (ratios against bench/baseline_app.py, same run)")
    minutes = (time.monotonic() - started) / 60
    print(f"\n{minutes:.1f} min; load average at the end {load()}")


if __name__ == "__main__":
    main()
