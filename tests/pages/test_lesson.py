"""The lesson (/lesson) without a browser: the page through the router (AppTest), the payload the
deck gets, the scene in the link, bad links, scenes a sentence cannot show, §1's judgement by the
measured pronoun head, §8's permutation, §9's skeleton against the core, the teacher's notes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from demo_model import load_demo_model
from pages import lesson as page
from ui.lesson import data, deck, measure, scenes, words
from ui.settings import DEFAULTS
from ui.state import lab_for
from ui.text import SECTIONS, TEXT, t

ROOT = Path(__file__).resolve().parents[2]

LAST = max(scenes.NUMBERS.values())  # the last scene's number (§10)


EXAMPLE = DEFAULTS.sentence


APP = str(ROOT / "app.py")


TIMEOUT = 120  # seconds: a shared 2-core machine; never a timing assertion


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


def test_the_lesson_sends_every_scenes_numbers_and_words():
    at = open_lesson()
    ok(at)
    header, arrays = payload(at)
    assert header["at"] == 1 and header["scenes"] == data.SCENES
    notes = set(words.note_keys())
    shown = set(SECTIONS["lesson"]) | set(SECTIONS["lesson_s05"])
    assert notes <= set(TEXT) and "lesson.s5.notes" in shown  # the scene's table holds its notes
    assert set(header["text"]) >= shown - notes and not set(header["text"]) & notes  # nor the notes
    assert header["glossary"] == words.glossary("zh")
    assert header["notes"] is None  # the presenter window's alone (test_lesson_presenter.py)
    user = header["sets"]["user"]
    assert (
        user["needs"] == {str(n): "" for n in scenes.NUMBERS.values()}
        and "example" not in header["sets"]
    )
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
    lesson sends (what the address keeps: tests/browser/test_lesson.py, through the router)."""
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
    [
        ("0", 1),
        ("99", LAST),
        ("x", 1),
        ("-3", 1),
        ("1e9", LAST),
        ("nan", 1),
        ("", 1),
        ("2.6", 3),
    ],
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


def test_a_following_phone_takes_the_teachers_model_read_as_a_link(monkeypatch):
    """A class's setup carries the teacher's model: the phone's session takes it, each value
    checked as a share link's would be (out of range clamped, unknown dropped), nothing else."""
    ss = {deck.KEY: {"deck": {"sentence": "你好。", "seq": 5, "model": {
        "weights": "random", "d": 32, "h": 2, "seed": 7, "pos": True, "mode": "char",
        "scale": False, "lang": "en"}}}}  # fmt: skip
    monkeypatch.setattr(page.st, "session_state", ss)
    page.apply_deck()
    got = {k: ss[k] for k in ("weights", "d_model", "heads", "seed", "pos", "mode")}
    assert got == {"weights": "random", "d_model": 32, "heads": 2, "seed": 7, "pos": True,
                   "mode": "char"}  # fmt: skip
    assert not {"scale", "lang", "classroom"} & set(ss)
    ss[deck.KEY] = {"deck": {"seq": 6, "model": {"d": 10**9, "h": "<b>", "weights": "evil"}}}
    page.apply_deck()
    assert ss["d_model"] < 10**9 and ss["weights"] == "random"  # clamped; "evil" dropped
    assert isinstance(ss["heads"], int) and ss["d_model"] % ss["heads"] == 0  # "<b>" never taken


def test_the_deck_asks_for_every_measurement_in_one_trigger(monkeypatch):
    """The handout asks for both measurements back to back; only the last trigger reaches Python,
    so it names both: both are made (anything else in it is dropped)."""
    ss = {deck.KEY: {"block": "cost"}}
    monkeypatch.setattr(page.st, "session_state", ss)
    page.ask_block()
    ss[deck.KEY] = {"block": "cost variance <b> "}
    page.ask_block()
    assert ss[page.BLOCKS] == ["cost", "variance"]
    ss[deck.KEY] = {"block": None}
    page.ask_block()
    assert ss[page.BLOCKS] == ["cost", "variance"]


def test_a_measurement_is_made_when_the_deck_asks_for_it():
    at = open_lesson(at="7")
    header, _ = payload(at)
    assert header["blocks"] == {"variance": None, "cost": None}
    at.session_state[page.BLOCKS] = ["variance"]
    at.run()
    header, _ = payload(at)
    block = header["blocks"]["variance"]
    assert block["d_k"] == sorted(
        {*measure.VAR_DKS, 12}
    )  # and the lab's d_k, the one §5's maps use
    assert header["blocks"]["cost"] is None
    ratio = np.array(block["raw"]) / np.array(block["d_k"])  # var(q·k) ≈ d_k, measured
    assert np.all(np.abs(ratio - 1) < 0.2) and np.all(np.abs(np.array(block["scaled"]) - 1) < 0.2)


TWO_TOKENS = [s.number for s in scenes.SCENES if "two_tokens" in s.needs]  # as their files declare


@pytest.mark.parametrize(
    ("sentence", "needs"),
    [
        ("我们明天去公园。", {1: "lesson.need.pronoun"}),
        ("好", {1: "lesson.need.pronoun", **dict.fromkeys(TWO_TOKENS, "lesson.need.two")}),
        ("   ", {s.number: "lesson.need.empty" for s in scenes.SCENES if "sentence" in s.needs}),
    ],
)
def test_a_sentence_a_scene_cannot_use_is_named_and_the_example_comes_along(sentence, needs):
    at = open_lesson(s=sentence)
    ok(at)
    header, arrays = payload(at)
    got = {float(k): v for k, v in header["sets"]["user"]["needs"].items() if v}  # 4.5, 5.0
    assert got == needs
    example = header["sets"]["example"]
    assert not any(example["needs"].values()) and "e.scores" in arrays
    assert header["settings"]["sentence"] == sentence  # what was typed is kept


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_scene_has_teachers_notes_with_a_question_for_the_class(lang):
    notes = words.notes(lang)
    assert sorted(notes, key=float) == [str(n) for n in sorted(scenes.NUMBERS.values())]
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


def test_the_lessons_tokens_name_themselves_as_the_pages_do():
    """Lesson §1 in English: a choice read “小明 (Xiaoming (name))” and glosses under the row of
    tokens were left out or ran under the next token ("(aspect particle)" under 走). The deck
    now gets the pages' own wording and a short gloss for under a token (none for a function
    word whose gloss would be cut)."""
    from ui.lesson.data import tokens_of
    from ui.settings import DEFAULTS

    run, _ = lab_for(DEFAULTS)
    en = {tok["t"]: tok for tok in tokens_of(run, "en")}
    assert en["小明"]["named"] == "小明 (Xiaoming, name)"
    assert (en["小明"]["under"], en["走"]["under"], en["他"]["under"]) == ("Xiaoming", "walk", "he")
    assert en["把"]["under"] is None and en["了"]["under"] is None
    zh = {tok["t"]: tok for tok in tokens_of(run, "zh")}
    assert zh["小明"]["named"] == "小明" and zh["走"]["under"] is None
