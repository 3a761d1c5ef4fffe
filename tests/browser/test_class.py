"""The live class in Chromium, the deck's side (ui/lesson/class.js, class_panel.js): the teacher's
projector (1024 × 768) and three phones (390 × 844), each a browser context of its own, against
one `streamlit run launcher.py` with a real redis-server (REDIS_URL) for the module (the fixtures:
tests/browser/conftest.py; the windows and waits: tests/browser/class_support.py).

The projector makes a class (/lesson?room=new), shows its code and QR code; the phones join
(/lesson?join=CODE), answer the question, follow the teacher's reveal and the next scene, look
back and return; a phone reopened lands on the class's step; no student's page holds the
teacher's secret; a change forged without it is refused; an unknown code says so. The server's
own rules: tests/classroom/."""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import threading

import pytest

from bench.class_attack import made_up_token, random_code
from bench.class_flood import hammer
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
from tests.lesson_support import LOAD_MS, ROOT, where
from ui.lesson.class_text import class_text
from ui.text import t

pytestmark = pytest.mark.browser

# ---- the projector ----------------------------------------------------------------------------


def test_the_projector_shows_a_short_code_a_large_qr_and_the_join_link(teacher, server):
    page, code = teacher
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{4,6}", code), code
    assert f"room={code}" in page.url and "room=new" not in page.url  # a reload rejoins
    assert by_id(page, "class-code").inner_text() == code
    link = by_id(page, "class-link").inner_text()
    assert link.endswith(f"/lesson?join={code}"), link
    qr = by_id(page, "class-qr")
    page.wait_for_function(
        f"() => {ROOT}.querySelector('[data-testid=\"class-qr\"]').naturalWidth > 0",
        timeout=LOAD_MS,
    )
    box = qr.bounding_box()
    assert box["width"] >= 300 and box["height"] >= 300, box  # scanned from the back of a room
    # The tests' server listens on loopback: the projector says phones cannot reach it.
    warn = by_id(page, "class-unreachable")
    assert warn.is_visible() and warn.get_attribute("data-reason") == "loopback"


def test_the_start_button_makes_a_class_and_a_reload_leads_it_again(browser, server):
    page = projector(browser, server, "?at=2&lang=en")
    assert by_id(page, "class-bar").is_hidden()  # no class until the teacher starts one
    page.keyboard.press("?")  # the key list holds the teacher's tools: the class starts there
    by_id(page, "class-start").click()
    wait_status(page, "s.state === 'joined' && !!s.code", "the class made by the button")
    code = status(page)["code"]
    page.wait_for_function(f"() => location.search.includes('room={code}')", timeout=LOAD_MS)
    assert by_id(page, "class-start").is_hidden()
    assert by_id(page, "class-code").inner_text() == code and by_id(page, "class-qr").is_visible()
    if os.environ.get("CLASS_DOCS"):
        page.wait_for_function(
            f"() => {ROOT}.querySelector('[data-testid=\"class-qr\"]').naturalWidth > 0"
        )
        page.screenshot(path=str(SHOTS / "class_join_en_1024x768.png"))
    page.reload()  # the address names the class: the same one, led again, where it was
    page.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    wait_status(page, f"s.state === 'joined' && s.code === '{code}'", "the teacher again")
    assert f"room={code}" in page.url
    assert page.evaluate(f"() => {ROOT}.querySelector('.class-tools').hidden") is False
    wait_place(page, 2, 0)
    page.context.close()


# ---- the phones -------------------------------------------------------------------------------


def test_three_phones_follow_answer_and_see_the_reveal_and_the_next_scene(browser, server, teacher):
    page, code = teacher
    page.keyboard.press("1")
    wait_place(page, 1, 0)  # §1 asks whom 他 means
    phones = [joined(browser, server, code) for _ in range(3)]
    for p in phones:
        wait_place(p, 1, 0)
        assert by_id(p, "lesson-reveal").count() == 0  # no local reveal in a class
    # Each phone answers; one changes its mind (replaced, counted once).
    choices = phones[0].locator('[data-testid="lesson-choice"]')
    ids = [choices.nth(i).get_attribute("data-choice") for i in range(choices.count())]
    assert len(ids) >= 2
    picks = [ids[0], ids[0], ids[1]]
    phones[2].locator(f'[data-testid="lesson-choice"][data-choice="{ids[0]}"]').click()
    for p, pick in zip(phones, picks, strict=True):
        p.locator(f'[data-testid="lesson-choice"][data-choice="{pick}"]').click()
        p.wait_for_function(
            f"() => {ROOT}.querySelector('[data-choice=\"{pick}\"]')"
            ".getAttribute('aria-pressed') === 'true'",
            timeout=LOAD_MS,
        )
        assert where(p) == (1, 0)  # an answer does not move the phone past the class
    tally = f"{ROOT}.querySelector('[data-testid=\"class-tally\"]')"
    page.wait_for_function(f"() => {tally}?.dataset.total === '3'", timeout=LOAD_MS)
    page.keyboard.press("t")  # the teacher shows the shares
    page.wait_for_function(f"() => {tally}.dataset.visible === '1'", timeout=LOAD_MS)
    counts = f"""Object.fromEntries([...{tally}.querySelectorAll('.tally-row')]
        .map(r => [r.dataset.choice, Number(r.dataset.count)]))"""
    page.wait_for_function(  # the changed answer replaced, not added
        f"() => {{ const c = {counts}; return c['{ids[0]}'] === 2 && c['{ids[1]}'] === 1"
        f" && {tally}.dataset.total === '3'; }}",
        timeout=LOAD_MS,
    )
    if os.environ.get("CLASS_DOCS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate(f"() => {ROOT}.querySelector('.class-join').hidden = false")
        page.screenshot(path=str(SHOTS / "class_projector_1024x768.png"))
        phones[2].screenshot(path=str(SHOTS / "class_phone_390x844.png"))
    page.keyboard.press("r")  # the reveal, on every phone
    wait_place(page, 1, 1)
    for p, pick in zip(phones, picks, strict=True):
        wait_place(p, 1, 1)
        verdict = by_id(p, "lesson-verdict")
        verdict.wait_for(timeout=LOAD_MS)
        assert verdict.get_attribute("data-verdict") in ("right", "wrong")
        right = p.evaluate(
            f"() => {ROOT}.querySelector('[data-testid=\"lesson-choice\"].right')?.dataset.choice"
        )
        expected = "right" if pick == right else "wrong"
        assert verdict.get_attribute("data-verdict") == expected
    # The teacher moves on to §2: every phone follows, no rerun needed.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    wait_place(page, 2, 0)
    for p in phones:
        wait_place(p, 2, 0)
        assert status(p)["scene"] == "2"
        # Following cost no rerun: the phone's deck never sent Python a change.
        assert (
            p.evaluate(
                f"() => {ROOT}.querySelector('[data-testid=\"lesson\"]').parentNode.__lesson.seq"
            )
            == 0
        )
    # A phone looks back (←) and comes back with one tap; meanwhile the class moves on.
    p = phones[0]
    p.keyboard.press("ArrowLeft")
    wait_place(p, 1, 2)
    by_id(p, "class-follow").wait_for(state="visible", timeout=LOAD_MS)
    page.keyboard.press("ArrowRight")
    wait_place(page, 2, 1)
    wait_status(p, "s.scene === '2' && s.step === '1'", "the class's place in the bar")
    assert where(p) == (1, 2)  # its own screen
    by_id(p, "class-follow").click()
    wait_place(p, 2, 1)
    assert by_id(p, "class-follow").is_hidden()
    for q in phones:
        q.context.close()


def test_a_phone_closed_and_reopened_lands_on_the_current_step(browser, server, teacher):
    page, code = teacher
    p = joined(browser, server, code)
    here = where(page)
    wait_place(p, *here)
    p.context.close()
    page.keyboard.press("ArrowRight")
    moved = where(page)
    assert moved != here
    p = joined(browser, server, code)
    wait_place(p, *moved)
    p.context.close()


def _script(base: str, code: str, stop: threading.Event, counted: dict) -> None:
    """(A thread.) A student's script until `stop`: joins of unknown codes with a new phone id
    each, and answers to the real class with made-up tokens, 150 requests a second."""

    def requests():
        while not stop.is_set():
            body = {"phone": f"guess-{secrets.token_hex(12)}"}
            yield f"/class/{random_code()}/join", json.dumps(body).encode()
            body = {"token": made_up_token(0), "question": "s01.ask", "choice": "a"}
            yield f"/class/{code}/answer", json.dumps(body).encode()

    statuses, _ = asyncio.run(hammer(base, requests(), rate=150, connections=4))
    counted.update(statuses)


def test_a_phone_joins_and_answers_while_a_script_guesses_codes_and_forges_answers(
    browser, server, teacher
):
    page, code = teacher
    page.keyboard.press("1")
    wait_place(page, 1, 0)  # §1 asks whom 他 means
    tally = f"{ROOT}.querySelector('[data-testid=\"class-tally\"]')"
    page.wait_for_function(f"() => {tally}?.dataset.question === 's01.ask'", timeout=LOAD_MS)
    before = served_total(page, code)  # earlier tests' answers to §1's question
    stop, counted = threading.Event(), {}
    script = threading.Thread(target=_script, args=(server, code, stop, counted))
    script.start()
    try:
        p = joined(browser, server, code)  # it joins during the flood
        wait_place(p, 1, 0)
        pick = p.locator('[data-testid="lesson-choice"]').first
        pick.click()
        choice = pick.get_attribute("data-choice")
        p.wait_for_function(
            f"() => {ROOT}.querySelector('[data-choice=\"{choice}\"]')"
            ".getAttribute('aria-pressed') === 'true'",
            timeout=LOAD_MS,
        )
        page.wait_for_function(f"() => {tally}.dataset.total === '{before + 1}'", timeout=LOAD_MS)
        said = status(p)
        assert said["state"] == "joined" and said["text"] not in class_text("zh")["error"].values()
    finally:
        stop.set()
        script.join(timeout=60)
    assert counted and set(counted) <= {404, 403, 429}, counted  # the script got nothing in
    assert counted.get(403, 0) > 0, "no made-up answer was sent"
    assert served_total(page, code) == before + 1
    p.context.close()


def served_total(page, code: str) -> int:
    """The tally's total as the server has it, read by the teacher's browser (its cookie)."""
    return page.evaluate(
        f"() => fetch('/class/{code}').then(r => r.json()).then(b => b.tally.total)"
    )


def test_no_student_page_holds_the_teachers_secret(browser, server, teacher):
    page, code = teacher
    secret = [c for c in page.context.cookies() if c["name"] == f"al_lead_{code}"]
    assert secret and secret[0]["httpOnly"], page.context.cookies()
    value = secret[0]["value"]
    assert value not in page.url
    link = by_id(page, "class-link").inner_text()
    assert value not in link
    p = joined(browser, server, code)
    seen = [p.url, p.content(), p.evaluate(f"() => {ROOT}.innerHTML")]
    seen.append(p.evaluate("() => document.cookie"))
    qr = p.evaluate(f"() => fetch('/class/{code}/qr.svg').then(r => r.text())")
    state = p.evaluate(f"() => fetch('/class/{code}').then(r => r.text())")
    assert all(value not in text for text in [*seen, qr, state])
    assert not [c for c in p.context.cookies() if c["name"].startswith("al_lead_")]
    p.context.close()


def test_a_change_forged_without_the_secret_is_refused(browser, server, teacher):
    page, code = teacher
    p = joined(browser, server, code)
    before = status(page)["v"]
    got = p.evaluate(
        f"""() => Promise.all(['state', 'reset', 'end'].map(route =>
          fetch('/class/{code}/' + route, {{method: 'POST',
            headers: {{'Content-Type': 'application/json'}},
            body: JSON.stringify(route === 'state' ? {{scene: 's09', step: 'code'}}
                                 : route === 'reset' ? {{question: 's01.ask'}} : {{}})}})
          .then(r => r.json().then(b => [r.status, b.error])))) """
    )
    assert got == [[403, "not_teacher"]] * 3, got
    assert status(page)["v"] == before and where(p) == where(page)
    p.context.close()


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_unknown_code_says_so_in_the_phones_language_and_offers_the_lesson_alone(
    browser, server, lang
):
    p = phone(browser, server, f"?join=ZZZZZZ&lang={lang}")
    wait_status(p, "s.state === 'alone'", "the unknown code's message")
    assert status(p)["text"] == t("classroom.error.no_class", lang)
    alone = by_id(p, "class-alone")
    assert alone.is_visible() and alone.inner_text() == t("classroom.open_alone", lang)
    alone.click()
    p.wait_for_function("() => !location.search.includes('join')", timeout=LOAD_MS)
    p.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    p.context.close()


def test_redis_lost_says_the_class_link_is_lost_keeps_the_lesson_and_recovers(
    browser, server, teacher, redis
):
    page, code = teacher
    page.keyboard.press("2")
    wait_place(page, 2, 0)
    p = joined(browser, server, code)
    wait_place(p, 2, 0)
    redis.stop()
    try:
        wait_status(p, "s.state === 'lost'", "the phone's notice")
        assert status(p)["text"] == t("classroom.status.lost", "zh")
        page.keyboard.press("ArrowRight")  # the teacher goes on; its post waits for Redis
        moved = where(page)
        p.keyboard.press("ArrowLeft")  # the phone's lesson still works alone
        wait_place(p, 1, 2)
    finally:
        redis.start()
    wait_status(p, "s.state === 'joined'", "the phone back in the class")
    wait_status(page, "s.state === 'joined'", "the projector back in the class")
    wait_status(p, f"s.scene === '{moved[0]}' && s.step === '{moved[1]}'", "the class's place")
    by_id(p, "class-follow").click()
    wait_place(p, *moved)
    p.context.close()


def test_the_presenter_window_hears_the_class_and_its_actions_lead_it(browser, server, teacher):
    """The BroadcastChannel contract with the presenter view (another window of the teacher's
    browser): hello → the class's state with its tally; an action runs as the teacher's key."""
    page, code = teacher
    other = page.context.new_page()  # the presenter window: same browser, same origin
    other.goto(f"{server}/_stcore/health")
    got = other.evaluate(
        """() => new Promise((ok) => {
          const ch = new BroadcastChannel('attention-lab-deck');
          ch.onmessage = (ev) => { if (ev.data.kind === 'class') { ch.close(); ok(ev.data); } };
          ch.postMessage({kind: 'hello', from: 'presenter'});
        })"""
    )
    assert got["state"]["code"] == code and "tally" in got["state"]
    assert "secret" not in str(got).lower()
    for do, shown in (("tally_show", "true"), ("tally_hide", "false")):
        other.evaluate(
            """(act) => { const ch = new BroadcastChannel('attention-lab-deck');
               ch.postMessage({kind: 'action', do: act}); ch.close(); }""",
            do,
        )
        page.wait_for_function(
            f"() => {ROOT}.querySelector('[data-testid=\"class-tally-toggle\"]')"
            f".getAttribute('aria-pressed') === '{shown}'",
            timeout=LOAD_MS,
        )
    other.close()


def test_phones_take_the_teachers_sentence_and_are_told_when_e_twice_ends_the_class(
    browser, server
):
    sentence = "老师把书给了小红，因为她想读。"
    page, code = new_class(browser, server, f"&at=3&s={sentence}&w=random&seed=5&d=32&h=2")
    p = joined(browser, server, code)  # its own link names no sentence: it takes the class's
    deck = f"{ROOT}.querySelector('[data-testid=\"lesson\"]').parentNode.__lesson"
    p.wait_for_function(f"() => {deck}.header.settings.sentence === {sentence!r}", timeout=LOAD_MS)
    mine = p.evaluate(f"() => {deck}.header.settings")
    assert (mine["weights"], mine["seed"], mine["d"], mine["h"]) == ("random", 5, 32, 2)
    wait_place(p, 3, 0)
    assert (
        p.evaluate(f"() => {deck}.seq") == 1
    )  # one rerun for the sentence and model, none per step
    page.keyboard.press("Escape")  # the join panel stays; Esc is the deck's
    page.keyboard.press("e")
    assert status(page)["state"] == "joined"  # once is not enough
    page.keyboard.press("e")
    wait_status(page, "s.state === 'ended'", "the projector's class ended")
    wait_status(p, "s.state === 'ended'", "the phone told")
    assert status(p)["text"] == t("classroom.status.ended", "zh")
    assert by_id(p, "class-alone").is_visible()
    assert "join=" not in p.url and "room=" not in page.url  # a reload is the lesson alone
    page.context.close()
    p.context.close()


def test_the_teacher_resets_a_question_and_the_phones_answer_again(browser, server, teacher):
    page, code = teacher
    page.keyboard.press("1")
    wait_place(page, 1, 0)
    p = joined(browser, server, code)
    wait_place(p, 1, 0)
    choice = p.locator('[data-testid="lesson-choice"]').first
    choice.click()
    tally = f"{ROOT}.querySelector('[data-testid=\"class-tally\"]')"
    page.wait_for_function(f"() => Number({tally}?.dataset.total) >= 1", timeout=LOAD_MS)
    page.keyboard.press("x")  # the question's answers gone, asked again
    page.wait_for_function(f"() => {tally}?.dataset.total === '0'", timeout=LOAD_MS)
    p.wait_for_function(
        f"() => ![...{ROOT}.querySelectorAll('[data-testid=\"lesson-choice\"]')]"
        ".some(b => b.getAttribute('aria-pressed') === 'true')",
        timeout=LOAD_MS,
    )
    choice.click()  # and it counts again
    page.wait_for_function(f"() => {tally}?.dataset.total === '1'", timeout=LOAD_MS)
    p.context.close()


def test_phones_show_the_figures_the_teachers_server_measured(browser, server, teacher):
    """§5's variances and §7's timings come with the class: a phone never measures its own."""
    page, code = teacher
    deck = f"{ROOT}.querySelector('[data-testid=\"lesson\"]').parentNode.__lesson"
    p = joined(browser, server, code)
    for scene, block in ((5, "variance"), (7, "cost")):
        page.keyboard.press(str(scene))
        wait_place(page, scene, 0)
        wait_place(p, scene, 0)
        mine, theirs = (
            q.evaluate(f"() => JSON.stringify({deck}.header.blocks.{block})") for q in (p, page)
        )
        assert mine == theirs and mine != "null"
        assert p.evaluate(f"() => Object.keys({deck}.asked)") == []  # never asked its server
    p.context.close()


def test_axe_finds_nothing_serious_on_the_projector_or_a_phone_in_a_class(browser, server, teacher):
    page, code = teacher
    page.keyboard.press("1")
    wait_place(page, 1, 0)
    page.evaluate(f"() => {ROOT}.querySelector('.class-join').hidden = false")
    p = joined(browser, server, code)
    wait_place(p, 1, 0)
    p.locator('[data-testid="lesson-choice"]').first.click()
    problems = []
    for who, q in (("projector", page), ("phone", p)):
        for violation in axe().run(q).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                problems += [
                    f"{who} {violation['id']}: {n['html'][:140]}" for n in violation["nodes"]
                ]
    page.evaluate(f"() => {ROOT}.querySelector('.class-join').hidden = true")
    p.context.close()
    assert not problems, "\n".join(problems)


def test_the_real_presenter_window_shows_the_tally_and_its_reveal_reaches_the_phones(
    browser, server
):
    """S on a projector that leads a class: the presenter window (presenter.js, its link carries
    room=CODE) leads no second class, hears the tally and its reveal reveals on the phone."""
    page, code = new_class(browser, server, "&at=1")
    context = page.context
    p = joined(browser, server, code)
    wait_place(p, 1, 0)
    p.locator('[data-testid="lesson-choice"]').first.click()
    with context.expect_page(timeout=LOAD_MS) as opened:
        page.keyboard.press("s")
    presenter = opened.value
    presenter.wait_for_selector('[data-testid="lesson"][data-ready="1"]', timeout=LOAD_MS)
    assert f"room={code}" in presenter.url
    panel = f"{ROOT}.querySelector('[data-testid=\"presenter-tally\"]')"
    presenter.wait_for_function(
        f"() => ({panel}?.innerText || '').includes('{code}')"
        f" && !!{panel}.querySelector('[data-choice][data-count=\"1\"]')",
        timeout=LOAD_MS,
    )
    assert by_id(presenter, "class-bar").count() == 0  # no class of its own in that window
    by_id(presenter, "presenter-reveal").click()
    wait_place(page, 1, 1)
    wait_place(p, 1, 1)
    by_id(p, "lesson-verdict").wait_for(timeout=LOAD_MS)
    context.close()
    p.context.close()
