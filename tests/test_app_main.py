"""The main page under AppTest: every control by key, share links, bad input — never a traceback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

from ui import figures
from ui.controls import DEFAULTS
from ui.figures import decode_array
from ui.state import all_npz, compute_lab, frozen, lab_key, weights_csv
from ui.text import t

APP = Path(__file__).resolve().parent.parent / "app.py"
TIMEOUT = 120
# AppTest resets PagesManager.uses_pages_directory before every run; with a pages/ folder next
# to app.py, reruns after the first then execute the page file alone (the v1 multipage path),
# skipping the router and its sidebar. Running app.py from a folder without pages/ avoids that.
ENTRY = f"import runpy\nrunpy.run_path({str(APP)!r}, run_name='__main__')\n"


@pytest.fixture(scope="module")
def entry(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("entry") / "entry.py"
    path.write_text(ENTRY, encoding="utf-8")
    return str(path)


@pytest.fixture
def run_app(entry):
    """run_app(**query) → an AppTest of app.py after its first run with those link parameters."""

    def start(**query: str) -> AppTest:
        at = AppTest.from_file(entry, default_timeout=TIMEOUT)
        for name, value in query.items():
            at.query_params[name] = value
        return at.run()

    return start


def charts(at: AppTest) -> dict[str, dict]:
    """Plotly charts by their widget key (the id's suffix), as the browser would get them."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def head_weights(at: AppTest) -> np.ndarray:
    """(h, n, n) weights from the head grid, in [0, 1] (sent as whole percents)."""
    found = charts(at)
    heads = sorted(k for k in found if k.startswith("head_"))
    return np.stack([decode_array(found[k]["data"][0]["z"]) / 100 for k in heads])


def ok(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def test_default_page_draws_one_map_per_head(run_app):
    at = run_app()
    ok(at)
    w = head_weights(at)
    assert w.shape == (4, 13, 13)
    np.testing.assert_allclose(w.sum(-1), 1.0, atol=0.07)  # whole-percent rounding
    assert at.query_params["scale"] == "1" and at.query_params["h"] == "4"


def test_heads_control_changes_the_number_of_maps(run_app):
    at = run_app()
    at.select_slider(key="heads").set_value(2).run()
    ok(at)
    assert head_weights(at).shape[0] == 2
    at.slider(key="d_model").set_value(24).run()  # 2 divides 24: kept
    assert at.session_state["heads"] == 2
    at.slider(key="d_model").set_value(40).run()
    at.select_slider(key="heads").set_value(8).run()
    ok(at)
    assert head_weights(at).shape[0] == 8


def test_scaling_off_sharpens_every_row_when_d_k_is_16(run_app):
    at = run_app()  # d_model 64, h 4 → d_k 16
    scaled = head_weights(at)
    at.toggle(key="scale").set_value(False).run()
    ok(at)
    unscaled = head_weights(at)
    assert np.all(unscaled.max(-1) >= scaled.max(-1))
    assert unscaled.max(-1).mean() > scaled.max(-1).mean()
    assert at.query_params["scale"] == "0"


def test_causal_mask_zeroes_the_upper_triangle(run_app):
    at = run_app()
    at.toggle(key="causal").set_value(True).run()
    ok(at)
    w = head_weights(at)
    assert np.all(np.triu(w, k=1) == 0)
    assert np.all(w[:, 0, 0] == 1)


@pytest.mark.parametrize(("key", "value"), [("pos", True), ("seed", 7)])
def test_positions_and_seed_change_the_weights(run_app, key, value):
    at = run_app()
    before = head_weights(at)
    widget = at.toggle(key=key) if key == "pos" else at.number_input(key=key)
    widget.set_value(value).run()
    ok(at)
    assert not np.array_equal(before, head_weights(at))


def test_display_controls(run_app):
    at = run_app()
    at.toggle(key="shared_scale").set_value(False)
    at.toggle(key="numbers").set_value(True).run()
    ok(at)
    first = charts(at)["head_0"]["data"][0]
    assert first["zmax"] < 100 and first["texttemplate"] == "%{text}"  # coloured per cell


def test_language_classroom_and_mode(run_app):
    at = run_app()
    at.radio(key="lang").set_value("en").run()
    ok(at)
    assert at.title[0].value == t("main.title", "en")
    at.toggle(key="classroom").set_value(True).run()
    ok(at)
    spec = charts(at)["head_0"]
    assert spec["layout"]["font"]["size"] >= 24 and spec["data"][0]["texttemplate"] == "%{text}"
    at.radio(key="mode").set_value("char").run()
    ok(at)
    assert head_weights(at).shape[-1] == 17  # one token per character, punctuation kept
    assert at.query_params["lang"] == "en" and at.query_params["class"] == "1"


def test_sentence_examples_focus_and_chosen_head(run_app):
    at = run_app()
    at.button_group(key="example").set_value(1).run()  # 我打你。
    ok(at)
    assert at.text_area(key="sentence").value == "我打你。"
    assert head_weights(at).shape[-1] == 4
    chips = next(g for g in at.button_group if str(g.key).startswith("focus_"))
    chips.set_value(2).run()
    ok(at)
    assert at.session_state["focus_text"] == "你" and at.query_params["focus"] == "你"
    at.selectbox(key="chosen_head").set_value(3).run()
    ok(at)
    assert any(t("main.scaling_title", "zh", i=4) == h.value for h in at.subheader)


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
    w = head_weights(at)
    assert w.shape == (8, 4, 4) and np.all(np.triu(w, k=1) == 0)
    assert at.title[0].value == t("main.title", "en")
    assert not at.warning
    assert any("我" in s.value for s in at.subheader)  # focus bars follow 我


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
    at = run_app()
    at.text_area(key="sentence").set_value(sentence).run()
    ok(at)
    shown = [m.value for m in [*at.warning, *at.info]]
    if notice:
        key = notice
        expected = t(key, "zh", kept=2000, cut=8000) if key == "notice.chars_cut" else t(key, "zh")
        assert expected in shown
    if notice != "notice.empty":
        assert head_weights(at).shape[0] == 4


@pytest.mark.parametrize("sentence", ["😀😀", "مرحبا بالعالم", "龍與鳳飛過臺灣" * 3])
def test_emoji_arabic_and_rare_han_are_not_called_punctuation(run_app, sentence):
    at = run_app()
    at.text_area(key="sentence").set_value(sentence).run()
    ok(at)
    assert t("notice.only_punct", "zh") not in [m.value for m in at.info]
    assert head_weights(at).shape[0] == 4


def test_markup_stays_text_in_chips_and_axes(run_app):
    at = run_app(s="<img src=x onerror=alert(1)>他")
    ok(at)
    labels = charts(at)["head_0"]["data"][0]["x"]
    assert all("<" not in label for label in labels)
    chips = next(g for g in at.button_group if str(g.key).startswith("focus_"))
    assert all("<img" not in option for option in chips.options)


def test_router_switches_to_a_page_and_back(run_app):
    at = run_app()
    at.switch_page(str(APP.parent / "pages" / "steps.py")).run()
    ok(at)
    assert "head_0" not in charts(at)
    at.switch_page(str(APP.parent / "pages" / "main.py")).run()
    ok(at)
    assert head_weights(at).shape[0] == 4


def test_matrices_drawn_only_while_open_and_exports_offered(run_app):
    at = run_app()
    assert not any(k.startswith("matrix_") for k in charts(at))
    at.session_state["matrices_open"] = True
    at.run()
    ok(at)
    found = charts(at)
    assert {"matrix_x", "matrix_q", "matrix_k", "matrix_v", "matrix_out"} <= set(found)
    assert decode_array(found["matrix_q"]["data"][0]["z"]).shape == (13, 16)  # d_k = 64 / 4
    assert len(at.get("download_button")) == 4 + 2  # a CSV per head, the .npz, the settings


def test_cached_figures_reach_the_browser_exactly_as_plotly_writes_them(run_app):
    """state.frozen works each shared figure's dict out once; what is sent must not change."""
    at = run_app()
    ok(at)
    lab = compute_lab(*lab_key(DEFAULTS))
    fresh = figures.head_heatmaps(lab.result.heads.weights, lab.texts, cols=2)
    sent = charts(at)
    assert len(fresh) == 4
    for i, figure in enumerate(fresh):
        assert sent[f"head_{i}"] == json.loads(pio.to_json(figure, validate=False))
    again = figures.head_heatmaps(lab.result.heads.weights, lab.texts, cols=2)
    done = frozen(again)
    assert done[0].to_dict() is done[0].to_dict()  # worked out once
    assert done[0].to_dict() == fresh[0].to_dict()


def test_export_files(run_app):
    csv_text = weights_csv(np.eye(2), ["=cmd", "他"])
    assert csv_text.splitlines()[0] == "query \\ key,'=cmd,他"
    lab = compute_lab("我打你。", "word", 16, 2, True, False, False, 0, "random")
    with np.load(io.BytesIO(all_npz(lab))) as saved:
        assert saved["weights"].shape == (2, 4, 4) and list(saved["tokens"]) == lab.texts


def test_link_notices_go_away_once_a_setting_changes(run_app):
    at = run_app(d="abc")
    assert at.warning
    at.toggle(key="causal").set_value(True).run()
    ok(at)
    assert not at.warning


def test_trained_weights_say_their_own_size_beside_the_greyed_sliders(run_app):
    at = run_app(w="trained")
    ok(at)
    said = t("side.trained_fixed", "zh", d=32, h=4)
    assert said in [c.value for c in at.sidebar.caption]
    assert head_weights(at).shape == (4, 13, 13)  # the model's four heads, not the slider's
