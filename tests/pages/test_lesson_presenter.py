"""The presenter window's payload (AppTest): the teacher's notes reach the presenter window alone
(/lesson?presenter=1; in a class only the browser that holds the class's secret; on a server
phones can reach, only a browser that leads a live class), never the projector's payload nor a
joined phone's; every line of every scene's notes, in zh and en."""

from __future__ import annotations

import json
import struct

import pytest
from streamlit import config as st_config

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


@pytest.fixture
def reachable(monkeypatch, request):
    """The server as phones can reach it: Streamlit on every address (make run HOST=0.0.0.0),
    nginx on every address (make serve HOST=0.0.0.0 sets SERVE_HOST), or behind PUBLIC_URL."""
    for name in ("SERVE_HOST", "PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    how = request.param
    if how == "address":
        before = st_config.get_option("server.address")
        st_config.set_option("server.address", "0.0.0.0")
        request.addfinalizer(lambda: st_config.set_option("server.address", before))
    elif how == "serve_host":
        monkeypatch.setenv("SERVE_HOST", "0.0.0.0")
    else:
        monkeypatch.setenv("PUBLIC_URL", "https://lab.school.example")
    return how


@pytest.mark.parametrize("reachable", ["address", "serve_host", "public_url"], indirect=True)
def test_on_a_server_phones_reach_the_presenter_gets_notes_only_with_a_live_class_s_cookie(
    reachable, monkeypatch
):
    """No room= on a LAN (or public) server: a phone that opens presenter=1 gets no notes; a
    browser that leads a live class (classroom.leads_any with its cookies) gets them."""
    leads = []
    monkeypatch.setattr(classroom, "leads_any", lambda cookies: leads.append(1) or False)
    stranger = open_lesson(presenter="1")
    ok(stranger)
    text = raw_header(stranger)
    assert json.loads(text)["notes"] is None and not leaked(text, "zh") and leads
    monkeypatch.setattr(classroom, "leads_any", lambda cookies: True)
    teacher = open_lesson(presenter="1")
    assert json.loads(raw_header(teacher))["notes"] == words.notes("zh")


def test_on_loopback_alone_the_presenter_needs_no_class(monkeypatch):
    for name in ("SERVE_HOST", "PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(classroom, "leads_any", lambda cookies: pytest.fail("asked on loopback"))
    at = open_lesson(presenter="1")
    assert json.loads(raw_header(at))["notes"] == words.notes("zh")


def test_the_key_map_opens_the_presenter_with_s():
    (row,) = [row for row in deck.KEY_MAP if row[0] == "presenter"]
    assert row[1] == ("S",)
    assert "讲稿" in t(row[2], "zh") and "notes" in t(row[2], "en")
