"""Chromium interaction latency: pointer-down on a control → last heatmap DOM change, vs baseline.

Method: an init script records `performance.now()` at every pointerdown/keydown and at every
DOM mutation inside a `.js-plotly-plot` (Plotly redraws by mutating its SVG and heatmap <image>).
After an interaction we wait until some plot mutated, no element is stale, Streamlit's status
widget is gone and plots have been quiet for QUIET_MS; latency = last plot mutation − input event
(the quiet wait itself is not counted). Median of `clicks` interactions after one warm-up.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/ui_latency.py`

from bench.common import (
    BASELINE_APP,
    CASES,
    MAIN_APP,
    Case,
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


def series(page, actions: list, clicks: int) -> float:
    """Median latency (ms) over `clicks` interactions cycling through `actions`; one warm-up.

    With BENCH_VERBOSE=1 also prints the median time to the server's last message.
    """
    one_interaction(page, actions[0])  # warm-up; then actions[1], actions[0], …
    samples = [one_interaction(page, actions[(i + 1) % len(actions)]) for i in range(clicks)]
    total = median_of([s[0] for s in samples])
    if VERBOSE:
        server = median_of([s[1] for s in samples])
        print(f"  latency {total:7.1f} ms, of which to last server message {server:7.1f} ms")
    return total


def head_actions(heads: int) -> list:
    """Alternate between half the heads and the case's heads (h=4 ↔ 2, h=8 ↔ 4)."""
    return [choose(HEADS_KEY, str(heads // 2)), choose(HEADS_KEY, str(heads))]


def measure_baseline(browser, clicks: int) -> dict[str, float]:
    """Toggle and heads latency on bench/baseline_app.py."""
    with running(BASELINE_APP) as url:
        page = open_page(browser, url)
        out = {
            "scale": series(page, [click_toggle("scale")], clicks),
            "heads": series(page, head_actions(4), clicks),  # same widget kind as the app
        }
        page.close()
    return out


def heads_shown(page) -> str | None:
    """The heads control's current value as the page shows it."""
    return page.locator(f".st-key-{HEADS_KEY} input").first.get_attribute("aria-valuetext")


def check_heads(page, case: Case, when: str, expected: set[int] | None = None) -> None:
    """Warn (in the table's output) when the page does not show the expected head count."""
    shown, expected = heads_shown(page), expected or {case.heads}
    if shown not in {str(h) for h in expected}:
        print(f"ui_latency: WARNING {case.name} {when}: page shows h={shown}, not {expected}")


def warm_up(browser, url: str) -> None:
    """One throwaway session: loads jieba in the server and absorbs first-session effects."""
    page = open_page(browser, url)
    one_interaction(page, click_toggle(SCALE_KEY))
    page.close()


def measure_case(browser, url: str, case: Case, clicks: int) -> dict[str, float]:
    """Toggle and heads latency on the main page opened on `case`."""
    page = open_page(browser, url + "/" + case.query_string())
    check_heads(page, case, "on opening")
    out = {"scale": series(page, [click_toggle(SCALE_KEY)], clicks)}
    check_heads(page, case, "after the √d_k clicks")
    out["heads"] = series(page, head_actions(case.heads), clicks)
    check_heads(page, case, "after the heads changes", {case.heads, case.heads // 2})
    page.close()
    return out


def run(clicks: int = 10) -> list[Row]:
    """All latency rows: baseline first, then each case on the main page, in one browser."""
    if not (chromium_ok() and main_app_ready()):
        print("ui_latency: skipped (needs /usr/bin/chromium, playwright and app.py)")
        return []
    with chromium() as browser:
        base = measure_baseline(browser, clicks)
        with running(MAIN_APP) as url:
            warm_up(browser, url)
            measured = {case.name: measure_case(browser, url, case, clicks) for case in CASES}
    rows = []
    for name, got in measured.items():
        for what, label in (("scale", "√d_k toggle"), ("heads", "heads change")):
            rows.append(
                ratio_row("latency", f"{name}: {label}", got[what], base[what], "ms", TARGETS[name])
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=10, help="interactions per series (≥10)")
    args = parser.parse_args()
    print_table(run(args.clicks), "Chromium interaction latency (median)")


if __name__ == "__main__":
    main()
