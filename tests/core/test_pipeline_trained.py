"""The pipeline's trained-model interface (pipeline.TrainedWeights): what compute() takes from a
trained model — its tokens and X, its weights at a saved step, the mode, positions, d_model and h
it fixes, its focus words — shown with a stand-in model built here, then with the demo model."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from attention_core.attention import AttentionParams, MultiHeadResult, init_params
from attention_core.attention import multi_head_attention as mha
from attention_core.embed import build_inputs
from attention_core.pipeline import (
    Checkpoint,
    LabSettings,
    Notice,
    Record,
    TrainedRun,
    TrainedWeights,
    compute,
)
from attention_core.tokenize import Tokenized, tokenize
from demo_model import DEMO, load_demo_model
from tests.reference import causal_allowed, loop_multi_head

EXAMPLE = "小明把书放在了桌子上，然后他走了。"
TEXTS = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]
MODEL = load_demo_model()


# ---- a stand-in trained model: characters, its own X, 8 wide with 2 heads, saved at 0 and 5 ----


@dataclass(frozen=True)
class StandInRun:
    tokens: Tokenized
    x: np.ndarray
    attention: MultiHeadResult


@dataclass(frozen=True)
class StandInCheckpoint:
    step: int
    params: AttentionParams

    def inputs(self, tokens) -> np.ndarray:
        return (1 + self.step) * build_inputs(tokens, 8, positions=True)  # (n, 8)

    def run(self, text: str, *, scale: bool = True) -> StandInRun:
        tokens = tokenize(text, mode="char")
        x = self.inputs(tokens)
        return StandInRun(tokens, x, mha(x, self.params, scale=scale))


@dataclass(frozen=True)
class StandIn:
    mode: str = "char"
    positions: bool = True
    focus_words: tuple[str, ...] = ("走",)
    saved: tuple[int, ...] = (0, 5)
    error: Exception | None = None  # raised by at(): weights that cannot be read

    def available(self) -> bool:
        return True

    def steps(self) -> tuple[int, ...]:
        return self.saved

    def at(self, step: int | None = None) -> StandInCheckpoint:
        if self.error is not None:
            raise self.error
        step = self.saved[-1] if step is None else step
        return StandInCheckpoint(step, init_params(8, 2, seed=step))


def test_the_stand_in_and_the_demo_model_have_the_interfaces_shape():
    assert isinstance(StandIn(), TrainedWeights) and isinstance(DEMO, TrainedWeights)
    assert isinstance(StandIn().at(), Checkpoint) and isinstance(DEMO.at(), Checkpoint)
    assert isinstance(StandIn().at().run("走了"), TrainedRun)
    assert isinstance(MODEL.run("走了"), TrainedRun)


def test_the_record_says_what_the_trained_model_fixed():
    """Whatever the settings ask (words, 64 wide, 4 heads, no positions, seed 3), a trained lab
    is the model's: its mode, its width and h, its positions, its step, no seed."""
    stand_in = StandIn()
    lab = compute(LabSettings("他走了。", d_model=64, heads=4, seed=3, weights="trained"), stand_in)
    run = stand_in.at().run("他走了。")
    assert lab.record == Record("trained", True, False, False, True, "char", None, 5, 8, 2)
    assert lab.texts == ["他", "走", "了", "。"] and lab.focus() == 1  # its focus word 走
    np.testing.assert_array_equal(lab.x, run.x)
    np.testing.assert_array_equal(lab.result.heads.weights, run.attention.heads.weights)


@pytest.mark.parametrize("scale", [True, False])
def test_the_causal_mask_is_a_what_if_on_the_models_own_x(scale):
    stand_in = StandIn()
    lab = compute(LabSettings("他走了。", causal=True, scale=scale, weights="trained"), stand_in)
    model = stand_in.at()
    p = model.params
    weights, _ = loop_multi_head(model.run("他走了。", scale=scale).x, p.w_q, p.w_k, p.w_v, p.w_o,
                                 2, scale, causal_allowed(4))  # fmt: skip
    np.testing.assert_allclose(lab.result.heads.weights, weights, rtol=1e-9, atol=1e-12)
    assert lab.record.causal and lab.record.causal_what_if


def test_a_saved_step_is_asked_for_by_number_and_a_step_never_saved_is_refused():
    first = compute(LabSettings("他走了。", weights="trained", step=0), StandIn())
    assert first.record.step == 0
    np.testing.assert_array_equal(first.params.w_q, init_params(8, 2, seed=0).w_q)
    with pytest.raises(ValueError, match=r"no saved step 3; the saved steps are \[0, 5\]"):
        compute(LabSettings("他走了。", weights="trained", step=3), StandIn())


@pytest.mark.parametrize(("error", "said"), [(OSError("half written"), "half written"),
                                             (OSError(), "OSError")])  # fmt: skip
def test_weights_that_cannot_be_read_fall_back_to_random_and_say_why(error, said):
    lab = compute(LabSettings("他走了。", causal=True, d_model=8, heads=2, weights="trained"),
                  StandIn(error=error))  # fmt: skip
    assert lab.source == "random" and lab.record.causal and not lab.record.causal_what_if
    assert lab.notices == (Notice("trained_unavailable", {"error": said}),)
    assert lab.focus() == 1  # the trained model's focus words hold for random weights too


def test_trained_weights_need_a_trained_model():
    said = r'^weights="trained" needs a trained model: compute\(settings, trained\)$'
    with pytest.raises(ValueError, match=said):
        compute(LabSettings("他走了。", weights="trained"))
    assert compute(LabSettings("我打你。", d_model=8, heads=1)).focus() == 2  # no focus words


# ---- the demo model through the interface: the model's own numbers ---------------------------


def test_the_demo_lab_is_the_models_run_and_records_what_it_fixed():
    lab = compute(LabSettings(EXAMPLE, mode="char", d_model=16, heads=2, pos=False, seed=9,
                              weights="trained"), DEMO)  # fmt: skip
    run = MODEL.run(EXAMPLE)
    assert lab.texts == TEXTS  # words, whatever the mode asked
    np.testing.assert_array_equal(lab.x, run.x)
    np.testing.assert_array_equal(lab.result.heads.weights, run.attention.heads.weights)
    cfg = MODEL.config
    assert lab.record == Record("trained", True, False, False, True, "word", None, MODEL.step,
                                cfg.d_model, cfg.num_heads)  # fmt: skip
    assert lab.params is MODEL.params and lab.notices == () and lab.focus() == 9  # 他


def test_the_demo_model_follows_scaling_and_the_mask():
    for scale in (True, False):
        lab = compute(LabSettings(EXAMPLE, weights="trained", scale=scale), DEMO)
        want = MODEL.run(EXAMPLE, scale=scale).attention.heads.weights
        np.testing.assert_array_equal(lab.result.heads.weights, want)
    masked = compute(LabSettings(EXAMPLE, weights="trained", causal=True, scale=False), DEMO)
    unmasked = MODEL.run(EXAMPLE, scale=False).attention
    np.testing.assert_array_equal(masked.result.heads.scores, unmasked.heads.scores)
    p = MODEL.params
    weights, out = loop_multi_head(MODEL.run(EXAMPLE).x, p.w_q, p.w_k, p.w_v, p.w_o,
                                   MODEL.config.num_heads, False, causal_allowed(13))  # fmt: skip
    np.testing.assert_allclose(masked.result.heads.weights, weights, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(masked.result.output, out, rtol=1e-9, atol=1e-12)


def test_an_earlier_demo_step_and_what_was_cut():
    steps = DEMO.steps()
    first = compute(LabSettings(EXAMPLE, weights="trained", step=steps[0]), DEMO)
    assert first.record.step == steps[0] != MODEL.step
    np.testing.assert_array_equal(first.params.w_q, load_demo_model(steps[0]).params.w_q)
    lab = compute(LabSettings("他走了。" * 600, weights="trained"), DEMO)
    assert [n.code for n in lab.notices] == ["chars_cut", "tokens_cut"]
