"""The share-link parser without Streamlit: parse_query and to_query, value by value."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ui.links import QUERY_KEYS, lesson_query, parse_query, to_query
from ui.settings import DEFAULTS, Settings, head_options, nearest_heads

W = "warning"


def parse(trained_ok: bool = True, **params) -> tuple[dict, list]:
    """parse_query on single values (a list gives repeats)."""
    return parse_query(
        {k: v if isinstance(v, list) else [v] for k, v in params.items()}, trained_ok=trained_ok
    )


def bad(name, value, used):
    return (W, "notice.param_bad", {"name": name, "value": value, "used": used})


def stepped(value, used):
    return (W, "notice.param_stepped", {"name": "d", "value": value, "step": 8, "used": used})


def clamped(name, value, used):
    return (W, "notice.param_clamped", {"name": name, "value": value, "used": used})


def test_nothing_in_the_link_changes_nothing():
    assert parse() == ({}, [])
    assert parse_query({}, trained_ok=False) == ({}, [])


def test_every_parameter_well_formed():
    link = {
        "s": "我打你",
        "d": "32",
        "h": "2",
        "scale": "0",
        "causal": "1",
        "pos": "yes",
        "seed": "7",
        "w": "random",
        "focus": "你",
        "mode": "char",
        "lang": "en",
        "class": "on",
    }
    found, notes = parse(**link)
    assert notes == []
    assert found == {
        "sentence": "我打你",
        "d_model": 32,
        "heads": 2,
        "scale": False,
        "causal": True,
        "pos": True,
        "seed": 7,
        "weights": "random",
        "focus": "你",
        "mode": "char",
        "lang": "en",
        "classroom": True,
    }


@pytest.mark.parametrize(
    ("raw", "used", "note"),
    [
        ("64", 64, None),
        (" 64 ", 64, None),
        ("8", 8, None),
        ("256", 256, None),
        ("7", 8, clamped("d", "7", 8)),
        ("0", 8, clamped("d", "0", 8)),
        ("-16", 8, clamped("d", "-16", 8)),
        ("257", 256, clamped("d", "257", 256)),
        ("1000", 256, clamped("d", "1000", 256)),
        ("abc", 64, bad("d", "abc", 64)),
        ("12.5", 64, bad("d", "12.5", 64)),
        ("", 64, bad("d", "", 64)),
        # in range, not a slider value: its own reason (issue 23, 11)
        ("20", 16, stepped("20", 16)),
        ("12", 16, stepped("12", 16)),
        ("13", 16, stepped("13", 16)),
        ("252", 256, stepped("252", 256)),
    ],
)
def test_d_model(raw, used, note):
    found, notes = parse(d=raw, h="1")
    assert found["d_model"] == used
    assert notes == ([] if note is None else [note])


@pytest.mark.parametrize(
    ("name", "field", "raw", "used", "note"),
    [
        ("h", "heads", "16", 16, None),
        ("h", "heads", "1", 1, None),
        ("h", "heads", "0", 1, clamped("h", "0", 1)),
        ("h", "heads", "17", 16, clamped("h", "17", 16)),
        ("h", "heads", "四", 4, bad("h", "四", 4)),
        ("seed", "seed", "0", 0, None),
        ("seed", "seed", "999999", 999_999, None),
        ("seed", "seed", "1000000", 999_999, clamped("seed", "1000000", 999_999)),
        ("seed", "seed", "-1", 0, clamped("seed", "-1", 0)),
        ("seed", "seed", "0x10", 0, bad("seed", "0x10", 0)),
    ],
)
def test_integers_are_clamped_or_fall_back(name, field, raw, used, note):
    found, notes = parse(**{name: raw, "d": "64"})
    assert found[field] == used
    assert [n for n in notes if n[1] != "notice.heads_adjusted"] == ([] if note is None else [note])


@pytest.mark.parametrize("raw", ["1", "true", "ON", " yes "])
def test_flags_true(raw):
    assert parse(scale=raw, causal=raw, pos=raw, **{"class": raw}) == (
        {"scale": True, "causal": True, "pos": True, "classroom": True},
        [],
    )


@pytest.mark.parametrize("raw", ["0", "false", "Off", "no"])
def test_flags_false(raw):
    assert parse(scale=raw, causal=raw, pos=raw, **{"class": raw}) == (
        {"scale": False, "causal": False, "pos": False, "classroom": False},
        [],
    )


@pytest.mark.parametrize("raw", ["2", "maybe", "", "１"])
def test_a_flag_that_is_neither_keeps_its_default(raw):
    found, notes = parse(scale=raw, causal=raw, pos=raw, **{"class": raw})
    assert found == {}
    assert notes == [
        bad("scale", raw, 1),
        bad("causal", raw, 0),
        bad("pos", raw, 0),
        bad("class", raw, 0),
    ]


def test_choices_tolerate_case_and_spaces_and_refuse_the_rest():
    assert parse(w=" Random ", mode="CHAR", lang="En") == (
        {"weights": "random", "mode": "char", "lang": "en"},
        [],
    )
    found, notes = parse(w="magic", mode="sentence", lang="klingon")
    assert found == {}
    assert notes == [
        bad("w", "magic", "trained"),
        bad("mode", "sentence", "word"),
        bad("lang", "klingon", "zh"),
    ]


def test_long_values_are_shortened_in_the_notice():
    raw = "w" * 41
    _, notes = parse(w=raw)
    assert notes == [bad("w", "w" * 39 + "…", "trained")]
    _, notes = parse(w="w" * 40)
    assert notes == [bad("w", "w" * 40, "trained")]


def test_sentence_and_focus_are_kept_as_text_the_focus_cut_at_100():
    found, _ = parse(s="<b>他</b>" * 10, focus="x" * 150)
    assert found["sentence"] == "<b>他</b>" * 10 and found["focus"] == "x" * 100


def test_repeats_use_the_first_and_are_noticed():
    found, notes = parse(d=["32", "64"], h=["2", "4"])
    assert (found["d_model"], found["heads"]) == (32, 2)
    assert notes == [
        (W, "notice.param_repeated", {"name": "d"}),
        (W, "notice.param_repeated", {"name": "h"}),
    ]


@pytest.mark.parametrize(
    ("d", "h", "used"), [("64", "3", 2), ("24", "16", 12), ("40", "7", 8), ("8", "5", 4)]
)
def test_heads_that_do_not_divide_d_model_become_the_nearest_divisor(d, h, used):
    found, notes = parse(d=d, h=h)
    assert found["heads"] == used
    assert (W, "notice.heads_adjusted", {"h": int(h), "d": int(d), "used": used}) in notes


def test_heads_are_checked_against_the_default_d_model_too():
    found, notes = parse(h="3")
    assert found["heads"] == 2 and notes == [
        (W, "notice.heads_adjusted", {"h": 3, "d": 64, "used": 2})
    ]


def test_trained_weights_without_a_model_become_random():
    assert parse(trained_ok=False, w="trained") == (
        {"weights": "random"},
        [(W, "side.weights_unavailable", {})],
    )
    assert parse(trained_ok=True, w="trained") == ({"weights": "trained"}, [])
    assert parse(trained_ok=False, w="random") == ({"weights": "random"}, [])


def test_unknown_names_are_listed_up_to_eight_and_shortened():
    names = [f"x{i}" for i in range(10)] + ["y" * 30]
    found, notes = parse(**dict.fromkeys(names, "1"), head="2", tau="3")  # page keys are known
    assert found == {}
    listed = ", ".join(names[:8])
    assert notes == [("info", "notice.param_unknown", {"names": listed})]
    _, notes = parse(**{"y" * 30: "1"})
    assert notes == [("info", "notice.param_unknown", {"names": "y" * 19 + "…"})]


def test_to_query_writes_every_key_and_parses_back():
    s = Settings(
        sentence="我打你",
        mode="char",
        d_model=32,
        heads=8,
        scale=False,
        causal=True,
        pos=True,
        seed=12,
        weights="random",
        focus="你",
        lang="en",
        classroom=True,
    )
    q = to_query(s)
    assert q == {
        "s": "我打你",
        "d": "32",
        "h": "8",
        "scale": "0",
        "causal": "1",
        "pos": "1",
        "seed": "12",
        "w": "random",
        "focus": "你",
        "mode": "char",
        "lang": "en",
        "class": "1",
    }
    assert tuple(q) == tuple(k for k in QUERY_KEYS if k not in ("shared", "nums"))  # defaults
    found, notes = parse(**q)
    assert notes == [] and Settings(**{**found, "shared_scale": True}) == s
    assert to_query(DEFAULTS)["scale"] == "1" and to_query(DEFAULTS)["class"] == "0"
    assert "shared" not in to_query(DEFAULTS) and "nums" not in to_query(DEFAULTS)
    assert "nums" not in to_query(Settings(numbers=True, classroom=True))  # class=1 implies it
    # The display switches join the link when they differ from the defaults, and parse back.
    shown = Settings(shared_scale=False, numbers=not DEFAULTS.numbers)
    q = to_query(shown)
    assert (q["shared"], q["nums"]) == ("0", str(int(shown.numbers))) and tuple(q) == QUERY_KEYS
    found, notes = parse(**q)
    assert notes == [] and Settings(**found) == shown


def test_to_query_cuts_the_sentence_for_the_address_bar():
    q = to_query(Settings(sentence="他" * 2500))
    assert q["s"] == "他" * 2000


@pytest.mark.parametrize(
    ("d_model", "heads"),
    [
        (8, [1, 2, 4, 8]),
        (16, [1, 2, 4, 8, 16]),
        (24, [1, 2, 3, 4, 6, 8, 12]),
        (136, [1, 2, 4, 8]),
        (256, [1, 2, 4, 8, 16]),
    ],
)
def test_head_options_are_the_divisors_up_to_max_heads(d_model, heads):
    assert head_options(d_model) == heads


@pytest.mark.parametrize(
    ("d_model", "wanted", "used"), [(24, 5, 4), (24, 7, 6), (24, 11, 12), (8, 16, 8), (256, 3, 2)]
)
def test_nearest_heads_takes_the_closest_divisor_and_the_smaller_on_a_tie(d_model, wanted, used):
    assert nearest_heads(d_model, wanted) == used


def test_a_lesson_link_carries_the_sentence_language_and_model_not_the_what_ifs():
    """README "What a lesson link carries": s and lang; w, d, h, seed, pos, mode off default;
    never √d_k, the mask or the focus (each scene's own)."""
    s = replace(DEFAULTS, scale=False, causal=True, focus="小明", lang="en")
    assert lesson_query(s) == {"s": DEFAULTS.sentence, "lang": "en"}
    other = replace(s, d_model=DEFAULTS.d_model * 2, seed=DEFAULTS.seed + 1)
    assert lesson_query(other) == {
        "s": DEFAULTS.sentence,
        "d": str(other.d_model),
        "seed": str(other.seed),
        "lang": "en",
    }
