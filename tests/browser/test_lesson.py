"""The lesson (/lesson) in Chromium: every scene and step fits a projector's screen and a big one,
readable from the back (no text under 20 px, no labels on top of each other, nothing cut), the
keys and the link, predict-then-reveal, bad links, a sentence a scene cannot use, the phone,
axe, and the browser's arithmetic against the core. The walk at 1024 × 768 in zh and in en is the
one projector walk of those steps (issue 40): it holds each step to the rules every step meets
too (no spoilers, a caption, the maps' cells, glosses, terms in the glossary's order, no answer
seen before its reveal; step_checks) and to each scene file's own (on_the_projector). The deck's
frame (overview, handout, terms, progress) and the maps at 1024 × 680:
tests/browser/test_lesson_rules.py; shared helpers: tests/lesson_support.py."""

from __future__ import annotations

import json
import os
from importlib import import_module
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import numpy as np
import pytest

from attention_core import softmax
from attention_core.analysis import row_entropy
from demo_model import load_demo_model
from tests.browser.test_lesson_glosses import Glosses
from tests.browser_support import axe
from tests.lesson_support import (
    CANVAS_WORDS,
    LOAD_MS,
    ROOM_CHECK,
    ROOT,
    SCENE,
    SEEN,
    SENTENCE,
    answers_before_reveal,
    chosen_head,
    map_problems,
    open_lesson,
    press,
    settle,
    shot,
    spoiler_problems,
    step_id,
    walk_every_step,
    where,
)
from ui.lesson import scenes
from ui.text import LANGUAGES, t

NUMBERS = sorted(scenes.NUMBERS.values())  # every scene's number (ui/lesson/scenes.py)

pytestmark = pytest.mark.browser


def verdict(page) -> tuple[str, str]:
    box = page.locator('[data-testid="lesson-verdict"]')
    return box.get_attribute("data-verdict"), box.inner_text()


REPO = Path(__file__).resolve().parents[2]


DOCS = REPO / "docs" / "lesson"  # LESSON_DOCS=1 writes the screenshots there


LONG = (  # 64 jieba tokens, as bench/common.py's long case
    "小明把书放在了桌子上，然后他走了。小红拿起那本书，看了看封面，又把它放回了桌子上。"
    "老师走进教室，看见书在桌子上，就问这是谁的书。小明回来以后，发现书不见了，他很着急，到处寻找。"
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


# The scenes' own checks on a projector, in the one walk of those steps per size and language
# (issue 40: here at 1024 × 768 in zh and en, test_lesson_rules.py's at 1024 × 680): a scene's
# file may hold on_the_projector(page, lang, step) -> problems, called at each of its steps, and
# projector_walked(step_ids) -> problems, with the steps walked.
SCENE_FILES = {k: import_module(f"tests.browser.test_lesson_s{k:02d}") for k in NUMBERS}

# The terms marked on the step on screen, and those the glossary page lists.
MARKED = f"""() => [...{SCENE}.querySelectorAll('[data-testid="lesson-term"]')]
  .filter((b) => b.getClientRects().length).map((b) => b.dataset.term)"""
LISTED = f"""() => [...{ROOT}.querySelectorAll('[data-testid="lesson-glossary"] dt')]
  .map((dt) => dt.dataset.term)"""


def step_checks(page, lang: str):
    """Every check a step of the example at 1024 × 768 is held to beyond the room's, for one walk
    (`check(scene, step)`), and what the whole walk is held to once it is over (`after()`):

    - no open answer on screen and a caption (spoiler_problems, issues 31/34);
    - the maps read from the back row: cells ≥ 20 px, every token labelled (map_problems);
    - in English, every map's rows glossed (test_lesson_glosses.Glosses);
    - the scene's own (its file's on_the_projector, projector_walked);
    - after: nothing seen before a question's reveal states its answer, in the lesson's order
      (issue 39: answers_before_reveal over what SEEN read at each step, the canvases' words too),
      and the glossary lists its terms in the order the walk first met them marked."""
    seen, met, ids = [], [], {}
    glosses = Glosses() if lang == "en" else None

    def check(scene, step: int) -> list[str]:
        sid = step_id(page)
        ids.setdefault(scene, []).append(sid)
        got = page.evaluate(SEEN)
        seen.append((scene, step, got["texts"], got["questions"]))
        met.extend(slug for slug in page.evaluate(MARKED) if slug not in met)
        found = spoiler_problems(page) + map_problems(page)
        found += glosses.step(page, scene, sid) if glosses else []
        return found + own_checks(page, lang, scene, step)

    def after() -> list[str]:
        out = [f"across scenes: {p}" for p in answers_before_reveal(seen)]
        out += walked(ids) + (glosses.problems() if glosses else [])
        press(page, "g")
        listed = page.evaluate(LISTED)
        if listed != met:
            out.append(f"the glossary lists {listed}, the walk met them marked in {met}")
        return out

    return check, after


def own_checks(page, lang: str, scene, step: int) -> list[str]:
    """The scene file's on_the_projector at this step, if it has one."""
    own = getattr(SCENE_FILES.get(scene), "on_the_projector", None)
    return own(page, lang, step) if own else []


def walked(ids: dict) -> list[str]:
    """Each scene file's projector_walked on the steps a walk saw of its scene."""
    out = []
    for scene, steps in ids.items():
        own = getattr(SCENE_FILES.get(scene), "projector_walked", None)
        out += own(steps) if own else []
    return out


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
    """No scroll, no text under 20 px (cell numbers 16 px), no labels overlapping, nothing cut;
    the example at 1024 × 768, in zh and en, held in the same walk to step_checks's too."""
    lang = query[5:7]
    example = size == (1024, 768) and "w=random" not in query
    if example:
        page.add_init_script(CANVAS_WORDS)  # the words drawn on the figures (SEEN)
    open_lesson(page, streamlit_server, f"?at=1&{query}", size)
    name = f"{size[0]}x{size[1]}_{lang}" + ("_64" if "w=random" in query else "")
    last: dict[int, Path] = {}
    more, after = step_checks(page, lang) if example else (None, None)

    def check(scene: int, step: int) -> list[str]:
        last[scene] = shot(page, f"{name}_s{scene:02d}_{step + 1}.png")
        return page.evaluate(ROOM_CHECK) + (more(scene, step) if more else [])

    problems = walk_every_step(page, check)
    if example:
        keep_for_docs(last, "" if lang == "zh" else f"_{lang}")
        problems += after()
    assert not problems, "\n".join(problems)


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


def test_on_a_phone_each_scene_is_one_column_figure_first_and_never_sideways(
    page, streamlit_server
):
    open_lesson(page, streamlit_server, "?at=1", (390, 844))
    shots = []
    for scene in NUMBERS:
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
    for scene in NUMBERS:
        if scene > 1:
            page.locator(f'button[data-at="{scene}"]').first.click()  # the strip
            settle(page)
        for violation in axe().run(page).response["violations"]:
            if violation["impact"] in ("serious", "critical"):
                for node in violation["nodes"]:
                    problems.append(f"§{scene} {violation['id']}: {node['html'][:140]}")
    assert not problems, "\n".join(problems)


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


def test_the_deck_and_its_maps_say_their_language_as_the_language_table_does(
    page, streamlit_server
):
    """The deck's lang (and a map's inside §6) is ui.text.LANGUAGES[lang].html, sent with the
    bundle (VIEW.HTML_LANG): zh-CN for zh, en for en, never a guess for any language not English."""
    for lang, language in LANGUAGES.items():
        open_lesson(page, streamlit_server, f"?at=6&lang={lang}")
        langs = page.locator(
            '[data-testid="lesson"], [data-testid="lesson"] [data-testid="explorer"]'
        ).evaluate_all("(els) => els.map((e) => e.lang).filter(Boolean)")
        assert langs and set(langs) == {language.html}, (lang, langs)
