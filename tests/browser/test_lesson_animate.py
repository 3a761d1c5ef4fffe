"""ui/lesson/animate.js in Chromium: with prefers-reduced-motion: reduce (WCAG 2.3.3) an
animation draws its last frame at once (data-anim never set, frames = 1); with no preference it
plays (frames > 1); either way each animation of the deck comes to rest on the same pixels,
words and controls. The other browser tests run with reduced motion (tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.lesson_support import DECK, SCENE, open_lesson, settle, step_id

# (where the deck stands, the key that plays an animation, the step it ends on, animations run
# in full motion): every caller of animate() — §1's chain, §2's mix, §3's fade, §4's morph and
# its three-stage play, §5's 3.2 s τ sweep, §10's race (played on arriving at its first step).
CASES = [
    ("?at=1&step=reveal", "ArrowRight", "rnn", 1),
    ("?at=2&step=softmax", "ArrowRight", "mix", 1),
    ("?at=3&step=x", "ArrowRight", "q", 1),
    ("?at=4&step=scores", "ArrowRight", "scaled", 1),
    ("?at=4&step=mix", "ArrowRight", "play", 3),
    ("?at=5&step=grad", "ArrowRight", "tau", 1),
    ("?at=10&step=learned", "ArrowLeft", "parallel", 1),
]

# Before the key: count data-anim's changes on the deck and the animations ended so far.
WATCH = f"""() => {{
  const d = {DECK};
  window.__animChanges = 0;
  new MutationObserver((m) => (window.__animChanges += m.length))
    .observe(d, {{ attributes: true, attributeFilter: ['data-anim'] }});
  return performance.getEntriesByName('lesson-anim-end').length;
}}"""
ENDED = """([n, legs]) => performance.getEntriesByName('lesson-anim-end').length >= n + legs"""
# At rest: the scene's canvases (their pixels), its words, its controls' values, and the record.
REST = f"""async () => {{
  const s = {SCENE};
  const d = {DECK};
  const bytes = new TextEncoder().encode([...s.querySelectorAll('canvas')]
    .map((c) => c.toDataURL()).join('|'));
  const sha = await crypto.subtle.digest('SHA-256', bytes);
  return {{
    pixels: [...new Uint8Array(sha)].map((b) => b.toString(16).padStart(2, '0')).join(''),
    canvases: s.querySelectorAll('canvas').length,
    words: s.innerText,
    controls: [...s.querySelectorAll('input')].map((i) => `${{i.value}} ${{i.checked}}`),
    frames: Number(d.dataset.frames),
    changes: window.__animChanges,
  }};
}}"""


def played(page, base: str, query: str, key: str, legs: int) -> dict:
    """Open the deck at `query`, press `key`, wait for `legs` animations to end and the deck to
    rest; what it shows then."""
    open_lesson(page, base, query)
    ended = page.evaluate(WATCH)
    page.keyboard.press(key)
    page.wait_for_function(ENDED, arg=[ended, legs], timeout=60_000)
    settle(page)
    return {**page.evaluate(REST), "step": step_id(page)}


@pytest.mark.parametrize("case", CASES, ids=[f"{q[4:6].strip('&')}-{s}" for q, _, s, _ in CASES])
def test_reduced_motion_draws_the_resting_frame_at_once_and_full_motion_rests_the_same(
    page, browser, streamlit_server, case
):
    query, key, step, legs = case
    still = played(page, streamlit_server, query, key, 1)  # the page fixture: reduced motion
    full_context = browser.new_context(
        reduced_motion="no-preference", viewport={"width": 1024, "height": 768}
    )
    try:
        moving = played(full_context.new_page(), streamlit_server, query, key, legs)
    finally:
        full_context.close()
    assert (still["step"], moving["step"]) == (step, step)
    assert (still["frames"], still["changes"]) == (1, 0), still  # data-anim never set
    assert moving["frames"] > 1 and moving["changes"] >= 2, moving  # set, then taken off
    assert still["canvases"] > 0
    same = ("pixels", "canvases", "words", "controls")
    assert {k: still[k] for k in same} == {k: moving[k] for k in same}


@pytest.mark.browser_context_args(reduced_motion="no-preference")
def test_the_switch_knob_slides_unless_the_user_asked_for_less_motion(page, streamlit_server):
    knob = f"""() => getComputedStyle({DECK}.querySelector('.switch input'), '::after')
      .transitionDuration"""
    open_lesson(page, streamlit_server, "?at=5&step=tau")
    assert page.evaluate(knob) == "0.12s"
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(knob) == "0s"
