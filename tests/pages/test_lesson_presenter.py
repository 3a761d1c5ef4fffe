"""The presenter window's payload (AppTest): the teacher's notes reach the presenter window alone
(/lesson?presenter=1; in a class only the browser that holds the class's secret), never the
projector's payload nor a joined phone's; every line of every scene's notes, in zh and en."""

from __future__ import annotations

import json
import struct

import pytest

import classroom
from tests.pages.test_lesson import ok, open_lesson
from ui.lesson import data, deck, scenes, words
from ui.text import t

CODE = "K7MX2Q"  # a class code as the class's server makes them (no 0/O/1/I)


def raw_header(at) -> str:
    """The deck's header as this run sent it, the JSON text itself (what the browser receives)."""
    (element,) = [
        e for e in at.get("bidi_component") if e.proto.component_name == "attention_lab.lesson"
    ]
    payload = element.proto.bytes
    assert payload[:4] == deck.MAGIC
    (size,) = struct.unpack("<I", payload[4:8])
    return payload[8 : 8 + size].decode("utf-8")


def note_lines(lang: str) -> list[str]:
    """Every line of every scene's notes, as the notes' table writes it ("- " taken off)."""
    lines = []
    for key in words.note_keys():
        for line in t(key, lang).splitlines():
            line = line.strip().removeprefix("- ").strip()
            if line:
                lines.append(line)
    assert len(words.note_keys()) == data.SCENES and None not in words.note_keys()
    assert len(lines) >= 3 * data.SCENES
    return lines


def leaked(text: str, lang: str) -> list[str]:
    return [line for line in note_lines(lang) if json.dumps(line, ensure_ascii=False)[1:-1] in text]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    "query",
    [
        {},  # the projector, or a reader alone
        {"join": CODE},  # a phone in a class (an unknown code: the page still opens)
        {"join": CODE, "presenter": "1"},  # a phone that asks for the presenter: still none
        {"room": CODE, "presenter": "1"},  # a presenter window without the class's secret
    ],
    ids=["deck", "joined", "joined-presenter", "room-not-teacher"],
)
def test_no_note_reaches_a_window_that_is_not_the_teachers_presenter(query, lang):
    at = open_lesson(lang=lang, **query)
    ok(at)
    text = raw_header(at)
    header = json.loads(text)
    assert header["notes"] is None
    assert header["window"] == ("joined" if "join" in query else "presenter" if query else "deck")
    assert not leaked(text, lang), "teacher's notes in a payload that is not the teacher's"
    assert t("presenter.locked", lang) in text  # what the presenter says instead (its table)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_presenter_window_alone_gets_every_scenes_notes(lang):
    at = open_lesson(lang=lang, presenter="1")
    ok(at)
    text = raw_header(at)
    header = json.loads(text)
    assert header["window"] == "presenter"
    assert header["notes"] == words.notes(lang)
    assert sorted(header["notes"], key=float) == [str(n) for n in sorted(scenes.NUMBERS.values())]
    assert leaked(text, lang) == note_lines(lang)  # every line of every scene
    assert at.query_params["presenter"] == "1"  # a known link key: the address keeps it
    assert not at.info and not at.warning  # no "unknown parameter" notice


def test_in_a_class_only_the_teachers_presenter_gets_the_notes(monkeypatch):
    """room=CODE: the page asks classroom.is_teacher with this browser's cookies (the secret is
    an HttpOnly cookie); a yes gives the notes, a no none (the previous test's room case)."""
    asked = []

    def teacher(code, cookies):
        asked.append(code)
        return code == CODE

    monkeypatch.setattr(classroom, "is_teacher", teacher)
    at = open_lesson(room=CODE, presenter="1")
    ok(at)
    header = json.loads(raw_header(at))
    assert asked and asked[-1] == CODE
    assert header["notes"] == words.notes("zh")
    other = open_lesson(room="ZZZZZZ", presenter="1")
    assert json.loads(raw_header(other))["notes"] is None


def test_the_key_map_opens_the_presenter_with_s():
    (row,) = [row for row in deck.KEY_MAP if row[0] == "presenter"]
    assert row[1] == ("S",)
    assert "讲稿" in t(row[2], "zh") and "notes" in t(row[2], "en")
