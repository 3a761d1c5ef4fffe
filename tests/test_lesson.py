"""The lesson (/lesson) without a browser: the page through the router (AppTest), the payload the
deck gets, the scene in the link, bad links, scenes a sentence cannot show, §1's judgement by the
measured pronoun head, §8's permutation, §9's skeleton against the core, the teacher's notes."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import (
    build_inputs,
    causal_mask,
    init_params,
    multi_head_attention,
    scaled_dot_product_attention,
    tokenize,
)
from demo_model import describe_heads, load_demo_history, load_demo_model
from demo_model.lexicon import gender
from demo_model.reading import ANSWER, STATUSES, read_token
from pages import lesson as page
from ui import palette
from ui.lesson import data, deck, skeleton
from ui.readings import TOLD
from ui.settings import DEFAULTS
from ui.state import lab_for
from ui.text import SECTIONS, t

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
TIMEOUT = 120  # seconds: a shared 2-core machine; never a timing assertion
EXAMPLE = DEFAULTS.sentence


def open_lesson(**query: str) -> AppTest:
    """The app through its router with link parameters, switched to the lesson."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for name, value in query.items():
        at.query_params[name] = value
    at.run()
    return at.switch_page("pages/lesson.py").run()


def payload(at: AppTest) -> tuple[dict, dict[str, np.ndarray]]:
    """The deck's header and arrays as this run sent them."""
    (element,) = [
        e for e in at.get("bidi_component") if e.proto.component_name == "attention_lab.lesson"
    ]
    return deck.decode(element.proto.bytes)


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


# ---- the page and its payload ------------------------------------------------------------------


def test_the_lesson_sends_every_scenes_numbers_and_words():
    at = open_lesson()
    ok(at)
    header, arrays = payload(at)
    assert header["at"] == 1 and header["scenes"] == data.SCENES
    assert set(header["text"]) >= set(SECTIONS["lesson"]) | set(SECTIONS["lesson_s05"])
    assert not set(header["text"]) & set(SECTIONS["lesson_notes"])  # the notes are not the words
    assert header["glossary"] == page.glossary("zh")
    assert header["notes"] is None  # the presenter window's alone (tests/test_lesson_presenter.py)
    user = header["sets"]["user"]
    assert user["needs"] == {str(k): "" for k in range(1, 11)} and "example" not in header["sets"]
    lab = user["lab"]
    assert lab["source"] == "trained" and [tok["t"] for tok in lab["tokens"]][-4] == "他"
    n, h = lab["n"], lab["h"]
    assert arrays["u.scores"].shape == (h, n, n) and arrays["u.v"].shape == (h, n, lab["d_k"])
    ref = load_demo_model().run(EXAMPLE).attention  # the core's raw scores, as float32
    np.testing.assert_allclose(arrays["u.scores"], ref.heads.scores, rtol=1e-5, atol=1e-5)
    assert at.query_params["at"] == "1"


def test_a_rerun_that_changes_no_number_sends_no_arrays():
    at = open_lesson()
    first, arrays = payload(at)
    assert arrays
    at.run()
    again, arrays = payload(at)
    assert again["digest"] == first["digest"] and arrays == {}


@pytest.mark.parametrize(("scene", "step"), [(1, None), (5, "3"), (10, "learned")])
def test_the_link_opens_its_scene_and_step_with_no_what_if_in_its_numbers(scene, step):
    """The deck starts where the link says; a link's scale=0 and causal=1 change no number the
    lesson sends (what the address keeps: tests/test_browser_lesson.py, through the router)."""
    link = {"at": str(scene), "lang": "en", "scale": "0", "causal": "1"}
    at = open_lesson(**link, **({"step": step} if step else {}))
    ok(at)
    header, _ = payload(at)
    assert (header["at"], header["step"], header["notices"]) == (scene, step, [])
    assert header["text"]["lesson.s5.title"] == t("lesson.s5.title", "en")
    assert at.query_params["at"] == str(scene) and at.query_params["lang"] == "en"
    assert "scale" not in header["settings"] and "causal" not in header["settings"]


@pytest.mark.parametrize(
    ("raw", "used"),
    [("0", 1), ("99", 10), ("x", 1), ("-3", 1), ("1e9", 10), ("nan", 1), ("", 1), ("2.6", 3)],
)
def test_a_bad_scene_number_opens_the_nearest_scene_with_a_notice_not_a_traceback(raw, used):
    at = open_lesson(at=raw)
    ok(at)
    header, _ = payload(at)
    assert header["at"] == used and at.query_params["at"] == str(used)
    bad = t("lesson.at_bad", "zh", value=raw, n=data.SCENES, used=used)
    assert header["notices"] == [bad]


def test_parse_at_takes_the_nearest_scene():
    assert page.parse_at(None) == (1, True)
    assert page.parse_at(" 4 ") == (4, True)
    assert page.parse_at("4.0") == (4, True)
    assert page.parse_at("4.4") == (4, False)
    assert page.parse_at("inf") == (1, False)


def test_only_a_new_sentence_comes_back_from_the_deck(monkeypatch):
    """Scenes, steps and each scene's what-ifs (√d_k, the mask, the focus) are the browser's:
    the session takes a new sentence from the deck and nothing else."""
    ss = {deck.KEY: {"deck": {"at": 6, "scale": False, "causal": True, "focus": "小明", "seq": 3}}}
    monkeypatch.setattr(page.st, "session_state", ss)
    page.apply_deck()
    assert ss[page.ACK] == 3 and not {"scale", "causal", "focus_text", "sentence"} & set(ss)
    ss[deck.KEY] = {"deck": {"sentence": "你好。", "seq": 4}}
    page.apply_deck()
    assert ss["sentence"] == "你好。" and ss["focus_text"] == "" and ss[page.ACK] == 4
    ss[deck.KEY] = {"deck": "garbage"}
    page.apply_deck()
    assert ss[page.ACK] == 4


def test_a_measurement_is_made_when_the_deck_asks_for_it():
    at = open_lesson(at="7")
    header, _ = payload(at)
    assert header["blocks"] == {"variance": None, "cost": None}
    at.session_state[page.BLOCKS] = ["variance"]
    at.run()
    header, _ = payload(at)
    block = header["blocks"]["variance"]
    assert block["d_k"] == sorted({*data.VAR_DKS, 12})  # and the lab's d_k, the one §5's maps use
    assert header["blocks"]["cost"] is None
    ratio = np.array(block["raw"]) / np.array(block["d_k"])  # var(q·k) ≈ d_k, measured
    assert np.all(np.abs(ratio - 1) < 0.2) and np.all(np.abs(np.array(block["scaled"]) - 1) < 0.2)


# ---- sentences a scene cannot use --------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "needs"),
    [
        ("我们明天去公园。", {1: "lesson.need.pronoun"}),
        ("好", {1: "lesson.need.pronoun", **dict.fromkeys(data.NEEDS_TWO, "lesson.need.two")}),
        ("   ", {k: "lesson.need.empty" for k in range(1, 11) if k not in (7, 8)}),
    ],
)
def test_a_sentence_a_scene_cannot_use_is_named_and_the_example_comes_along(sentence, needs):
    at = open_lesson(s=sentence)
    ok(at)
    header, arrays = payload(at)
    got = {int(k): v for k, v in header["sets"]["user"]["needs"].items() if v}
    assert got == needs
    example = header["sets"]["example"]
    assert not any(example["needs"].values()) and "e.scores" in arrays
    assert header["settings"]["sentence"] == sentence  # what was typed is kept


# ---- the numbers behind the scenes -------------------------------------------------------------


# Sentences a class might type: for each, the quiz must say what read_token says (the pronoun
# head's reading and its status), whatever the trained model answers today.
S1_SENTENCES = (
    EXAMPLE,
    "小明和小刚去了公园，他很高兴。",  # two people of one gender
    "老师告诉学生他迟到了。",
    "魑魅魍魉吓到了小明，他跑了。",  # a word the model has no meaning class or characters for
    "书放在桌子上，他告诉小明。",  # the only person comes after 他
    "他说小明来了。",  # nothing before 他
    "小明把书给了小红，她很高兴。",
    "那天，小红在公园里看见了小刚，他很高兴。",  # 小红: the gender rule cannot tell (issue 31)
)
NOT_ANSWER = [status for status in STATUSES if status != ANSWER]  # the statuses §1 judges none


def say_zh(key, **fmt):
    return t(key, "zh", **fmt)


@pytest.mark.parametrize("sentence", S1_SENTENCES)
def test_s1_presents_the_heads_pick_as_the_answer_only_when_read_token_says_answer(sentence):
    lab, _ = lab_for(replace(DEFAULTS, sentence=sentence))
    quiz = data.pronoun_quiz(lab, say_zh)
    model = load_demo_model()
    i = next(j for j, w in enumerate(lab.texts) if w in ("他", "她"))
    weights = lab.result.heads.weights  # (h, n, n)
    reading = read_token(lab.tokens, i, weights, describe_heads(), model.vocab,
                         relation="pronoun_antecedent")  # fmt: skip
    head = reading.head.head
    top = int(np.argmax(weights[head, i]))  # where the weight went, shown whatever the status
    assert (quiz["query"], quiz["head"], quiz["status"], quiz["top"]) == (
        i,
        head,
        reading.status,
        top,
    )
    right = [c["i"] for c in quiz["choices"] if c["right"]]
    if reading.status == "answer":
        assert quiz["judged"] and right == [reading.keys[0]] == [top]
        hits = f"{reading.head.total} 个代词标注对了 {reading.head.hits} 个"  # labels
        assert hits in next(c["why"] for c in quiz["choices"] if c["right"])
    else:
        assert not quiz["judged"] and right == []
        said = {c["why"] for c in quiz["choices"]}
        if reading.rival is not None:  # ambiguous: the rival named, and why it fits (its gender)
            rival = lab.tokens[reading.rival]
            key = "lesson.s1.ambiguous_name" if not gender(rival.text, rival.tag) else None
            key = key or TOLD[reading.status].lesson
            w = f"{weights[head, i, top] * 100:.0f}%"
            fmt = {"q": lab.texts[i], "head": head + 1, "k": lab.texts[top], "w": w}
            assert said == {say_zh(key, r=rival.text, **fmt)}
            return
        assert said == {say_zh(TOLD[reading.status].lesson, q=lab.texts[i], head=head + 1,
                               k=lab.texts[top], w=f"{weights[head, i, top] * 100:.0f}%",
                               b=lab.texts[reading.keys[1]],
                               wb=f"{weights[head, i, reading.keys[1]] * 100:.0f}%",
                               words="、".join(lab.texts[u] for u in reading.unknown))}  # fmt: skip
    assert top in [c["i"] for c in quiz["choices"]]  # the word the weight went to is a choice


@pytest.mark.parametrize("status", NOT_ANSWER)
def test_every_reading_that_is_no_answer_says_why_in_both_languages(monkeypatch, status):
    """A reading the model may give for 他, faked: the quiz judges nothing and says why."""
    lab, _ = lab_for(DEFAULTS)
    real = data.read_token

    def fake(*args, **kwargs):
        return replace(real(*args, **kwargs), status=status)

    monkeypatch.setattr(data, "read_token", fake)
    for lang in ("zh", "en"):
        quiz = data.pronoun_quiz(lab, partial(t, lang=lang))
        assert not quiz["judged"] and not any(c["right"] for c in quiz["choices"])
        key = TOLD[status].lesson
        assert all(c["why"].startswith(t(key, lang, **FIELDS)[:4]) for c in quiz["choices"])


# A no-answer line's fields; its first characters ("头 2 …") name the pronoun head, as measured.
PRONOUN_HEAD = next(h.head for h in describe_heads() if h.relation == "pronoun_antecedent") + 1
FIELDS = {
    **{"q": "他", "head": PRONOUN_HEAD, "k": "小明", "w": "1%"},
    **{"b": "书", "wb": "1%", "words": "", "r": "书"},
}


def test_s6_titles_say_each_heads_measured_job_with_its_hits_on_the_test_sentences(monkeypatch):
    """The job and its counts come from describe_heads (the measurements stored with the
    weights), never from a hand-written line: change the counts and the titles follow."""
    heads = describe_heads()
    say = lambda key, **f: t(key, "en", **f)  # noqa: E731
    for job, head in zip(data.head_jobs(None, say), heads, strict=True):
        assert f"{head.hits} of {head.total}" in job["label"]
        assert job["relation"] == head.relation and job["clear"] == (head.relation != "diffuse")
        assert job["label"] == f"{job['name']}: {job['measured']}"  # the caption: name only
    jobs = {job["relation"]: job["label"] for job in data.head_jobs(None, say)}
    assert jobs["pronoun_antecedent"].startswith("resolves 他/她: ")
    before = data.head_jobs(int(load_demo_history().steps[0]), say)  # untrained: no job yet
    assert all(job["label"].startswith("no clear job: at best ") for job in before)
    fake = [replace(h, hits=3, total=7) for h in heads]
    monkeypatch.setattr(data, "describe_heads", lambda step=None: fake)
    assert all("3 of 7" in job["label"] for job in data.head_jobs(None, say))


def test_s8_without_positions_is_the_same_map_permuted_and_with_them_is_not():
    s = replace(DEFAULTS, weights="random")
    info, arrays = data.order_part(s.d_model, s.heads, s.seed)
    assert info["a"] == ["我", "打", "你"] and info["b"] == ["你", "打", "我"]
    p = np.eye(3)[info["perm"]]  # (P·M)[i] = M[perm[i]]
    for pos, close in ((0, True), (1, False)):
        a, b = arrays[f"o.a{pos}"], arrays[f"o.b{pos}"]
        params = init_params(s.d_model, s.heads, s.seed)
        ref = multi_head_attention(
            build_inputs(tokenize("我打你"), s.d_model, positions=bool(pos)), params
        )
        np.testing.assert_allclose(a, ref.heads.weights[0])
        assert np.allclose(b, p @ a @ p.T, atol=1e-9) is close
    assert info["diff0"] < 1e-12 < 1e-3 < info["diff1"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_s9s_skeleton_equals_the_core_with_and_without_the_mask(seed):
    rng = np.random.default_rng(seed)
    n, d_model, d_k = 7, 16, 4
    x = rng.standard_normal((n, d_model))
    w_q, w_k, w_v = rng.standard_normal((3, d_model, d_k)) / np.sqrt(d_model)
    for mask in (None, skeleton.causal_mask(n)):
        out, w = skeleton.attention(x, w_q, w_k, w_v, mask=mask)
        ref = scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, scale=True, mask=mask)
        np.testing.assert_allclose(w, ref.weights, atol=1e-12)
        np.testing.assert_allclose(out, ref.output, atol=1e-12)
    np.testing.assert_array_equal(skeleton.causal_mask(n), causal_mask(n))


def test_s9s_weights_are_head_1_of_the_lessons_run_with_and_without_the_mask():
    """What §9's map shows (sk0, sk1) is head 1 of the model's own run, by a plain loop."""
    res, arrays = page.sentence_set(page.lesson_settings(DEFAULTS), "e.")
    n = res["lab"]["n"]
    scores = arrays["e.scores"][0] / np.sqrt(res["lab"]["d_k"])  # (n, n) head 1, ÷√d_k
    for causal in (0, 1):
        want = np.zeros((n, n))
        for i in range(n):
            keys = range(i + 1) if causal else range(n)
            e = {j: np.exp(scores[i, j]) for j in keys}
            for j in keys:
                want[i, j] = e[j] / sum(e.values())
        np.testing.assert_allclose(arrays[f"e.sk{causal}"], want, atol=1e-6)


def test_s9_shows_the_skeletons_real_source_as_the_article_writes_it():
    lines = page.listing()
    assert lines[0] == "def attention(X, W_Q, W_K, W_V, mask=None):"
    code = "\n".join(lines)
    says = ("Q = X @ W_Q", "scores = Q @ K.T / np.sqrt(d_k)", "np.where(mask, scores, -np.inf)")
    says += ("e = np.exp(scores)", "e / e.sum(", "return weights @ V")
    assert all(line in code for line in says), [line for line in says if line not in code]
    assert not any('"""' in line for line in lines)
    assert max(len(line) for line in lines) <= 48  # 20 px monospace beside a map at 1024 px
    assert len(lines) <= 14  # 14 lines of 20 px fit the figure at 1024 × 680


def test_s6_counts_h_heads_as_about_one_head_of_the_same_width():
    cost = data.heads_cost(13, 48, 4)
    assert cost["many"] > cost["one"] and cost["many"] / cost["one"] < 1.02


# ---- words and notes ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_scene_has_teachers_notes_with_a_question_for_the_class(lang):
    notes = page.notes(lang)
    assert sorted(notes, key=int) == [str(k) for k in range(1, 11)]
    for number, blocks in notes.items():
        assert any(kind == "li" for kind, _ in blocks), number
        assert all(text.strip() for _, text in blocks)


def test_the_main_page_links_the_lesson():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    ok(at)
    links = [el.proto for el in at.get("page_link")]
    assert any(link.page.endswith("lesson.py") or "lesson" in link.page for link in links), links


def test_the_link_names_the_scene_and_the_step_on_every_run(monkeypatch):
    """at= and step= are read on every run (the deck takes them when it starts: a fresh load, a
    share link, a bookmark); step= goes on as written, a number or a step's id."""
    for query, want in (({"at": "5", "step": "2"}, (5, "2", [])), ({"at": "3", "step": "reveal"},
                        (3, "reveal", [])), ({}, (1, None, []))):  # fmt: skip
        monkeypatch.setattr(page.st, "query_params", query)
        assert page.link_of("zh") == want
    monkeypatch.setattr(page.st, "query_params", {"at": "x", "step": "9" * 99})
    at, step, bad = page.link_of("en")
    assert (at, step) == (1, "9" * page.STEP_CHARS) and bad == [
        t("lesson.at_bad", "en", value="x", n=data.SCENES, used=1)
    ]


# A colour or a size in px written in the lesson's code (its comments left out).
WRITTEN_STYLE = re.compile(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\d\s*px\b")
COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def test_the_lessons_js_writes_no_colour_and_no_font_size_of_its_own():
    """Colours, font stacks and type sizes come from ui/palette.py in the header (for_lesson):
    the deck's JS names none (its CSS reads them as variables the deck sets)."""
    for path in sorted((ROOT / "ui" / "lesson").rglob("*.js")):
        code = COMMENTS.sub("", path.read_text(encoding="utf-8"))
        found = WRITTEN_STYLE.findall(code)
        assert not found, (path.name, found)
    css = COMMENTS.sub("", "".join(p.read_text(encoding="utf-8") for p in deck.CSS))
    assert not re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(", css)  # its colours: var(--ink)


def test_every_colour_the_lessons_css_reads_is_an_ink_of_the_palette():
    """lesson*.css's var(--name) colours are LESSON_INK's entries, which the deck sets (themeOf)."""
    css = "".join(path.read_text(encoding="utf-8") for path in deck.CSS)
    props = ("color", "background", "border", "border-color", "border-left", "accent-color")
    read = {
        m.group(2)
        for m in re.finditer(r"([\w-]+):[^;{}]*?var\(--([\w-]+)\)", css)
        if m.group(1) in props
    }
    inks = {k.replace("_", "-") for k, v in palette.LESSON_INK.items() if isinstance(v, str)}
    assert read and read <= inks, read - inks


# ---- the keys: written once (deck.KEY_MAP), bound, listed, in the README ----------------------


def test_the_readmes_key_table_is_the_key_map():
    """README's key table is deck.KEY_MAP as the key list writes it, in English, row for row."""
    rows = "\n".join(f"| {keys} | {does} |" for keys, does in deck.key_rows("en"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"|---|---|\n{rows}\n\n" in readme, f"README's key table should read:\n{rows}"


def test_each_key_does_one_thing_and_keys_js_binds_every_action():
    keys = [key for _, ks, _ in deck.KEY_MAP for key in ks]
    assert len(keys) == len(set(keys))
    assert all(k == k.upper() or len(k) > 1 for k in keys)  # a letter stands for both cases
    code = (ROOT / "ui" / "lesson" / "keys.js").read_text(encoding="utf-8")
    actions = code[code.index("const ACTIONS = {") : code.index("};", code.index("ACTIONS"))]
    bound = set(re.findall(r"^  (\w+): ", actions, re.M))
    assert bound == {action for action, _, _ in deck.KEY_MAP}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_key_list_names_every_key_in_both_languages(lang):
    lines = deck.key_help(lang)
    assert len(lines) == len(deck.KEY_MAP) and all(lines)
    assert deck.key_names(tuple("1234567890"), lang) == "1–9 / 0"
    assert deck.key_names(("Space", "N"), lang) == f"{t('lesson.key.space', lang)} / N"
