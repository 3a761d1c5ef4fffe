"""The lesson (/lesson) in Chromium: every scene and step fits a projector's screen and a big one,
readable from the back (no text under 20 px, no labels on top of each other, nothing cut), the
keys and the link, predict-then-reveal, bad links, a sentence a scene cannot use, the phone,
axe, and the browser's arithmetic against the core. The rules every step meets (no spoilers, the
phone's screen, the maps' cells) and the deck's frame (overview, handout, terms, progress):
tests/test_browser_lesson_rules.py; shared helpers: tests/lesson_support.py."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

from attention_core import softmax
from attention_core.analysis import row_entropy
from demo_model import load_demo_model
from tests.browser_support import axe
from tests.lesson_support import (
    DECK,
    LOAD_MS,
    ROOM_CHECK,
    ROOT,
    SCENE,
    SENTENCE,
    open_lesson,
    press,
    settle,
    shot,
    walk_every_step,
    where,
)
from ui.lesson import deck
from ui.text import t

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs" / "lesson"  # LESSON_DOCS=1 writes the screenshots there
SCENES = 10
LONG = (  # 64 jieba tokens, as bench/common.py's long case
    "小明把书放在了桌子上，然后他走了。小红拿起那本书，看了看封面，又把它放回了桌子上。"
    "老师走进教室，看见书在桌子上，就问这是谁的书。小明回来以后，发现书不见了，他很着急，到处寻找。"
)


# ---- helpers (the shared ones: tests/lesson_support.py) ----------------------------------------


def link_at(page) -> str | None:
    return (parse_qs(urlparse(page.url).query).get("at") or [None])[0]


def wait_link(page, at: int) -> None:
    page.wait_for_function(
        f"() => new URLSearchParams(location.search).get('at') === '{at}'", timeout=LOAD_MS
    )


def keep_for_docs(shots: dict[int, Path], suffix: str) -> None:
    """With LESSON_DOCS=1, each scene's last step into docs/lesson/ (the README shows them)."""
    if os.environ.get("LESSON_DOCS") != "1":
        return
    DOCS.mkdir(parents=True, exist_ok=True)
    for scene, path in shots.items():
        (DOCS / f"s{scene:02d}{suffix}.png").write_bytes(path.read_bytes())


def keep_phone_sheet(paths: list[Path], cols: int = 5, scale: float = 0.66, gap: int = 8) -> None:
    """With LESSON_DOCS=1, the phone's scenes side by side on one sheet (docs/lesson/phone.png)."""
    if os.environ.get("LESSON_DOCS") != "1":
        return
    from PIL import Image

    tiles = [Image.open(p).convert("RGB") for p in paths]
    w, h = (round(v * scale) for v in tiles[0].size)
    rows = -(-len(tiles) // cols)
    sheet = Image.new("RGB", (cols * w + (cols + 1) * gap, rows * h + (rows + 1) * gap), "#d5d9e0")
    for k, tile in enumerate(tiles):
        x, y = gap + (k % cols) * (w + gap), gap + (k // cols) * (h + gap)
        sheet.paste(tile.resize((w, h), Image.LANCZOS), (x, y))
    DOCS.mkdir(parents=True, exist_ok=True)
    sheet.save(DOCS / "phone.png", optimize=True)


# ---- the room ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "query"),
    [
        ((1024, 768), "lang=zh"),
        ((1920, 1080), "lang=zh"),
        ((1024, 768), "lang=en"),
        ((1024, 768), f"lang=zh&w=random&d=64&h=8&s={LONG}"),
    ],
    ids=["1024x768", "1920x1080", "1024x768-en", "1024x768-64-tokens"],
)
def test_every_step_of_every_scene_fits_and_reads_from_the_back(
    page, streamlit_server, size, query
):
    """No scroll, no text under 20 px (cell numbers 16 px), no labels overlapping, nothing cut."""
    open_lesson(page, streamlit_server, f"?at=1&{query}", size)
    lang = query[5:7]
    name = f"{size[0]}x{size[1]}_{lang}" + ("_64" if "w=random" in query else "")
    last: dict[int, Path] = {}

    def check(scene: int, step: int) -> list[str]:
        last[scene] = shot(page, f"{name}_s{scene:02d}_{step + 1}.png")
        return page.evaluate(ROOM_CHECK)

    problems = walk_every_step(page, check)
    if size == (1024, 768) and "w=random" not in query:
        keep_for_docs(last, "" if lang == "zh" else f"_{lang}")
    assert not problems, "\n".join(problems)


# ---- keys, the link, share links, bad links -----------------------------------------------------


def test_keys_step_and_turn_the_scene_and_the_link_follows(page, streamlit_server):
    """reveal.js keys: → Space PageDown forward through steps into the next scene, ← PageUp
    Backspace back, Home / End, digits, the strip; Backspace on §1 and → on §10's last step do
    nothing; keys typed into the sentence box turn no page."""
    open_lesson(page, streamlit_server, "?at=1")
    for key in ("Backspace", "ArrowLeft", "PageUp"):
        press(page, key)
        assert where(page) == (1, 0)
    assert urlparse(page.url).path.endswith("/lesson")
    for key in ("ArrowRight", " ", "PageDown"):  # §1 has three steps: the third key leaves it
        press(page, key)
    assert where(page) == (2, 0)
    wait_link(page, 2)
    press(page, "Backspace")
    assert where(page) == (1, 2)  # back into §1 at its last step, as reveal.js does
    wait_link(page, 1)
    press(page, "End")
    wait_link(page, 10)
    last = page.evaluate(f"() => {SCENE}.querySelector('.steplabel').textContent")
    for _ in range(3):
        press(page, "ArrowRight")
    assert where(page)[0] == 10 and link_at(page) == "10"
    assert page.evaluate(f"() => {SCENE}.querySelector('.steplabel').textContent") != ""
    press(page, "Home")
    assert where(page) == (1, 0)
    press(page, "7")
    assert where(page) == (7, 0)
    page.locator('[data-testid="lesson-strip"] button[data-at="4"]').click()
    settle(page)
    assert where(page) == (4, 0)
    wait_link(page, 4)
    assert page.locator('[data-testid="lesson-strip"] [aria-current="step"]').inner_text() == "§4"
    page.locator('[data-testid="lesson-edit"]').click()
    box = page.locator('[data-testid="lesson-sentence"]')
    box.focus()
    for key in ("ArrowRight", " ", "Backspace", "PageDown", "End", "s"):
        box.press(key)
    assert where(page) == (4, 0)
    assert len(page.context.pages) == 1  # an s typed in the box opened no presenter window
    box.press("Escape")
    assert page.locator('[data-testid="lesson-editor"]').is_hidden()
    assert last  # §10 has a step label to stay on


def test_the_key_list_a_black_screen_and_the_title_takes_the_focus(page, streamlit_server):
    """Nothing beside the scene (the sidebar starts collapsed; S opens the presenter window,
    tests/test_browser_presenter.py); a scene change is announced and puts the focus on its
    title."""
    open_lesson(page, streamlit_server, "?at=3")
    assert page.locator('[data-testid="stSidebar"]').get_attribute("data-collapsed") == "true"
    press(page, "?")  # the key list, a dialog, written from the key map; Esc closes it
    assert page.get_by_role("dialog").is_visible()
    listed = page.get_by_role("dialog").inner_text()
    assert all(line in listed for line in [*deck.key_help("zh"), t("lesson.k.remote", "zh")])
    press(page, "Escape")
    assert page.locator('[data-testid="lesson-help"]').is_hidden()
    press(page, "b")  # a black screen; the next key only brings the scene back
    assert page.locator('[data-testid="lesson-black"]').is_visible()
    press(page, "ArrowRight")
    assert page.locator('[data-testid="lesson-black"]').is_hidden() and where(page) == (3, 0)
    for _ in range(4):  # out of §3's four steps into §4
        press(page, "PageDown")
    assert where(page) == (4, 0)
    focused = page.evaluate(f"() => {ROOT}.activeElement?.dataset.testid")
    assert focused == "lesson-title"
    live = page.locator('[data-testid="lesson-live"]').text_content()
    assert t("lesson.s4.title", "zh") in live


# The deck's record D (run.js newDeck), its settings, its frame and the scene's context: sealed,
# so a field written anywhere but where the record is made throws (in strict code: the bundle).
SEALED = f"""() => {{
  "use strict";
  const D = {DECK}.parentNode.__lesson; // the component's parent: its shadow root
  const sealed = [D, D.local, D.els, D.ctx, D.ctx.local].map((r) => !!r && Object.isSealed(r));
  try {{ D.extra = 1; }} catch (e) {{ return [...sealed, e instanceof TypeError]; }}
  return [...sealed, false];
}}"""


def test_the_decks_records_declare_every_field_where_they_are_made(page, streamlit_server):
    """D, D.local (the scene's settings), D.els and the scene's context are sealed where they are
    made; every step of every scene runs with them so (test_every_step_of_every_scene_fits_and_
    reads_from_the_back: a field added anywhere else throws there)."""
    open_lesson(page, streamlit_server, "?at=1")
    assert page.evaluate(SEALED) == [True] * 6
    press(page, "End")
    assert where(page)[0] == SCENES and page.evaluate(SEALED) == [True] * 6


def test_a_share_link_opens_its_scene_and_step_and_carries_no_what_if(page, streamlit_server):
    """README "What a lesson link carries": the scene, the step, the sentence, the language;
    scale=0 in a link changes nothing (√d_k is each scene's own switch) and leaves the link."""
    sentence = "那天小红在公园里看见了小刚，她很高兴。"
    open_lesson(page, streamlit_server, f"?at=5&step=2&lang=en&scale=0&s={sentence}")
    assert where(page) == (5, 1)
    assert page.locator('[data-testid="lesson-title"]').inner_text() == t("lesson.s5.title", "en")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('scale')")
    query = parse_qs(urlparse(page.url).query)
    assert query["at"] == ["5"] and query["step"] == ["2"] and query["lang"] == ["en"]
    assert query["s"] == [sentence]
    press(page, "ArrowRight")
    assert parse_qs(urlparse(page.url).query)["step"] == ["3"]
    open_lesson(page, streamlit_server, "?at=5&step=reveal&lang=en")  # a step by its id
    assert where(page) == (5, 3)


def reveal_s5(page) -> str:
    """§5's answer, revealed with keys from wherever the deck is."""
    press(page, "5")
    for _ in range(3):  # the chart, why d_k, the question
        press(page, "ArrowRight")
    assert where(page) == (5, 3)
    return verdict(page)[1]


def test_a_scenes_what_if_stays_in_its_scene(page, streamlit_server):
    """At §9 the mask on (its switch), then 4 → →: §4 is unmasked, §5's reveal says what it
    said before, and the link holds no causal=1."""
    open_lesson(page, streamlit_server, "?at=9")
    before = reveal_s5(page)
    press(page, "9")
    press(page, "ArrowRight")
    press(page, "ArrowRight")  # §9's mask step: the mask on
    assert page.locator('[data-testid="s9-causal"]').is_checked()
    press(page, "4")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    assert where(page) == (4, 2)
    alt = page.locator('[data-testid="lesson-canvas"]').get_attribute("aria-label")
    assert "np.where(mask" not in alt and "softmax(S" in alt
    assert reveal_s5(page) == before
    assert "causal" not in parse_qs(urlparse(page.url).query)
    press(page, "9")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    page.locator('[data-testid="s9-causal"]').uncheck()  # the what-if: off at the mask step
    settle(page)
    press(page, "8")
    press(page, "9")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    assert page.locator('[data-testid="s9-causal"]').is_checked()  # entering reset it


@pytest.mark.parametrize(
    ("raw", "scene", "lang"), [("0", 1, "zh"), ("99", 10, "en"), ("x", 1, "zh"), ("3.5", 4, "en")]
)
def test_a_bad_scene_number_opens_the_nearest_scene_with_a_notice(
    page, streamlit_server, raw, scene, lang
):
    open_lesson(page, streamlit_server, f"?at={raw}&lang={lang}")
    assert where(page) == (scene, 0)
    wait_link(page, scene)
    notice = page.locator('[data-testid="lesson-notices"]').inner_text()
    assert t("lesson.at_bad", lang, value=raw, n=SCENES, used=scene) in notice
    assert not page.locator('[data-testid="stException"]').count()


# ---- predict, then reveal; a sentence a scene cannot use --------------------------------------


def verdict(page) -> tuple[str, str]:
    box = page.locator('[data-testid="lesson-verdict"]')
    return box.get_attribute("data-verdict"), box.inner_text()


def test_predict_then_reveal_judges_a_wrong_and_a_right_answer_and_says_why(page, streamlit_server):
    """§8 without positions: "different numbers" is wrong, "same numbers, swapped" right; each
    verdict names the measured difference. The choices are real buttons with their names."""
    open_lesson(page, streamlit_server, "?at=8")
    wrong = page.get_by_role("button", name=t("lesson.s8.c_diff", "zh"))
    right = page.get_by_role("button", name=t("lesson.s8.c_perm", "zh"))
    wrong.click()
    settle(page)
    kind, text = verdict(page)
    assert kind == "wrong" and t("lesson.quiz.wrong", "zh") in text and "e-1" in text
    assert where(page) == (8, 1)  # the answer is revealed with the verdict
    press(page, "ArrowLeft")  # back to the question: asked again
    right.click()
    settle(page)
    kind, text = verdict(page)
    assert kind == "right" and t("lesson.quiz.right", "zh") in text
    assert page.locator('[data-testid="lesson-live"]').text_content().strip() != ""


def test_the_teacher_reveals_the_answer_with_a_key(page, streamlit_server):
    """On the projector nobody clicks: → reveals the answer the model gives, and why."""
    open_lesson(page, streamlit_server, "?at=1&lang=en")
    assert page.locator('[data-testid="lesson-choice"]').count() == 3
    press(page, "ArrowRight")
    kind, text = verdict(page)
    assert kind == "revealed" and "小明" in text and "100%" in text


def test_a_sentence_a_scene_cannot_use_says_so_and_offers_the_example(page, streamlit_server):
    """No pronoun: §1 says so and offers the example; the typed sentence stays in the box, the
    link and every other scene. One token: §2 says it needs two."""
    typed = "我们明天去公园。"
    open_lesson(page, streamlit_server, "?at=1")
    page.locator('[data-testid="lesson-edit"]').click()
    page.locator('[data-testid="lesson-sentence"]').fill(typed)
    page.locator('[data-testid="lesson-sentence"]').press("Enter")
    page.wait_for_selector('[data-testid="lesson-need"]', timeout=LOAD_MS)
    settle(page)
    assert (
        t("lesson.need.pronoun", "zh") in page.locator('[data-testid="lesson-need"]').inner_text()
    )
    page.locator('[data-testid="lesson-use-example"]').click()
    settle(page)
    assert page.locator('[data-testid="lesson-example-note"]').is_visible()
    assert page.locator('[data-testid="lesson-choice"]').count() == 3  # the example's question
    assert parse_qs(urlparse(page.url).query)["s"] == [typed]
    press(page, "2")
    press(page, "ArrowRight")
    press(page, "ArrowRight")  # §2's query words stand beside its mix (its question first)
    chips = page.locator('[data-testid="lesson-side"] button[data-i]').all_inner_texts()
    assert "公园" in chips  # §2 runs on what was typed
    page.locator('[data-testid="lesson-edit"]').click()
    assert page.locator('[data-testid="lesson-sentence"]').input_value() == typed
    page.locator('[data-testid="lesson-sentence"]').fill("好")
    page.locator('[data-testid="lesson-sentence"]').press("Enter")
    page.wait_for_selector('[data-testid="lesson-need"]', timeout=LOAD_MS)
    assert t("lesson.need.two", "zh") in page.locator('[data-testid="lesson-need"]').inner_text()


# ---- the phone, accessibility, the arithmetic --------------------------------------------------


def test_on_a_phone_each_scene_is_one_column_figure_first_and_never_sideways(
    page, streamlit_server
):
    open_lesson(page, streamlit_server, "?at=1", (390, 844))
    shots = []
    for scene in range(1, SCENES + 1):
        if scene > 1:  # the strip is the §k/n button on a phone: its overview
            page.locator('[data-testid="lesson-where"]').click()
            page.locator(f'[data-testid="lesson-overview"] button[data-at="{scene}"]').click()
            settle(page)
        shots.append(shot(page, f"phone_s{scene:02d}.png"))
        got = page.evaluate(f"""() => {{
          const s = {SCENE};
          const fig = s.querySelector('.figure').getBoundingClientRect();
          const side = s.querySelector('.side').getBoundingClientRect();
          return {{wide: document.documentElement.scrollWidth, main: document.querySelector(
            '[data-testid="stMain"]').scrollWidth, figTop: fig.top, sideTop: side.top,
            figLeft: fig.left, sideLeft: side.left, figW: fig.width}};
        }}""")
        assert got["wide"] <= 390 and got["main"] <= 390, (scene, got)
        assert got["figTop"] < got["sideTop"] and abs(got["figLeft"] - got["sideLeft"]) < 2, got
        assert got["figW"] > 300, (scene, got)
    keep_phone_sheet(shots)


def test_axe_finds_nothing_serious_on_any_scene(page, streamlit_server):
    open_lesson(page, streamlit_server, "?at=1")
    problems = []
    for scene in range(1, SCENES + 1):
        if scene > 1:
            press(page, str(scene % 10))
        for violation in axe().run(page).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                for node in violation["nodes"]:
                    problems.append(f"§{scene} {violation['id']}: {node['html'][:140]}")
    assert not problems, "\n".join(problems)


def chosen_head(page) -> int:
    """The head the side panel's head buttons say is shown."""
    label = page.locator('[data-testid="lesson-side"] [data-key^="head-"][aria-pressed="true"]')
    return int(label.get_attribute("data-key").split("-")[1])


def test_the_browsers_weighted_mix_equals_the_cores_output(page, streamlit_server):
    """§2's mix Σ w_j v_j and §4's A·V (arith.js on the core's raw scores and V) against the
    core's heads.output for the trained model on the example sentence."""
    run = load_demo_model().run(SENTENCE).attention.heads.output  # (h, n, d_k)
    i = run.shape[1] - 4  # 他
    open_lesson(page, streamlit_server, "?at=2")
    press(page, "ArrowRight")
    press(page, "ArrowRight")
    head = chosen_head(page)
    got = json.loads(page.locator('[data-testid="lesson-canvas"]').get_attribute("data-values"))
    np.testing.assert_allclose(got, run[head, i], rtol=1e-4, atol=1e-5)
    press(page, "4")
    page.locator('[data-testid="lesson-side"] [data-key="head-2"]').click()
    settle(page)
    for _ in range(8):  # → until ④ (A·V)
        if page.evaluate(f"() => {SCENE}.dataset.stepId") == "mix":
            break
        press(page, "ArrowRight")
    got = json.loads(page.locator('[data-testid="lesson-canvas"]').get_attribute("data-values"))
    np.testing.assert_allclose(np.reshape(got, run[2].shape), run[2], rtol=1e-4, atol=1e-5)


def test_s5s_question_is_judged_on_the_rows_measured_change(page, streamlit_server):
    """§5: the focus row with and without ÷√d_k (softmax.js, then arith.js's entropy and top
    share), in the head where that row changes most; the verdict's numbers are the core's."""
    scores = load_demo_model().run(SENTENCE).attention.heads.scores  # (h, n, n)
    i, d_k = 9, load_demo_model().config.d_model // scores.shape[0]
    on = softmax(scores[:, i] / np.sqrt(d_k))  # (h, n)
    off = softmax(scores[:, i])  # (h, n)
    h_on, h_off = row_entropy(on, base=2), row_entropy(off, base=2)  # (h,)
    head = int(np.argmax(np.abs(h_on - h_off)))
    open_lesson(page, streamlit_server, "?at=5&step=ask")
    page.locator('[data-testid="lesson-choice"]').first.click()
    settle(page)
    kind, text = verdict(page)
    assert f"{h_on[head]:.2f} → {h_off[head]:.2f}" in text
    assert f"{on[head].max() * 100:.0f}% → {off[head].max() * 100:.0f}%" in text
    sharper = h_off[head] < h_on[head] - 0.15
    assert kind == ("right" if sharper else "wrong")  # the first choice says "sharper"
    caption = page.locator('[data-testid="lesson-figure"] figcaption').first.inner_text()
    assert t("lesson.head", "zh", i=head + 1) in caption
