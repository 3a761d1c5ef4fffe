"""Tampered share links (AppTest): each parameter bad in every way → clamped or ignored, noticed."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from demo_model import load_demo_history
from tests.browser_support import REPO_ROOT
from ui.text import md_escape, t

LANG = "zh"
HUGE = "9" * 30
# name → its default as the notice reports it ("used"), and (lo, hi) for numbers.
NUMBERS = {"d": (64, 8, 256), "h": (4, 1, 16), "seed": (0, 0, 999_999)}
FLAGS = {"scale": 1, "causal": 0, "pos": 0, "class": 0}
CHOICES = {"w": "trained", "mode": "word", "lang": "zh"}
ALL = ("s", "d", "h", "scale", "causal", "pos", "seed", "w", "focus", "mode", "lang", "class")
PAGE = ("head", "tau")  # the main page's own: inspected head (1-based) and the view's τ
LESSON = ("presenter", "room", "join")  # the lesson's windows: notes, a class's teacher, a phone
TRAINED = load_demo_history().config  # the default weights: the shipped model's own size
HEADS = TRAINED.num_heads
TOP_TAU = f"{round(4 * (TRAINED.d_model / TRAINED.num_heads) ** 0.5, 3):g}"  # 4·√d_k, as shown
VALID = {
    "d": {str(d) for d in range(8, 257, 8)},
    "h": {str(h) for h in range(1, 17)},
    "scale": {"0", "1"},
    "causal": {"0", "1"},
    "pos": {"0", "1"},
    "class": {"0", "1"},
    "w": {"random", "trained"},
    "mode": {"word", "char"},
    "lang": {"zh", "en"},
    "head": {str(h) for h in range(1, 17)},
}


def open_link(params: dict) -> AppTest:
    """A fresh session opened with this share link (the link is read on the first run only)."""
    at = AppTest.from_file(str(REPO_ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    at.run()
    return at


def shown(at: AppTest) -> list[str]:
    return [w.value for w in at.warning] + [i.value for i in at.info]


def bad(name: str, raw: str, used: object, shown: str | None = None) -> str:
    """The notice for an invalid value; `shown` is how a value over 40 characters is quoted."""
    assert len(raw) <= 40 or shown is not None, "say how the long value is quoted"
    value = md_escape(raw if shown is None else shown)
    return t("notice.param_bad", LANG, name=name, value=value, used=used)


def clamped(name: str, raw: str, used: object) -> str:
    assert len(raw) <= 40
    return t("notice.param_clamped", LANG, name=name, value=md_escape(raw), used=used)


def assert_healthy(at: AppTest, wanted: list[str]) -> None:
    """No exception, every wanted notice shown, and the address bar rewritten to valid values."""
    assert not at.exception, [e.value for e in at.exception]
    notices = shown(at)
    for notice in wanted:
        assert notice in notices, f"missing {notice!r}; shown: {notices}"
    for name, value in at.query_params.items():
        assert name in ALL + PAGE, f"unknown parameter {name!r} left in the address bar"
        assert not isinstance(value, list), f"{name} still repeated: {value}"
        if name in VALID:
            assert value in VALID[name], f"{name}={value!r} in the address bar"
    d, h = int(at.query_params.get("d", 64)), int(at.query_params.get("h", 4))
    assert d % h == 0, f"h={h} does not divide d={d}"


def test_no_parameters_means_defaults_and_no_notice():
    at = open_link({})
    assert_healthy(at, [])
    assert shown(at) == []
    assert at.query_params["d"] == "64" and at.query_params["h"] == "4"


def test_every_parameter_empty():
    at = open_link(dict.fromkeys(ALL, ""))
    wanted = [bad(n, "", NUMBERS[n][0]) for n in NUMBERS]
    wanted += [bad(n, "", d) for n, d in FLAGS.items()] + [
        bad(n, "", d) for n, d in CHOICES.items()
    ]
    assert_healthy(at, [*wanted, t("notice.empty", LANG)])
    assert not at.get("plotly_chart")


def test_every_parameter_negative():
    params = {n: "-1" for n in ALL}
    at = open_link(params)
    wanted = [clamped("d", "-1", 8), clamped("h", "-1", 1), clamped("seed", "-1", 0)]
    wanted += [bad(n, "-1", d) for n, d in FLAGS.items()] + [
        bad(n, "-1", d) for n, d in CHOICES.items()
    ]
    assert_healthy(at, wanted)
    assert at.query_params["d"] == "8" and at.query_params["h"] == "1"


def test_every_parameter_huge():
    params = {n: HUGE for n in ALL} | {"s": "他" * 10_001, "focus": "x" * 10_001, "w": "w" * 5000}
    at = open_link(params)
    wanted = [clamped("d", HUGE, 256), clamped("h", HUGE, 16), clamped("seed", HUGE, 999_999)]
    wanted += [bad(n, HUGE, d) for n, d in FLAGS.items()]
    wanted += [bad("w", "w" * 5000, "trained", shown="w" * 39 + "…")]
    wanted += [bad("mode", HUGE, "word"), bad("lang", HUGE, "zh")]
    wanted.append(t("notice.chars_cut", LANG, kept=2000, cut=8001))
    assert_healthy(at, wanted)
    assert len(at.query_params["s"]) <= 2000, "the address bar must not carry 10,000 characters"


def test_every_parameter_non_numeric_or_nonsense():
    values = {"d": "abc", "h": "1.5", "seed": "NaN", "scale": "maybe", "causal": "<b>x</b>"}
    values |= {"pos": "１", "class": "[x](y)", "w": "$x$", "mode": "<script>", "lang": "klingon"}
    at = open_link(values | {"s": "<img src=x onerror=alert(1)>", "focus": "**x**"})
    wanted = [bad(n, values[n], NUMBERS[n][0]) for n in NUMBERS]
    wanted += [bad(n, values[n], d) for n, d in FLAGS.items()]
    wanted += [bad(n, values[n], d) for n, d in CHOICES.items()]
    assert_healthy(at, wanted)


def test_every_parameter_repeated():
    twice = {n: ["1", "0"] for n in ALL} | {"d": ["32", "64"], "h": ["2", "4"]}
    twice |= {"w": ["random", "trained"], "mode": ["word", "char"], "lang": ["zh", "en"]}
    at = open_link(twice)
    wanted = [t("notice.param_repeated", LANG, name=n) for n in ALL]
    assert_healthy(at, wanted)


@pytest.mark.parametrize("name", LESSON)
def test_the_lessons_window_keys_stay_in_the_link_without_a_notice(name):
    """presenter=1 (the teacher's notes window), room=CODE, join=CODE: a reload keeps them."""
    at = open_link({name: "1" if name == "presenter" else "K7MX2Q", "d": "32"})
    assert not at.exception, [e.value for e in at.exception]
    assert shown(at) == []
    assert at.query_params[name] == ("1" if name == "presenter" else "K7MX2Q")


def test_unknown_parameters_are_listed_and_dropped():
    at = open_link({"foo": "1", "<script>": "x", "S": "upper", "d": "32"})
    notices = [i.value for i in at.info]
    assert any("foo" in n and "S" in n for n in notices), notices
    assert_healthy(at, [])
    assert "foo" not in at.query_params and at.query_params["d"] == "32"


@pytest.mark.parametrize(
    ("name", "raw", "used", "kind"),
    [
        ("d", "0", 8, "clamped"),
        ("d", "12.5", 64, "bad"),
        ("d", "1e3", 64, "bad"),
        ("d", "257", 256, "clamped"),
        ("h", "0", 1, "clamped"),
        ("h", "17", 16, "clamped"),
        ("h", "四", 4, "bad"),
        ("seed", "1000000", 999_999, "clamped"),
        ("seed", "0x10", 0, "bad"),
        ("scale", "2", 1, "bad"),
        ("lang", "EN ", None, None),  # tolerated: case and spaces, no notice needed
    ],
)
def test_one_parameter_out_of_range(name: str, raw: str, used: object, kind: str | None):
    at = open_link({name: raw})
    wanted = [] if kind is None else [(clamped if kind == "clamped" else bad)(name, raw, used)]
    assert_healthy(at, wanted)


def test_a_d_model_in_range_but_off_the_sliders_steps_says_so():
    """d=20 is in 8 … 256 but the slider moves in 8s: "out of range" would be false."""
    at = open_link({"d": "20"})
    assert_healthy(at, ["链接参数 d=20 在范围内，但 d_model 只取 8 的倍数，已调整为 16。"])
    assert clamped("d", "20", 16) not in shown(at)
    assert at.query_params["d"] == "16"


def test_heads_that_do_not_divide_d_model_are_adjusted():
    at = open_link({"d": "64", "h": "3"})
    assert_healthy(at, [t("notice.heads_adjusted", LANG, h=3, d=64, used=2)])
    assert at.query_params["h"] == "2"


def test_focus_that_is_not_a_token_is_noticed():
    """A focus token missing from the sentence is ignored: the reader must be told so."""
    at = open_link({"focus": "不存在的词"})
    assert_healthy(at, [])
    assert any("不存在的词" in n for n in shown(at)), (
        f"no notice for the ignored focus: {shown(at)}"
    )


@pytest.mark.parametrize(
    ("raw_head", "raw_tau", "wanted"),
    [
        ("abc", "hot", [bad("head", "abc", 1), bad("tau", "hot", md_escape("√d_k"))]),
        ("0", "0.1", [clamped("head", "0", 1), clamped("tau", "0.1", "1")]),
        ("99", "1e9", [clamped("head", "99", HEADS), clamped("tau", "1e9", md_escape(TOP_TAU))]),
        ("2", "nan", [bad("tau", "nan", md_escape("√d_k"))]),
    ],
)
def test_the_main_pages_head_and_tau_parameters(raw_head, raw_tau, wanted):
    at = open_link({"head": raw_head, "tau": raw_tau})
    assert_healthy(at, wanted)
    assert float(at.query_params.get("tau", "1")) >= 1
