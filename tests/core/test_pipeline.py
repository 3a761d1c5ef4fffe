"""The pipeline: settings validated, each intermediate against the loop, the record, notices,
the focus (trained weights: tests/core/test_pipeline_trained.py)."""

from __future__ import annotations

import numpy as np
import pytest

from attention_core import pipeline
from attention_core.pipeline import Lab, LabSettings, Record, compute, focus_index
from tests.reference import causal_allowed, loop_multi_head, sinusoid

EXAMPLE = "小明把书放在了桌子上，然后他走了。"
TEXTS = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]
FOCUS_WORDS = ("他", "她", "它")  # the demo model's focus words (DemoWeights.focus_words)


# ---- settings


@pytest.mark.parametrize(
    ("fields", "error", "match"),
    [
        ({"sentence": 3}, TypeError, "^sentence must be a str, got int$"),
        ({"mode": "sentence"}, ValueError, "mode"),
        ({"weights": "magic"}, ValueError, "weights"),
        ({"scale": 1}, TypeError, "scale must be True or False"),
        ({"causal": "yes"}, TypeError, "causal"),
        ({"pos": None}, TypeError, "pos"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 1.5}, ValueError, "seed"),
        ({"step": -3}, ValueError, "step"),
        ({"step": True}, ValueError, "step"),
        ({"d_model": 0, "heads": 1}, ValueError, "d_model"),
        ({"d_model": 4104, "heads": 8}, ValueError, "4096"),  # divisible, over the limit
        ({"d_model": 64.0}, ValueError, "d_model"),
        ({"d_model": 20, "heads": 3}, ValueError, "divisor"),
        ({"heads": 0}, ValueError, "heads"),
        ({"heads": True}, ValueError, "heads"),
    ],
)
def test_settings_refuse_what_the_pipeline_cannot_compute(fields, error, match):
    with pytest.raises(error, match=match):
        LabSettings(**fields)


def test_settings_accept_the_edges():
    assert LabSettings(d_model=pipeline.MAX_D_MODEL, heads=8).d_model == 4096
    assert LabSettings(d_model=1, heads=1, seed=0, step=0).heads == 1
    assert LabSettings(scale=np.bool_(False)).scale == np.bool_(False)
    assert LabSettings() == LabSettings(EXAMPLE, "word", 64, 4, True, False, False, 0, "random")


# ---- random weights: every intermediate against the loop reference


@pytest.mark.parametrize(("causal", "pos", "scale"), [(False, False, True), (True, True, False)])
def test_random_lab_matches_the_loop_reference(causal, pos, scale):
    s = LabSettings("我打你，你打我。", d_model=8, heads=2, scale=scale, causal=causal, pos=pos,
                    seed=3)  # fmt: skip
    lab = compute(s)
    assert lab.texts == ["我", "打", "你", "，", "你", "打", "我", "。"]
    from attention_core import token_vector  # the token's vector, made once per text

    x = np.stack([token_vector(t, 8) for t in lab.texts]) + (sinusoid(8, 8) if pos else 0)
    np.testing.assert_allclose(lab.x, x, atol=1e-15)
    w = lab.params  # seeded: the same weights for the same seed
    weights, out = loop_multi_head(x, w.w_q, w.w_k, w.w_v, w.w_o, 2, scale,
                                   causal_allowed(8) if causal else None)  # fmt: skip
    np.testing.assert_allclose(lab.result.heads.weights, weights, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(lab.result.output, out, rtol=1e-10, atol=1e-12)
    assert lab.record == Record("random", scale, causal, False, pos, "word", 3, None, 8, 2)
    assert (lab.d_model, lab.heads, lab.d_k, lab.source) == (8, 2, 4, "random")


def test_the_seed_draws_the_projections_only():
    a, b = compute(LabSettings(seed=1)), compute(LabSettings(seed=2))
    np.testing.assert_array_equal(a.x, b.x)
    assert not np.allclose(a.params.w_q, b.params.w_q)
    np.testing.assert_array_equal(a.params.w_q, compute(LabSettings(seed=1)).params.w_q)


def test_char_mode_gives_one_token_per_character():
    lab = compute(LabSettings(EXAMPLE, mode="char"))
    assert lab.texts == list(EXAMPLE) and lab.record.mode == "char"
    assert lab.result.heads.weights.shape == (4, 17, 17)


# ---- notices


def test_notices_say_what_was_cut_and_when_only_punctuation_is_left():
    cut = compute(LabSettings("他" * 2001, mode="char", d_model=8, heads=1))
    assert [n.code for n in cut.notices] == ["chars_cut", "tokens_cut"]
    assert cut.notices[0].values == {"kept": 2000, "cut": 1}
    assert cut.notices[1].values == {"kept": 128, "cut": 2000 - 128}
    assert cut.notices[0].text() == "input cut to the first 2000 characters (1 dropped)"
    punct = compute(LabSettings("，。！", d_model=8, heads=1))
    assert [n.code for n in punct.notices] == ["only_punct"]
    assert compute(LabSettings("🍎。", d_model=8, heads=1)).notices == ()  # an emoji says something
    assert compute(LabSettings(EXAMPLE)).notices == ()


def test_an_empty_sentence_is_tokenizes_error():
    from attention_core import EmptyInputError

    with pytest.raises(EmptyInputError):
        compute(LabSettings("  \u200b "))


# ---- the default focus: one rule for the app and the command line


@pytest.mark.parametrize(
    ("texts", "focus", "at", "want"),
    [
        (TEXTS, None, None, 9),  # 他
        (TEXTS, "了", 11, 11),  # the second 了, told apart by its position
        (TEXTS, "了", 3, 4),  # the position holds another token: the first 了
        (TEXTS, "了", 99, 4),
        (TEXTS, "了", True, 4),  # a bool is not a position
        (TEXTS, "", 11, 9),  # no text: the position alone means nothing
        (TEXTS, "猫", None, 9),  # not in the sentence: 他
        (["她", "说", "他", "。"], None, None, 2),  # 他 first, then 她
        (["她", "说", "了", "。"], None, None, 0),
        (["我", "打", "你", "。"], None, None, 2),  # no pronoun: the last word, not 。
        (["你", "好", "！", "？"], "", None, 1),
        (["。", "！"], None, None, 1),  # only punctuation: the last token
        (["🍎", "。"], None, None, 0),  # an emoji is a word
    ],
)
def test_default_focus(texts, focus, at, want):
    assert focus_index(texts, focus, at, FOCUS_WORDS) == want


def test_without_focus_words_the_default_is_the_last_word():
    assert focus_index(TEXTS) == 11 and focus_index(TEXTS, "猫") == 11  # 了, not 。
    assert focus_index(["她", "说", "他", "。"], prefer=("她",)) == 0


def test_lab_focus_uses_the_same_rule():
    lab = compute(LabSettings("我打你。", d_model=8, heads=1))
    assert isinstance(lab, Lab) and lab.focus() == 2 and lab.focus("我") == 0
    assert lab.record.as_dict()["d_k"] == 8


def test_focus_positions_at_the_ends():
    assert focus_index(["了"], "了", 1) == 0  # one past the end: not a position
    assert focus_index(["了", "x", "了"], "了", 2) == 2
    lab = compute(LabSettings(EXAMPLE))
    assert lab.focus("了", 11) == 11 and lab.focus("了") == 4
