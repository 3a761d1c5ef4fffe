"""The main page under AppTest: every control by key, share links, bad input — never a traceback.

The view's payload (raw Q·Kᵀ per head) is checked against a plain loop over the core's Q and K;
÷τ, the causal mask and the softmax happen in the browser and are tested there, against the core
(tests/browser/test_explorer.py)."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from demo_model import describe_heads, load_demo_history
from tests.app_support import decode as decode_array
from tests.app_support import head_scores, ok, sent, view
from ui import explorer
from ui.settings import MAX_HEADS
from ui.state import all_npz, compute_lab, weights_at, weights_csv
from ui.text import t

APP = Path(__file__).resolve().parents[2] / "app.py"


def charts(at: AppTest) -> dict[str, dict]:
    """Plotly charts by their widget key (the id's suffix), as the browser would get them."""
    return {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec) for c in at.get("plotly_chart")}


def loop_softmax(row: list[float]) -> list[float]:
    """softmax of one row in plain Python, -inf entries weight 0 (an independent reference)."""
    top = max(v for v in row if v != -math.inf)
    e = [0.0 if v == -math.inf else math.exp(v - top) for v in row]
    return [v / sum(e) for v in e]


def set_view(at: AppTest, **changes) -> AppTest:
    """What the browser's view sends back (component state), applied as its callback would."""
    header, _ = view(at)
    texts = [tok["t"] for tok in header["tokens"]]
    sent = {**header["state"], **changes, "seq": header["ack"] + 1}
    for name, value in explorer.view_updates(sent, texts, header["h"], header["d_k"]).items():
        at.session_state[name] = value
    return at.run()


def test_the_page_opens_on_the_trained_model_looking_from_he(run_app):
    at = run_app()
    ok(at)
    header, _ = view(at)
    assert header["source"] == "trained" and at.query_params["w"] == "trained"
    texts = [tok["t"] for tok in header["tokens"]]
    assert texts[header["state"]["focus"]] == "他"
    jobs = [job for job in header["jobs"] if job["clear"]]
    assert jobs, "the trained model's heads carry their measured jobs"
    scores = head_scores(at)  # softmax keeps a row's order: its largest score, its largest weight
    pronoun = [k for k, job in enumerate(header["jobs"]) if job["relation"] == "pronoun_antecedent"]
    assert pronoun and all(
        texts[int(np.argmax(scores[k, texts.index("他")]))] == "小明" for k in pronoun
    )

    job = describe_heads()[pronoun[0]]  # its label: a count of questions people wrote, said
    rel = t("learned.rel.pronoun_antecedent", "zh")
    said = t("main.job_label", "zh", rel=rel, hits=job.hits, total=job.total)
    assert header["jobs"][pronoun[0]]["label"] == said
    assert "pronoun_antecedent" in header["tokens"][texts.index("他")]["roles"]
    cfg = load_demo_history().config  # the shipped model's own size
    found = sum(h.relation != "diffuse" for h in describe_heads())
    line = t("main.weights_trained", "zh", d=cfg.d_model, h=cfg.num_heads, seed=0, jobs=found)
    assert line in [m.value for m in at.markdown]
    at.button(key="switch_weights").click().run()  # one switch away: the random playground
    ok(at)
    assert view(at)[0]["source"] == "random" and at.query_params["w"] == "random"
    assert all(not job["clear"] for job in view(at)[0]["jobs"])


def test_the_trained_model_says_it_splits_into_words_when_characters_are_chosen(run_app):
    at = run_app(mode="char")
    ok(at)
    assert t("main.trained_words", "zh") in [c.value for c in at.caption]
    assert view(at)[0]["n"] == 13  # jieba words, as the model was trained


def test_default_page_draws_one_map_per_head(run_app):
    at = run_app(w="random")
    ok(at)
    assert head_scores(at).shape == (4, 13, 13)
    header, _ = view(at)
    assert header["state"]["scale"] is True and header["d_k"] == 16
    assert at.query_params["scale"] == "1" and at.query_params["h"] == "4"


def test_heads_control_changes_the_number_of_maps(run_app):
    at = run_app(w="random")
    at.select_slider(key="heads").set_value(2).run()
    ok(at)
    assert head_scores(at).shape[0] == 2
    at.slider(key="d_model").set_value(24).run()  # 2 divides 24: kept
    assert at.session_state["heads"] == 2
    at.slider(key="d_model").set_value(40).run()
    at.select_slider(key="heads").set_value(8).run()
    ok(at)
    assert head_scores(at).shape[0] == 8


def test_scaling_off_goes_to_the_view_and_the_link_with_the_same_scores(run_app):
    at = run_app(w="random")  # d_model 64, h 4 → d_k 16
    before = head_scores(at)
    set_view(at, scale=False)  # the view's switch: the browser divides (or not) and softmaxes
    ok(at)
    header, scores = view(at)
    assert header["state"]["scale"] is False and at.query_params["scale"] == "0"
    np.testing.assert_array_equal(scores, before)  # raw Q·Kᵀ does not depend on √d_k


def test_causal_mask_goes_to_the_view_and_the_link(run_app):
    at = run_app(w="random")
    set_view(at, causal=True)
    ok(at)
    header, _ = view(at)
    assert header["state"]["causal"] is True and at.query_params["causal"] == "1"
    head_scores(at)  # unmasked scores: the browser masks them (tested in Chromium)


def test_the_main_page_has_one_pair_of_switches_the_other_pages_the_sidebars(run_app):
    at = run_app(w="random")
    keys = {w.key for w in at.sidebar.toggle}
    assert not {"scale", "causal"} & keys and "pos" in keys
    assert t("explorer.side_owned", "zh") in [c.value for c in at.sidebar.caption]
    at.switch_page(str(APP.parent / "pages" / "scaling.py")).run()
    ok(at)
    assert {"scale", "causal"} <= {w.key for w in at.sidebar.toggle}


@pytest.mark.parametrize(("key", "value"), [("pos", True), ("seed", 7)])
def test_positions_and_seed_change_the_weights(run_app, key, value):
    at = run_app(w="random")
    before = head_scores(at)
    widget = at.toggle(key=key) if key == "pos" else at.number_input(key=key)
    widget.set_value(value).run()
    ok(at)
    assert not np.array_equal(before, head_scores(at))


def test_display_controls(run_app):
    at = run_app(w="random")
    view(at)  # the browser holds the scores from the first run
    at.toggle(key="shared_scale").set_value(False)
    at.toggle(key="numbers").set_value(True).run()
    ok(at)
    header, _ = view(at)
    assert header["shared"] is False and header["numbers"] is True
    assert at.query_params["shared"] == "0" and at.query_params["nums"] == "1"  # in the link
    again = run_app(w="random", shared="0", nums="1")
    assert (view(again)[0]["shared"], view(again)[0]["numbers"]) == (False, True)


def test_language_classroom_and_mode(run_app):
    at = run_app(w="random")
    at.radio(key="lang").set_value("en").run()
    ok(at)
    assert at.title[0].value == t("main.title", "en")
    assert view(at)[0]["text"]["heads_title"] == t("explorer.heads_title", "en")
    at.toggle(key="classroom").set_value(True).run()
    ok(at)
    header, _ = view(at)
    assert header["classroom"] and header["numbers"]  # classroom mode writes numbers in cells
    at.radio(key="mode").set_value("char").run()
    ok(at)
    assert head_scores(at).shape[-1] == 17  # one token per character, punctuation kept
    assert at.query_params["lang"] == "en" and at.query_params["class"] == "1"


def test_sentence_examples_focus_and_chosen_head(run_app):
    at = run_app(w="random")
    at.session_state["examples_menu"] = True  # the examples' button opened: its pills drawn
    at.run()
    at.button_group(key="example").set_value(1).run()  # 我打你。
    assert at.session_state["examples_menu"] is False  # the menu closed behind the choice
    ok(at)
    assert at.text_area(key="sentence").value == "我打你。"
    assert head_scores(at).shape[-1] == 4
    set_view(at, focus=2, head=3)  # the view: 你 clicked, head 4 inspected
    ok(at)
    assert at.session_state["focus_text"] == "你" and at.query_params["focus"] == "你"
    assert at.query_params["head"] == "4"
    header, _ = view(at)
    assert (header["state"]["focus"], header["state"]["head"]) == (2, 3)


def test_the_views_switches_reach_the_sidebar_and_the_link(run_app):
    at = run_app(w="random")
    set_view(at, scale=False, causal=True)
    ok(at)
    assert at.session_state["scale"] is False and at.session_state["causal"] is True
    assert at.query_params["scale"] == "0" and at.query_params["causal"] == "1"
    state = view(at)[0]["state"]
    assert state["scale"] is False and state["causal"] is True
    set_view(at, tau=6.5)
    ok(at)
    assert at.query_params["tau"] == "6.5" and view(at)[0]["state"]["tau"] == 6.5
    set_view(at, tau=None)
    assert "tau" not in at.query_params


def test_the_views_fragment_writes_the_link_params_it_owns_and_no_other(run_app, monkeypatch):
    from ui import sidebar

    monkeypatch.setattr(sidebar, "sync_query", lambda *a, **k: None)  # a fragment run has none
    at = run_app(w="random")
    before = dict(at.query_params)
    set_view(at, scale=False, causal=True, focus=11, head=2, tau=6.5)  # the second 了, head 3
    ok(at)
    wrote = {k: v for k, v in at.query_params.items() if before.get(k) != v}
    want = {"scale": "0", "causal": "1", "focus": "了", "nth": "2", "head": "3", "tau": "6.5"}
    assert wrote == want
    set_view(at, scale=True, focus=4, tau=None)  # the first 了 needs no nth; τ follows √d_k
    assert at.query_params["scale"] == "1" and "nth" not in at.query_params
    assert "tau" not in at.query_params and "s" not in at.query_params


def test_the_second_le_stays_chosen_through_the_link(run_app):
    at = run_app(w="random")
    set_view(at, focus=11)  # the second 了 of 小明把书放在了桌子上，然后他走了。
    ok(at)
    assert at.query_params["focus"] == "了" and at.query_params["nth"] == "2"
    again = run_app(w="random", focus="了", nth="2")
    assert view(again)[0]["state"]["focus"] == 11 and not again.warning
    set_view(again, focus=4)  # the first 了: the link needs no nth
    assert "nth" not in again.query_params
    bad = run_app(w="random", focus="了", nth="9")
    assert view(bad)[0]["state"]["focus"] == 11  # the last 了 there is
    said = t("notice.param_clamped", "zh", name="nth", value="9", used=2)
    assert said in [w.value for w in bad.warning]


def test_the_export_heading_sits_below_the_views_headings(run_app):
    at = run_app(w="random")
    assert t("main.export", "zh") in [h.value for h in at.subheader]
    assert t("main.export", "zh") not in [h.value for h in at.header]


def test_the_scores_go_to_the_browser_once_per_sentence(run_app):
    at = run_app(w="random")
    first = explorer.decode(sent(at))
    assert first[1] is not None and first[1].shape == (4, 13, 13)
    set_view(at, scale=False)  # the scores do not depend on √d_k
    again = explorer.decode(sent(at))
    assert again[1] is None and again[0]["digest"] == first[0]["digest"]
    assert len(sent(at)) < 12_000
    at.session_state[explorer.NEED] = True  # the browser asked for them again
    at.run()
    assert explorer.decode(sent(at))[1] is not None
    at.toggle(key="pos").set_value(True).run()  # new numbers: sent
    new = explorer.decode(sent(at))
    assert new[1] is not None and new[0]["digest"] != first[0]["digest"]


@pytest.mark.parametrize(
    "sent",
    [
        {"scale": "no", "causal": 1, "focus": 99, "head": -1, "tau": "hot", "seq": "x"},
        {"focus": True, "head": 1.5, "tau": float("nan")},
        "not a dict",
        None,
    ],
)
def test_malformed_view_state_changes_nothing_it_should_not(sent):
    got = explorer.view_updates(sent, ["我", "打", "你"], 2, 8)
    assert set(got) <= {explorer.TAU}
    assert got.get(explorer.TAU) is None


def test_router_switches_to_a_page_and_back(run_app):
    at = run_app(w="random")
    view(at)  # the browser holds what the first run sent (alone, this test saw nothing before)
    at.switch_page(str(APP.parent / "pages" / "scaling.py")).run()
    ok(at)
    assert not at.get("bidi_component")
    at.switch_page(str(APP.parent / "pages" / "main.py")).run()
    ok(at)
    assert head_scores(at).shape[0] == 4


def test_matrices_drawn_only_while_open_and_exports_offered(run_app):
    at = run_app(w="random")
    assert not any(k.startswith("matrix_") for k in charts(at))
    at.session_state["matrices_open"] = True
    at.run()
    ok(at)
    found = charts(at)
    assert {"matrix_x", "matrix_q", "matrix_k", "matrix_v", "matrix_out"} <= set(found)
    assert decode_array(found["matrix_q"]["data"][0]["z"]).shape == (13, 16)  # d_k = 64 / 4
    assert len(at.get("download_button")) == 4 + 2  # a CSV per head, the .npz, the settings


@pytest.mark.parametrize(
    ("query", "x_has", "out_has", "out_lacks"),
    [
        ({"w": "random", "scale": "0", "causal": "1"}, "embed(tokens)  #", "causal_mask", "sqrt"),
        ({"w": "random", "pos": "1"}, "+ positions", "np.sqrt(d_k)", "causal_mask"),
        ({"w": "trained"}, "learned", "np.sqrt(d_k)", "causal_mask"),
    ],
)
def test_the_numpy_lines_say_how_the_matrices_were_computed(
    run_app, query, x_has, out_has, out_lacks
):
    at = run_app(**query)
    at.session_state["matrices_open"] = True
    at.run()
    ok(at)
    code = [c.value for c in at.code]
    assert any(line.startswith("X =") and x_has in line for line in code), code
    out = next(line for line in code if line.startswith("out ="))
    assert out_has in out and out_lacks not in out, out


def test_export_files(run_app):
    csv_text = weights_csv(np.eye(2), ["=cmd", "他"])
    assert csv_text.splitlines()[0] == "query \\ key,'=cmd,他"
    lab = compute_lab("我打你。", "word", 16, 2, True, True, False, 0, "random")
    with np.load(io.BytesIO(all_npz(lab))) as saved:
        assert saved["weights"].shape == (2, 4, 4) and list(saved["tokens"]) == lab.texts
        assert "weights_tau" not in saved
    with np.load(io.BytesIO(all_npz(lab, 5.0, True))) as saved:
        raw = lab.result.heads.scores  # (2, 4, 4): ÷5, keys after the query masked, per row
        want = [
            [loop_softmax([v / 5.0 if j <= i else -math.inf for j, v in enumerate(row)])
             for i, row in enumerate(head.tolist())]
            for head in raw
        ]  # fmt: skip
        np.testing.assert_allclose(saved["weights_tau"], want, atol=1e-12)
        assert float(saved["tau"]) == 5.0
    assert weights_at(lab, None, True) is lab.result.heads.weights


def test_trained_weights_say_their_own_size_beside_the_greyed_sliders(run_app):
    at = run_app(w="trained")
    ok(at)

    cfg = load_demo_history().config  # the shipped model's own size
    said = t("side.trained_fixed", "zh", d=cfg.d_model, h=cfg.num_heads)
    assert said in [c.value for c in at.sidebar.caption]
    assert head_scores(at).shape == (cfg.num_heads, 13, 13)  # its heads, not the slider's


def test_26_sixteen_heads_sixteen_colours(run_app):
    header, _ = view(ok(run_app(w="random", d="64", h=str(MAX_HEADS))))
    assert header["h"] == MAX_HEADS
    assert len(set(header["palette"]["heads"][:MAX_HEADS])) == MAX_HEADS


def test_26_the_export_heading_ranks_below_the_maps(run_app):
    at = ok(run_app())
    assert t("main.export", "zh") in [h.value for h in at.subheader]
    assert t("main.export", "zh") not in [h.value for h in at.header]
