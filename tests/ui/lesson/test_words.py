"""The lesson's words without a browser: one text table per scene (its steps' labels and
captions), the terms the captions mark and the one glossary they come from, and the check that
nothing on screen gives an open question's answer away (tests/lesson_support.py spoilers)."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from demo_model import describe_heads
from tests.js_support import evaluate
from tests.lesson_support import answer_spoilers, spoilers
from ui.lesson import data, scenes, words
from ui.text import SECTIONS, t

ROOT = Path(__file__).resolve().parents[3]

SCENE_DIR = ROOT / "ui" / "lesson" / "scenes"

# Each scene's steps as its module defines them, run by node: {id: [{id, caption}]} (a caption
# that is a function of the scene's context comes as null).
STEPS = """{imports}
const scenes = [{names}];
const caption = (step) => (typeof step.caption === "string" ? step.caption : null);
const steps = (scene) => scene.steps.map((step) => ({{ id: step.id, caption: caption(step) }}));
console.log(JSON.stringify(Object.fromEntries(scenes.map((s) => [s.id, steps(s)]))));
"""


@pytest.fixture(scope="module")
def scene_steps() -> dict[str, list[dict]]:
    imports = "".join(
        f'import s{i} from "./ui/lesson/scenes/{scene.id}.js";\n'
        for i, scene in enumerate(scenes.SCENES)
    )
    names = ", ".join(f"s{i}" for i in range(len(scenes.SCENES)))
    return json.loads(evaluate(STEPS.format(imports=imports, names=names)))


def test_each_scene_is_one_file_and_one_text_table_of_its_own(scene_steps):
    """scenes/sNN.js (each bundled by its name, its id its name) and ui/text/lesson_sNN.toml, one
    per scene: its keys are its own ("lesson.sN."), each step's caption among them."""
    files = sorted(p.stem for p in SCENE_DIR.glob("*.js"))
    assert [scene.id for scene in scenes.SCENES] == files and len(files) == data.SCENES
    assert sorted(scene_steps) == files
    for scene in scenes.SCENES:
        prefix = f"lesson.s{scene.id[1:].lstrip('0')}."  # s05 → lesson.s5.
        keys = set(SECTIONS[scene.words])
        assert keys and all(key.startswith(prefix) for key in keys), scene.id
        for part in ("title", "take", "notes"):  # notes: the teacher's (ui/lesson/words.py notes)
            assert f"{prefix}{part}" in keys, (scene.id, part)
        steps = [step["id"] for step in scene_steps[scene.id]]
        captions = [step["caption"] for step in scene_steps[scene.id] if step["caption"]]
        assert captions and set(captions) <= keys, (scene.id, set(captions) - keys)
        named = [c.rsplit(".", 1)[1] for c in captions]  # a caption is named after its step
        assert len(set(named)) == len(named) and set(named) <= set(steps), (scene.id, named)


# ---- the glossary and the captions' terms --------------------------------------------------------

TERM_MARK = re.compile(r"\[\[([a-z][a-z0-9_]*)(?:\|[^\]]+)?\]\]")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_glossary_has_every_term_a_student_meets_in_both_languages(lang):
    """≥ 14 terms (issue 34) and the novice's words captions use (issue 39), zh and en key for
    key, each with a name and a definition; the deck gets it whole and in order (the lesson's:
    tests/browser/test_lesson.py, its walk at 1024 × 768)."""
    entries = words.glossary(lang)
    slugs = [slug for slug, *_ in entries]
    assert len(slugs) >= 14 and len(set(slugs)) == len(slugs)
    assert {
        "softmax",
        "query",
        "key",
        "value",
        "d_k",
        "variance",
        "gradient",
        "saturation",
        "head",
        "w_o",
        "rnn",
        "positions",
        "causal_mask",
        "kv_cache",
        "temperature",
        "entropy",
        "slope",
        "batch",
        "random_weights",
        "d_model",
        "vector",
        "matrix",
        "transpose",
        "principal",
        "heldout",
    } <= set(slugs)
    assert all(term and len(definition) > 20 for _, term, definition, _ in entries)
    zh, en = words.glossary("zh"), words.glossary("en")
    assert [e[0] for e in zh] == [e[0] for e in en]
    assert all(bool(a[3]) == bool(b[3]) for a, b in zip(zh, en, strict=True))


def test_every_glossary_entry_is_marked_where_the_deck_uses_it():
    """An entry no string of the deck marks is one a student never reaches from the lesson
    (issue 39: 向量, 矩阵, 转置, 主成分, 留出句 were used in captions without a definition)."""
    marked = {slug for text in words.strings("zh").values() for slug in TERM_MARK.findall(text)}
    assert {slug for slug, *_ in words.glossary("zh")} == marked


def test_every_term_a_caption_marks_is_in_the_glossary():
    slugs = {slug for slug, *_ in words.glossary("en")}
    marked = {
        (key, slug)
        for area in words.deck_areas()
        for key in SECTIONS[area]
        for lang in ("zh", "en")
        for slug in TERM_MARK.findall(t(key, lang))
    }
    assert marked and not {pair for pair in marked if pair[1] not in slugs}


def as_read(text: str, terms: dict[str, str]) -> str:
    """Marked-up text as a reader sees it (terms.js plainText): [[slug]] → the term's name."""
    return TERM_WORDS.sub(lambda m: m.group(2) or terms.get(m.group(1), m.group(1)), text)


TERM_WORDS = re.compile(r"\[\[([a-z][a-z0-9_]*)(?:\|([^\]]+))?\]\]")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_caption_says_a_word_twice_once_its_terms_are_spelled_out(lang):
    """§5's "The [[temperature]] τ is the divisor" read "The temperature τ τ is the divisor":
    the term's name already holds τ. No string the deck shows repeats a word that way."""
    terms = {slug: term for slug, term, *_ in words.glossary(lang)}
    assert as_read("The [[temperature]] τ", terms).endswith("τ τ")  # what the check looks for
    twice = re.compile(r"(?<![\w.])(\S+) \1(?![\w])")
    doubled = {
        key: m.group(0)
        for key, text in words.strings(lang).items()
        if (m := twice.search(as_read(text, terms)))
    }
    assert not doubled


def test_the_notes_name_the_sentences_the_figures_beside_them_are_counted_on():
    """§1's and §6's figures are the heads' hits on the human-written test sentences
    (describe_heads: hits of total labels), not on the generated held-out split; §10's notes
    cite them as §1 and §6 show them, labels counted, not as a percentage those scenes never
    show (they read "308 of 347")."""
    heads = describe_heads()
    said = " ".join(data.job_words(h, partial(t, lang="en"))[1] for h in heads)
    assert "human-written" in said and all(f"{h.hits} of {h.total}" in said for h in heads)
    cases = (("zh", "人写", "留出", "标注"), ("en", "human-written", "held-out", "labels"))
    for lang, human, heldout, labels in cases:
        for scene in ("1", "6"):
            lines = " ".join(text for _, text in words.notes(lang)[scene])
            assert human in lines and heldout not in lines, (lang, scene)
        s10 = " ".join(text for _, text in words.notes(lang)["10"])
        cited = s10[s10.index("§1") :]
        assert labels in cited and "%" not in cited


# The right choice of each question whose choices are fixed words (the example sentence's answer;
# §1's and §6's choices are the sentence's words and heads).
RIGHT = ("lesson.s5.c_sharp", "lesson.s7.c_x4", "lesson.s8.c_perm", "lesson.s9.c_renorm")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_glossary_entry_states_an_answer_before_its_question_is_revealed(lang):
    """The glossary opens at any step (G, "?", a marked term), so no entry may answer a question.
    位置编码, marked at §8's question, said attention without it "sees a bag of words and cannot
    tell 我打你 from 你打我": §8's answer, as its takeaway says it after the reveal."""
    entries = [
        f"{term} {definition} {example}" for _, term, definition, example in words.glossary(lang)
    ]
    a, b = data.PAIR
    assert not [e for e in entries if a in e and b in e]
    bag = "一袋词" if lang == "zh" else "bag of words"
    assert bag in t("lesson.s8.take", lang) and not [e for e in entries if bag in e]
    assert not spoilers([[t(key, lang), ""] for key in RIGHT], entries)
    # a number of times however written (§7's "约 4 倍": "×4", "4 times"; issue 39 item 13)
    assert not answer_spoilers([[t(key, lang), ""] for key in RIGHT], entries)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_dot_product_entry_counts_the_lengths_too(lang):
    """q·k = |q| |k| cos θ: "the more they point the same way, the larger" left out the lengths
    (two vectors of one direction: the longer pair has the larger dot product)."""
    u = np.array([3.0, 4.0])
    assert np.dot(2 * u, u) == 2 * np.dot(u, u)  # same direction, twice the length: twice q·k
    entry = dict((slug, definition) for slug, _, definition, _ in words.glossary(lang))[
        "dot_product"
    ]
    assert all(part in entry for part in ("|q|", "|k|", "cos θ"))


def test_the_spoiler_check_finds_the_old_takeaways_that_gave_5_and_8_away():
    """tests/lesson_support.py spoilers(): §5's takeaway said choice 1 word for word before the
    reveal (Chinese and English), §8's in English; what those steps show now says neither."""

    def choices(keys, lang):
        return [[t(key, lang), ""] for key in keys]

    s5 = ("lesson.s5.c_sharp", "lesson.s5.c_flat", "lesson.s5.c_same")
    s8 = ("lesson.s8.c_diff", "lesson.s8.c_perm", "lesson.s8.c_same")
    for lang in ("zh", "en"):
        assert spoilers(choices(s5, lang), [t("lesson.s5.take", lang)])
        before = [t(k, lang) for k in ("lesson.s5.take_before", "lesson.s5.cap.ask")]
        assert not spoilers(choices(s5, lang), before)
        before = [t("lesson.s8.cap.ask", lang)]
        assert not spoilers(choices(s8, lang), before)
    assert spoilers(choices(s8, "en"), [t("lesson.s8.take", "en")])
    assert not spoilers([["", "the why, said after the reveal"]], ["a caption"])
