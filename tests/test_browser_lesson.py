"""The lesson (/lesson) in Chromium: every scene and step fits a projector's screen and a big one,
readable from the back (no text under 20 px, no labels on top of each other, nothing cut), the
keys and the link, predict-then-reveal, bad links, a sentence a scene cannot use, the phone,
axe, and the browser's arithmetic against the core. Helpers stay in this file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import numpy as np
import pytest
from axe_playwright_python.sync_playwright import Axe

from attention_core.model import load_demo_model
from ui.text import t

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = REPO / "test-artifacts" / "lesson"
DOCS = REPO / "docs" / "lesson"  # LESSON_DOCS=1 writes the screenshots there
LOAD_MS = 120_000
SCENES = 10
SENTENCE = "小明把书放在了桌子上，然后他走了。"
ROOT = "document.querySelector('[data-testid=\"stBidiComponentIsolated\"]').shadowRoot"
DECK = f"{ROOT}.querySelector('[data-testid=\"lesson\"]')"
SCENE = f"{ROOT}.querySelector('[data-testid=\"lesson-scene\"]')"

# Everything a person at the back of the room must be able to read, checked from outside: the
# text nodes' computed sizes and boxes, the fonts and label boxes the canvases publish
# (data-fonts, data-cell-fonts, data-labels), boxes that scroll or cut their content.
ROOM_CHECK = """() => {
  const host = document.querySelector('[data-testid="stBidiComponentIsolated"]');
  const root = host.shadowRoot.querySelector('[data-testid="lesson"]');
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  const shown = (el) => {
    if (el.closest('.sr-only, [hidden]')) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  const block = (el) => {  // text in one paragraph is one flow: its pieces may touch
    while (el && getComputedStyle(el).display === 'inline') el = el.parentElement;
    return el;
  };
  const boxes = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    if (!node.textContent.trim() || !shown(node.parentElement)) continue;
    const el = node.parentElement;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 19.99) out.push(`text ${px}px: ${node.textContent.trim().slice(0, 30)}`);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width > 0.5 && r.height > 0.5) boxes.push([[r.left, r.top, r.width, r.height], block(el), node.textContent.trim().slice(0, 24)]);
    }
  }
  for (const c of root.querySelectorAll('canvas')) {
    if (!shown(c)) continue;
    const b = c.getBoundingClientRect();
    const nums = (s) => (s || '').split(',').filter(Boolean).map(Number);
    for (const f of nums(c.dataset.fonts)) if (f < 20) out.push(`canvas font ${f}px`);
    for (const f of nums(c.dataset.cellFonts)) if (f < 16) out.push(`cell numbers ${f}px`);
    for (const [x, y, w, h] of JSON.parse(c.dataset.labels || '[]')) {
      if (x < -1 || y < -1 || x + w > b.width + 1 || y + h > b.height + 1) out.push(`canvas label cut at ${[x, y, w, h]}`);
      boxes.push([[b.left + x, b.top + y, w, h], c, `canvas ${Math.round(x)},${Math.round(y)}`]);
    }
  }
  for (const [[x, y, w, h], , s] of boxes) {
    if (x < -1 || y < -1 || x + w > vw + 1 || y + h > vh + 1) out.push(`off screen: ${s}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ea, sa] = boxes[i], [b, eb, sb] = boxes[j];
      if (ea === eb && ea.tagName !== 'CANVAS') continue;
      const ix = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
      const iy = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
      if (ix > 2 && iy > 2) out.push(`overlap: ${sa} / ${sb}`);
    }
  }
  for (const el of root.querySelectorAll('.side, .figure, .scene, .body, .topbar, .deck')) {
    if (!shown(el)) continue;
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) {
      out.push(`cut: .${el.className.split(' ')[0]} ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
  }
  const main = document.querySelector('[data-testid="stMain"]');
  if (main.scrollHeight > main.clientHeight + 1) out.push(`main scrolls: ${main.scrollHeight} > ${main.clientHeight}`);
  if (document.documentElement.scrollWidth > vw + 1) out.push('page scrolls sideways');
  return out;
}"""

STILL = f"""() => {{
  const d = {DECK};
  const s = {SCENE};
  return !!d && d.dataset.ready === '1' && !d.dataset.anim && !!s && !s.dataset.waiting;
}}"""


# ---- helpers ------------------------------------------------------------------------------------


def open_lesson(page, base: str, query: str = "", size=(1024, 768)) -> None:
    """Load /lesson with a query and wait until the deck has drawn its scene and rests."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{base}/lesson{query}")
    page.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    settle(page)


def settle(page) -> None:
    """Until no animation runs and no measurement is awaited, and Streamlit is idle."""
    page.wait_for_function(STILL, timeout=LOAD_MS, polling=100)
    page.wait_for_function(
        "() => !(document.querySelector('[data-testid=\"stStatusWidget\"]')?.innerText?.length > 0)",
        timeout=LOAD_MS,
        polling=100,
    )
    page.evaluate("() => document.fonts.ready.then(() => new Promise(requestAnimationFrame))")
    page.wait_for_function(STILL, timeout=LOAD_MS, polling=100)


def where(page) -> tuple[int, int]:
    """(scene, step) on screen."""
    got = page.evaluate(f"() => [{SCENE}.dataset.scene, {SCENE}.dataset.step]")
    return int(got[0]), int(got[1])


def link_at(page) -> str | None:
    return (parse_qs(urlparse(page.url).query).get("at") or [None])[0]


def wait_link(page, at: int) -> None:
    page.wait_for_function(
        f"() => new URLSearchParams(location.search).get('at') === '{at}'", timeout=LOAD_MS
    )


def press(page, key: str) -> None:
    page.keyboard.press(key)
    settle(page)


def shot(page, name: str) -> Path:
    """A screenshot in test-artifacts/lesson (every step of the room tests lands there)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path


def keep_for_docs(shots: dict[int, Path], suffix: str) -> None:
    """With LESSON_DOCS=1, each scene's last step into docs/lesson/ (the README shows them)."""
    if os.environ.get("LESSON_DOCS") != "1":
        return
    DOCS.mkdir(parents=True, exist_ok=True)
    for scene, path in shots.items():
        (DOCS / f"s{scene:02d}{suffix}.png").write_bytes(path.read_bytes())


def walk_every_step(page, check) -> list[str]:
    """From §1 step 1 to §10's last step with →, calling check(scene, step) at each."""
    problems: list[str] = []
    seen = set()
    for _ in range(60):
        here = where(page)
        if here in seen:
            break
        seen.add(here)
        problems += [f"§{here[0]}.{here[1] + 1}: {p}" for p in check(*here)]
        press(page, "ArrowRight")
    assert {s for s, _ in seen} == set(range(1, SCENES + 1)), seen
    return problems


# ---- the room ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "lang"),
    [((1024, 768), "zh"), ((1920, 1080), "zh"), ((1024, 768), "en")],
    ids=["1024x768", "1920x1080", "1024x768-en"],
)
def test_every_step_of_every_scene_fits_and_reads_from_the_back(page, streamlit_server, size, lang):
    """No scroll, no text under 20 px (cell numbers 16 px), no labels overlapping, nothing cut."""
    open_lesson(page, streamlit_server, f"?at=1&lang={lang}", size)
    name = f"{size[0]}x{size[1]}_{lang}"
    last: dict[int, Path] = {}

    def check(scene: int, step: int) -> list[str]:
        last[scene] = shot(page, f"{name}_s{scene:02d}_{step + 1}.png")
        return page.evaluate(ROOM_CHECK)

    problems = walk_every_step(page, check)
    if size == (1024, 768):
        keep_for_docs(last, "" if lang == "zh" else f"_{lang}")
    assert not problems, "\n".join(problems)
