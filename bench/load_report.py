"""bench/load.py's table: what each client saw (Stats), the run's clients, latencies, server CPU
per rerun and memory, the proxy's spread over its app processes and a killed process's
sessions; and the exit status those numbers give."""

from __future__ import annotations

import argparse
import os
from collections import Counter
from dataclasses import dataclass, field

from bench.common import markdown, percentile, spread


@dataclass
class Stats:
    """Everything one client (websocket session or browser tab) saw."""

    name: str
    marker: str
    latencies: list[float] = field(default_factory=list)
    first_load: float = float("nan")  # seconds from opening the link to the first full page
    runs: int = 0
    exceptions: list[str] = field(default_factory=list)
    disconnects: list[str] = field(default_factory=list)
    crosstalk: list[str] = field(default_factory=list)
    own_missing: int = 0  # runs whose charts did not carry the session's own marker
    chart_runs: int = 0  # runs that sent at least one plotly chart
    toggled: Counter = field(default_factory=Counter)  # widget key → times flipped
    alive: bool = False  # warmed up and not disconnected
    done: bool = False
    dropped: int = 0  # times its server went away mid-run (--kill-after)
    reconnects: list[float] = field(default_factory=list)  # seconds from drop to a full page
    restored: int = 0  # reconnections whose first run showed the session's own sentence


def usage(warm: dict, after: dict, closed: dict, killed: dict) -> dict:
    """RSS (MB) of the app processes that lived through the run, and CPU s of all of them."""
    alive = [pid for pid in after if pid in warm]
    cpu = sum(after[pid][1] - warm[pid][1] for pid in alive)
    if killed:  # its CPU up to the kill
        cpu += killed["cpu"] - warm[killed["pid"]][1]
    return {
        "rss_warm": sum(warm[pid][0] for pid in alive),
        "rss_after": sum(after[pid][0] for pid in alive),
        "rss_closed": sum(closed[pid][0] for pid in alive if pid in closed),
        "server_cpu": cpu,  # CPU seconds the app processes used in the timed part
    }


def report(result: dict, args: argparse.Namespace, server_errors: list[str]) -> int:
    """Print the summary table (and the first few problems); return the process exit status."""
    stats: list[Stats] = result["stats"]
    ws = [s for s in stats if s.name.startswith("ws")]
    tabs = [s for s in stats if not s.name.startswith("ws")]
    rows = [("websocket sessions", ws), ("chromium tabs", tabs)]
    title = f"{args.sessions} sessions + {len(tabs)} Chromium tabs, {args.duration:.0f} s"
    if args.proxy:
        title += f", through nginx to {args.workers} app process" + "es" * (args.workers > 1)
    print(f"\nLoad test: {title}")
    use = result["usage"]
    timed = sum(len(s.latencies) for s in stats)  # the timed part's reruns and tab loads
    per_run = use["server_cpu"] * 1000 / timed if timed else float("nan")
    cells = []
    for label, group in rows:
        if group:
            lat = [x for s in group for x in s.latencies]
            errors = sum(len(s.exceptions) + len(s.disconnects) for s in group)
            held = f"{sum(s.alive for s in group)}/{len(group)}"
            crosstalk = sum(len(s.crosstalk) for s in group)
            cpu = f"{per_run:.1f}" if group is ws else "(all)"
            runs = sum(s.runs for s in group)
            cells.append((label, held, runs, errors, crosstalk, *spread(lat, digits=2), cpu))
    header = ("clients", "held", "runs", "errors", "crosstalk", "p50 s", "p95 s", "max s")
    markdown((*header, "CPU ms/run"), cells)
    tab_loads = sum(len(s.latencies) for s in tabs)
    print(
        f"server CPU per timed run: {per_run:.1f} ms = {use['server_cpu']:.1f} s over "
        f"{timed} runs ({timed - tab_loads} websocket reruns + {tab_loads} tab page loads; "
        f"a tab's page load costs more than a view change)"
    )
    firsts = [s.first_load for s in ws if s.first_load == s.first_load]
    print(
        f"first page of {len(firsts)}/{len(ws)} sessions opened together: p50 "
        f"{percentile(firsts, 50):.1f} s, p95 {percentile(firsts, 95):.1f} s, "
        f"max {max(firsts, default=float('nan')):.1f} s"
    )
    warm, after, closed = use["rss_warm"], use["rss_after"], use["rss_closed"]
    print(
        f"CPU in the timed part: server {use['server_cpu']:.0f} s, "
        f"load client {result['client_cpu']:.0f} s, over {args.duration:.0f} s; "
        f"machine load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(
        f"server RSS: {warm:.0f} MB after warm-up ({result['warmup_s']:.0f} s), "
        f"{after:.0f} MB after the run ({after / warm:.2f}x), "
        f"{closed:.0f} MB 5 s after closing"
    )
    if args.proxy:
        report_proxy(result, ws)
    print(
        f"server log errors: {len(server_errors)}; runs with charts: "
        f"{sum(s.chart_runs for s in stats)}, lacking their own token: "
        f"{sum(s.own_missing for s in stats)}"
    )
    toggled = sum((s.toggled for s in stats), Counter())
    print("widgets flipped: " + ", ".join(f"{k} x{n}" for k, n in toggled.most_common()))
    problems = [(s.name, p) for s in stats for p in s.exceptions + s.disconnects + s.crosstalk]
    for name, problem in problems[:10]:
        print(f"  {name}: {problem[:300]}")
    for line in server_errors[:5]:
        print(f"  server: {line[:300]}")
    failed = problems or server_errors or any(not s.alive for s in stats) or after > 1.5 * warm
    return 1 if failed else 0


def report_proxy(result: dict, ws: list[Stats]) -> None:
    """The lines only a run through nginx has: spread over processes, nginx CPU, the kill."""
    spread = " / ".join("?" if n is None else str(n) for n in result["spread"])
    print(
        f"sessions per app process after warm-up (websockets + tabs): {spread}; "
        f"nginx CPU in the timed part {result['nginx_cpu']:.1f} s"
    )
    killed = result.get("killed")
    if not killed:
        return
    dropped = [s for s in ws if s.dropped]
    back = [x for s in ws for x in s.reconnects]
    failed = sum(1 for s in dropped if s.disconnects)
    print(
        f"killed app process {killed['index']} (SIGKILL) {killed['at']:.0f} s into the run, "
        f"holding {killed['sessions']} sessions: {len(dropped)} websocket sessions dropped, "
        f"{sum(bool(s.reconnects) for s in dropped)} reconnected "
        f"({sum(s.restored for s in dropped)} showing their own sentence at once), "
        f"{failed} failed; reconnection p50 {percentile(back, 50):.1f} s, "
        f"max {max(back, default=float('nan')):.1f} s; "
        f"nginx logged {result['nginx_expected']} errors about the killed process"
    )
