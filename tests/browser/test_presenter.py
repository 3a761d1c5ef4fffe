"""The presenter window in Chromium, keys only: S on the projector opens it (a second window of the
same browser context: BroadcastChannel is per context and origin) with this scene's notes; → in
either window moves the other; the projector never shows a note and its payload holds none; a
phone that joined a class has no note in its page nor its payload; the class's tally, as the
projector sends it, shows in the presenter, whose buttons send actions. Screenshots at 1280×800
(CLASS_DOCS=1 writes them into docs/screenshots/)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from deploy.local import start_streamlit
from tests.browser_support import REDUCED_MOTION, axe
from tests.lesson_support import LOAD_MS, ROOT, SCENE, on_phone, open_lesson, press, settle, where
from ui.lesson.words import note_keys
from ui.text import t

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
LAPTOP = {"width": 1280, "height": 800}
LAPTOP_SIZE = (1280, 800)
PROJECTOR = (1024, 768)
HOST = f"{ROOT}.querySelector('[data-testid=\"lesson\"]').parentNode"
# What the deck received (its header) and what its page shows, as text.
RECEIVED = f"() => JSON.stringify({HOST}.__lesson.header)"
SHOWN = f"() => {ROOT}.querySelector('[data-testid=\"lesson\"]').innerText"
PANEL = f"{ROOT}.querySelector('[data-testid=\"presenter\"]')"
CHANNEL = "attention-lab-deck"
OTHER = "我打你，你打我。"  # a second sentence the teacher types on the projector
SEND_CLASS = "(s) => window.bc.postMessage({kind: 'class', state: s, from: 'proj'})"


def note_lines(lang: str = "zh") -> list[str]:
    out = []
    for key in note_keys():
        for line in t(key, lang).splitlines():
            line = line.strip().removeprefix("- ").strip()
            if line:
                out.append(line)
    return out


def assert_no_notes(page, lang: str = "zh") -> None:
    """No note line in what the deck received nor in what it shows."""
    received, shown = page.evaluate(RECEIVED), page.evaluate(SHOWN)
    assert json.loads(received)["notes"] is None
    found = [line for line in note_lines(lang) if line in received or line in shown]
    assert not found, found


def wait_at(page, scene: int, step: int) -> None:
    page.wait_for_function(
        f"([k, i]) => {SCENE}?.dataset.scene === String(k) && {SCENE}.dataset.step === String(i)",
        arg=[scene, step],
        timeout=LOAD_MS,
    )
    settle(page)


def panel_text(page, testid: str) -> str:
    return page.evaluate(f"() => {PANEL}.querySelector('[data-testid=\"{testid}\"]').innerText")


def open_presenter(context, base: str, query: str):
    """S on a projector opened in `context` at `query`: (projector, presenter), both at rest."""
    projector = context.new_page()
    open_lesson(projector, base, query, PROJECTOR)
    with context.expect_page(timeout=LOAD_MS) as opened:
        projector.keyboard.press("s")
    presenter = opened.value
    presenter.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    settle(presenter)
    return projector, presenter


def test_s_opens_the_presenter_and_the_two_windows_move_together(browser, streamlit_server):
    context = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=LAPTOP)
    try:
        projector, presenter = open_presenter(context, streamlit_server, "?at=3")
        assert "presenter=1" in presenter.url and "at=3" in presenter.url
        assert presenter.viewport_size == LAPTOP
        assert where(presenter) == (3, 0)
        notes = panel_text(presenter, "presenter-notes")
        first = t("lesson.s3.notes", "zh").splitlines()[0].strip()
        assert t("lesson.notes_title", "zh") in notes and first in notes
        assert "W_Q" in notes
        assert "§3" in panel_text(presenter, "presenter-now")
        assert "§3" in panel_text(presenter, "presenter-next")  # §3 has a step after its first
        assert_no_notes(projector)

        press(projector, "ArrowRight")  # the projector driven: the presenter follows
        wait_at(presenter, 3, 1)
        press(presenter, "ArrowRight")  # the presenter driven: the projector follows
        wait_at(projector, 3, 2)
        assert where(presenter) == (3, 2)
        press(presenter, "4")  # a jump: a new scene, and its notes
        wait_at(projector, 4, 0)
        first4 = t("lesson.s4.notes", "zh").splitlines()[0].strip()
        presenter.wait_for_function(
            f"(s) => {PANEL}.querySelector('.p-notes').innerText.includes(s)",
            arg=first4,
            timeout=LOAD_MS,
        )
        press(projector, "ArrowLeft")  # back, into §3's last step
        wait_at(presenter, 3, 3)
        assert where(projector) == (3, 3)
        assert_no_notes(projector)
        assert presenter.locator('[data-testid="lesson-notes-toggle"]').is_hidden()
        presenter.evaluate("() => { window.stillOpen = true; }")
        press(projector, "s")  # S again: the open presenter comes forward as it is, not reloaded
        press(presenter, "s")  # S in the presenter opens no third window
        assert len(context.pages) == 2 and presenter.evaluate("() => window.stillOpen")
        if os.environ.get("CLASS_DOCS"):  # docs/screenshots/, as test_class.py writes them
            SHOTS.mkdir(parents=True, exist_ok=True)
            presenter.screenshot(path=str(SHOTS / "lesson_1280x800_presenter.png"))
            projector.screenshot(path=str(SHOTS / "lesson_1024x768_projector_with_presenter.png"))
        projector.locator('[data-testid="lesson-edit"]').click()  # a new sentence on the projector
        projector.locator('[data-testid="lesson-sentence"]').fill(OTHER)
        projector.keyboard.press("Enter")
        settle(projector)
        presenter.wait_for_function(  # the presenter takes it from the projector's link
            f"(s) => {HOST}.__lesson.header.settings.sentence === s", arg=OTHER, timeout=LOAD_MS
        )
        settle(presenter)
        assert where(presenter) == where(projector) == (3, 3)
    finally:
        context.close()


def test_the_clock_pauses_and_resets(browser, streamlit_server):
    context = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=LAPTOP)
    try:
        page = context.new_page()
        open_lesson(page, streamlit_server, "?presenter=1&at=2", (1280, 800))
        ms = f"() => Number({PANEL}.querySelector('[data-testid=\"presenter-time\"]').dataset.ms)"
        page.wait_for_function(f"() => ({ms})() >= 1000", timeout=LOAD_MS)
        pause = page.locator('[data-testid="presenter-pause"]')
        pause.click()
        assert pause.get_attribute("aria-label") == t("presenter.resume", "zh")
        held = page.evaluate(ms)
        since = page.evaluate("() => Date.now()")  # a tick of the clock later, it still stands
        page.wait_for_function("(t0) => Date.now() - t0 > 1100", arg=since, timeout=LOAD_MS)
        assert page.evaluate(ms) == held
        page.locator('[data-testid="presenter-reset"]').click()
        assert page.evaluate(ms) == 0
        assert page.locator('[data-testid="presenter-time"]').inner_text() == "00:00"
        pause.click()  # running again from zero
        page.wait_for_function(f"() => ({ms})() >= 1000", timeout=LOAD_MS)
    finally:
        context.close()


STATE = {
    "code": "K7MX2Q",
    "v": 7,
    "scene": "s05",
    "step": "ask",
    "question": {
        "id": "s05.ask",
        "choices": ["sharp", "flat"],
        "labels": {
            "sharp": {"zh": "更尖", "en": "sharper"},
            "flat": {"zh": "更平", "en": "flatter"},
        },
    },
    "revealed": False,
    "tally_visible": False,
    "created": 0,  # set to 90 s ago by the test: the clock counts from the class's start
    "ended": False,
    "tally": {"question": "s05.ask", "counts": {"sharp": 3, "flat": 1}, "total": 4, "v": 7},
    "room": {"joined": 7, "following": 6},  # M: the phones following now
    "askedAt": 0,  # set to 75 s ago by the test: the question's own clock
}


def test_the_presenter_shows_the_tally_and_sends_the_teachers_actions(browser, streamlit_server):
    """A "class" message (as the projector's class code sends it) shows the tally; the buttons
    post "action"s; a "goto" from another window moves the presenter; without a class nothing
    class-related shows."""
    context = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=LAPTOP)
    try:
        page = context.new_page()
        open_lesson(page, streamlit_server, "?presenter=1&at=5&lang=en", (1280, 800))
        tally = page.locator('[data-testid="presenter-tally"]')
        assert tally.is_hidden()
        other = context.new_page()  # another window of the teacher's, the channel's other end
        other.goto(f"{streamlit_server}/_stcore/health")
        other.evaluate(
            f"""() => {{
              window.got = [];
              window.bc = new BroadcastChannel("{CHANNEL}");
              window.bc.onmessage = (ev) => window.got.push(ev.data);
            }}"""
        )
        state = {
            **STATE,
            "created": other.evaluate("() => Math.floor(Date.now() / 1000) - 90"),
            "askedAt": other.evaluate("() => Date.now() - 75000"),
        }
        other.evaluate(SEND_CLASS, state)
        tally.wait_for(state="visible", timeout=LOAD_MS)
        text = tally.inner_text()
        answered = page.locator('[data-testid="class-answered"]')
        assert "K7MX2Q" in text and answered.inner_text().startswith(
            t("classroom.answered_of", "en", n=4, m=6)
        )
        assert (answered.get_attribute("data-n"), answered.get_attribute("data-m")) == ("4", "6")
        qclock = page.locator('[data-testid="class-clock"]')
        assert 75_000 <= int(qclock.get_attribute("data-ms")) < 80_000
        assert "01:1" in qclock.inner_text()  # the question's clock, not the class's
        waiting = page.locator('[data-testid="class-waiting"]')
        assert waiting.count() == 0
        other.evaluate(SEND_CLASS, {**state, "waiting": True})  # the class server is away
        waiting.wait_for(timeout=LOAD_MS)
        assert waiting.inner_text() == t("presenter.waiting", "en")
        other.evaluate(SEND_CLASS, state)  # back: the line goes
        waiting.wait_for(state="detached", timeout=LOAD_MS)
        assert t("presenter.count", "en", n=3, pct=75) in text and "sharper" in text
        assert t("presenter.tally_hidden", "en") in text
        clock = page.locator('[data-testid="presenter-time"]').inner_text()
        assert "01:30" <= clock <= "01:59", clock  # since the class started, not the window
        page.locator('[data-testid="presenter-reveal"]').click()
        page.locator('[data-testid="presenter-tally-toggle"]').click()
        page.locator('[data-testid="presenter-question-reset"]').click()
        end = page.locator('[data-testid="presenter-end"]')
        end.click()  # the first press asks again
        assert end.inner_text() == t("presenter.end_sure", "en")
        end.click()
        other.wait_for_function("() => window.got.filter((m) => m.kind === 'action').length >= 4")
        actions = [m for m in other.evaluate("() => window.got") if m["kind"] == "action"]
        assert [m["do"] for m in actions] == ["reveal", "tally_show", "reset", "end"]
        assert len({m["from"] for m in actions}) == 1 and actions[0]["from"] != "proj"
        shown = {**state, "revealed": True, "tally_visible": True, "question": {
            **STATE["question"], "answer": "sharp"}}  # fmt: skip
        other.evaluate(SEND_CLASS, shown)
        page.wait_for_function(
            f"() => {PANEL}.querySelector('[data-testid=\"presenter-reveal\"]')?.disabled"
        )
        text = tally.inner_text()
        assert "✓ sharper" in text and t("presenter.tally_shown", "en") in text
        other.evaluate("() => window.bc.postMessage({kind: 'goto', scene: 's06', from: 'proj'})")
        wait_at(page, 6, 0)
        other.evaluate(SEND_CLASS, {**state, "scene": "s06"})
        page.locator('[data-testid="presenter-reveal"]').wait_for(timeout=LOAD_MS)
        if os.environ.get("CLASS_DOCS"):
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "lesson_1280x800_presenter_class_en.png"))
    finally:
        context.close()


def test_the_answer_key_shows_from_the_question_and_names_the_right_choice(
    browser, streamlit_server
):
    """class-key: the right choice and why, in the presenter from the moment the question is
    asked (not after R), from the presenter's own deck; §6's names the pronoun head; none on a
    step without a question; never on the projector."""
    context = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=LAPTOP)
    try:
        projector, page = open_presenter(context, streamlit_server, "?at=1&lang=en")
        key = page.locator('[data-testid="class-key"]')
        key.wait_for(state="visible", timeout=LOAD_MS)  # §1 asks at its first step
        right = key.get_attribute("data-answer")
        assert right and key.get_attribute("data-question") == "s01.ask"
        assert by_test(projector, "class-key").count() == 0
        press(projector, "ArrowRight")  # the reveal: the key was the deck's right answer
        wait_at(page, 1, 1)
        marked = page.evaluate(
            f"() => {ROOT}.querySelector('[data-testid=\"lesson-choice\"].right').dataset.choice"
        )
        assert marked == right and key.is_visible()
        press(projector, "ArrowRight")
        wait_at(page, 1, 2)
        assert key.is_hidden()  # nothing asked here
        press(projector, "6")
        wait_at(page, 6, 0)
        assert key.is_hidden()  # §6 asks at its second step
        press(projector, "ArrowRight")
        wait_at(page, 6, 1)
        key.wait_for(state="visible", timeout=LOAD_MS)
        head = key.get_attribute("data-answer")  # h1 … h4, the measured pronoun head
        assert head.startswith("h"), head
        assert f"✓ {t('lesson.head', 'en', i=int(head[1:]))}" in key.inner_text()
    finally:
        context.close()


def by_test(page, testid: str):
    return page.locator(f'[data-testid="{testid}"]')


def test_a_phone_that_joined_a_class_has_no_notes(browser, streamlit_server):
    with on_phone(browser, streamlit_server, "?join=K7MX2Q&at=5") as phone:
        assert_no_notes(phone)
        header = json.loads(phone.evaluate(RECEIVED))
        assert header["window"] == "joined"
        assert phone.evaluate(f"() => {HOST}.__lesson.channel") is None  # it follows no teacher
        assert phone.locator('[data-testid="lesson-notes-toggle"]').is_hidden()
        press(phone, "s")  # no key opens a notes window on a joined phone
        assert len(phone.context.pages) == 1


@pytest.fixture(scope="module")
def lan_server():
    """The app as `make serve HOST=0.0.0.0` runs it: nginx on every address (SERVE_HOST), so
    phones on the LAN reach it; the app process itself still listens on loopback (the tests
    open no port beyond this machine)."""
    with start_streamlit("launcher.py", env={"SERVE_HOST": "0.0.0.0"}) as server:
        yield server.url


def test_on_a_lan_server_only_the_browser_that_leads_a_class_gets_notes(browser, lan_server):
    """A phone (its own context) that opens presenter=1, with or without the class's code, gets
    no notes; the teacher's browser (the class's cookie) gets them in its presenter window, with
    room=CODE as S opens it and without."""
    teacher = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=LAPTOP)
    try:
        projector = teacher.new_page()
        open_lesson(projector, lan_server, "?room=new&at=5", PROJECTOR)
        # the class made: room=new in the address has become its code (room=new alone matched
        # at once: under load the code was read as "new" — a fresh clone beside two spinners)
        projector.wait_for_function(
            "() => !['new', null].includes(new URLSearchParams(location.search).get('room'))",
            timeout=LOAD_MS,
        )
        code = projector.evaluate("() => new URLSearchParams(location.search).get('room')")
        for query in ("?presenter=1&at=5", f"?presenter=1&at=5&room={code}",
                      f"?presenter=1&at=5&join={code}"):  # fmt: skip
            with on_phone(browser, lan_server, query) as phone:
                assert_no_notes(phone)
        with teacher.expect_page(timeout=LOAD_MS) as opened:
            projector.keyboard.press("s")
        presenter = opened.value
        presenter.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
        assert f"room={code}" in presenter.url
        first = t("lesson.s5.notes", "zh").splitlines()[0].strip()
        assert first in panel_text(presenter, "presenter-notes")
        alone = teacher.new_page()  # the teacher's browser, without the class in the address
        open_lesson(alone, lan_server, "?presenter=1&at=5", LAPTOP_SIZE)
        assert json.loads(alone.evaluate(RECEIVED))["notes"]["5"]
    finally:
        teacher.close()


def test_a_phone_alone_has_no_presenter_button(browser, streamlit_server):
    with on_phone(browser, streamlit_server, "?at=2") as phone:
        assert phone.locator('[data-testid="lesson-notes-toggle"]').is_hidden()
        assert_no_notes(phone)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_axe_finds_nothing_serious_in_the_presenter(browser, streamlit_server, lang):
    """The panel with the notes, the clock's buttons and a class's tally and buttons."""
    context = browser.new_context(reduced_motion=REDUCED_MOTION, viewport=LAPTOP)
    try:
        page = context.new_page()
        open_lesson(page, streamlit_server, f"?presenter=1&at=5&lang={lang}", (1280, 800))
        page.evaluate(
            f"""(s) => new BroadcastChannel("{CHANNEL}").postMessage(
              {{kind: "class", state: s, from: "proj"}})""",
            STATE,
        )
        page.locator('[data-testid="presenter-reveal"]').wait_for(timeout=LOAD_MS)
        found = [
            f"{v['id']}: {node['html'][:140]}"
            for v in axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")
            for node in v["nodes"]
        ]
        assert not found, "\n".join(found)
    finally:
        context.close()
