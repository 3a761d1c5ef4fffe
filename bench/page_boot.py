"""Where a new page's time goes: a share link opened in Chromium, stage by stage, vs the baseline.

What `make load`'s tabs time (bench/load.py `_browser_loop`: page.goto(new share link) → the
attention view drawn with its marker and Streamlit's run over), taken apart in the page by an
init script that stamps performance.now() (ms from the navigation's start) at each stage:

    html        the document's response ended (navigation timing)
    dcl         DOMContentLoaded (Streamlit's own scripts parsed and run)
    ws          Streamlit's frontend opened its websocket (the constructor was called)
    ws_open     … and it opened
    msg1        the first message (new_session)
    msg2        the second (the script run's first delta)
    element     the first element in the main area
    msg_code    the message carrying the view's bundle (> 40 KB) arrived (main page only)
    code        the view's bundle ran (globalThis.__attentionLab set; main page only)
    mounted     the view's element has its shadow root with [data-testid=explorer] (main only)
    drawn       main: the explorer's dataset.renders > 0; baseline: plotly's heatmap drawn
    msg_last    the last message before idle (the run's end)
    idle        the run is over (stApp notRunning, no status widget) and the page drawn

bench/baseline_app.py (a title, two widgets, one plotly heatmap) is loaded the same way in the
same run, alternating, so the ratio says what part of each stage is the app's own. Also per
load, from the Chrome DevTools protocol (Performance.getMetrics, before and after): the main
thread's script, layout and style time, and the websocket's bytes received.

One Chromium tab per app, reused as load.py's tabs reuse theirs (the HTTP cache warm); every
goto is a new Streamlit session. --sessions N adds N websocket sessions clicking in the view
(as `make load`'s, bench/load.py) on the app's server in the background; --fresh opens each
page in a new browser context (a cold HTTP cache).

    PYTHONPATH=. .venv/bin/python bench/page_boot.py                 # 12 loads of each, quiet
    PYTHONPATH=. .venv/bin/python bench/page_boot.py --sessions 40   # beside make load's sessions

Opt-in: not part of `make bench` (it takes a minute or two).
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from urllib.parse import urlencode

from playwright.async_api import TimeoutError as PlaywrightTimeout

from bench.common import BASELINE_APP, async_chromium, chromium_ok, markdown, options, percentile
from bench.load import BASES, tab_query, view_values
from bench.st_client import SessionError, StreamlitSession
from deploy.local import start_streamlit

STAGES = ("html", "dcl", "ws", "ws_open", "msg1", "msg2", "element", "msg_code", "code",
          "mounted", "drawn", "msg_last", "idle")  # fmt: skip
METRICS = ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "TaskDuration")
LOAD_MS = 120_000  # a cap for one page on a busy machine, never a measurement

# Stamps each stage once, in ms since the navigation started; window.__boot.idle ends a load.
STAMPS = """(() => {
  const B = (window.__boot = { bytes: 0, msgs: 0 });
  const at = (k) => { if (B[k] === undefined) B[k] = performance.now(); };
  const Native = window.WebSocket;
  window.WebSocket = function (...a) {
    at('ws');
    const ws = new Native(...a);
    ws.addEventListener('open', () => at('ws_open'));
    ws.addEventListener('message', (e) => {
      const size = e.data.byteLength || e.data.size || e.data.length || 0;
      B.msgs += 1;
      B.bytes += size;
      at(B.msgs === 1 ? 'msg1' : 'msg2');
      if (size > 40000) at('msg_code');  // the view's bundle element (the baseline has none)
      if (B.idle === undefined) B.msg_last = performance.now();
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  let lab;
  Object.defineProperty(window, '__attentionLab', {
    configurable: true, get: () => lab, set: (v) => { lab = v; at('code'); },
  });
  document.addEventListener('DOMContentLoaded', () => at('dcl'));
  const check = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (!app) return setTimeout(check, 10);
    if (app.dataset.testScriptState === 'running') at('running');
    const main = '[data-testid="stMain"] [data-testid="stElementContainer"]';
    if (document.querySelector(main)) at('element');
    const root = document.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot;
    const view = root && root.querySelector('[data-testid="explorer"]');
    if (view) at('mounted');
    if (view && Number(view.dataset.renders || 0) > 0) at('drawn');
    if (document.querySelector('[data-testid="stPlotlyChart"] .main-svg .hm')) at('drawn');
    if (B.drawn !== undefined
        && app.dataset.testScriptState === 'notRunning'
        && !document.querySelector('[data-testid="stStatusWidget"]')) at('idle');
    if (B.idle === undefined) setTimeout(check, 10);
  };
  const nav = () => {
    const n = performance.getEntriesByType('navigation')[0];
    if (n && n.responseEnd) B.html = n.responseEnd;
  };
  document.addEventListener('readystatechange', nav);
  setTimeout(check, 0);
})();"""


# What a page that never came to rest shows: its stamps, Streamlit's state, the view's.
STUCK = """() => JSON.stringify({ boot: window.__boot,
  script: document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState,
  status: !!document.querySelector('[data-testid="stStatusWidget"]'),
  view: document.querySelector('[data-testid="stBidiComponentIsolated"]')?.shadowRoot
    ?.querySelector('[data-testid="explorer"]')?.dataset,
  code: typeof globalThis.__attentionLab,
  queued: (globalThis.__attentionLabQueue || []).length })"""


async def metrics(cdp) -> dict[str, float]:
    got = await cdp.send("Performance.getMetrics")
    return {m["name"]: m["value"] for m in got["metrics"]}


async def open_page(browser, fresh: bool, old=None):
    """(context, page, cdp): a new context each time with `fresh`, else the one kept."""
    if old is not None and not fresh:
        return old
    if old is not None:
        await old[0].close()
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    await context.add_init_script(STAMPS)
    page = await context.new_page()
    cdp = await context.new_cdp_session(page)
    await cdp.send("Performance.enable")
    return context, page, cdp


async def one_load(tab, url: str) -> dict[str, float]:
    """Stages of one page load (ms from the navigation's start), its total as load.py times
    it, and the main thread's work during it; {"failed": 1} when it never came to rest."""
    _, page, cdp = tab
    before = await metrics(cdp)
    started = time.perf_counter()
    await page.goto(url, wait_until="domcontentloaded")
    try:
        await page.wait_for_function("window.__boot && window.__boot.idle !== undefined",
                                     timeout=LOAD_MS, polling=20)  # fmt: skip
    except PlaywrightTimeout:
        state = await page.evaluate(STUCK)
        print(f"no idle page in {LOAD_MS / 1000:.0f} s: {url}\n  {state}")
        return {"failed": 1}
    total = (time.perf_counter() - started) * 1000
    boot = await page.evaluate("({...window.__boot})")
    after = await metrics(cdp)
    out = {k: boot[k] for k in STAGES if k in boot}
    out["total"], out["kb"] = total, boot["bytes"] / 1024
    for name in METRICS:  # cumulative per renderer; a new renderer starts again from 0
        diff = after.get(name, 0) - before.get(name, 0)
        out[name] = 1000 * (diff if diff >= 0 else after.get(name, 0))
    return out


async def measure(urls: dict[str, str], loads: int, fresh: bool) -> dict[str, list[dict]]:
    """`loads` timed loads of each app (after one untimed each), alternating."""
    got: dict[str, list[dict]] = {name: [] for name in urls}
    async with async_chromium() as browser:
        tabs = {name: await open_page(browser, fresh) for name in urls}
        for i in range(loads + 1):
            for name, base in urls.items():
                tabs[name] = await open_page(browser, fresh, tabs[name])
                link = tab_query(f"{BASES[i % len(BASES)]}mk{2000 + i}", i)  # as load.py's tabs
                sample = await one_load(tabs[name], f"{base}/?{link}")
                if i or "failed" in sample:
                    got[name].append(sample)
    return got


def background(url: str, n: int, stop: threading.Event, ready: threading.Event) -> None:
    """n websocket sessions clicking in the view every 0.2–1 s (load.py's) until `stop`."""

    async def one(i: int) -> None:
        rng = random.Random(i)
        query = urlencode({"s": f"mk{i:03d}{BASES[i % len(BASES)]}", "w": "random"})
        session = StreamlitSession(url, query_string=query)
        try:
            await session.connect(timeout=120)
            opened.append(i)
            while not stop.is_set():
                await asyncio.sleep(rng.uniform(0.2, 1.0))
                await session.set_widgets(120, **view_values(session, rng))
        except (SessionError, OSError) as exc:
            print(f"background session {i}: {exc}")
        finally:
            await session.close()

    async def all_of() -> None:
        tasks = [asyncio.create_task(one(i)) for i in range(n)]
        while len(opened) < n and not all(t.done() for t in tasks):
            await asyncio.sleep(0.2)
        ready.set()
        await asyncio.gather(*tasks)

    opened: list[int] = []
    asyncio.run(all_of())


LABELS = {
    "total": "total (goto → idle, as load.py)",
    "kb": "websocket KB received",
    "failed": "loads never idle (not in the rows above)",
}


def table(got: dict[str, list[dict]]) -> None:
    """Medians per stage for the app and the baseline, their ratio, and the app's p95."""
    app, base = got["app"], got["baseline"]
    rows = []
    for stage in [*STAGES, "total", *METRICS, "kb", "failed"]:
        a = [s[stage] for s in app if stage in s]
        b = [s[stage] for s in base if stage in s]
        a50, a95, b50 = percentile(a, 50), percentile(a, 95), percentile(b, 50)
        ratio = f"{a50 / b50:.2f}×" if b and b50 else "—"
        if not a and not b:
            continue
        if stage == "failed":
            rows.append((LABELS[stage], len(a), "", len(b), ""))
        else:
            rows.append((LABELS.get(stage, stage), f"{a50:.0f}", f"{a95:.0f}", f"{b50:.0f}", ratio))
    header = ("app p50", "app p95", "baseline p50", "ratio p50")
    markdown(("stage (ms from navigation start)", *header), rows)


def main() -> None:
    args = options(
        __doc__,
        loads=(12, "timed loads per app"),
        sessions=(0, "background websocket sessions"),
        fresh=(False, "a new browser context per load"),
    )
    if not chromium_ok("page_boot"):
        raise SystemExit(1)
    stop, ready = threading.Event(), threading.Event()
    with start_streamlit("launcher.py") as app, start_streamlit(BASELINE_APP) as base:
        worker = None
        if args.sessions:
            worker = threading.Thread(target=background, args=(app.url, args.sessions, stop, ready))
            worker.start()
            ready.wait(300)
        load = os.getloadavg()[0]
        try:
            got = asyncio.run(measure({"app": app.url, "baseline": base.url}, args.loads,
                                      args.fresh))  # fmt: skip
        finally:
            stop.set()
            if worker:
                worker.join(180)
    print(f"\n{args.loads} loads each, {args.sessions} background sessions, "
          f"{'fresh contexts' if args.fresh else 'one tab per app'}; "
          f"load average {load:.1f} → {os.getloadavg()[0]:.1f}\n")  # fmt: skip
    table(got)


if __name__ == "__main__":
    main()
