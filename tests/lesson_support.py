"""The lesson's browser-test helpers (tests/browser/test_lesson*.py, a scene's own tests): open the
deck and wait until it rests, keys, where it is, and the measurements every step is held to:
the room (lesson_room_check.js), the phone's screen, the maps' cells, what is on screen before a
question is revealed (spoilers: the matching is plain Python, unit-tested without a browser).

    from tests.lesson_support import open_lesson, press, where, walk_scene
    open_lesson(page, streamlit_server, "?at=5", (390, 844))
"""

from __future__ import annotations

import itertools
import json
import re
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PageTimeout

from tests.browser_support import GENERATIONS, REDUCED_MOTION
from ui.lesson.scenes import NUMBERS

LOAD_MS = 120_000
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "lesson"
SENTENCE = "小明把书放在了桌子上，然后他走了。"
PHONE = (390, 844)
ROOT = "document.querySelector('[data-testid=\"stBidiComponentIsolated\"]').shadowRoot"
DECK = f"{ROOT}.querySelector('[data-testid=\"lesson\"]')"
SCENE = f"{ROOT}.querySelector('[data-testid=\"lesson-scene\"]')"
HERE = Path(__file__).resolve().parent
ROOM_CHECK = (HERE / "lesson_room_check.js").read_text(encoding="utf-8")

# At rest: drawn, no animation, no measurement awaited, and the server has applied every change
# the deck sent (data-synced: a new sentence's rerun has come back; steps send none).
STILL = f"""() => {{
  const d = {DECK};
  const s = {SCENE};
  return !!d && d.dataset.ready === '1' && d.dataset.synced === '1' && !d.dataset.anim
    && !!s && !s.dataset.waiting;
}}"""


def open_lesson(page, base: str, query: str = "", size=(1024, 768)) -> None:
    """Load /lesson with a query and wait until the deck has drawn its scene and rests."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{base}/lesson{query}")
    page.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    settle(page)


def phone_page(browser, base: str, query: str = ""):
    """A new 390 × 844 touch screen on /lesson (its own storage), at rest; close its context."""
    context = browser.new_context(
        reduced_motion=REDUCED_MOTION,
        viewport={"width": PHONE[0], "height": PHONE[1]},
        has_touch=True,
    )
    page = context.new_page()
    open_lesson(page, base, query, PHONE)
    return page


@contextmanager
def on_phone(browser, base: str, query: str = ""):
    """phone_page in a `with`: the phone's context is closed whatever the test finds."""
    page = phone_page(browser, base, query)
    try:
        yield page
    finally:
        page.context.close()


# At rest, Streamlit idle (no script running), and the deck and the views its scene mounted drawn
# for their size and data (data-settled = data-generation, browser_support.GENERATIONS); held
# from one animation frame to the next (browser_support.SETTLED says why one frame).
AT_REST = f"""key => {{
  const idle = ({STILL})()
    && document.querySelector('[data-testid="stApp"]')?.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]')?.innerText
    && document.fonts.status === 'loaded';
  const gens = idle ? {GENERATIONS} : null;
  const s = (window.__atRest ||= {{}});
  const held = gens !== null && s[key] === gens;
  s[key] = gens;
  return held;
}}"""
REST_KEYS = itertools.count()


def settle(page) -> None:
    """Until no animation runs, no measurement is awaited, the server has caught up with the
    deck, Streamlit is idle and the deck has drawn for its size and data (never a sleep)."""
    try:
        page.wait_for_function(AT_REST, arg=next(REST_KEYS), timeout=LOAD_MS, polling="raf")
    except PageTimeout as err:
        state = page.evaluate(f"""() => ({{ rest: ({STILL})(), scene: {SCENE}?.dataset.scene,
          step: {SCENE}?.dataset.step, gens: [...{ROOT}.querySelectorAll('[data-generation]')]
            .map((e) => [e.dataset.testid, e.dataset.generation, e.dataset.settled ?? null]) }})""")
        pytest.fail(f"the deck never came to rest in {LOAD_MS / 1000:.0f} s: {state} ({err})")


def where(page) -> tuple[int | float, int]:
    """(scene, step) on screen: the scene's number (5, or 4.5), the step 0-based."""
    got = page.evaluate(f"() => [{SCENE}.dataset.scene, {SCENE}.dataset.step]")
    number = float(got[0])
    return int(number) if number.is_integer() else number, int(got[1])


def press(page, key: str) -> None:
    page.keyboard.press(key)
    settle(page)


def tap(locator) -> None:
    """A finger on the element (a phone's touch), then the deck at rest."""
    locator.tap()
    settle(locator.page)


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path


def walk_every_step(page, check) -> list[str]:
    """From where the deck is to the last scene's last step with →, check(scene, step) at each."""
    problems: list[str] = []
    seen = set()
    for _ in range(80):
        here = where(page)
        if here in seen:
            break
        seen.add(here)
        problems += [f"§{here[0]}.{here[1] + 1}: {p}" for p in check(*here)]
        press(page, "ArrowRight")
    assert {s for s, _ in seen} == set(NUMBERS.values()), seen
    return problems


def walk_scene(page, scene: int, check) -> list[str]:
    """Every step of one scene from its first, with →, check(step) at each."""
    press(page, str(scene % 10))
    problems: list[str] = []
    while True:
        at, step = where(page)
        if at != scene:
            return problems
        problems += [f"§{scene}.{step + 1}: {p}" for p in check(step)]
        before = (at, step)
        press(page, "ArrowRight")
        if where(page) == before:  # the lesson's last step
            return problems


# ---- what a step shows before its question is revealed ------------------------------------------

# Per step: the words of every choice of a question not yet revealed (its label, unless the
# labels are words of the sentence, and its why), and the text a person sees on screen outside
# the choice buttons (text nodes and the canvases' text alternatives).
SHOWN = f"""() => {{
  const root = {DECK};
  const D = root.parentNode.__lesson;
  const S = D.ctx;
  if (!S) return {{ forbidden: [], texts: [], caption: '' }};
  const forbidden = [];
  S.steps.forEach((s, i) => {{
    if (!s.quiz || i < D.step) return;
    for (const c of s.quiz.choices(S)) forbidden.push([s.quiz.words ? '' : c.label, c.why || '']);
  }});
  const shown = (el) => {{
    if (el.closest('.sr-only, [hidden], .choices, .handout')) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  }};
  const texts = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {{
    const n = walk.currentNode;
    if (n.textContent.trim() && shown(n.parentElement)) texts.push(n.textContent);
  }}
  for (const c of root.querySelectorAll('canvas[aria-label]')) {{
    if (shown(c)) texts.push(c.getAttribute('aria-label'));
  }}
  const blocks = [...root.querySelectorAll('.takeaway, .caption, .readout, .question')];
  for (const b of blocks) if (shown(b)) texts.push(b.textContent);
  const caption = root.querySelector('[data-testid="lesson-caption"]')?.textContent || '';
  return {{ forbidden, texts, caption }};
}}"""

PHRASE_SPLIT = re.compile(r"[：:，,；;（）()。.!?！？]")
CJK = re.compile(r"[\u4e00-\u9fff]")


def squash(text: str) -> str:
    """Text as compared: no spaces, punctuation or quotes, lower case."""
    return re.sub(r"[\W_]+", "", text).casefold()


def windows(label: str) -> list[str]:
    """The pieces of a choice's label that would give it away, squashed: the label itself; in each
    of its phrases, every 4 characters of Chinese in a row ("份额挤到", "额挤到少" …), and every 3
    words in a row of which two have 4 letters or more ("rows and columns")."""
    out = [squash(label)]
    for part in PHRASE_SPLIT.split(label):
        chars = "".join(CJK.findall(part))
        out += [chars[k : k + 4] for k in range(len(chars) - 3)]
        words = re.findall(r"[A-Za-z]+", part)
        for k in range(len(words) - 2):
            three = words[k : k + 3]
            if sum(len(w) >= 4 for w in three) >= 2:
                out.append(squash(" ".join(three)))
    return [w for w in out if w]


def spoilers(forbidden: list[list[str]], texts: list[str]) -> list[str]:
    """What on screen states an open question's answer: a text holding a piece of a choice's
    label (`windows`) or its whole why-text."""
    seen = [squash(t) for t in texts]
    found = []
    for label, why in forbidden:
        pieces = [*(windows(label) if label else []), *([squash(why)] if why else [])]
        for key in pieces:
            hit = next((t for t in seen if key in t), None)
            if hit:
                found.append(f"“{key[:30]}” of “{(label or why)[:30]}” is on screen: {hit[:40]}")
    return sorted(set(found))


def spoiler_problems(page) -> list[str]:
    """The step on screen: what states an open question's answer (spoilers) and, if it has no
    caption, "no caption"."""
    got = page.evaluate(SHOWN)
    found = spoilers(got["forbidden"], got["texts"])
    return found + ([] if got["caption"].strip() else ["no caption"])


# ---- the phone's screen -------------------------------------------------------------------------

PHONE_FIT = f"""() => {{
  const root = {DECK};
  const main = document.querySelector('[data-testid="stMain"]');
  const height = Math.max(document.documentElement.scrollHeight, main ? main.scrollHeight : 0);
  const shown = (el) => {{
    if (el.closest('.sr-only, [hidden]')) return false;
    const cs = getComputedStyle(el);
    return cs.display !== 'none' && cs.visibility !== 'hidden' && el.getClientRects().length > 0;
  }};
  const clipped = [];
  for (const el of root.querySelectorAll('*')) {{
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !shown(el) || getComputedStyle(el).display === 'inline') continue;
    if (el.scrollWidth > el.clientWidth + 1) clipped.push(el.textContent.trim().slice(0, 24));
  }}
  for (const c of root.querySelectorAll('canvas')) {{
    if (!shown(c)) continue;
    const b = c.getBoundingClientRect();
    for (const [x, y, w, h] of JSON.parse(c.dataset.labels || '[]')) {{
      const out = x < -1 || y < -1 || x + w > b.width + 1 || y + h > b.height + 1;
      if (out) clipped.push('canvas label');
    }}
  }}
  const next = root.querySelector('[data-testid="lesson-next"]').getBoundingClientRect();
  return {{ height, clipped, next: next.bottom, screen: innerHeight }};
}}"""


def phone_problems(page) -> list[str]:
    """A step on a phone: the page scrolls by at most a tenth of the screen, no text box is
    clipped, and the step's control (▶) is on the screen."""
    got = page.evaluate(PHONE_FIT)
    out = []
    if got["height"] > 1.1 * got["screen"]:
        out.append(f"page {got['height']} px for a {got['screen']} px screen")
    out += [f"clipped: {text}" for text in got["clipped"]]
    if got["next"] > got["screen"]:
        out.append(f"▶ at {got['next']:.0f} px, below the screen")
    return out


# ---- the maps -----------------------------------------------------------------------------------

MAPS = f"""() => {{
  const root = {DECK};
  return [...root.querySelectorAll('canvas[data-cell]')]
    .filter((c) => c.getClientRects().length && !c.closest('[hidden], .overview, .handout'))
    .map((c) => ({{ cell: Number(c.dataset.cell), labelled: c.dataset.labelled,
      numbers: (c.dataset.cellFonts || '').split(',').filter(Boolean).map(Number) }}));
}}"""


def map_problems(page, min_px: float = 20) -> list[str]:
    """Every map on screen: cells ≥ min_px, every token labelled, numbers (where shown) ≥ min_px."""
    out = []
    for k, m in enumerate(page.evaluate(MAPS)):
        shown, n = (int(v) for v in m["labelled"].split("/"))
        if m["cell"] < min_px:
            out.append(f"map {k + 1}: cells {m['cell']} px")
        if shown < n:
            out.append(f"map {k + 1}: {shown} of {n} tokens labelled")
        out += [f"map {k + 1}: numbers {px} px" for px in m["numbers"] if px < min_px]
    return out


# ---- a scene's state and a phone's steps, as the scene tests read them ------------------------


def step_id(page) -> str:
    """The id of the step on screen (the scene's data-step-id)."""
    return page.evaluate(f"() => {SCENE}.dataset.stepId")


def chosen_head(page) -> int:
    """The head the side panel's head buttons say is shown (0-based)."""
    label = page.locator('[data-testid="lesson-side"] [data-key^="head-"][aria-pressed="true"]')
    return int(label.get_attribute("data-key").split("-")[1])


def values(page) -> dict:
    """What the scene's canvas says it draws (its data-values, JSON)."""
    return json.loads(page.locator('[data-testid="lesson-canvas"]').get_attribute("data-values"))


def phone_shot(page, name: str) -> list[str]:
    """A screenshot of the phone's step (test-artifacts/lesson/`name`), and what does not fit
    its screen (phone_problems)."""
    shot(page, name)
    return phone_problems(page)


# ---- answers across scenes: in the lesson's order and when a student jumps (issue 39) ----------

# Before a page loads (page.add_init_script): every canvas keeps the words drawn on it since it
# was last cleared whole (canvas.__drawn; a layer's words when the layer is pasted on), so a test
# reads what a figure says in pixels, not only its text alternative (§7's "×4" was drawn, never
# said).
CANVAS_WORDS = """(() => {
  const C = CanvasRenderingContext2D.prototype;
  const fill = C.fillText;
  const clear = C.clearRect;
  C.fillText = function (text, ...rest) {
    (this.canvas.__drawn ||= []).push(String(text));
    return fill.call(this, text, ...rest);
  };
  const image = C.drawImage;
  C.drawImage = function (source, ...rest) {  // a layer of labels drawn once, pasted on
    if (source && source.__drawn) (this.canvas.__drawn ||= []).push(...source.__drawn);
    return image.call(this, source, ...rest);
  };
  C.clearRect = function (x, y, w, h) {
    const full = parseFloat(this.canvas.style.width) || this.canvas.width;
    if (x <= 0 && y <= 0 && w >= full - 1) this.canvas.__drawn = [];
    return clear.call(this, x, y, w, h);
  };
})()"""

# The scene on screen, its step, what a person sees (SHOWN's texts, the caption, the question's
# own text left out as SHOWN leaves the choice buttons out) and every question of the scene: the
# step that asks it and its choices ([label, why], the label '' where the labels are the
# sentence's words).
SEEN = f"""() => {{
  const D = {DECK}.parentNode.__lesson;
  const S = D.ctx;
  const shown = ({SHOWN})();
  const questions = [];
  if (S) S.steps.forEach((s, i) => {{
    if (!s.quiz) return;
    const choices = s.quiz.choices(S).map((c) => [s.quiz.words ? '' : c.label, c.why || '']);
    questions.push([i, choices]);
  }});
  const drawn = [...{DECK}.querySelectorAll('canvas')]
    .filter((c) => c.getClientRects().length && !c.closest('[hidden], .overview, .handout'))
    .map((c) => (c.__drawn || []).join(' '));
  return {{ texts: [...shown.texts, shown.caption, ...drawn], questions }};
}}"""

# A number an answer turns on, as a choice's label says it ("约 4 倍", "about 4 times", "×4") and
# any way a text could state it: "×4", "4×", "4 倍", "4 times", "four times".
NUMBER_ANSWER = re.compile(r"(?:×\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*(?:倍|×|times))")
WORDS_OF = {"2": "twice", "3": "three times", "4": "four times", "8": "eight times"}


def tells(label: str) -> list[re.Pattern]:
    """How a text would state a choice whose label is a number of times (§7's "约 4 倍"): that
    number with ×, 倍 or "times" (never as part of a longer number: ×4 is not ×4.4 or ×40)."""
    out = []
    for m in NUMBER_ANSWER.finditer(label):
        v = re.escape(m.group(1) or m.group(2))
        num = rf"(?<![\d.]){v}(?!\.?\d)"
        forms = [rf"×\s*{num}", rf"{num}\s*(?:×|倍|times)"]
        word = WORDS_OF.get(m.group(1) or m.group(2))
        if word:
            forms.append(rf"\b{word}\b")
        out.append(re.compile("|".join(forms), re.IGNORECASE))
    return out


def answer_spoilers(forbidden: list[list[str]], texts: list[str]) -> list[str]:
    """spoilers(), and a text stating a numeric choice's number its own way (tells)."""
    found = spoilers(forbidden, texts)
    for label, _ in forbidden:
        for pattern in tells(label) if label else []:
            hit = next((t for t in texts if pattern.search(t)), None)
            if hit:
                found.append(f"“{label}” told by “{pattern.search(hit).group(0)}”: {hit[:40]}")
    return sorted(set(found))


def walk_seen(page, scenes) -> list[tuple[int, int, list[str], list]]:
    """Every step of `scenes`, in the order given (each from its first step, with →): (scene,
    step, the texts on screen, the scene's questions) at each."""
    seen = []
    for scene in scenes:

        def record(step: int, scene=scene) -> list[str]:
            got = page.evaluate(SEEN)
            seen.append((scene, step, got["texts"], got["questions"]))
            return []

        walk_scene(page, scene, record)
    return seen


def answers_before_reveal(seen) -> list[str]:
    """From a walk (walk_seen): each text seen before a question's reveal that states its answer.
    Before the reveal means: in its own scene, at its step or earlier; in another scene, visited
    earlier in the walk than the question's reveal (a student who jumps has not answered it)."""
    revealed: dict[tuple[int, int], int] = {}  # (scene, question's step) → where the walk revealed
    for k, (scene, step, _, questions) in enumerate(seen):
        for at, _ in questions:
            if step > at and (scene, at) not in revealed:
                revealed[(scene, at)] = k
    last = {}
    for scene, _, _, questions in seen:
        for at, choices in questions:
            last[(scene, at)] = choices  # the choices once measured (§7's why needs its timing)
    problems = []
    for k, (scene, step, texts, _) in enumerate(seen):
        for (qs, at), choices in last.items():
            before = step <= at if qs == scene else k < revealed.get((qs, at), len(seen))
            if not before:
                continue
            for found in answer_spoilers(choices, texts):
                problems.append(f"§{scene}.{step + 1} before §{qs}'s answer: {found}")
    return sorted(set(problems))


# ---- a phone's step held to the student's rules (issue 39: one screen, nothing under the bar) ---

PHONE_RULES = f"""() => {{
  const root = {DECK};
  const bar = root.querySelector('.stepnav').getBoundingClientRect();
  const shown = (el) => {{
    if (el.closest('.sr-only, [hidden], .stepnav, .overview, .handout')) return false;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden') return false;
    const r = el.getBoundingClientRect();
    return r.width >= 1 && r.height >= 1;
  }};
  const under = [];
  const small = [];
  for (const el of root.querySelectorAll('*')) {{
    if (!shown(el)) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own && !['CANVAS', 'BUTTON', 'INPUT'].includes(el.tagName)) continue;
    const r = el.getBoundingClientRect();
    const what = (el.textContent.trim() || el.tagName).slice(0, 24);
    if (r.bottom > bar.top + 1) under.push([Math.round(r.bottom - bar.top), what]);
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (own && px < 14) small.push([px, what]);
  }}
  const canvases = [...root.querySelectorAll('canvas')].filter(shown).map((c) => ({{
    cell: c.dataset.cell ? Number(c.dataset.cell) : null,
    fonts: [c.dataset.fonts, c.dataset.cellFonts].filter(Boolean).join(',')
      .split(',').filter(Boolean).map(Number),
  }}));
  return {{ under, small, canvases }};
}}"""


def phone_rules(page, min_cell: float = 10, min_text: float = 14) -> list[str]:
    """A phone's step as a student alone reads it (issue 39), beyond phone_problems: nothing
    (text, a canvas, a button) reaches under the fixed step bar with the page at its top, no map
    cell under `min_cell` px, no text under `min_text` px (the page's and every canvas's)."""
    page.evaluate("() => window.scrollTo(0, 0)")
    got = page.evaluate(PHONE_RULES)
    out = [f"under the step bar by {px} px: {what}" for px, what in got["under"]]
    out += [f"text {px} px: {what}" for px, what in got["small"]]
    for k, c in enumerate(got["canvases"]):
        if c["cell"] is not None and c["cell"] < min_cell:
            out.append(f"canvas {k + 1}: map cells {c['cell']} px")
        out += [f"canvas {k + 1}: text {px} px" for px in sorted(set(c["fonts"])) if px < min_text]
    return out


def walk_phone_rules(browser, base: str, scene: int, lang: str, more=None) -> list[str]:
    """Every step of §scene on a new 390 × 844 touch phone in `lang`, the one phone walk of those
    steps (issue 40): a screenshot of each (sNN_<step>_<lang>_390x844.png), what does not fit its
    screen (phone_problems), the student's rules (phone_rules), no open answer on screen and a
    caption (spoiler_problems), and more(page, step), the scene's own check, if given; the words
    drawn on the canvases kept (CANVAS_WORDS: `drawn(page)`)."""
    size = {"width": PHONE[0], "height": PHONE[1]}
    context = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=size, has_touch=True)
    context.add_init_script(CANVAS_WORDS)
    page = context.new_page()
    try:
        open_lesson(page, base, f"?at={scene}&lang={lang}", PHONE)

        def check(step: int) -> list[str]:
            found = phone_shot(page, f"s{scene:02d}_{step}_{lang}_{PHONE[0]}x{PHONE[1]}.png")
            found += phone_rules(page) + spoiler_problems(page)
            return found + (more(page, step) if more else [])

        return walk_scene(page, scene, check)
    finally:
        context.close()


def phone_walk(browser, base: str, scene: int, lang: str, more=None) -> None:
    """walk_phone_rules, failing with every step's problems (a scene file's phone test)."""
    problems = walk_phone_rules(browser, base, scene, lang, more)
    assert not problems, f"§{scene} on a phone in {lang}:\n" + "\n".join(problems)


def drawn(page) -> list[str]:
    """The words drawn on each canvas on screen (needs CANVAS_WORDS before the page loaded)."""
    return page.evaluate(
        f"() => [...{DECK}.querySelectorAll('canvas')].filter((c) => c.getClientRects().length)"
        ".map((c) => (c.__drawn || []).join(' '))"
    )


def run_together(page, min_gap: float = 0.4) -> list[str]:
    """Labels on one line of a canvas closer than min_gap of their height (§5's d_k axis read
    "812" and "64128": 8 and 12 a pixel apart)."""
    boxes = page.evaluate(
        f"() => [...{DECK}.querySelectorAll('canvas')].filter((c) => c.getClientRects().length)"
        ".map((c) => JSON.parse(c.dataset.labels || '[]'))"
    )
    out = []
    for k, found in enumerate(boxes):
        for a in found:
            for b in found:
                same_line = abs(a[1] - b[1]) < 1 and abs(a[3] - b[3]) < 1
                gap = b[0] - (a[0] + a[2])
                if a is not b and same_line and 0 <= gap < min_gap * a[3]:
                    out.append(f"canvas {k + 1}: labels {gap:.1f} px apart at x {a[0]:.0f}")
    return out
