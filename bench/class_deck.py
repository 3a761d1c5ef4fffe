"""Chromium: how long a following phone takes to show the teacher's step (the deck's side of the
live class), against the teacher's own deck in the same run.

Method and the last runs: BENCHMARKS.md, "The deck's side in Chromium". Rows: key → the
projector's own step (the baseline) and key → each phone's step, p50 / p95 / max.

    python bench/class_deck.py [--phones 3] [--steps 20]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # `python bench/x.py`

from bench.common import chromium, markdown, options, percentile, spread
from deploy.local import start_streamlit
from deploy.redis_local import start_redis
from tests.lesson_support import PHONE, ROOT, SCENE, open_lesson

STAMP = f"""() => {{
  const s = {SCENE};
  window.__steps = [];
  new MutationObserver(() => window.__steps.push(
    [s.dataset.scene + '.' + s.dataset.step, performance.timeOrigin + performance.now()]))
    .observe(s, {{attributes: true, attributeFilter: ['data-step', 'data-scene']}});
}}"""
# The projector's POSTs of its place: how long each took (the server's side of the follow).
POSTS = """() => {
  window.__posts = [];
  const real = window.fetch;
  window.fetch = async (url, init) => {
    const t = performance.now();
    const r = await real(url, init);
    const place = String(init?.body || '').slice(0, 40);
    if (String(url).endsWith('/state')) window.__posts.push([performance.now() - t, place]);
    return r;
  };
}"""
STATUS = f"{ROOT}.querySelector('[data-testid=\"class-status\"]')"


def first_at(page, place: str, after: float) -> float | None:
    """The wall-clock ms at which the deck first showed `place` after `after`."""
    return page.evaluate(
        "([p, t]) => (window.__steps.find(([q, at]) => q === p && at >= t) || [0, null])[1]",
        [place, after],
    )


def main() -> None:
    args = options(__doc__, phones=(3, "phones following"), steps=(20, "the projector's steps"))
    redis = start_redis(Path(tempfile.mkdtemp(prefix="class-bench-")), persist=False)
    try:
        with (
            start_streamlit("launcher.py", env={"REDIS_URL": redis.url}) as app,
            chromium() as browser,
        ):
            run(browser, app.url, args.phones, args.steps)
    finally:
        redis.stop()


def run(browser, base: str, phones: int, steps: int) -> None:
    teacher = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    open_lesson(teacher, base, "?room=new", (1024, 768))
    teacher.wait_for_function(f"() => {STATUS}?.dataset.state === 'joined'", timeout=120_000)
    code = teacher.evaluate(f"() => {STATUS}.dataset.code")
    teacher.keyboard.press("j")  # the join panel closed: the scene as the class sees it
    pages = []
    for _ in range(phones):
        ctx = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, has_touch=True)
        page = ctx.new_page()
        open_lesson(page, base, f"?join={code}", PHONE)
        page.wait_for_function(f"() => {STATUS}?.dataset.state === 'joined'", timeout=120_000)
        pages.append(page)
    for page in [teacher, *pages]:
        page.evaluate(STAMP)
    teacher.evaluate(POSTS)
    own: list[float] = []
    follow: list[float] = []
    missed = 0
    where: list[tuple[float, str]] = []  # (ms, place) of every phone sample
    for i in range(steps):
        key = "ArrowRight" if (i // 8) % 2 == 0 else "ArrowLeft"  # §1 → §3 and back
        t0 = teacher.evaluate("() => performance.timeOrigin + performance.now()")
        teacher.keyboard.press(key)
        teacher.wait_for_function(
            "(t) => window.__steps.some(([, at]) => at >= t)", arg=t0, timeout=30_000
        )
        place = teacher.evaluate(f"() => {SCENE}.dataset.scene + '.' + {SCENE}.dataset.step")
        own.append(first_at(teacher, place, t0) - t0)
        for page in pages:
            try:
                page.wait_for_function(
                    "([p, t]) => window.__steps.some(([q, at]) => q === p && at >= t)",
                    arg=[place, t0],
                    timeout=30_000,
                )
                follow.append(first_at(page, place, t0) - t0)
                where.append((follow[-1], place))
            except Exception:  # a phone that never got there is counted
                missed += 1
        teacher.wait_for_timeout(150)  # the projector's animation ends before the next key
    posts = teacher.evaluate("() => window.__posts")
    slowest = sorted(posts, reverse=True)[:3]
    posts = [ms for ms, _ in posts]
    print(f"\nclass follow, Chromium, 1 projector + {phones} phones, {steps} steps, Redis\n")
    header = ("key →", "samples", "p50 ms", "p95 ms", "max ms", "ratio of p50 to the projector's")
    rows = [("the projector's own step (baseline)", own), ("each phone showing that step", follow)]
    ratio = lambda xs: f"{percentile(xs, 50) / percentile(own, 50):.1f}×"  # noqa: E731
    markdown(header, [(name, len(xs), *spread(xs), ratio(xs)) for name, xs in rows])
    print(f"\nphones that never showed a step: {missed} of {phones * steps}")
    slow = ", ".join(f"§{p} {ms:.0f} ms" for ms, p in sorted(where, reverse=True)[:5])
    print(f"slowest phone samples (scene.step): {slow}")
    print(
        f"the projector's POST /class/CODE/state: {len(posts)}, p50 {percentile(posts, 50):.0f}"
        f" ms, max {max(posts):.0f} ms; slowest: "
        + ", ".join(f"{ms:.0f} ms {body}" for ms, body in slowest)
    )


if __name__ == "__main__":
    main()
