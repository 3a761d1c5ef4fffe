"""The live class in Chromium, the teacher's side of issue 37 (ui/lesson/class.js, class_panel.js,
class_end.js, presenter_class.js): N / M answered live on the projector, the tally hidden at every
new question and after X as the server says, T, R, X on a step without a question said in the bar,
the join panel closed by the next step; the class's end (the summary on the projector and the
presenter, its CSV and JSON equal to the tally with no phone in them, each phone's stream closed
and its own review); the teacher's T waiting for Redis and going through; §5's reveal with the
tally on a 1024 × 768 projector; a TEACHER_PASSCODE server and the hint naming `make serve`; ▶
at the lesson's last step opening the review (issue 39 item 15). Teacher, presenter and phones
are browser contexts of their own, against a real redis-server (tests/browser/conftest.py)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
from pathlib import Path

import pytest

from deploy.local import start_streamlit
from tests.browser.class_support import (
    SHOTS,
    by_id,
    joined,
    new_class,
    phone,
    projector,
    status,
    wait_place,
    wait_status,
)
from tests.browser_support import axe
from tests.lesson_support import LOAD_MS, ROOT, settle, step_id, where
from ui.text import t

pytestmark = pytest.mark.browser

# ---- the teacher sees the room (issue 37) -------------------------------------------------------

DECK = f"{ROOT}.querySelector('[data-testid=\"lesson\"]').parentNode.__lesson"
ANSWERED = f"{ROOT}.querySelector('[data-testid=\"class-answered\"]')"
TALLY = f"{ROOT}.querySelector('[data-testid=\"class-tally\"]')"


def wait_js(page, js: str) -> None:
    page.wait_for_function(f"() => {js}", timeout=LOAD_MS, polling=100)


def test_n_of_m_live_the_tally_hidden_at_each_new_question_and_keys_without_a_question(
    browser, server
):
    page, code = new_class(browser, server, "&at=1")
    assert by_id(page, "class-join").is_visible()  # open once the class is made
    assert status(page)["text"] == t("classroom.status.lead", "zh", code=code)  # the teacher's
    p = joined(browser, server, code)
    wait_place(p, 1, 0)
    wait_js(page, f"{ANSWERED}?.dataset.m === '1' && {ANSWERED}.dataset.n === '0'")
    assert by_id(page, "class-answered").inner_text() == t("classroom.answered_of", "zh", n=0, m=1)
    p.locator('[data-testid="lesson-choice"]').first.click()
    wait_js(page, f"{ANSWERED}.dataset.n === '1'")  # N / M, live
    page.keyboard.press("t")
    wait_js(page, f"{TALLY}.dataset.visible === '1'")
    page.keyboard.press("ArrowRight")  # the reveal: the same question, its tally still shown
    wait_place(page, 1, 1)
    assert by_id(page, "class-join").is_hidden()  # the next step closed the join panel
    page.keyboard.press("j")
    by_id(page, "class-join").wait_for(state="visible", timeout=LOAD_MS)  # J reopens it
    page.keyboard.press("2")  # §2 asks a new question: the server hid its tally
    wait_place(page, 2, 0)
    assert by_id(page, "class-join").is_hidden()
    wait_js(page, f"{TALLY}?.dataset.question === 's02.match' && {TALLY}.dataset.visible === '0'")
    page.keyboard.press("t")
    wait_js(page, f"{TALLY}.dataset.visible === '1'")
    page.keyboard.press("x")  # asked again: hidden again
    wait_js(page, f"{TALLY}.dataset.visible === '0' && {TALLY}.dataset.total === '0'")
    page.keyboard.press("3")  # §3 asks nothing: T, R, X say so and change nothing
    wait_place(page, 3, 0)
    here = step_id(page)  # the server has taken the move to §3 (v moves with it), then T, R, X
    wait_status(page, f"s.stepId === {here!r}", "the class at §3")
    v = status(page)["v"]
    notice = by_id(page, "class-notice")
    said = {"t": "no_question_tally", "r": "no_question_reveal", "x": "no_question_reset"}
    for key, word in said.items():
        page.keyboard.press(key)
        wait_js(page, f"{ROOT}.querySelector('[data-testid=\"class-notice\"]').textContent"
                f" === {t('classroom.' + word, 'zh')!r}")  # fmt: skip
        assert notice.is_visible() and where(page) == (3, 0)
    notice.wait_for(state="hidden", timeout=LOAD_MS)  # brief
    assert status(page)["v"] == v
    page.keyboard.press("1")
    wait_place(page, 1, 0)
    p.context.close()  # M follows the room: the phone left
    wait_js(page, f"{ANSWERED}?.dataset.m === '0'")
    page.context.close()


def _csv_counts(text: str) -> dict:
    rows = list(csv.DictReader(io.StringIO(text)))
    return {(r["question"], r["choice"]): int(r["count"]) for r in rows}


def test_the_end_gives_a_summary_the_files_and_each_phone_its_review(browser, server):
    page, code = new_class(browser, server, "&at=1")
    phones = [joined(browser, server, code) for _ in range(2)]
    for p in phones:
        wait_place(p, 1, 0)
    choices = phones[0].locator('[data-testid="lesson-choice"]')
    ids = [choices.nth(i).get_attribute("data-choice") for i in range(2)]
    for p, pick in zip(phones, ids, strict=True):
        p.locator(f'[data-testid="lesson-choice"][data-choice="{pick}"]').click()
    wait_js(page, f"{ANSWERED}?.dataset.n === '2'")
    page.keyboard.press("q")  # before the end: said so
    by_id(page, "class-notice").wait_for(state="visible", timeout=LOAD_MS)
    page.keyboard.press("r")
    verdicts = []
    for p in phones:
        wait_place(p, 1, 1)
        verdicts.append(by_id(p, "lesson-verdict").get_attribute("data-verdict"))
    assert "wrong" in verdicts, verdicts  # two choices, one answer
    page.keyboard.press("e")
    page.keyboard.press("e")
    wait_status(page, "s.state === 'ended'", "the class ended")
    assert status(page)["text"] == t("classroom.status.lead_ended", "zh")  # not a student's words
    page.keyboard.press("q")  # the summary on the projector
    box = by_id(page, "class-summary")
    box.locator('[data-question="s01.ask"]').wait_for(timeout=LOAD_MS)
    item = box.locator('[data-question="s01.ask"]')
    assert (item.get_attribute("data-answered"), item.get_attribute("data-joined")) == ("2", "2")
    assert item.get_attribute("data-right-share") == "0.5"
    right = item.locator(".tally-row.right")  # a bar per choice, the right one marked
    counts = item.locator(".tally-row").evaluate_all("rows => rows.map((r) => +r.dataset.count)")
    assert sum(counts) == 2 and right.get_attribute("data-count") == "1", counts
    assert right.locator(".tally-label").inner_text().startswith("✓ ")
    assert right.locator(".tally-fill").evaluate("e => e.style.width") == "50%"
    # The files, as the teacher's browser downloads them: the tally, and no phone in them.
    with page.context.expect_page(timeout=LOAD_MS) as opened:
        page.keyboard.press("s")
    presenter = opened.value
    export = by_id(presenter, "class-export")
    export.wait_for(timeout=LOAD_MS)
    assert by_id(presenter, "class-summary").locator('[data-question="s01.ask"]').count() == 1
    files = {}
    for kind in ("csv", "json"):
        with presenter.expect_download(timeout=LOAD_MS) as got:
            export.locator(f'a[data-format="{kind}"]').click()
        files[kind] = Path(got.value.path()).read_text(encoding="utf-8")
    counts = _csv_counts(files["csv"])
    assert counts[("s01.ask", ids[0])] == 1 and counts[("s01.ask", ids[1])] == 1
    assert json.loads(files["json"])["questions"][0]["answered"] == 2
    for p in phones:
        mine = p.evaluate("() => localStorage.getItem('attention-lab.phone')")
        assert mine and all(mine not in text for text in files.values())
    # Each phone: its stream closed (no reconnecting), its own review of what it missed.
    for p, verdict in zip(phones, verdicts, strict=True):
        wait_status(p, "s.state === 'ended' && s.stream === 'closed'", "the phone's stream closed")
        by_id(p, "class-review").click()
        review = by_id(p, "lesson-review")
        review.wait_for(timeout=LOAD_MS)
        text = review.inner_text()
        if verdict == "wrong":
            assert review.locator('[data-question="s01.ask"]').count() == 1, text
        else:
            assert t("lesson.review_none", "zh") in text
        assert status(p)["stream"] == "closed"
        p.context.close()
    page.context.close()


def test_while_redis_is_away_the_teachers_t_waits_and_goes_through(browser, server, redis):
    page, code = new_class(browser, server, "&at=2")
    p = joined(browser, server, code)
    wait_place(p, 2, 0)
    wait_js(page, f"{TALLY}?.dataset.question === 's02.match'")
    redis.stop()
    try:
        page.keyboard.press("t")  # refused while Redis is away: retried, and the bar says so
        wait_status(page, "s.waiting === '1'", "the teacher's T waiting")
        assert status(page)["text"] == t("classroom.status.waiting", "zh")
        wait_status(p, "s.state === 'lost'", "the phone's short status")
        assert status(p)["text"] == t("classroom.status.lost", "zh")
    finally:
        redis.start()
    wait_status(page, "s.waiting === '0' && s.state === 'joined'", "the notice cleared")
    wait_js(page, f"{TALLY}.dataset.visible === '1'")  # the T went through
    assert status(page)["text"] == t("classroom.status.lead", "zh", code=code)
    wait_status(p, "s.state === 'joined'", "the phone back")
    p.context.close()
    page.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_tally_at_s5s_reveal_leaves_the_step_bar_on_a_projector(browser, server, lang):
    """§5's question and its reveal with the tally shown, on a 1024 × 768 projector: ▶, ◀ and the
    tally on screen and on top, in Chinese and in English (whose longer words once wrapped the
    top bar to two rows and pushed ▶ under the side panel's edge)."""
    page, code = new_class(browser, server, f"&at=5&lang={lang}")
    for _ in range(2):
        page.keyboard.press("ArrowRight")
    wait_place(page, 5, 2)  # §5 asks
    p = joined(browser, server, code)
    wait_place(p, 5, 2)
    p.locator('[data-testid="lesson-choice"]').first.click()
    wait_js(page, f"{ANSWERED}?.dataset.n === '1'")
    page.keyboard.press("t")
    wait_js(page, f"{TALLY}?.dataset.visible === '1' && !!{TALLY}.querySelector('.tally-row')")
    settle(page)
    shown_whole(page, ("lesson-next", "lesson-prev", "class-tally"), "the question")
    page.keyboard.press("r")
    wait_place(page, 5, 3)
    wait_js(page, f"{TALLY}?.dataset.visible === '1' && !!{TALLY}.querySelector('.tally-row')")
    shown_whole(page, ("lesson-next", "lesson-prev", "class-tally"), "the reveal")
    problems = [  # the tally's rows, their bars behind the words: still readable
        f"{v['id']}: {n['html'][:120]}"
        for v in axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
        for n in v["nodes"]
    ]
    assert not problems, "\n".join(problems)
    if os.environ.get("CLASS_DOCS"):
        page.screenshot(path=str(SHOTS / f"class_s5_reveal_tally_1024x768_{lang}.png"))
    p.context.close()
    page.context.close()


def shown_whole(page, names, when: str) -> None:
    """Each data-testid in `names` inside the 768 px and on top at its own bottom edge (not
    under the side panel's clip or anything else)."""
    for name in names:
        box = by_id(page, name).bounding_box()
        assert box and box["y"] + box["height"] <= 768, (when, name, box)
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] - 2
        hit = page.evaluate(
            f"([x, y, id]) => {ROOT}.elementFromPoint(x, y)?.closest(`[data-testid=${{id}}]`)"
            " !== null",
            [x, y, name],
        )
        assert hit, f"{when}: {name} is hidden at its own bottom ({x}, {y})"


PASSCODE = "otter lamp river nine"


@pytest.fixture(scope="module")
def passcode_server():
    """`make serve` on loopback with TEACHER_PASSCODE set (its classes in memory: enough here)."""
    env = {"TEACHER_PASSCODE": PASSCODE, "SERVE_HOST": "127.0.0.1"}
    with start_streamlit("launcher.py", env=env) as app:
        yield app.url


def test_a_passcode_server_asks_for_it_and_the_hint_names_make_serve(browser, passcode_server):
    page = projector(browser, passcode_server, "?at=2&lang=en")
    assert PASSCODE not in page.evaluate(f"() => JSON.stringify({DECK}.header)")
    page.keyboard.press("?")
    field = by_id(page, "class-passcode")
    field.fill("guess")
    by_id(page, "class-start").click()
    said = by_id(page, "class-passcode-said")
    page.wait_for_function(
        f"() => {ROOT}.querySelector('[data-testid=\"class-passcode-said\"]').textContent"
        f" === {t('classroom.error.bad_passcode', 'en')!r}",
        timeout=LOAD_MS,
    )
    assert said.is_visible() and by_id(page, "class-bar").is_hidden()
    field.fill(PASSCODE)
    by_id(page, "class-start").click()
    wait_status(page, "s.state === 'joined' && !!s.code", "the class made with the passcode")
    code = status(page)["code"]
    assert status(page)["text"] == t("classroom.status.lead", "en", code=code)
    assert field.count() == 0 or field.is_hidden()
    warn = by_id(page, "class-unreachable").inner_text()
    assert "make serve HOST=0.0.0.0" in warn and "make run" not in warn, warn
    page.context.close()


def test_at_the_last_step_the_next_button_opens_the_review_within_a_phones_screen(browser, server):
    """Issue 39 item 15: ▶ at §10's last step is not grey; it opens the review, whose buttons are
    on the phone's screen."""
    p = phone(browser, server, "?at=1")
    p.locator('[data-testid="lesson-choice"]').nth(1).click()  # 书: wrong, kept for the review
    by_id(p, "lesson-where").click()  # the overview: its way to the review on the phone's screen
    box = by_id(p, "lesson-review-open").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    p.keyboard.press("Escape")
    p.keyboard.press("0")
    wait_place(p, 10, 0)
    p.keyboard.press("End")  # End is §10's first step; its last by ▶
    step = f"{ROOT}.querySelector('[data-testid=\"lesson-step\"]').textContent"
    while True:
        nxt = by_id(p, "lesson-next")
        label = p.evaluate(f"() => {step}")
        nums = [int(x) for x in re.findall(r"\d+", label)]
        if len(nums) < 2 or nums[0] == nums[1]:
            break
        nxt.click()
        p.wait_for_function(
            f"() => {step} !== {label!r}",
            timeout=LOAD_MS,
        )
    assert nxt.is_enabled()
    nxt.click()
    review = by_id(p, "lesson-review")
    review.wait_for(timeout=LOAD_MS)
    assert review.locator('[data-question="s01.ask"]').count() == 1
    for b in review.locator("button").all():
        box = b.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    p.context.close()
