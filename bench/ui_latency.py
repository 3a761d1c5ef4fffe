"""Chromium interaction latency: pointer-down on a control → last heatmap DOM change, vs baseline.

Method: an init script records `performance.now()` at every pointerdown/keydown and at every
DOM mutation inside a `.js-plotly-plot` (Plotly redraws by mutating its SVG and heatmap <image>).
After an interaction we wait until some plot mutated, no element is stale, Streamlit's status
widget is gone and plots have been quiet for QUIET_MS; latency = last plot mutation − input event
(the quiet wait itself is not counted). Median of `clicks` interactions after one warm-up.

"browser CPU" rows: a second, traced pass of CPU_CLICKS interactions per page sums the thread
time of the renderer main thread's top-level tasks (Chrome trace `RunTask` tdur) per
interaction: the client-side work, far less inflated by other load than wall time.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/ui_latency.py`

from bench.common import (
    BASELINE_APP,
    CASES,
    MAIN_APP,
    Row,
    chromium,
    chromium_ok,
    main_app_ready,
    median_of,
    print_table,
    ratio_row,
    running,
)

QUIET_MS = 600  # plots unchanged this long after the script finished = redraw complete
# Widget keys on the main page (`.st-key-<key>` containers); override with env if they differ.
SCALE_KEY = os.environ.get("BENCH_SCALE_KEY", "scale")
HEADS_KEY = os.environ.get("BENCH_HEADS_KEY", "heads")
VERBOSE = os.environ.get("BENCH_VERBOSE") == "1"
CPU_CLICKS = 4  # traced interactions per subject for the renderer CPU rows
TARGETS = {"13 tok × 4 heads": 1.3, "64 tok × 8 heads": 2.0}

PROBE = """
window.__bench = {tClick: 0, lastPlot: 0, plotMutations: 0, lastMsg: 0};
const start = () => {
  const b = window.__bench; b.tClick = performance.now(); b.lastPlot = 0; b.plotMutations = 0;
};
const NativeWS = window.WebSocket;  // note when the server's last message of a rerun arrives
window.WebSocket = function (...args) {
  const ws = new NativeWS(...args);
  ws.addEventListener('message', () => { window.__bench.lastMsg = performance.now(); });
  return ws;
};
window.WebSocket.prototype = NativeWS.prototype;
Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
document.addEventListener('pointerdown', start, true);
document.addEventListener('keydown', start, true);
const inPlot = (n) => {
  const e = n && (n.nodeType === 1 ? n : n.parentElement);
  if (!e) return false;
  const sel = '.js-plotly-plot';
  return !!(e.closest(sel) || (e.querySelector && e.querySelector(sel)));
};
new MutationObserver((records) => {
  for (const r of records) {
    if (inPlot(r.target) || [...r.addedNodes].some(inPlot) || [...r.removedNodes].some(inPlot)) {
      window.__bench.lastPlot = performance.now(); window.__bench.plotMutations++; return;
    }
  }
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
"""

SETTLED = """(quiet) => {
  const b = window.__bench;
  const busy = document.querySelector('[data-testid="stStatusWidget"] button, [data-stale="true"]');
  const running = document.querySelector('[data-testid="stStatusWidget"]')?.innerText?.length > 0;
  return b.plotMutations > 0 && !busy && !running && performance.now() - b.lastPlot > quiet;
}"""


def open_page(browser, url: str, setup=None):
    """A fresh 1280×800 page on url, loaded, probe installed, plots drawn and quiet.

    setup(page), if given, runs before navigation (e.g. to listen to the websocket).
    """
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(PROBE)
    if setup is not None:
        setup(page)
    page.goto(url)
    page.wait_for_selector(".js-plotly-plot .hm, .js-plotly-plot image", timeout=120_000)
    page.evaluate("() => { window.__bench.plotMutations = 1; }")
    page.wait_for_function(SETTLED, arg=1000, timeout=120_000)
    return page


SPLIT = """() => {
  const b = window.__bench;
  return [b.lastPlot - b.tClick, Math.max(0, b.lastMsg - b.tClick)];
}"""


def one_interaction(page, act) -> tuple[float, float]:
    """Run act(page), wait for the redraw to settle.

    Returns (ms to the last plot change, ms to the server's last websocket message).
    """
    act(page)
    page.wait_for_function(SETTLED, arg=QUIET_MS, timeout=120_000, polling=50)
    total, server = page.evaluate(SPLIT)
    return total, server


def click_toggle(key: str):
    """An action that flips the toggle/checkbox with widget key `key`."""
    return lambda page: page.locator(f".st-key-{key} label").first.click()


def choose(key: str, value: str):
    """An action that picks `value` in the select slider / selectbox / radio with key `key`."""

    def act(page) -> None:
        box = page.locator(f".st-key-{key}")
        slider = box.locator('input[type="range"], [role="slider"]')
        if slider.count():  # st.select_slider: one arrow key per option step
            now = slider.first.get_attribute("aria-valuetext")
            slider.first.focus()
            if float(now) == float(value):
                raise ValueError(f"{key} already shows {value}: the action would not rerun")
            slider.first.press("ArrowLeft" if float(now) > float(value) else "ArrowRight")
        elif box.locator('[role="combobox"]').count():  # st.selectbox (react-aria ComboBox)
            box.locator('button[aria-haspopup="listbox"], [role="combobox"]').first.click()
            page.get_by_role("option", name=value, exact=True).first.click()
        elif box.locator('input[type="radio"]').count():
            box.locator("label").filter(has_text=value).first.click()
        else:
            box.get_by_role("button", name=value, exact=True).first.click()

    return act


@dataclass
class Subject:
    """One open page under test: its label, page, and the action lists per interaction."""

    name: str  # "baseline" or a case name
    page: object  # playwright Page
    actions: dict[str, list]  # "scale" / "heads" → actions to cycle through
    heads: int  # the head count the page should show before the heads series
    samples: dict[str, list] = field(default_factory=dict)  # → [(total ms, server ms), …]


def head_actions(heads: int) -> list:
    """Alternate between half the heads and the case's heads (h=4 ↔ 2, h=8 ↔ 4)."""
    return [choose(HEADS_KEY, str(heads // 2)), choose(HEADS_KEY, str(heads))]


def heads_shown(page) -> str | None:
    """The heads control's current value as the page shows it."""
    return page.locator(f".st-key-{HEADS_KEY} input").first.get_attribute("aria-valuetext")


def check_heads(subject: Subject, expected: set[int], when: str) -> None:
    """Warn (in the table's output) when the page does not show the expected head count."""
    shown = heads_shown(subject.page)
    if shown not in {str(h) for h in expected}:
        print(f"ui_latency: WARNING {subject.name} {when}: page shows h={shown}, not {expected}")


def warm_up(browser, url: str) -> None:
    """One throwaway session: loads jieba in the server and absorbs first-session effects."""
    page = open_page(browser, url)
    one_interaction(page, click_toggle(SCALE_KEY))
    page.close()


def interleaved(subjects: list[Subject], what: str, clicks: int) -> None:
    """One warm-up each, then `clicks` rounds of one interaction per subject, in turn.

    Interleaving puts the baseline and the app under the same machine load at the same time.
    """
    for sub in subjects:
        sub.page.bring_to_front()
        one_interaction(sub.page, sub.actions[what][0])  # then actions[1], actions[0], …
        sub.samples[what] = []
    for i in range(clicks):
        for sub in subjects:
            acts = sub.actions[what]
            sub.page.bring_to_front()
            sub.samples[what].append(one_interaction(sub.page, acts[(i + 1) % len(acts)]))


TRACE_CATEGORIES = ["disabled-by-default-devtools.timeline", "devtools.timeline", "toplevel"]


def main_thread_cpu_ms(trace: bytes) -> float:
    """CPU (thread time) of the renderer main threads' top-level tasks in a Chrome trace."""
    import json

    events = json.loads(trace)["traceEvents"]
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("ph") == "M" and e["name"] == "thread_name"
        if e["args"].get("name") == "CrRendererMain"
    }
    return sum(
        e["tdur"] / 1000
        for e in events
        if e.get("ph") == "X" and e["name"] == "RunTask" and "tdur" in e
        if (e["pid"], e["tid"]) in main
    )


def cpu_pass(browser, subjects: list[Subject], what: str, clicks: int) -> None:
    """Renderer main-thread CPU per interaction (traced, so not part of the latency samples)."""
    for sub in subjects:
        acts = sub.actions[what]
        sub.page.bring_to_front()
        browser.start_tracing(page=sub.page, categories=TRACE_CATEGORIES)
        at_full = what == "heads" and heads_shown(sub.page) == str(sub.heads)
        first = 0 if at_full else 1  # never an action that would not change anything
        for i in range(clicks):
            one_interaction(sub.page, acts[(i + first) % len(acts)])
        sub.samples[f"{what} cpu"] = [(main_thread_cpu_ms(browser.stop_tracing()) / clicks, 0)]


def subjects_for(browser, base_url: str, url: str) -> list[Subject]:
    """The baseline page and one main page per case, opened and checked."""
    base = Subject(
        "baseline",
        open_page(browser, base_url),
        {"scale": [click_toggle("scale")], "heads": head_actions(4)},  # same widget kinds
        4,
    )
    subs = [base]
    for case in CASES:
        page = open_page(browser, url + "/" + case.query_string())
        actions = {"scale": [click_toggle(SCALE_KEY)], "heads": head_actions(case.heads)}
        subs.append(Subject(case.name, page, actions, case.heads))
        check_heads(subs[-1], {case.heads}, "on opening")
    return subs


def median_ms(sub: Subject, what: str, part: int = 0) -> float:
    """Median of one part (0 total, 1 to the server's last message) of a subject's samples."""
    return median_of([s[part] for s in sub.samples[what]])


def rows_from(subjects: list[Subject]) -> list[Row]:
    """Ratio rows against the baseline subject; BENCH_VERBOSE=1 also prints the server share."""
    base, rows = subjects[0], []
    for what, label in (("scale", "√d_k toggle"), ("heads", "heads change")):
        for sub in subjects[1:]:
            value, ref = median_ms(sub, what), median_ms(base, what)
            rows.append(
                ratio_row("latency", f"{sub.name}: {label}", value, ref, "ms", TARGETS[sub.name])
            )
        for sub in subjects[1:]:
            value, ref = median_ms(sub, f"{what} cpu"), median_ms(base, f"{what} cpu")
            rows.append(ratio_row("browser CPU", f"{sub.name}: {label}", value, ref, "ms"))
        if VERBOSE:
            for sub in subjects:
                print(
                    f"  {sub.name} {what}: {median_ms(sub, what):.0f} ms, of which to the "
                    f"server's last message {median_ms(sub, what, 1):.0f} ms"
                )
    return rows


def run(clicks: int = 10) -> list[Row]:
    """All latency rows: baseline and every case measured in turn, in one browser."""
    if not (chromium_ok() and main_app_ready()):
        print("ui_latency: skipped (needs /usr/bin/chromium, playwright and app.py)")
        return []
    with chromium() as browser, running(BASELINE_APP) as base_url, running(MAIN_APP) as url:
        warm_up(browser, url)
        subjects = subjects_for(browser, base_url, url)
        interleaved(subjects, "scale", clicks)
        cpu_pass(browser, subjects, "scale", CPU_CLICKS)
        for sub in subjects:
            check_heads(sub, {sub.heads}, "after the √d_k clicks")
        interleaved(subjects, "heads", clicks)
        cpu_pass(browser, subjects, "heads", CPU_CLICKS)
        for sub in subjects:
            check_heads(sub, {sub.heads, sub.heads // 2}, "after the heads changes")
    return rows_from(subjects)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=10, help="interactions per series (≥10)")
    args = parser.parse_args()
    print_table(run(args.clicks), "Chromium interaction latency (median)")


if __name__ == "__main__":
    main()
