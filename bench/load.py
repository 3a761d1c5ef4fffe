"""Load test: a classroom of Streamlit sessions (websocket clients + a few Chromium tabs) at once.

Starts `streamlit run launcher.py` on a free 127.0.0.1 port (never anything else), opens N sessions
through the app's own websocket protocol (bench/st_client.py), each with its own sentence from a
share link, and toggles widgets (scaling switch, heads, …) for the given duration; a few real
Chromium pages reload share links among them. Then prints a table: sessions held, errors
(exception elements, disconnects, timeouts, tracebacks in the server log), cross-talk (a session
seeing another session's sentence token), server RSS after warm-up vs after the run, rerun
latency p50/p95.

With --proxy it drives `make serve` instead: --workers app processes behind nginx
(deploy/serve.py), the same clients through nginx's one port, and prints the same table plus how
the sessions spread over the processes. --kill-after S kills (SIGKILL) the app process holding
the most sessions S seconds into the timed part; its sessions reconnect as a page does (same
cookies and address bar, so nginx sends them to a live process) and the table counts how many
dropped, reconnected and came back showing their own sentence, and how many failed.

    PYTHONPATH=. .venv/bin/python bench/load.py                    # 40 sessions x 60 s
    PYTHONPATH=. .venv/bin/python bench/load.py --think 5 15   # students read between clicks
    PYTHONPATH=. .venv/bin/python bench/load.py -n 10 -t 15 --browsers 1
    PYTHONPATH=. .venv/bin/python bench/load.py --proxy --workers 2   # make load TARGET=proxy
    PYTHONPATH=. .venv/bin/python bench/load.py --proxy --workers 2 --kill-after 20
    PYTHONPATH=. .venv/bin/python bench/load.py --both --workers 2    # make load TARGET=both

Exit status 1 when any session errs, disconnects (or, with --kill-after, fails to reconnect),
sees another's token, or RSS grows past 1.5x.
The Chromium tabs run on the server's own 2 cores here (in class they run on the students'
machines), so they slow the server they measure.

The table is printed by bench/load_report.py, with the server's CPU per timed rerun (from
/proc/PID/stat of the app processes before and after the timed part).

Opt-in: not part of `make test` (it takes minutes and both cores).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import signal
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import async_chromium, chromium_available, options
from bench.load_report import Stats, report, usage
from bench.load_target import Target, active_sessions, cpu_seconds, rss_mb, serve, server_errors
from bench.st_client import RunResult, SessionError, StreamlitSession

# Sentences with a per-session marker token ("mk007"): jieba keeps it as one word, so it shows
# up in the token chips and the heatmap tick labels, and no other session's run may contain it.
BASES = (
    "小明把书放在了桌子上，然后他走了。",
    "我打你",
    "你打我",
    "老师问学生为什么他没有来上课。",
    "小红给小华打电话，因为她生病了。",
    "猫追老鼠，它跑得很快。",
)
TOGGLES = re.compile(r"scale|head|^h$|causal|pos")  # --via sidebar: the widgets flipped
TOGGLE_KINDS = {"checkbox", "selectbox", "radio", "button_group", "select_slider"}
RUN_TIMEOUT_S = 120.0
WARM_RUNS, WARMUP_TIMEOUT_S = 2, 300.0  # reruns per session before the timed part; at most
RECONNECT_WAITS_S = (1.0, 2.0, 4.0, 8.0)  # a page's back-off between reconnection attempts


def marker(i: int) -> str:
    """The unique token of session i."""
    return f"mk{i:03d}"


def sentence(i: int) -> str:
    """Session i's sentence: a base sentence with its marker token inside."""
    base = BASES[i % len(BASES)]
    return f"{marker(i)}{base}" if i % 2 else f"{base}{marker(i)}"


def check_run(stats: Stats, run: RunResult, markers: list[str], *, warm: bool) -> None:
    """Count exceptions and cross-talk in one run; record latency unless warming up."""
    stats.runs += 1
    stats.exceptions += run.exceptions
    foreign = set(re.findall(r"mk\d{3,4}", run.text)) - {stats.marker}
    stats.crosstalk += sorted(foreign & set(markers))
    # What shows the sentence: the attention view's tokens (main page), else plotly charts.
    shown = [json.dumps(v["tokens"], ensure_ascii=False) for v in run.views]
    shown = shown or [c.spec for c in run.of_kind("plotly_chart")]
    stats.chart_runs += bool(shown)
    if shown and not any(stats.marker in text for text in shown):
        stats.own_missing += 1
    if not warm:
        stats.latencies.append(run.elapsed)


def view_values(session: StreamlitSession, rng: random.Random) -> dict:
    """One change made in the attention view, sent as its component state (as view.js does):
    √d_k or the causal mask flipped, another focus token or another head inspected."""
    header = session.last_view
    if header is None or "explorer" not in session.widgets:
        return {}
    state = dict(header["state"])
    what = rng.choice(("scale", "causal", "focus", "head"))
    if what in ("scale", "causal"):
        state[what] = not state[what]
    else:
        size = header["n"] if what == "focus" else header["h"]
        state[what] = (state[what] + rng.randrange(1, max(size, 2))) % max(size, 1)
    session.view_seq += 1
    return {"explorer": {"view": {**state, "seq": session.view_seq}}}


def toggle_values(session: StreamlitSession, rng: random.Random) -> dict:
    """Pick one toggleable widget (by key: TOGGLES) and a new value for it, like a student would."""
    candidates = [
        w for k, w in session.widgets.items() if TOGGLES.search(k) and w.kind in TOGGLE_KINDS
    ]
    if not candidates:
        return {}
    widget = rng.choice(candidates)
    key = next(k for k, w in session.widgets.items() if w is widget)
    if widget.kind == "checkbox":
        return {key: not widget.proto.value}
    options = [getattr(o, "content", o) for o in widget.proto.options]
    if not options:
        return {}
    if widget.kind in {"button_group", "select_slider"}:
        return {key: [rng.choice(options)]}
    return {key: rng.choice(options)}


def flip(session: StreamlitSession, rng: random.Random, stats: Stats) -> dict:
    """One change: in the attention view (component state) or a sidebar widget (--via)."""
    if session.via == "view":
        values = view_values(session, rng)
        stats.toggled.update(f"view.{k}" for k in ("change",) if values)
    else:
        values = toggle_values(session, rng)
        stats.toggled.update(values.keys())
    return values


async def run_session(i: int, url: str, args: argparse.Namespace, ctx: dict) -> None:
    """One websocket session: open its share link, warm up, then toggle until the deadline."""
    stats, rng = ctx["stats"][i], random.Random(i)
    query = {"s": sentence(i), "w": "random"}  # the playground: d_model, h, positions live
    session = StreamlitSession(url, query_string=urlencode(query))
    session.via = args.via
    try:
        first = await session.connect(timeout=RUN_TIMEOUT_S)
        stats.first_load = first.elapsed
        check_run(stats, first, ctx["markers"], warm=True)
        for _ in range(WARM_RUNS):
            run = await session.set_widgets(RUN_TIMEOUT_S, **flip(session, rng, stats))
            check_run(stats, run, ctx["markers"], warm=True)
        stats.alive = True
        await ctx["warm"].wait()
        while time.monotonic() < ctx["deadline"]:
            await asyncio.sleep(rng.uniform(*args.think))  # a person's think time
            values = flip(session, rng, stats)
            try:
                run = await session.set_widgets(RUN_TIMEOUT_S, **values)
            except SessionError:
                if not (ctx["killed"] and session.closed_reason):
                    raise  # a timeout, or a drop nobody caused: an error
                await reconnect(session, stats, ctx)
                continue
            check_run(stats, run, ctx["markers"], warm=False)
    except (SessionError, OSError) as exc:
        stats.alive = False
        stats.disconnects.append(f"{type(exc).__name__}: {exc}")
    finally:
        stats.done = True
        await session.close()


async def reconnect(session: StreamlitSession, stats: Stats, ctx: dict) -> None:
    """Its app process was killed: reconnect as the page does, backing off; raise on failure."""
    stats.dropped += 1
    started, last = time.perf_counter(), None
    for wait in RECONNECT_WAITS_S:
        await asyncio.sleep(wait)
        try:
            run = await session.connect(RUN_TIMEOUT_S)
        except (SessionError, OSError) as exc:
            last = exc
            continue
        stats.reconnects.append(time.perf_counter() - started)
        stats.restored += stats.marker in run.text
        check_run(stats, run, ctx["markers"], warm=True)
        return
    raise SessionError(f"no reconnection in {len(RECONNECT_WAITS_S)} tries: {last}")


async def browser_tab(browser, j: int, url: str, ctx: dict) -> Stats:
    """A Chromium tab that reloads its share link with scaling/heads flipped, until the deadline."""
    i = 1000 + j  # browser markers are mk1000+ … kept apart from websocket sessions
    stats = Stats(f"chromium{j}", f"mk{i}")
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    page = await context.new_page()
    page.on("dialog", lambda d: (stats.exceptions.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: stats.exceptions.append(f"pageerror: {e}"))
    try:
        stats.alive = await _browser_loop(page, stats, i, url, ctx)
    except Exception as exc:  # Playwright timeouts and crashes are what we count here
        stats.disconnects.append(f"{type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await context.close()
    return stats


async def _browser_loop(page, stats: Stats, i: int, url: str, ctx: dict) -> bool:
    """Load, wait for the view to show our marker, check the DOM, flip a parameter, repeat."""
    text = f"{BASES[i % len(BASES)]}{stats.marker}"
    flip = 0
    while True:
        started = time.perf_counter()
        await page.goto(f"{url}/?{tab_query(text, flip)}", wait_until="domcontentloaded")
        await page.wait_for_function(VIEW_SHOWS, arg=stats.marker, timeout=RUN_TIMEOUT_S * 1000)
        warm = not ctx["warm"].is_set()
        if not warm:
            stats.latencies.append(time.perf_counter() - started)
        body = await page.evaluate(PAGE_TEXT)
        fake = RunResult(texts=[body])
        shown = await page.locator("[data-testid=stException]").count()
        fake.exceptions += [f"stException x{shown}"] if shown else []
        check_run(stats, fake, ctx["markers"], warm=True)
        flip += 1
        if not warm and time.monotonic() >= ctx["deadline"]:
            return True
        await asyncio.sleep(random.uniform(*ctx["think"]))  # reading the page, then a new link


def tab_query(text: str, flip: int) -> str:
    """A tab's share link: its sentence, with √d_k and h flipped from one load to the next."""
    return urlencode({"s": text, "scale": flip % 2, "h": (1, 2)[flip // 2 % 2], "w": "random"})


# The attention view (ui/explorer) has drawn and shows our marker among its tokens (its shadow
# root holds them), and Streamlit's run is over.
VIEW_SHOWS = """m => {
  const root = document.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot;
  const view = root && root.querySelector('[data-testid="explorer"]');
  return !!view && Number(view.dataset.renders || 0) > 0
    && root.querySelector('[data-testid="explorer-tokens"]').textContent.includes(m)
    && !document.querySelector('[data-testid=stStatusWidget]');
}"""
# Everything readable: the page and the view's shadow root (cross-talk shows up in either).
PAGE_TEXT = """() => document.body.textContent + (document
  .querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot?.textContent || '')"""


async def run_browsers(url: str, args: argparse.Namespace, ctx: dict) -> list[Stats]:
    """Launch Debian's Chromium once and run `args.browsers` tabs in separate contexts."""
    if args.browsers <= 0 or not chromium_available():
        return []
    async with async_chromium() as browser:
        tabs = [browser_tab(browser, j, url, ctx) for j in range(args.browsers)]
        return list(await asyncio.gather(*tabs))


async def kill_later(target: Target, delay: float, ctx: dict) -> None:
    """SIGKILL the app process holding the most sessions, `delay` s into the timed part."""
    await asyncio.sleep(delay)
    counts = [await asyncio.to_thread(active_sessions, url) for url, _ in target.apps]
    k = max(range(len(counts)), key=lambda i: counts[i] or 0)
    url, pid = target.apps[k]
    target.killed.update(
        index=k + 1,
        pid=pid,
        port=urlsplit(url).port,
        sessions=counts[k],
        at=delay,
        cpu=cpu_seconds(pid),
        rss=rss_mb(pid),
    )
    ctx["killed"] = True  # before the signal: a drop from now on is this kill's doing
    os.kill(pid, signal.SIGKILL)


async def drive(target: Target, args: argparse.Namespace) -> dict:
    """Run every client; take usage after warm-up, after the run and 5 s after closing."""
    stats = [Stats(f"ws{i:02d}", marker(i)) for i in range(args.sessions)]
    markers = [s.marker for s in stats] + [f"mk{1000 + j}" for j in range(args.browsers)]
    ctx = {"stats": stats, "markers": markers, "warm": asyncio.Event(), "deadline": float("inf")}
    ctx.update(think=args.think, killed=False)
    started = time.monotonic()
    tasks = [
        asyncio.create_task(run_session(i, target.url, args, ctx)) for i in range(args.sessions)
    ]
    browsers = asyncio.create_task(run_browsers(target.url, args, ctx))
    while time.monotonic() < started + WARMUP_TIMEOUT_S:
        if all(s.alive or s.done for s in stats):
            break
        await asyncio.sleep(0.5)
    warmup_s = time.monotonic() - started
    spread = [await asyncio.to_thread(active_sessions, url) for url, _ in target.apps]
    warm, nginx_warm, own_warm = target.sample(), target.nginx_cpu(), time.process_time()
    ctx["deadline"] = time.monotonic() + args.duration
    ctx["warm"].set()
    killer = args.kill_after is not None and asyncio.create_task(
        kill_later(target, args.kill_after, ctx)
    )
    await asyncio.gather(*tasks)
    tabs = await browsers
    if killer:
        await killer
    after, nginx_after, own_after = target.sample(), target.nginx_cpu(), time.process_time()
    await asyncio.sleep(5)  # sessions closed: give the server a moment to drop them
    return {
        "stats": stats + tabs,
        "usage": usage(warm, after, target.sample(), target.killed),
        "warmup_s": warmup_s,
        "spread": spread,  # sessions per app process after warm-up (websockets and tabs)
        "nginx_cpu": nginx_after - nginx_warm,
        "client_cpu": own_after - own_warm,  # … and this process (protobuf parsing, Playwright)
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--sessions", type=int, default=40, help="websocket sessions")
    parser.add_argument("-t", "--duration", type=float, default=60.0, help="seconds of toggling")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        default=(0.2, 1.0),
        metavar=("MIN", "MAX"),
        help="seconds between a session's toggles (uniform)",
    )
    kill = "SIGKILL the busiest app process S s into the run"
    parser.add_argument("--kill-after", type=float, metavar="S", help=kill)
    where = "where sessions click: the attention view's switches, tokens and heads (component "
    where += "state, answered in the browser, then one rerun) or the sidebar's widgets"
    args = options(
        __doc__,
        argv,
        parser,
        browsers=(3, "Chromium tabs among them"),
        via=("view", where, "view", "sidebar"),
        proxy=(False, "through nginx (make serve)"),
        both=(False, "one process, then through nginx to --workers: two tables (TARGET=both)"),
        workers=(os.cpu_count() or 2, "app processes behind nginx (default: cores)"),
    )
    if not 1 <= args.sessions <= 999 or args.duration <= 0 or not 0 <= args.browsers <= 20:
        parser.error("need 1 <= --sessions <= 999, --duration > 0 and 0 <= --browsers <= 20")
    if args.both and (args.proxy or args.kill_after is not None):
        parser.error("--both runs one process, then --proxy itself; no --kill-after")
    if args.kill_after is not None and not (args.proxy and 0 <= args.kill_after < args.duration):
        parser.error("--kill-after needs --proxy and 0 <= S < --duration")
    if (args.proxy or args.both) and not 1 <= args.workers <= 64:
        parser.error("need 1 <= --workers <= 64")
    return args


def main(argv: list[str] | None = None) -> int:
    """Start the server(s) on loopback, drive them, stop them, print the table (--both: one
    process, then nginx in front of --workers processes, a table each)."""
    args = parse_args(argv)
    if not args.both:
        return one_target(args)
    first = one_target(argparse.Namespace(**{**vars(args), "proxy": False}))
    return max(first, one_target(argparse.Namespace(**{**vars(args), "proxy": True})))


def one_target(args: argparse.Namespace) -> int:
    """One target (a process, or nginx in front of --workers): drive it, print its table."""
    with serve(args) as target:
        host = urlsplit(target.url).hostname
        if host != "127.0.0.1":  # the load test only ever targets this machine's loopback
            raise SystemExit(f"refusing to load-test {target.url}: not 127.0.0.1")
        budget = WARMUP_TIMEOUT_S + args.duration + 2 * RUN_TIMEOUT_S + 60
        result = asyncio.run(asyncio.wait_for(drive(target, args), budget))
        errors, result["nginx_expected"] = server_errors(target)
        result["killed"] = target.killed
    return report(result, args, errors)


if __name__ == "__main__":
    sys.exit(main())
