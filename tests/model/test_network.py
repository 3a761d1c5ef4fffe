"""demo_model.network: the batched forward pass equals the core's attention on each sentence, its
read-out loss is a softmax cross-entropy computed by hand, and backward() is its exact gradient."""

import numpy as np
import pytest

from attention_core.attention import multi_head_attention, softmax
from demo_model.model import PARAM_NAMES, TrainedModel
from demo_model.network import backward, forward, gates
from demo_model.relations import LINKS
from demo_model.train import TrainConfig, drop_features, fresh_words, shift_positions
from tests.model.support import SMALL


def test_gates_are_a_softmax_over_the_heads():
    theta = {"gates": np.array([[0.0, 0.0], [np.log(3.0), 0.0], [1000.0, 0.0]])}
    np.testing.assert_allclose(gates(theta), [[0.5, 0.5], [0.75, 0.25], [1.0, 0.0]])


def test_the_loss_is_the_cross_entropy_of_each_questions_read_out(small):
    """Even gates: question q of type r scores every token j of its sentence by
    (y_i · R_r) · word_j with y_i = concat_i · W_O; the loss is the mean of −log p(answer)."""
    _, _, batch, theta = small
    fw = forward(theta, batch, 2)
    losses = []
    for b, i, t, r in zip(batch.qb, batch.qi, batch.qt, batch.qr, strict=True):
        n = int(batch.valid[b].sum())
        read = fw["y"][b, i] @ theta["readout"][r]  # (d,)
        p = softmax(batch.words[b, :n] @ read)  # (n,)
        losses.append(-np.log(p[t]))
    assert fw["ce"] == pytest.approx(np.mean(losses), rel=1e-12)
    assert fw["loss"] == fw["ce"]  # focus 0: no term on the gates
    g = gates(theta)
    spread = 0.5 * np.sum(g.sum(0) ** 2) - np.sum(g**2)
    assert forward(theta, batch, 2, focus=0.5)["loss"] == pytest.approx(fw["ce"] + 0.5 * spread)


def finite_difference_check(
    theta: dict, batch, scale: bool, per_param: int = 10, focus: float = 0.0
) -> None:
    def loss(t):
        return forward(t, batch, 2, scale=scale, focus=focus)

    grads = backward(theta, batch, loss(theta))
    rng = np.random.default_rng(0)
    for name in PARAM_NAMES:
        for _ in range(per_param):
            idx = tuple(rng.integers(s) for s in theta[name].shape)
            old = theta[name][idx]
            theta[name][idx] = old + 1e-6
            up = loss(theta)["loss"]
            theta[name][idx] = old - 1e-6
            down = loss(theta)["loss"]
            theta[name][idx] = old
            assert grads[name][idx] == pytest.approx((up - down) / 2e-6, rel=1e-5, abs=1e-9), name


@pytest.mark.parametrize(("scale", "focus"), [(True, 0.0), (False, 0.0), (True, 0.5)])
def test_backprop_matches_finite_differences(small, scale, focus):
    """Every part: tag, neighbour, class and character tables and projections, W_Q, W_K,
    W_V, W_O, the gates and each read-out; with and without the gates' term."""
    _, _, batch, theta = small
    assert set(np.unique(batch.qr)) == set(range(len(LINKS)))  # every read-out is used
    theta = {k: v.copy() for k, v in theta.items()}
    theta["gates"] = np.random.default_rng(2).standard_normal(theta["gates"].shape)  # uneven
    finite_difference_check(theta, batch, scale, focus=focus)


def test_backprop_on_a_training_batch_with_fresh_words_dropped_features_and_shifts(small):
    _, _, batch, theta = small
    tc = TrainConfig(model=SMALL, max_shift=8, drop_classes=0.5, drop_chars=0.5)
    rng = np.random.default_rng(3)
    batch = shift_positions(fresh_words(batch, tc, rng), tc, rng)
    batch = drop_features(batch, tc, rng)
    finite_difference_check({k: v.copy() for k, v in theta.items()}, batch, True, per_param=5)


def test_training_forward_equals_the_core_on_each_sentence(small):
    vocab, examples, batch, theta = small
    m = TrainedModel(SMALL, vocab, theta, step=0)
    fw = forward(theta, batch, 2)
    for b, e in enumerate(examples):
        n = len(e.tokens)
        core = multi_head_attention(m.inputs(e.tokens), m.params)
        np.testing.assert_allclose(fw["x"][b, :n], m.inputs(e.tokens), atol=1e-12)
        np.testing.assert_allclose(fw["a"][b, :, :n, :n], core.heads.weights, atol=1e-12)
        np.testing.assert_allclose(fw["y"][b, :n], core.output, atol=1e-12)
