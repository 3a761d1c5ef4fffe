"""Chromium interaction latency by pixels: input → last change of the maps' region, vs baseline.

The method, row by row (latency in the view and through the server, τ drag by screencast and by
presented frames, the screencast's ceiling, browser CPU), is BENCHMARKS.md's Method table; the
frames, the region and the clock: bench/screencast.py; the τ drag itself: bench/view_drag.py.
Each interaction is interleaved sample by sample with bench/baseline_app.py under the same load
(one warm-up each, then the median of `clicks`). The drags are also traced without the
screencast because its PNG encoding of every 1280 × 800 frame takes browser CPU from the page
on a 2-core machine.

The view is scrolled so its top sits under Streamlit's header (switches, τ, tokens and the first
maps in view; at 64 × 8 only the top ~200 px of the first map); the sidebar is scrolled to its
control. Every case opens the main page with `w=random` and the case's `s`, `d`, `h`.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/ui_latency.py`

from bench import screencast as sc
from bench.common import (
    BASELINE_APP,
    CASES,
    DRAWN,
    MAIN_APP,
    Case,
    Row,
    chromium,
    chromium_ok,
    frame_row,
    options,
    percentile,
    print_table,
    ratio_row,
    running,
)
from bench.view_drag import VERBOSE, VIEW, Subject, drag, drag_cpu, scroll_to

FRAMES_DIR = os.environ.get("BENCH_FRAMES", "")  # a directory: write every changing frame there
MAX_FAILURES = 3  # samples per page that may fail to settle before the run stops
VIEWPORT = {"width": 1280, "height": 800}
TOKENS_PX = 640  # where the focus sample puts the tokens' row (px from the viewport's top)
DRAGS = 4  # τ drags per case, alternating direction
CPU_DRAGS = 2  # traced τ drags per case (CPU per draw), after the measured ones
FPS_TARGET_MS = 33.0
VIEW_TARGETS = {"13 tok × 4 heads": 0.3, "64 tok × 8 heads": 0.5}
SERVER_TARGETS = {"13 tok × 4 heads": 1.3, "64 tok × 8 heads": 2.0}


@dataclass
class Interaction:
    """One thing a person does: untimed preparation, then the input (returns its time)."""

    name: str  # key of the samples, e.g. "view_scale"
    prepare: Callable  # prepare(page): scroll, focus; no input yet
    act: Callable  # act(page, cdp) -> input time (wall clock, s)
    server: bool = True  # the input reruns the script: its sample waits for the server's message
    settled: Callable | None = None  # settled(page): also wait for this (the lesson's deck)


# --- preparing and acting -------------------------------------------------------------------


def sidebar(selector: str, then: Callable | None = None) -> Callable:
    """prepare(): the view under the header, the sidebar control in view (and `then`)."""

    def prepare(page) -> None:
        scroll_to(VIEW)(page)
        page.locator(selector).first.scroll_into_view_if_needed()
        if then is not None:
            then(page)

    return prepare


def click_on(selector: str) -> Callable:
    """act(): a CDP click on the centre of selector."""
    return lambda page, cdp: sc.click(cdp, *sc.centre(page, selector))


def click_other(group: str, attr: str, in_page: bool = False) -> Callable:
    """act(): a click on whichever of the buttons 0 and 1 (by `attr`) in `group` is not the
    chosen one: by CDP, or `in_page` (element.click(), for buttons off-screen)."""

    def act(page, cdp) -> float:
        chosen = page.locator(f'{group} [aria-checked="true"]').first.get_attribute(attr)
        other = f'{group} [{attr}="{1 if chosen == "0" else 0}"]'
        return sc.click_in_page(page, other) if in_page else sc.click(cdp, *sc.centre(page, other))

    return act


def heads_slider(page):
    return page.locator(".st-key-heads input").first


def focus_heads(page) -> None:
    heads_slider(page).evaluate("e => e.focus()")


def heads_key(full: int) -> Callable:
    """act(): arrow key on the heads select slider, h → h/2 or back."""

    def act(page, cdp) -> float:
        shown = heads_slider(page).get_attribute("aria-valuetext")
        return sc.key(cdp, "ArrowLeft" if shown == str(full) else "ArrowRight")

    return act


def toggle(key: str) -> str:
    """Selector of a Streamlit toggle's label by widget key."""
    return f".st-key-{key} label"


def baseline_interactions() -> dict[str, Interaction]:
    nothing = lambda page: None  # noqa: E731 — the baseline's widgets and plot are all in view
    return {
        "toggle": Interaction("toggle", nothing, click_on(toggle("scale"))),
        "heads": Interaction("heads", focus_heads, heads_key(4)),
    }


def main_interactions(case: Case) -> dict[str, Interaction]:
    top = scroll_to(VIEW)
    tokens = '[data-testid="explorer-tokens"]'
    heads = '[data-testid="explorer-heads"]'
    return {
        "view_scale": Interaction("view_scale", top, click_on('[data-testid="explorer-scale"]')),
        "view_causal": Interaction("view_causal", top, click_on('[data-testid="explorer-causal"]')),
        # The tokens sit under the maps: near the viewport's foot, with maps above them in view.
        "focus": Interaction("focus", scroll_to(tokens, TOKENS_PX), click_other(tokens, "data-i")),
        # The head buttons are off-screen once the panels they redraw are in view.
        "head": Interaction(
            "head", scroll_to("canvas[data-panel]", 160), click_other(heads, "data-head", True)
        ),
        # √d_k and causal belong to the view on the main page; the sidebar's positions switch
        # is the on/off setting that still goes to the server (new X, new scores).
        "side_pos": Interaction("side_pos", sidebar(toggle("pos")), click_on(toggle("pos"))),
        "side_heads": Interaction(
            "side_heads", sidebar(".st-key-heads", focus_heads), heads_key(case.heads)
        ),
    }


# (label, main-page interaction, baseline interaction, targets, toggles back and forth)
KINDS = (
    ("√d_k switch in the view", "view_scale", "toggle", VIEW_TARGETS, True),
    ("causal switch in the view", "view_causal", "toggle", VIEW_TARGETS, True),
    ("focus token (click a token)", "focus", "toggle", VIEW_TARGETS, False),
    ("head of the panels (head button)", "head", "toggle", VIEW_TARGETS, False),
    ("sidebar positions (server)", "side_pos", "toggle", SERVER_TARGETS, True),
    ("sidebar heads h (server)", "side_heads", "heads", SERVER_TARGETS, True),
)


# --- measuring ----------------------------------------------------------------------------------


def measure(sub: Subject, inter: Interaction) -> sc.Sample:
    """One interaction on one subject, from a still page to a still page."""
    page, cast = sub.page, sub.cast
    page.bring_to_front()
    inter.prepare(page)
    rects = sc.region(page)
    if not rects and inter.server:  # (a deck's sample without maps is left out, as NaN)
        raise RuntimeError(f"{sub.name} / {inter.name}: no plot, canvas or SVG in the viewport")
    try:
        t = cast.around(lambda: inter.act(page, cast.cdp), inter.server, inter.settled)
    except TimeoutError as exc:  # one stuck sample is reported and left out, not the run
        sub.failures += 1
        if sub.failures >= MAX_FAILURES:
            raise RuntimeError(f"{sub.name}: {sub.failures} samples never settled") from exc
        print(f"WARNING {sub.name} / {inter.name}: {exc}; sample left out")
        return sc.Sample(math.nan, math.nan)
    sub.dumps += 1
    dump = f"{FRAMES_DIR}/{sub.name[:2].strip()}-{inter.name}-{sub.dumps}" if FRAMES_DIR else ""
    sample = sc.sample_of(cast.frames, rects, t, dump)
    if math.isnan(sample.latency_ms):
        print(
            f"WARNING {sub.name} / {inter.name}: no change in the maps' region "
            f"({sample.frames} frames after the input); sample left out"
        )
    elif VERBOSE:
        print(
            f"  {sub.name:18} {inter.name:12} last {sample.latency_ms:7.1f} ms, first "
            f"{sample.first_ms:7.1f} ms, {len(sample.changed)} changing / {sample.frames} frames"
        )
    return sample


def block(base: Subject, theirs: Interaction, mine: list[tuple], clicks: int, toggles: bool):
    """One warm-up each, then `clicks` rounds of one sample per (subject, interaction), the
    baseline's `theirs` first (its samples named "MINE:THEIRS"), in turn.

    Interleaving puts the baseline and the app under the same machine load at the same time.
    A toggle is flipped an even number of times in all, so the next block starts as this one.
    """
    named = Interaction(f"{mine[0][1].name}:{theirs.name}", theirs.prepare, theirs.act)
    pairs = [(base, named), *mine]
    for sub, inter in pairs:
        measure(sub, inter)
        sub.samples.setdefault(inter.name, [])
    for _ in range(clicks):
        for sub, inter in pairs:
            sub.samples[inter.name].append(measure(sub, inter))
    if toggles and (clicks + 1) % 2:
        for sub, inter in pairs:
            measure(sub, inter)


# --- subjects -----------------------------------------------------------------------------------


def open_subject(browser, name: str, url: str, drawn: str, case: Case | None = None) -> Subject:
    """A fresh page on url: loaded, drawn and still."""
    page = browser.new_page(viewport=VIEWPORT)
    cast = sc.Screencast(page)  # listens to the websocket from the start
    page.goto(url)
    page.wait_for_selector(drawn, state="attached", timeout=120_000)
    cast.settle(time.time(), need_message=False)
    return Subject(name, page, cast, case)


def warm_up(browser, url: str) -> None:
    """One throwaway session: loads jieba in the server and absorbs first-session effects."""
    sub = open_subject(browser, "warm-up", url + "/" + CASES[0].query_string(), DRAWN["main"])
    measure(sub, main_interactions(CASES[0])["side_pos"])
    sub.page.close()


def check_heads(sub: Subject) -> None:
    """Warn when a page does not show its case's head count (the heads block must end there)."""
    shown = heads_slider(sub.page).get_attribute("aria-valuetext")
    want = sub.case.heads if sub.case else 4
    if shown != str(want):
        print(f"ui_latency: WARNING {sub.name}: the page shows h={shown}, not {want}")


def latency_median(samples: list[sc.Sample], first: bool = False) -> float:
    """Median latency (or time to the first change) of the samples in which the region changed."""
    got = [s.first_ms if first else s.latency_ms for s in samples if not math.isnan(s.latency_ms)]
    return percentile(got, 50)


def rows_from(base: Subject, subjects: list[Subject], drags: dict, top: tuple) -> list[Row]:
    """Ratio rows against the baseline's median in the same block, then the τ drag rows."""
    rows = []
    for label, mine, theirs, targets, _ in KINDS:
        ref = latency_median(base.samples[f"{mine}:{theirs}"])
        for sub in subjects:
            got = sub.samples[mine]
            value, first = latency_median(got), latency_median(got, first=True)
            case = f"{sub.name}: {label} (first change {first:.0f} ms)"
            rows.append(ratio_row("latency", case, value, ref, "ms", targets[sub.name]))
    for sub in subjects:
        intervals, rates, _, presented = drags[sub.name]
        target = FPS_TARGET_MS if sub.case.heads == 8 else None
        label = f"{sub.name}: τ drag, screencast, p95 of {len(intervals)} intervals"
        label += f" (view drew {percentile(rates, 50):.0f}/s)"
        rows.append(frame_row(label, intervals, target))
        label = f"{sub.name}: τ drag, presented frames (trace, no screencast), p95 of"
        p50 = f"(p50 {percentile(presented, 50):.0f} ms)"
        rows.append(frame_row(f"{label} {len(presented)} intervals {p50}", presented, target))
    for sub in subjects:
        cpu = drags[sub.name][2]
        label = f"{sub.name}: renderer main-thread CPU per view draw, τ drag (traced)"
        rows.append(Row("browser CPU", label, percentile(cpu, 50), "ms"))
    intervals, drawn = top
    label = (
        f"screencast ceiling, p95 (canvas redrawn every frame, {drawn:.0f} draws/s; "
        f"p50 {percentile(intervals, 50):.0f} ms)"
    )
    return [*rows, frame_row(label, intervals)]


def run(clicks: int = 7) -> list[Row]:
    """All latency rows: baseline and every case measured in turn, in one browser."""
    if not chromium_ok("ui_latency"):
        return []
    with chromium() as browser, running(BASELINE_APP) as base_url, running(MAIN_APP) as url:
        warm_up(browser, url)
        base = open_subject(browser, "baseline", base_url, DRAWN["baseline"])
        subjects = [
            open_subject(browser, c.name, f"{url}/{c.query_string()}", DRAWN["main"], c)
            for c in CASES
        ]
        theirs = baseline_interactions()
        for _, mine, their, _, toggles in KINDS:
            pairs = [(s, main_interactions(s.case)[mine]) for s in subjects]
            block(base, theirs[their], pairs, clicks, toggles)
        for sub in [base, *subjects]:
            check_heads(sub)
        # (screencast intervals, draws per s, CPU per draw, presented-frame intervals)
        drags = {s.name: ([], [], [], []) for s in subjects}
        for i in range(DRAGS):
            for sub in subjects:
                intervals, rate = drag(sub, leftwards=bool(i % 2))
                drags[sub.name][0].extend(intervals)
                drags[sub.name][1].append(rate)
        for i in range(CPU_DRAGS):
            for sub in subjects:
                cpu, presented = drag_cpu(browser, sub, leftwards=bool(i % 2))
                drags[sub.name][2].append(cpu)
                drags[sub.name][3].extend(presented)
        top = sc.ceiling(browser, VIEWPORT)
    return rows_from(base, subjects, drags, top)


if __name__ == "__main__":
    args = options(__doc__, clicks=(7, "samples per interaction (odd)"))
    print_table(run(args.clicks), "Chromium interaction latency by pixels (median)")
