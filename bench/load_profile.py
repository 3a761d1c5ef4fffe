"""Where a main-page `view.change` rerun's server time goes: CPU per change, and cProfile of the
script thread, on a real `streamlit run launcher.py` driven by bench/st_client.py.

The attention view sends its state back (√d_k, causal, focus, head) after drawing it in the
browser; this sends the same component state, one change at a time from `--sessions` sessions
(each its own sentence, as `make load`), and reads the server's CPU from /proc before and after.
With --profile the server runs with every script run profiled (cProfile in the script thread;
the profiler's own cost inflates the times, so the CPU line comes from a run without it), and
the table lists the functions that take the most cumulative time per rerun.

    PYTHONPATH=. .venv/bin/python bench/load_profile.py                  # CPU per change
    PYTHONPATH=. .venv/bin/python bench/load_profile.py --profile        # + where it goes
    PYTHONPATH=. .venv/bin/python bench/load_profile.py --weights trained --profile
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import markdown, options, percentile
from bench.load import sentence, view_values
from bench.load_target import cpu_seconds
from bench.st_client import StreamlitSession
from deploy.local import start_streamlit

# Installed as sitecustomize in the profiled server: every script run (full or fragment) goes
# through one cProfile, dumped to $AL_PROFILE after each run.
SITECUSTOMIZE = """
import cProfile, os, threading
from streamlit.runtime.scriptrunner import script_runner as _sr
_prof, _lock, _out = cProfile.Profile(), threading.Lock(), os.environ["AL_PROFILE"]
_orig = _sr.ScriptRunner._run_script
def _profiled(self, *args, **kwargs):
    with _lock:
        if os.path.exists(_out + ".reset"):  # the warm-up's runs are not counted
            os.remove(_out + ".reset")
            _prof.clear()
        _prof.enable()
        try:
            return _orig(self, *args, **kwargs)
        finally:
            _prof.disable()
            _prof.dump_stats(_out)
_sr.ScriptRunner._run_script = _profiled
"""
OWN = ("pages/main.py", "ui/", "bench/", "demo_model/", "attention_core/", "app.py")


async def drive(url: str, args: argparse.Namespace) -> list[float]:
    """Each session: open its link, warm up, then `--changes` view changes; the latencies."""
    latencies: list[float] = []

    async def one(i: int) -> None:
        rng = random.Random(i)
        query = {"s": sentence(i), "w": args.weights}
        async with StreamlitSession(url, query_string=urlencode(query)) as session:
            await session.connect(timeout=120)
            for _ in range(3):
                await session.set_widgets(120, **view_values(session, rng))
            for _ in range(args.changes):
                run = await session.set_widgets(120, **view_values(session, rng))
                latencies.append(run.elapsed)
                if run.exceptions:
                    raise RuntimeError(run.exceptions[0])

    await asyncio.gather(*(one(i) for i in range(args.sessions)))
    return latencies


def cpu_per_change(args: argparse.Namespace) -> None:
    """Print the server's CPU per view change: a drive with connections only, one with changes."""
    with start_streamlit("launcher.py") as server:
        pid = server.process.pid
        base = argparse.Namespace(**{**vars(args), "changes": 0})
        asyncio.run(drive(server.url, base))  # warm the caches and the imports
        t0 = cpu_seconds(pid)
        asyncio.run(drive(server.url, base))
        t1 = cpu_seconds(pid)
        latencies = asyncio.run(drive(server.url, args))
        t2 = cpu_seconds(pid)
    changes = args.sessions * args.changes
    per = ((t2 - t1) - (t1 - t0)) / changes * 1000  # less the same sessions' opening runs
    print(
        f"server CPU per view.change: {per:.1f} ms ({changes} changes, {args.sessions} "
        f"session(s), w={args.weights}); rerun p50 {percentile(latencies, 50) * 1000:.0f} ms, "
        f"p95 {percentile(latencies, 95) * 1000:.0f} ms; load average {os.getloadavg()[0]:.1f}"
    )


def profile(args: argparse.Namespace, top: int = 30) -> None:
    """Run the changes on a profiled server; print where a rerun's time goes."""
    with tempfile.TemporaryDirectory(prefix="al-profile-") as tmp:
        Path(tmp, "sitecustomize.py").write_text(SITECUSTOMIZE)
        out = Path(tmp, "runs.prof")
        path = os.pathsep.join(filter(None, [tmp, os.environ.get("PYTHONPATH", "")]))
        env = {"AL_PROFILE": str(out), "PYTHONPATH": path}
        with start_streamlit("launcher.py", env=env) as server:
            asyncio.run(drive(server.url, argparse.Namespace(**{**vars(args), "changes": 0})))
            Path(f"{out}.reset").touch()
            asyncio.run(drive(server.url, args))
            time.sleep(0.5)
            stats = pstats.Stats(str(out))
    runs = args.sessions * (args.changes + 4)  # each session: its first page, 3 warm changes
    rows = []
    for (file, _line, name), (_, calls, _, cum, _) in stats.stats.items():
        if any(part in file for part in OWN) or name in WATCH:
            where = f"{Path(file).parent.name}/{Path(file).name}:{name}"
            rows.append((cum / runs * 1000, calls / runs, where))
    title = f"cProfile, script thread, per rerun ({runs} runs; the profiler inflates the times)"
    top_rows = [(w, f"{ms:.2f}", f"{c:.1f}") for ms, c, w in sorted(rows, reverse=True)[:top]]
    markdown(("function", "ms / run", "calls / run"), top_rows, title)


WATCH = {"_run_script", "exec_func_with_error_handling", "enqueue", "marshall", "_enqueue"}


def main() -> None:
    args = options(
        __doc__,
        sessions=(1, "sessions, each on its own sentence"),
        changes=(100, "view changes per session"),
        weights=("random", "the model's weights", "random", "trained"),
        profile=(False, "also profile the script thread"),
    )
    cpu_per_change(args)
    if args.profile:
        profile(args)


if __name__ == "__main__":
    main()
