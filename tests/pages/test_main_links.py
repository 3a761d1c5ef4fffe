"""The main page's share links and bad input (AppTest): each opens or is noticed, never a
traceback, and what was typed is kept."""

from __future__ import annotations

import json

import pytest

from tests.app_support import head_scores, ok, open_app, view
from ui.text import t


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(
    ("typed", "key", "fmt"),
    [
        ("我" * 300, "notice.tokens_cut", {"kept": 128, "cut": 172}),
        ("小明" * 1500, "notice.chars_cut", {"kept": 2000, "cut": 1000}),
    ],
)
def test_long_input_gets_a_notice_and_keeps_what_was_typed(run_app, lang, typed, key, fmt):
    at = ok(run_app(lang=lang))
    at.text_area(key="sentence").set_value(typed).run()
    ok(at)
    assert t(key, lang, **fmt) in [w.value for w in [*at.warning, *at.info]]
    assert at.text_area(key="sentence").value == typed  # nothing the user typed is lost
    header, _ = view(at)
    assert header["n"] <= 128


def test_11_link_d_20_says_it_is_not_a_multiple_of_the_step():
    """Item 11: 20 is in range; the slider takes multiples of 8, so the notice says that (and
    a head count that does not divide the result gets its own line)."""
    at = open_app("main", query={"d": "20"}, weights="random")
    said = [w.value for w in at.warning]
    assert t("notice.param_stepped", name="d", value="20", step=8, used=16) in said
    assert not any("超出范围" in w for w in said)
    at = open_app("main", query={"d": "20", "h": "3"}, weights="random")
    assert t("notice.heads_adjusted", h=3, d=16, used=2) in [w.value for w in at.warning]


def test_a_link_with_head_and_tau_opens_the_view_there(run_app):
    at = run_app(head="3", tau="9", causal="1", w="random")
    ok(at)
    state = view(at)[0]["state"]
    assert (state["head"], state["tau"], state["causal"]) == (2, 9.0, True)
    at = run_app(head="99", tau="1e9", w="random")
    ok(at)
    state = view(at)[0]["state"]
    assert state["head"] == 3 and state["tau"] == 16.0  # clamped: last head, 4·√d_k


def test_share_link_opens_with_its_settings(run_app):
    at = run_app(
        s="你打我。",
        d="32",
        h="8",
        scale="0",
        causal="1",
        pos="1",
        seed="5",
        mode="char",
        lang="en",
        focus="我",
        w="random",
    )
    ok(at)
    ss = at.session_state
    assert (ss["d_model"], ss["heads"], ss["scale"], ss["causal"], ss["pos"], ss["seed"]) == (
        32,
        8,
        False,
        True,
        True,
        5,
    )
    assert head_scores(at).shape == (8, 4, 4) and view(at)[0]["state"]["causal"] is True
    assert at.title[0].value == t("main.title", "en")
    assert not at.warning
    header, _ = view(at)
    assert header["tokens"][header["state"]["focus"]]["t"] == "我"  # the view looks from 我


@pytest.mark.parametrize(
    "query",
    [
        {"d": "abc", "h": "0", "scale": "2", "seed": "-1", "zzz": "1"},
        {"d": "99999", "h": "7", "lang": "fr", "mode": "x", "w": "trained", "class": "yes!"},
        {"s": "", "focus": "<b>x</b>"},
    ],
)
def test_tampered_links_give_notices_never_tracebacks(run_app, query):
    at = run_app(**query)
    ok(at)
    assert at.warning or at.info
    assert "zzz" not in at.query_params


@pytest.mark.parametrize(
    ("sentence", "notice"),
    [
        ("", "notice.empty"),
        ("   \n\t ", "notice.empty"),
        ("\u200b\u200d", "notice.empty"),
        ("。，！？", "notice.only_punct"),
        ("小明" * 5000, "notice.chars_cut"),
        ("<script>alert(1)</script><img src=x onerror=alert(1)>", None),
        ("👨‍👩‍👧 emoji $x$ **b** [a](http://x)", None),
    ],
)
def test_bad_input_shows_a_notice_and_what_it_can(run_app, sentence, notice):
    at = run_app(w="random")
    at.text_area(key="sentence").set_value(sentence).run()
    ok(at)
    shown = [m.value for m in [*at.warning, *at.info]]
    if notice:
        key = notice
        expected = t(key, "zh", kept=2000, cut=8000) if key == "notice.chars_cut" else t(key, "zh")
        assert expected in shown
    if notice != "notice.empty":
        assert head_scores(at).shape[0] == 4


@pytest.mark.parametrize("sentence", ["😀😀", "مرحبا بالعالم", "龍與鳳飛過臺灣" * 3])
def test_emoji_arabic_and_rare_han_are_not_called_punctuation(run_app, sentence):
    at = run_app(w="random")
    at.text_area(key="sentence").set_value(sentence).run()
    ok(at)
    assert t("notice.only_punct", "zh") not in [m.value for m in at.info]
    assert head_scores(at).shape[0] == 4


def test_markup_goes_to_the_view_as_data_never_as_markup(run_app):
    at = run_app(s="<img src=x onerror=alert(1)>他")
    ok(at)
    header, _ = view(at)
    assert "".join(tok["t"] for tok in header["tokens"]) == "<imgsrc=xonerror=alert(1)>他"
    assert "<img" not in json.dumps(header["text"])  # labels come from ui/text.py only


def test_link_notices_go_away_once_a_setting_changes(run_app):
    at = run_app(d="abc")
    assert at.warning
    at.toggle(key="shared_scale").set_value(False).run()
    ok(at)
    assert not at.warning
