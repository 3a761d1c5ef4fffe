"""Keep it true: every page × the sidebar states that change what it shows, and one set of numbers.

The seven settings that change what a page shows are all two-valued: √d_k scaling, causal
mask, positions, random/trained weights, word/char, zh/en and the shared colour scale. All
2⁷ = 128 states on every page would be over 1000 AppTest runs; the bugs issues 13 and 23 found
each needed one setting, or two together (causal × scaling on the library cards, positions ×
weights on the steps page). So the matrix is a pairwise covering array: 6 states in which
every pair of settings takes all four value pairs (checked below), every page runs in every
one of them, so every value of every setting is seen on every page. On the pages whose claims
depend on state, each claim is checked against the settings actually in force (the trained
model fixes its own; the order page always uses random weights and owns positions and mask).

The consistency tests: the same settings give the same numbers in the page's Lab
(ui/state.compute_lab), the CLI's --json and the NPZ export (ui/state.all_npz); and in every
state above the main page's view and the CLI show the same weights from the same default
focus token (attention_core.pipeline, one rule).
"""

from __future__ import annotations

import html
import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import app
from attention_core import tokenize
from attention_core.__main__ import main as cli_main
from demo_model import load_demo_model
from tests.app_support import chart_specs, chart_specs_by_key, decode, open_app, unwrapped
from tests.reference import causal_allowed, loop_softmax
from ui import explorer
from ui.settings import DEFAULT_SENTENCE
from ui.state import all_npz, compute_lab
from ui.text import t

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(stem for stem, *_ in app.PAGES)
SETTINGS = ("scale", "causal", "pos", "weights", "mode", "lang", "shared_scale")
VALUES = {
    "scale": (True, False),
    "causal": (False, True),
    "pos": (False, True),
    "weights": ("random", "trained"),
    "mode": ("word", "char"),
    "lang": ("zh", "en"),
    "shared_scale": (True, False),
}
# Columns: weight-3 words of length 6 that start with 0 (any two of them differ, share a 0 in
# row 0 and a 1 somewhere, and each has a 1 where the other has a 0): a 6-row pairwise array
# (there are ten such words, room for three more settings).
COLUMNS = ("000111", "001011", "001101", "010011", "010101", "011001", "001110")
STATES = [
    {name: VALUES[name][int(col[row])] for name, col in zip(SETTINGS, COLUMNS, strict=True)}
    for row in range(6)
]
TRAINED = load_demo_model()


def state_id(state: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in state.items())


def test_the_states_cover_every_pair_of_values():
    for a, b in itertools.combinations(SETTINGS, 2):
        seen = {(s[a], s[b]) for s in STATES}
        assert seen == set(itertools.product(VALUES[a], VALUES[b])), (a, b)


def in_force(state: dict) -> dict:
    """What a page must say it used: the sidebar's values, or the trained model's own (words,
    its positions; the causal mask stays a what-if on its scores)."""
    if state["weights"] == "trained":
        cfg = TRAINED.config
        return {**state, "mode": "word", "d": cfg.d_model, "h": cfg.num_heads,
                "source": t("teach.src.trained", state["lang"], step=TRAINED.step)}  # fmt: skip
    return {**state, "d": 64, "h": 4, "source": t("teach.src.random", state["lang"], seed=0)}


def lab_line(f: dict, *, scale: bool = True) -> str:
    """The page's "this page uses" line, written out from the settings in force (without the
    scaling where a section divides by its own τ)."""
    lang = f["lang"]
    trained = f["weights"] == "trained"
    pos = "teach.pos_trained" if trained else f"teach.pos_{f['pos']}"
    causal = "teach.causal_what_if" if trained else "teach.causal_on"  # trained without a mask
    parts = [
        f["source"],
        f"d_model = {f['d']} · h = {f['h']} · d_k = {f['d'] // f['h']}",
        *([t("teach.scale_on" if f["scale"] else "teach.scale_off", lang)] if scale else []),
        t(causal if f["causal"] else "teach.causal_off", lang),
        t(pos, lang),
        t(f"teach.mode_{f['mode']}", lang),
    ]
    return t("teach.in_force", lang, line=" · ".join(parts))


def open_page(page: str, state: dict, **extra) -> AppTest:
    return open_app(page, **{**state, **extra})


def texts_of(at: AppTest, kind: str) -> list[str]:
    return [e.value for e in at.get(kind)]


specs = chart_specs


def chart_titles(at: AppTest) -> list[str]:
    return [spec["layout"].get("title", {}).get("text") for spec in specs(at)]


def check_scaling(at: AppTest, f: dict, tr) -> None:
    """The τ map names the model; the τ legend counts the sentence's keys, masked or not."""
    assert lab_line(f, scale=False) in texts_of(at, "caption")
    assert any(unwrapped(f["source"]) in unwrapped(title) for title in chart_titles(at))
    n = len(tokenize(DEFAULT_SENTENCE, f["mode"]))
    want = tr("scaling.tau_max_causal" if f["causal"] else "scaling.tau_max", n=n)
    names = [unwrapped(trace.get("name"))  # legends wrap to their width
             for spec in specs(at) for trace in spec["data"]]  # fmt: skip
    assert unwrapped(html.escape(want)) in names


def check_order(at: AppTest, f: dict, tr) -> None:
    """Random weights, and it says so; scaling, the mask and positions as in force, named; the
    pair's maps match cell by cell, and the page says so, exactly when neither positions nor
    the mask depend on order (for any weights the sidebar chose)."""
    trained = f["weights"] == "trained"
    f = {**f, "weights": "random", "d": 64, "h": 4, "mode": at.session_state["mode"],
         "source": t("teach.src.random", f["lang"], seed=0)}  # fmt: skip
    said = texts_of(at, "caption")
    assert tr("order.random", d=64, h=4, seed=0) in said
    assert (tr("order.random_trained") in texts_of(at, "info")) == trained
    assert lab_line(f) in said
    by_key = chart_specs_by_key(at)
    a = decode(by_key["order_pair_a"]["data"][0]["z"])
    back = decode(by_key["order_pair_back"]["data"][0]["z"])
    same = not (f["pos"] or f["causal"])
    assert np.allclose(a, back, atol=1e-4) == same
    start = tr("order.same").split("{")[0]  # both verdicts open alike: told apart by level
    said_same = [x.value for x in at.success if x.value.startswith(start)]
    said_differ = [x.value for x in at.warning if x.value.startswith(start)]
    assert (len(said_same), len(said_differ)) == ((2, 0) if same else (0, 2))  # pair, shuffle
    unit = tr("unit.char") if f["mode"] == "char" else tr("unit.word")
    why = [k for k, on in (("order.why_pos", f["pos"]), ("order.why_causal", f["causal"])) if on]
    for key in why or ["order.why_none"]:
        assert tr(key, unit=unit) in said


def check_cost(at: AppTest, f: dict, tr) -> None:
    """The cells panel counts the sentence both ways, whatever the sidebar's split."""
    counts = {m.label: m.value for m in at.metric}
    for mode, key in (("word", "cost.words"), ("char", "cost.chars")):
        n = len(tokenize(DEFAULT_SENTENCE, mode))
        assert counts[tr(key, n=n)] == f"{n * n:,}"


CHECKS = {
    "scaling": (check_scaling, {}),
    "order": (check_order, {}),
    "cost": (check_cost, {}),
}


@pytest.mark.slow  # every page in every pairwise state: make test runs it
@pytest.mark.parametrize("state", STATES, ids=state_id)
@pytest.mark.parametrize("page_name", PAGES)
def test_every_page_renders_and_says_true_things(page_name, state):
    check, extra = CHECKS.get(page_name, (None, {}))
    at = open_page(page_name, state, **extra)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title, "every page has its h1"
    lang = state["lang"]
    if check is not None:
        assert at.title[0].value == t(f"{page_name}.title", lang)
        check(at, in_force(state), lambda key, **fmt: t(key, lang, **fmt))


# ---- one set of numbers: page, CLI --json, NPZ export


RANDOM = {"mode": "char", "d_model": 32, "heads": 2, "scale": False, "causal": True, "pos": True}
RANDOM_ARGS = [
    "--char",
    "--d-model",
    "32",
    "--heads",
    "2",
    "--no-scale",
    "--causal",
    "--positions",
    "--seed",
    "5",
]
TRAINED_SETTINGS = {"mode": "word", "d_model": 64, "heads": 4, "scale": True, "causal": False}
CONSISTENCY = {  # weights → (the app's settings, the CLI's arguments for the same)
    "random": ({**RANDOM, "seed": 5}, RANDOM_ARGS),
    "trained": ({**TRAINED_SETTINGS, "pos": False, "seed": 0}, []),
}


@pytest.mark.parametrize("weights", CONSISTENCY)
def test_page_cli_and_npz_give_the_same_numbers(weights, capsys):
    s, argv = CONSISTENCY[weights]
    lab = compute_lab(DEFAULT_SENTENCE, s["mode"], s["d_model"], s["heads"], s["scale"],
                      s["causal"], s["pos"], s["seed"], weights)  # fmt: skip
    assert cli_main([DEFAULT_SENTENCE, "--json", "--weights", weights, *argv]) == 0
    cli = json.loads(capsys.readouterr().out)
    with np.load(io.BytesIO(all_npz(lab))) as z:
        npz = {k: z[k] for k in z.files}
    assert [tok["text"] for tok in cli["tokens"]] == lab.texts == npz["tokens"].tolist()
    for name, mine in (("weights", lab.result.heads.weights), ("scaled", lab.result.heads.scaled),
                       ("output", lab.result.output), ("x", lab.x)):  # fmt: skip
        np.testing.assert_allclose(np.array(cli[name]), mine, atol=1e-6, err_msg=name)
        np.testing.assert_array_equal(npz[name], mine, err_msg=name)
    used = cli["settings"]
    assert used == json.loads(str(npz["record"])) == lab.record.as_dict()
    if weights == "trained":
        assert (used["pos"], used["seed"], used["causal"]) == (True, None, False)
    else:
        assert (used["pos"], used["seed"], used["causal"]) == (True, 5, True)


# ---- the app and the command line: the same weights and the same default focus in every state


def cli_args(state: dict) -> list[str]:
    """The command-line flags for a sidebar state (the trained model ignores char/positions)."""
    flags = {"--no-scale": not state["scale"], "--causal": state["causal"],
             "--positions": state["pos"], "--char": state["mode"] == "char"}  # fmt: skip
    return ["--weights", state["weights"], *(name for name, on in flags.items() if on)]


def view_weights(header: dict, scores: np.ndarray) -> np.ndarray:
    """(h, n, n) weights of the view's raw scores, by the loop: ÷√d_k, causal rule, softmax."""
    st_ = header["state"]
    div = np.sqrt(header["d_k"]) if st_["scale"] else 1.0
    allowed = causal_allowed(header["n"]) if st_["causal"] else [None] * header["n"]
    return np.array([[loop_softmax(row / div, allowed[i]) for i, row in enumerate(head)]
                     for head in scores.astype(np.float64)])  # fmt: skip


@pytest.mark.parametrize("sentence", [DEFAULT_SENTENCE, "今天很好！"])  # with and without 他
@pytest.mark.parametrize("state", STATES, ids=state_id)
def test_app_and_cli_agree_on_weights_and_default_focus(state, sentence, capsys):
    at = open_app("main", **state, sentence=sentence)  # one run: the view's first payload
    assert not at.exception, [e.value for e in at.exception]
    (view,) = [e for e in at.get("bidi_component") if e.proto.component_name == explorer.VIEW_NAME]
    header, scores = explorer.decode(view.proto.bytes)
    assert cli_main([sentence, "--json", *cli_args(state)]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert [tok["t"] for tok in header["tokens"]] == [tok["text"] for tok in cli["tokens"]]
    assert header["state"]["focus"] == cli["focus"]["index"]  # one default-focus rule
    assert header["source"] == cli["settings"]["source"] == state["weights"]
    assert header["shared"] == state["shared_scale"]  # each map's range labelled when off
    np.testing.assert_allclose(view_weights(header, scores), cli["weights"], atol=2e-6)
