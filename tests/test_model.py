"""Tests of the demo model: backprop against finite differences, training, the shipped weights."""

import numpy as np
import pytest

from attention_core import corpus, model, train
from attention_core.attention import AttentionParams, multi_head_attention

EXAMPLE = "小明把书放在了桌子上，然后他走了。"


@pytest.fixture(scope="module")
def small():
    """A tiny config, a few labelled sentences as one padded batch, random parameters."""
    config = model.ModelConfig(d_model=8, num_heads=2)
    examples = corpus.build("train", 6, seed=0)
    theta = train.init_theta(config, seed=5)
    return config, examples, model.make_batch(examples, config), theta


@pytest.mark.parametrize("scale", [True, False])
def test_backprop_matches_finite_differences(small, scale):
    _, _, batch, theta = small
    theta = {k: v.copy() for k, v in theta.items()}
    grads = model.backward(theta, batch, model.forward(theta, batch, 2, scale=scale))
    rng = np.random.default_rng(0)
    for name in model.PARAM_NAMES:
        for _ in range(12):
            idx = tuple(rng.integers(s) for s in theta[name].shape)
            old = theta[name][idx]
            theta[name][idx] = old + 1e-6
            up = model.forward(theta, batch, 2, scale=scale)["loss"]
            theta[name][idx] = old - 1e-6
            down = model.forward(theta, batch, 2, scale=scale)["loss"]
            theta[name][idx] = old
            assert grads[name][idx] == pytest.approx((up - down) / 2e-6, rel=1e-5, abs=1e-9)


def test_training_forward_equals_the_core_on_each_sentence(small):
    config, examples, batch, theta = small
    params = AttentionParams(theta["w_q"], theta["w_k"], theta["w_v"], theta["w_o"], 2)
    m = model.TrainedModel(config, theta["tags"], params, step=0)
    fw = model.forward(theta, batch, 2)
    for b, e in enumerate(examples):
        n = len(e.tokens)
        core = multi_head_attention(m.inputs(e.tokens), params)
        np.testing.assert_allclose(fw["a"][b, :, :n, :n], core.heads.weights, atol=1e-12)
        np.testing.assert_allclose(fw["y"][b, :n], core.output, atol=1e-12)


def test_a_few_adam_steps_lower_the_loss(small):
    _, _, batch, theta = small
    theta = {k: v.copy() for k, v in theta.items()}
    adam, before = train.Adam(lr=0.01), model.forward(theta, batch, 2)["loss"]
    for _ in range(30):
        adam.update(theta, model.backward(theta, batch, model.forward(theta, batch, 2)))
    assert model.forward(theta, batch, 2)["loss"] < 0.8 * before


def test_training_is_reproducible_and_keeps_pronoun_vectors():
    config = train.TrainConfig(
        model=model.ModelConfig(d_model=8, num_heads=2),
        steps=3,
        batch_size=4,
        n_train=12,
        n_heldout=6,
        checkpoints=(0, 3),
    )
    runs = [train.train(config, log=lambda _: None) for _ in range(2)]
    for k in model.PARAM_NAMES:
        np.testing.assert_array_equal(runs[0]["checkpoints"][-1][k], runs[1]["checkpoints"][-1][k])
    batch = model.make_batch(corpus.build("train", 5), config.model)
    fresh = train.fresh_words(batch, config, np.random.default_rng(0))
    pronoun = batch.tags == model.TAGS.index("r")
    np.testing.assert_array_equal(fresh.words[pronoun], batch.words[pronoun])
    assert not np.allclose(fresh.words[~pronoun & batch.valid], batch.words[~pronoun & batch.valid])


def test_configs_are_validated():
    with pytest.raises(ValueError, match="divisible"):
        model.ModelConfig(d_model=30, num_heads=4)
    with pytest.raises(ValueError, match="checkpoints"):
        train.TrainConfig(checkpoints=(5, 10))


def test_shipped_model_resolves_the_example_pronoun():
    run = model.load_demo_model().run(EXAMPLE)
    he, xiaoming = run.tokens.texts.index("他"), run.tokens.texts.index("小明")
    assert run.attention.heads.weights[:, he, xiaoming].max() > 0.5
    start = model.load_demo_model(0).run(EXAMPLE)
    assert start.attention.heads.weights[:, he, xiaoming].max() < 0.3  # near uniform at step 0


def test_shipped_history_meets_the_acceptance_figures():
    h = model.load_demo_history()
    assert h.steps[0] == 0 and len(h.losses) == h.steps[-1]
    assert h.heldout["any_head_acc"][-1] >= 0.9 and h.heldout["best_head_weight"][-1] >= 0.5
    assert h.heldout["best_head_weight"][0] < 0.2
    assert model.DEMO_PATH.stat().st_size < 1_000_000
    heads = model.describe_heads()
    assert "pronoun_antecedent" in {s.relation for s in heads}
    assert all(s.relation == "diffuse" for s in model.describe_heads(0))


def test_loaded_weights_are_cached_and_read_only():
    m = model.load_demo_model()
    assert model.load_demo_model(int(model.load_demo_history().steps[-1])) is m
    with pytest.raises(ValueError):
        m.params.w_q[0, 0] = 1.0
    with pytest.raises(ValueError, match="saved steps"):
        model.load_demo_model(7)


def test_unseen_words_and_unknown_tags_work():
    run = model.load_demo_model().run("Zorg 和 赵燕 在 火星 上 吃了 🍎", scale=False)
    n = len(run.tokens)
    assert run.attention.heads.weights.shape == (4, n, n)
    np.testing.assert_allclose(run.attention.heads.weights.sum(-1), 1.0)
