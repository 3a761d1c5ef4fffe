"""Pure figure builders, the text table and share-link parsing: no Streamlit session needed."""

from __future__ import annotations

import json

import numpy as np
import plotly.io as pio
import pytest

from attention_core import softmax
from tests.app_support import decode as decode_array
from ui import figures as fig
from ui import palette
from ui.figures.base import token_labels
from ui.links import parse_query, to_query
from ui.settings import DEFAULTS
from ui.text import SECTIONS, TEXT, md_escape, t

TEXTS = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]


def weights(h: int, n: int, seed: int = 0, spread: float = 2.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return softmax(rng.standard_normal((h, n, n)) * spread)  # (h, n, n)


def wire(figure) -> dict:
    """The figure as the browser receives it."""
    return json.loads(pio.to_json(figure, validate=False))


def test_token_labels_keep_duplicates_apart_and_escape_markup():
    labels = token_labels(["了", "<b>x</b>", "了", "a" * 30, "AT&T"])
    assert len(set(labels)) == 5
    assert labels[0] == "了" and labels[2].startswith("了") and labels[2] != "了"
    assert labels[1] == "&lt;b&gt;x&lt;/b&gt;"
    assert labels[3].endswith("…") and len(labels[3]) == palette.LABEL_CHARS
    assert labels[4] == "AT&amp;T"


def test_attention_heatmap_sends_the_weights_with_token_hover():
    w = weights(1, len(TEXTS))[0]
    data = wire(fig.attention_heatmap(w, TEXTS))["data"][0]
    z = decode_array(data["z"])
    assert z.shape == (13, 13) and z.dtype == np.float32
    np.testing.assert_allclose(z, w, atol=5e-5 + 1e-7)
    assert data["x"] == token_labels(TEXTS) == data["y"]  # 了 twice: two columns
    assert len(set(data["x"])) == 13
    assert "%{y} → %{x}: %{z:.0%}" in data["hovertemplate"]
    assert (data["zmin"], data["zmax"]) == (0, 1)


def test_attention_heatmap_refuses_mismatched_tokens():
    with pytest.raises(ValueError, match="2 tokens"):
        fig.attention_heatmap(np.eye(3), ["a", "b"])


def test_numbers_in_cells_only_while_they_fit():
    small = wire(fig.attention_heatmap(np.eye(4), list("abcd"), numbers=True))["data"][0]
    n = palette.MAX_CELL_NUMBERS + 1
    big = wire(fig.attention_heatmap(np.eye(n), [str(i) for i in range(n)], numbers=True))
    assert small["texttemplate"] == "%{text}"  # numbers coloured per cell (ui/figures.py)
    assert "texttemplate" not in big["data"][0]


def test_matrix_heatmap_rows_are_tokens():
    m = np.arange(12.0).reshape(3, 4) - 6
    data = wire(fig.matrix_heatmap(m, ["a", "b", "c"], title="X"))["data"][0]
    assert decode_array(data["z"]).shape == (3, 4)
    assert data["zmin"] == -6 and data["zmax"] == 6


def test_every_string_has_both_languages():
    """Chinese and English are complete (the loader lets another language lack a string: it
    shows in English)."""
    assert SECTIONS["common"] and SECTIONS["main"]
    for key, entry in TEXT.items():
        assert all(entry.get(lang) for lang in ("zh", "en")), key


def test_t_formats_and_missing_key_raises():
    assert t("main.head", "en", i=3) == "Head 3"
    assert t("main.head", "fr", i=3) == "Head 3"  # no such translation: English, the fallback
    with pytest.raises(KeyError):
        t("no.such.key", "zh")


def test_md_escape_defuses_markdown_and_markup():
    raw = "![x](http://e/a.png) <script>alert(1)</script> $x$ :smile: **b**"
    escaped = md_escape(raw)
    for token in ("![", "](", "$x$", ":smile:", "**"):
        assert token not in escaped
    assert "\\<script\\>" in escaped


# ---- share links -------------------------------------------------------------------------------


def test_share_link_round_trip():
    found, notes = parse_query({k: [v] for k, v in to_query(DEFAULTS).items()}, trained_ok=True)
    assert notes == []
    assert found["d_model"] == 64 and found["heads"] == 4 and found["scale"] is True


@pytest.mark.parametrize(
    ("params", "field", "value", "notice"),
    [
        ({"d": ["1000"]}, "d_model", 256, "notice.param_clamped"),
        ({"d": ["-3"]}, "d_model", 8, "notice.param_clamped"),
        ({"d": ["abc"]}, "d_model", 64, "notice.param_bad"),
        ({"h": ["3"]}, "heads", 2, "notice.heads_adjusted"),
        ({"scale": ["maybe"]}, "scale", None, "notice.param_bad"),
        ({"seed": ["7", "8"]}, "seed", 7, "notice.param_repeated"),
        ({"mode": ["CHAR"]}, "mode", "char", None),
        ({"w": ["trained"]}, "weights", "random", "side.weights_unavailable"),
        ({"zzz": ["1"]}, None, None, "notice.param_unknown"),
        ({"lang": [""]}, "lang", None, "notice.param_bad"),
    ],
)
def test_tampered_links_are_clamped_or_ignored_with_a_notice(params, field, value, notice):
    found, notes = parse_query(params, trained_ok=False)
    if field:
        assert found.get(field) == value
    keys = [key for _, key, _ in notes]
    assert (notice in keys) if notice else keys == []


def test_training_curves_mark_the_current_step():
    say = lambda key, **_: key  # noqa: E731 (the builders take the page's t)
    loss = fig.loss_figure(np.linspace(2, 0.3, 100), [0, 50, 100], [2.1, 0.9, 0.5], 50, say)
    assert [s.x[-1] for s in loss.data] == [100, 100, 100]
    assert loss.layout.shapes[0].x0 == 50  # the dotted line at the chosen checkpoint
    keys = ("any_head_acc", "readout_acc", "readout_chance", "any_head_chance")
    heldout = {k: np.array([[0.3, 0.2], [0.9, 0.8], [0.96, 0.9]]) for k in keys}
    acc = fig.accuracy_figure([0, 50, 100], heldout, 100, ["a", "b"], 4, say)
    names = [tr.name for tr in acc.data]
    assert len(acc.data) == 5 and acc.layout.shapes[0].x0 == 100
    assert {"learned.chance_readout", "learned.chance_any", "learned.acc_any"} <= set(names)


def test_job_curves_star_the_step_a_head_found_its_job():
    say = lambda key, **_: key  # noqa: E731
    acc = np.array([[0.1, 0.1], [0.6, 0.2], [0.9, 0.3]])  # (steps, heads)
    figure = fig.job_curves_figure(
        [0, 50, 100],
        acc,
        np.full(3, 0.07),
        [50, None],
        100,
        title="t",
        t=say,
    )
    stars = [tr for tr in figure.data if tr.mode == "markers"]
    assert len(stars) == 1 and stars[0].x == (50,) and stars[0].y == (0.6,)


def test_training_maps_play_every_checkpoint_in_the_browser():
    w = np.full((2, 3, 3), 1 / 3)
    frames = [
        {"name": s, "title": f"step {s}", "weights": w * (1 + k), "head_titles": ["a", "<b>"]}
        for k, s in enumerate((0, 10, 20))
    ]
    strings = dict.fromkeys(("play", "pause", "prefix", "query", "key", "bar"), "x")
    spec = wire(fig.training_maps_figure(frames, ["他", "走", "了"], active=1, text=strings))
    assert [f["name"] for f in spec["frames"]] == ["0", "10", "20"]
    assert spec["layout"]["sliders"][0]["active"] == 1
    assert [s["args"][0] for s in spec["layout"]["sliders"][0]["steps"]] == [["0"], ["10"], ["20"]]
    assert decode_array(spec["data"][0]["z"]).tolist() == [[67] * 3] * 3  # frame 1 first
    assert spec["frames"][2]["data"][1]["z"] == [[100] * 3] * 3  # clipped to 100 %
    assert [a["text"] for a in spec["layout"]["annotations"]] == ["a", "&lt;b&gt;"]
    for k in (1, 2):
        assert spec["layout"][f"yaxis{k if k > 1 else ''}"]["autorange"] == "reversed"


def test_chinese_labels_go_out_as_utf8_not_escapes():
    """Streamlit sends plotly.io.to_json(figure); with orjson installed (requirements.txt) a
    CJK label costs 3 bytes instead of a 6-byte \\uXXXX escape (−12 % figure JSON at 64 × 8)."""
    spec = pio.to_json(fig.attention_heatmap(np.eye(3), ["小明", "他", "走"]), validate=False)
    assert "小明" in spec and "\\u5c0f" not in spec


def test_teaching_histograms_are_binned_before_they_are_sent():
    rng = np.random.default_rng(0)
    raw = rng.standard_normal(20_000) * 8
    figure = wire(fig.histogram_pair(raw, raw / 8, names=["raw", "<b>scaled</b>"], title="h"))
    for trace, values in zip(figure["data"], (raw, raw / 8), strict=True):
        counts, edges = np.histogram(values, bins=80)
        np.testing.assert_array_equal(decode_array(trace["y"]), counts)
        np.testing.assert_allclose(decode_array(trace["width"]), np.diff(edges))
    assert figure["data"][1]["name"] == "&lt;b&gt;scaled&lt;/b&gt;"
    assert len(json.dumps(figure)) < 10_000  # not 20,000 samples twice


def test_teaching_matrix_marks_head_boundaries_with_solid_lines():
    layout = wire(
        fig.matrix_heatmap(np.zeros((2, 8)), ["a", "b"], list("01234567"), col_lines=[3.5])
    )["layout"]
    assert [(s["x0"], s["line"]) for s in layout["shapes"]] == [
        (3.5, {"color": palette.BLACK, "dash": "solid", "width": 2})
    ]


def test_vline_label_on_a_log_axis_sits_at_its_line():
    """Plotly puts annotations on a log axis at log10(x) but shapes at x."""
    layout = wire(
        fig.sweep_lines(
            [0.1, 1, 10],
            {"a": [1, 2, 3]},
            title="",
            x_title="τ",
            y_title="",
            vline=(4.0, "√d_k"),
            mark=2.0,
        )
    )["layout"]
    assert layout["annotations"][0]["x"] == pytest.approx(np.log10(4.0))
    assert [s["x0"] for s in layout["shapes"]] == [4.0, 2.0]


# ---- titles: plotly never wraps one, the kit does ----------------------------------------------


def _px(line: str) -> float:
    """Width of a line at 14 px: a CJK glyph or full-width sign 1 em, anything else 0.6 em."""
    return sum(14 if ord(c) > 0x2E80 else 8.4 for c in line)


@pytest.mark.parametrize(
    ("text", "room"),
    [
        ("离最终输出的距离：一项都没加时，和每加一项之后", 320),
        ("Largest weight in a row, averaged over 512 random rows of 16", 320),
        ("Measured variance against d_k (dashed: var = d_k)", 220),
    ],
)
def test_a_long_title_breaks_into_even_lines_that_fit(text, room):
    """Every line fits `room` (a CJK glyph 14 px, other characters 8.4 px at 14 px), nothing is
    lost, and the lines are even: the last is at least half as wide as the first — no lone 后."""
    lines = fig.base.wrap(text, 14, room)
    width = [_px(line) for line in lines]
    assert len(lines) == 2 and max(width) <= room, lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert width[-1] >= width[0] / 2, lines


@pytest.mark.parametrize(("classroom", "across", "most"), [(False, 1, 350), (False, 2, 280)])
def test_a_title_is_laid_out_for_the_narrowest_column_it_gets(classroom, across, most):
    """A chart alone in its row gets a 390 px phone's column (350 px); one of two, half a 1024 px
    page beside the open sidebar (280 px): the kit wraps each title for that, not for a laptop."""
    title = "每行最大权重的平均值（512 行随机 q，每行 16 个随机 key）" * 2
    spec = fig.base.layout(title, 300, classroom, across=across)
    lines = spec["title"]["text"].split("<br>")
    assert len(lines) > 2 and all(_px(line) <= most for line in lines), lines
