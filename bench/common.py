"""Shared pieces of the user-facing benchmarks: cases, servers, Chromium, medians and the table."""

from __future__ import annotations

import argparse
import math
import sys
import urllib.parse
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:  # `python bench/x.py` puts bench/, not the root, on the path
    sys.path.insert(0, str(REPO_ROOT))

from deploy.local import (  # noqa: E402 — the servers and browser the tests use too
    CHROMIUM,
    CHROMIUM_FLAGS,
    chromium_available,
    start_streamlit,
)

BASELINE_APP = REPO_ROOT / "bench" / "baseline_app.py"
MAIN_APP = REPO_ROOT / "app.py"
EXAMPLE = "小明把书放在了桌子上，然后他走了。"  # 13 jieba tokens
LONG = (  # 64 jieba tokens (word mode); the benches print the count they actually got
    "小明把书放在了桌子上，然后他走了。小红拿起那本书，看了看封面，又把它放回了桌子上。"
    "老师走进教室，看见书在桌子上，就问这是谁的书。小明回来以后，发现书不见了，他很着急，到处寻找。"
)


@dataclass(frozen=True)
class Case:
    """One main-page configuration, expressed as its share-link query (ui/links.py PARAMS)."""

    name: str  # label in the table, e.g. "13 tok × 4 heads"
    sentence: str  # the `s` parameter
    d_model: int  # the `d` parameter
    heads: int  # the `h` parameter

    def query(self) -> dict[str, str]:
        """The query parameters that open the main page on this case (random weights: the
        default weights may become the trained model, whose d_model and h are fixed)."""
        return {"s": self.sentence, "d": str(self.d_model), "h": str(self.heads), "w": "random"}

    def query_string(self) -> str:
        """`?s=…&d=…&h=…&w=random`, URL-encoded."""
        return "?" + urllib.parse.urlencode(self.query())


DRAWN = {  # what a page has drawn once it is loaded: the view's maps, the baseline's heatmap
    "main": '[data-testid="explorer"][data-renders] [data-testid="explorer-map"]',
    "baseline": ".js-plotly-plot .hm, .js-plotly-plot image",
}
CASES = (Case("13 tok × 4 heads", EXAMPLE, 64, 4), Case("64 tok × 8 heads", LONG, 64, 8))


@dataclass(frozen=True)
class Row:
    """One line of the combined table: a measurement, its baseline and the target ratio or limit."""

    bench: str  # which harness, e.g. "latency"
    case: str  # what was measured, e.g. "main 13×4: scale toggle"
    value: float  # the measurement
    unit: str  # "ms", "s", "KB"
    baseline: float | None = None  # the same measurement on bench/baseline_app.py, same run
    target: str = ""  # e.g. "≤1.3×" or "<150 KB"
    ok: bool | None = None  # None when there is no target

    @property
    def ratio(self) -> float | None:
        """value / baseline, when a baseline exists."""
        return self.value / self.baseline if self.baseline else None


def ratio_row(bench: str, case: str, value: float, baseline: float, unit: str, limit=None) -> Row:
    """A Row whose target (if any) is `ratio ≤ limit`."""
    ok = None if limit is None else value / baseline <= limit
    return Row(bench, case, value, unit, baseline, f"≤{limit:g}×" if limit else "", ok)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0–100, linear between ranks, numpy's default); NaN for none. Every
    bench's p50 / p95 comes from here."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo = int(pos)
    return xs[lo] + (xs[min(lo + 1, len(xs) - 1)] - xs[lo]) * (pos - lo)


def spread(values: list[float], scale: float = 1.0, digits: int = 0) -> list[str]:
    """p50, p95 and max of `values` × scale, formatted with `digits` decimals: three table cells."""
    p50, p95, top = percentile(values, 50), percentile(values, 95), max(values, default=math.nan)
    return [f"{scale * v:.{digits}f}" for v in (p50, p95, top)]


def frame_row(case: str, intervals: list[float], target_ms: float | None = None) -> Row:
    """A "frame interval" row: the p95 of `intervals` (ms), against `target_ms` if given."""
    p95 = percentile(intervals, 95)
    target, ok = (f"≤{target_ms:g} ms", p95 <= target_ms) if target_ms else ("", None)
    return Row("frame interval", case, p95, "ms", None, target, ok)


def markdown(header: Sequence[str], rows: Iterable[Sequence], title: str = "", left=1) -> None:
    """Print a Markdown table (pasteable into BENCHMARKS.md): the header, then one line per row
    of cells (formatted strings, or anything `str` shows); the first `left` columns aligned left,
    the others right. Every bench's table goes through here."""
    if title:
        print(f"\n### {title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * left + "---:|" * (len(header) - left))
    for row in rows:
        print("| " + " | ".join(map(str, row)) + " |")
    sys.stdout.flush()


def print_table(rows: list[Row], title: str = "") -> None:
    """The combined table of Rows: measured, baseline, ratio, target, ok."""
    ok = {True: "yes", False: "**NO**", None: ""}
    cells = []
    for r in rows:
        base = f"{r.baseline:.1f} {r.unit}" if r.baseline else "—"
        ratio = f"{r.ratio:.2f}×" if r.ratio else "—"
        cells.append((r.bench, r.case, f"{r.value:.1f} {r.unit}", base, ratio, r.target, ok[r.ok]))
    markdown(("bench", "case", "measured", "baseline", "ratio", "target", "ok"), cells, title, 2)


def options(doc: str, argv: list[str] | None = None, parser=None, **spec: tuple):
    """A bench's command line: `name=(default, help)` gives `--name` (an underscore a dash) of the
    default's type; a bool default is a flag, a list takes values, a tuple's third item choices.
    `parser`: an ArgumentParser with the bench's other options already added."""
    parser = parser or argparse.ArgumentParser(description=doc.splitlines()[0])
    for name, (default, help_, *choices) in spec.items():
        flag = "--" + name.replace("_", "-")
        if isinstance(default, bool):
            parser.add_argument(flag, action="store_true", help=help_)
            continue
        many = isinstance(default, list)
        kind = type(default[0] if many else default)
        nargs = "*" if many else None
        parser.add_argument(
            flag, type=kind, nargs=nargs, default=default, help=help_, choices=choices or None
        )
    return parser.parse_args(argv)


# --- servers -----------------------------------------------------------------------------


@contextmanager
def running(script: Path) -> Iterator[str]:
    """A healthy server for `script` (deploy/local.py, shared with the tests)."""
    with start_streamlit(script) as server:
        yield server.url


# --- Chromium ----------------------------------------------------------------------------


def chromium_ok(bench: str) -> bool:
    """True when Debian's Chromium and Playwright are both usable; else says `bench` skips."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print(f"{bench}: skipped (needs playwright: make venv-dev)")
        return False
    if not chromium_available():
        print(f"{bench}: skipped (needs {CHROMIUM}: make sysdeps as root)")
    return chromium_available()


@contextmanager
def chromium() -> Iterator[object]:
    """A Playwright Browser on /usr/bin/chromium with deploy/local.py CHROMIUM_FLAGS."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@asynccontextmanager
async def async_chromium() -> AsyncIterator[object]:
    """The same, for asyncio (Playwright's async API): `make load`'s tabs, bench/page_boot.py."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            await browser.close()
