"""The teaching pages' experiments (attention_core/experiments.py) against loops and the pipeline;
the steps page's listing of the core's walk."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from attention_core import experiments as ex
from attention_core import pipeline
from attention_core.pipeline import LabSettings
from demo_model import DEMO
from tests.reference import causal_allowed, loop_multi_head, loop_softmax

SENTENCE = "小明把书放在了桌子上，然后他走了。"
TA = 9  # 他


def lab(**settings) -> pipeline.Lab:
    return pipeline.compute(LabSettings(SENTENCE, **settings), DEMO)


@pytest.mark.parametrize(
    ("pos", "scale", "causal"), list(itertools.product((False, True), repeat=3))
)
def test_walk_is_the_loop_reference_in_every_random_state(pos, scale, causal):
    run = lab(d_model=16, heads=2, pos=pos, scale=scale, causal=causal)
    p = run.params
    got = ex.walk(run.tokens, p, positions=pos, scale=scale, causal=causal)
    allowed = causal_allowed(len(run.tokens)) if causal else None
    weights, output = loop_multi_head(got["x"], p.w_q, p.w_k, p.w_v, p.w_o, 2, scale, allowed)
    np.testing.assert_allclose(got["weights"], weights, atol=1e-12)
    np.testing.assert_allclose(got["output"], output, atol=1e-12)
    np.testing.assert_allclose(got["x"], run.x, atol=0)  # the X the pipeline made
    np.testing.assert_allclose(got["output"], run.result.output, atol=1e-12)


@pytest.mark.parametrize("causal", [False, True])
def test_walk_with_the_trained_model_gives_the_pipelines_numbers(causal):
    run = lab(weights="trained", causal=causal)
    model = DEMO.at()
    got = ex.walk(run.tokens, run.params, model=model, scale=True, causal=causal)
    np.testing.assert_allclose(got["x"], run.x, atol=0)
    np.testing.assert_allclose(got["weights"], run.result.heads.weights, atol=1e-12)
    np.testing.assert_allclose(got["output"], run.result.output, atol=1e-12)


def test_walk_marks_every_step_once_in_order():
    """The steps page marks the lines of step k by the circled number in their comment."""
    import inspect

    src = inspect.getsource(ex.walk)
    marks = [c for line in src.splitlines() for c in "①②③④⑤⑥⑦" if f"# {c}" in line]
    assert sorted(set(marks)) == list("①②③④⑤⑥⑦")
    assert marks == sorted(marks)  # the lines come in the order of the steps


def test_cell_breakdown_is_the_softmax_written_out():
    run = lab(d_model=16, heads=2, causal=True)
    head, i = 1, TA
    row = run.result.heads.scaled[head, i]
    want = loop_softmax(row, causal_allowed(len(row))[i])
    for j in (0, i, i + 1):
        b = ex.cell_breakdown(run, head, i, j)
        assert b["score"] == pytest.approx(float(run.result.q[head, i] @ run.result.k[head, j]))
        assert b["scaled"] == pytest.approx(b["score"] / math.sqrt(8))
        assert b["weight"] == pytest.approx(want[j], abs=1e-12)
        assert b["exp"] / b["total"] == pytest.approx(want[j], abs=1e-12)


def test_key_cards_mask_the_future_and_mark_the_best_key_left():
    run = lab(d_model=16, heads=2, causal=True)
    cards = ex.key_cards(run, 0, 3)
    assert [c["masked"] for c in cards] == [j > 3 for j in range(len(cards))]
    live = [c["value"] for c in cards[:4]]
    assert [c["best"] for c in cards].index(True) == live.index(max(live))


def test_strongest_edges_are_the_largest_off_diagonal_weights():
    w = np.random.default_rng(3).dirichlet(np.ones(5), size=(2, 5))  # (h, n, n) rows sum to 1
    texts = list("abcde")
    for head, found in enumerate(ex.strongest_edges(w, texts, top=3)):
        cells = sorted(((w[head, i, j], i, j) for i in range(5) for j in range(5) if i != j),
                       reverse=True)[:3]  # fmt: skip
        assert found == [(texts[i], texts[j], v) for v, i, j in cells]


def test_compare_keys_and_default_keys_of_the_article():
    run = lab(d_model=16, heads=2)
    a, b = ex.default_keys(run.texts, run.result.heads.weights[0, TA], TA)
    assert (run.texts[a], run.texts[b]) == ("小明", "桌子")
    parts = ex.compare_keys(run, 1, TA, (a, b))
    q = run.result.q[1, TA]
    for part, j in zip(parts, (a, b), strict=True):
        assert part["sum"] == pytest.approx(sum(q[d] * run.result.k[1, j, d] for d in range(8)))
        assert part["weight"] == run.result.heads.weights[1, TA, j]


def test_cell_counts_count_words_and_characters():
    counts = {"word_n": 3, "word_cells": 9, "char_n": 3, "char_cells": 9}
    cuts = {"chars_cut": 0, "word_cut": 0, "char_cut": 0}
    assert ex.cell_counts("我打你") == {**counts, **cuts}
    assert ex.cell_counts("   ")["word_n"] == 0


def test_cell_counts_are_of_the_sentence_as_cut():
    """5,000 characters: 3,000 cut, then 2,000 characters are 2,000 character tokens, cut to
    128 (1,872 dropped); the counts are of what is kept."""
    c = ex.cell_counts("我们明天去公园散步，" * 500)
    assert c["chars_cut"] == 3000
    assert (c["char_n"], c["char_cut"], c["char_cells"]) == (128, 2000 - 128, 128 * 128)
    assert c["word_n"] == 128 and c["word_cut"] > 0


def test_temperature_stats_at_tau_one_are_the_rows_of_the_plain_softmax():
    scores = np.random.default_rng(1).standard_normal((4, 4)) * 3
    stats = ex.temperature_row_stats(scores, [1.0], causal=True)
    rows = [loop_softmax(scores[i], causal_allowed(4)[i]) for i in range(4)]
    entropy = np.mean([-sum(p * math.log(p) for p in r if p > 0) for r in rows])
    assert stats["entropy"][0] == pytest.approx(entropy)
    assert stats["max"][0] == pytest.approx(np.mean([max(r) for r in rows]))


def test_the_steps_page_lists_the_walk_as_computed():
    """Every line shown is a line of the core's walk (no hand copy); lines of switches that are
    off are left out and a placeholder says so."""
    import inspect

    from tests.app_support import open_app

    at = open_app("steps", weights="random", scale=False, causal=True, steps_step=3)
    shown = [line.split("   # ◀")[0] for line in at.code[0].value.splitlines()]
    source = inspect.getsource(ex.walk)
    assert all(line in source for line in shown if not line.startswith("# "))
    assert "np.sqrt" not in "\n".join(shown) and "# ④ scale=False" in shown
    assert any("causal_mask(n)" in line for line in shown)


@pytest.mark.parametrize(
    ("texts", "i", "want"),
    [
        (["你", "好"], 0, (1, 0)),  # two tokens: the other one, then the query itself
        (["你", "好"], 1, (0, 1)),
        (["好"], 0, (0, 0)),  # one token: nothing else to compare with
        (["小明", "看", "书"], 0, (1, 2)),  # the query is 小明: the heaviest and lightest others
        (["他", "看", "桌子"], 2, (1, 0)),  # the query is 桌子: neither key is the query
    ],
)
def test_default_keys_are_two_different_keys_other_than_the_query_when_there_are(texts, i, want):
    """Issue 23 (noticed): a two-token sentence got the same key twice, a picker's default."""
    row = np.array([0.1, 0.7, 0.2])[: len(texts)]
    assert ex.default_keys(texts, row, i) == want
