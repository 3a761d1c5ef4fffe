"""The lesson (/lesson) without a browser: the page through the router (AppTest), the payload the
deck gets, the scene in the link, bad links, scenes a sentence cannot show, §1's judgement by the
measured pronoun head, §8's permutation, §9's skeleton against the core, the teacher's notes."""

from __future__ import annotations

from dataclasses import replace
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
from attention_core.model import describe_heads, load_demo_model, read_pronoun
from ui.controls import DEFAULTS
from ui.lesson import data, deck, page, skeleton
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


def test_the_lesson_sends_every_scenes_numbers_words_and_notes():
    at = open_lesson()
    ok(at)
    header, arrays = payload(at)
    assert header["at"] == 1 and header["scenes"] == data.SCENES
    assert set(header["text"]) >= set(SECTIONS["lesson"])
    assert sorted(header["notes"], key=int) == [str(k) for k in range(1, 11)]
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


@pytest.mark.parametrize("scene", [1, 5, 10])
def test_the_link_opens_its_scene(scene):
    at = open_lesson(at=str(scene), lang="en")
    ok(at)
    header, _ = payload(at)
    assert header["at"] == scene and header["notices"] == []
    assert header["text"]["lesson.s5.title"] == t("lesson.s5.title", "en")
    assert at.query_params["at"] == str(scene) and at.query_params["lang"] == "en"


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


def test_the_decks_state_moves_the_scene_and_the_shared_settings(monkeypatch):
    """What the browser sends back lands in the session (malformed values are left out)."""
    ss = {deck.KEY: {"deck": {"at": 6, "scale": False, "causal": True, "focus": "小明", "seq": 3}}}
    monkeypatch.setattr(page.st, "session_state", ss)
    page.apply_deck()
    assert (ss[page.AT], ss["scale"], ss["causal"], ss["focus_text"], ss[page.ACK]) == (
        6, False, True, "小明", 3
    )  # fmt: skip
    ss[deck.KEY] = {"deck": {"at": 99, "scale": "yes", "sentence": "你好。", "seq": 4}}
    page.apply_deck()
    assert ss[page.AT] == 6 and ss["scale"] is False and ss["sentence"] == "你好。"
    ss[deck.KEY] = {"deck": "garbage"}
    page.apply_deck()
    assert ss[page.AT] == 6


def test_a_measurement_is_made_when_the_deck_asks_for_it():
    at = open_lesson(at="7")
    header, _ = payload(at)
    assert header["blocks"] == {"variance": None, "cost": None}
    at.session_state[page.BLOCKS] = ["variance"]
    at.run()
    header, _ = payload(at)
    block = header["blocks"]["variance"]
    assert block["d_k"] == list(data.VAR_DKS) and header["blocks"]["cost"] is None
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


def test_s1_is_judged_by_the_measured_pronoun_heads_reading():
    lab, _ = lab_for(DEFAULTS)
    quiz = data.pronoun_quiz(lab, lambda key, **f: t(key, "zh", **f))
    reading = read_pronoun(lab.texts, lab.result.heads.weights, describe_heads())
    assert quiz["query"] == lab.texts.index("他") == reading.query
    assert quiz["judged"] is reading.decided is True
    right = [c["i"] for c in quiz["choices"] if c["right"]]
    assert right == [reading.keys[0]] == [lab.texts.index("小明")]
    assert len(quiz["choices"]) == 3 and all(c["why"] for c in quiz["choices"])


def test_s1_with_two_people_of_one_gender_may_judge_nothing():
    lab, _ = lab_for(replace(DEFAULTS, sentence="小明和小刚去了公园，他很高兴。"))
    quiz = data.pronoun_quiz(lab, lambda key, **f: t(key, "en", **f))
    reading = read_pronoun(lab.texts, lab.result.heads.weights, describe_heads())
    assert quiz["judged"] is reading.decided
    if not reading.decided:
        assert not any(c["right"] for c in quiz["choices"])


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


@pytest.mark.parametrize("lead", [(), (2,), (2, 3)])
def test_s9s_skeleton_equals_the_core_with_and_without_the_mask(lead):
    rng = np.random.default_rng(len(lead))
    q, k, v = rng.standard_normal((3, *lead, 7, 5))
    for scale in (True, False):
        for mask in (None, skeleton.causal_mask(7)):
            out, w = skeleton.attention(q, k, v, mask=mask, scale=scale)
            ref = scaled_dot_product_attention(q, k, v, scale=scale, mask=mask)
            np.testing.assert_allclose(w, ref.weights, atol=1e-12)
            np.testing.assert_allclose(out, ref.output, atol=1e-12)
    np.testing.assert_array_equal(skeleton.causal_mask(7), causal_mask(7))


def test_s9_shows_the_skeletons_real_source():
    lines = page.listing()
    assert lines[0] == "def attention(q, k, v, mask=None, scale=True):"
    assert "    w = softmax(s, axis=-1)  # rows sum to 1" in lines
    assert not any('"""' in line for line in lines)
    assert max(len(line) for line in lines) <= 48  # 20 px monospace beside a map at 1024 px


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


def test_every_scene_has_a_title_steps_and_a_takeaway_in_both_languages():
    for k in range(1, 11):
        for part in ("title", "step0", "take"):
            assert f"lesson.s{k}.{part}" in SECTIONS["lesson"], (k, part)


def test_the_main_page_links_the_lesson():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    ok(at)
    links = [el.proto for el in at.get("page_link")]
    assert any(link.page.endswith("lesson.py") or "lesson" in link.page for link in links), links
