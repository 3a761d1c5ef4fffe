"""Tests of the demo model: backprop against finite differences, training, the shipped weights
and what they are measured to do."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attention_core import corpus, model, train
from attention_core.attention import AttentionParams, multi_head_attention

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "小明把书放在了桌子上，然后他走了。"
SMALL = model.ModelConfig(d_model=12, num_heads=2, d_word=4, d_char=4, d_pos=4)


@pytest.fixture(scope="module")
def small():
    """A tiny config, a few labelled sentences as one padded batch, random parameters."""
    examples = corpus.build("train", 6, seed=0)
    theta = train.init_theta(SMALL, seed=5)
    return SMALL, examples, model.make_batch(examples, SMALL), theta


def finite_difference_check(theta: dict, batch, scale: bool, per_param: int = 12) -> None:
    grads = model.backward(theta, batch, model.forward(theta, batch, 2, scale=scale))
    rng = np.random.default_rng(0)
    for name in model.PARAM_NAMES:
        for _ in range(per_param):
            idx = tuple(rng.integers(s) for s in theta[name].shape)
            old = theta[name][idx]
            theta[name][idx] = old + 1e-6
            up = model.forward(theta, batch, 2, scale=scale)["loss"]
            theta[name][idx] = old - 1e-6
            down = model.forward(theta, batch, 2, scale=scale)["loss"]
            theta[name][idx] = old
            assert grads[name][idx] == pytest.approx((up - down) / 2e-6, rel=1e-5, abs=1e-9), name


@pytest.mark.parametrize("scale", [True, False])
def test_backprop_matches_finite_differences(small, scale):
    """Every part: tag embeddings, W_Q, W_K, W_V, W_O and each question type's read-out."""
    _, _, batch, theta = small
    assert set(np.unique(batch.qr)) == set(range(len(corpus.LINKS)))  # every read-out is used
    finite_difference_check({k: v.copy() for k, v in theta.items()}, batch, scale)


def test_backprop_on_a_training_batch_with_fresh_words_and_shifted_positions(small):
    config, _, batch, theta = small
    tc = train.TrainConfig(model=config, max_shift=8)
    rng = np.random.default_rng(3)
    batch = train.shift_positions(train.fresh_words(batch, tc, rng), tc, rng)
    finite_difference_check({k: v.copy() for k, v in theta.items()}, batch, True, per_param=6)


def test_training_forward_equals_the_core_on_each_sentence(small):
    config, examples, batch, theta = small
    params = AttentionParams(theta["w_q"], theta["w_k"], theta["w_v"], theta["w_o"], 2)
    m = model.TrainedModel(config, theta["tags"], params, step=0, readout=theta["readout"])
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


TINY_RUN = train.TrainConfig(
    model=SMALL, steps=4, batch_size=4, n_train=12, n_heldout=6, checkpoints=(0, 2, 4), eval_every=2
)


def test_training_twice_gives_identical_weights_and_measurements():
    runs = [train.train(TINY_RUN, log=lambda _: None) for _ in range(2)]
    for a, b in zip(runs[0]["checkpoints"], runs[1]["checkpoints"], strict=True):
        for k in model.PARAM_NAMES:
            np.testing.assert_array_equal(a[k], b[k])
    np.testing.assert_array_equal(runs[0]["losses"], runs[1]["losses"])
    for a, b in zip(runs[0]["evals"], runs[1]["evals"], strict=True):
        np.testing.assert_array_equal(a["relations"], b["relations"])
    assert len(runs[0]["evals"]) == len(TINY_RUN.eval_steps) == 3


def test_saved_run_loads_back_as_it_was_measured(tmp_path):
    result = train.train(TINY_RUN, log=lambda _: None)
    path = tmp_path / "tiny.npz"
    train.save(path, TINY_RUN, result)
    history = model.load_demo_history(path)
    assert history.steps.tolist() == [0, 2, 4] and history.config == SMALL
    np.testing.assert_array_equal(history.relations[-1], result["evals"][-1]["relations"])
    m = model.load_demo_model(4, path)
    for k, v in m.theta().items():
        np.testing.assert_array_equal(v, result["checkpoints"][-1][k])


def test_fresh_words_keep_only_pronouns_and_name_characters():
    config = train.TrainConfig(model=SMALL, max_shift=6)
    batch = model.make_batch(corpus.build("train", 8), SMALL)
    fresh = train.fresh_words(batch, config, np.random.default_rng(0))
    pronoun = batch.tags == model.TAGS.index("r")
    np.testing.assert_array_equal(fresh.words[pronoun], batch.words[pronoun])
    other = ~pronoun & batch.valid
    assert not np.allclose(fresh.words[other], batch.words[other])
    chars = slice(SMALL.d_word, SMALL.d_word + SMALL.d_char)
    name = batch.tags == model.TAGS.index("nr")
    np.testing.assert_array_equal(fresh.fixed[name][:, chars], batch.fixed[name][:, chars])
    verb = batch.tags == model.TAGS.index("v")
    assert not np.allclose(fresh.fixed[verb][:, chars], batch.fixed[verb][:, chars])
    moved = train.shift_positions(batch, config, np.random.default_rng(1))
    pos = slice(SMALL.d_word + SMALL.d_char, SMALL.d_word + SMALL.d_char + SMALL.d_pos)
    np.testing.assert_array_equal(moved.fixed[..., : pos.start], batch.fixed[..., : pos.start])
    assert not np.allclose(moved.fixed[..., pos], batch.fixed[..., pos])


def test_learning_rate_falls_from_lr_to_lr_end():
    c = train.TrainConfig()
    assert c.lr_at(0) == pytest.approx(c.lr) and c.lr_at(c.steps - 1) == pytest.approx(c.lr_end)
    assert all(c.lr_at(s) >= c.lr_at(s + 1) for s in range(c.steps - 1))


def test_configs_are_validated():
    with pytest.raises(ValueError, match="divisible"):
        model.ModelConfig(d_model=30, num_heads=4)
    with pytest.raises(ValueError, match="d_word"):
        model.ModelConfig(d_model=16, num_heads=4, d_word=8, d_char=8, d_pos=8)
    with pytest.raises(ValueError, match="checkpoints"):
        train.TrainConfig(checkpoints=(5, 10))
    with pytest.raises(ValueError, match="lr_end"):
        train.TrainConfig(lr_end=0.5)


# ---- the shipped weights ------------------------------------------------------------------------


def best_heads(table: np.ndarray) -> dict:
    """Per trained relation: (best head, its hit rate, its mean weight) from a (h, R, 2) table."""
    out = {}
    for rel in corpus.LINKS:
        r = model.RELATIONS.index(rel)
        head = int(np.argmax(table[:, r, 0]))
        out[rel] = (head, float(table[head, r, 0]), float(table[head, r, 1]))
    return out


def assert_acceptance(table: np.ndarray) -> None:
    best = best_heads(table)
    for rel, (_, acc, weight) in best.items():
        assert acc >= 0.9 and weight >= 0.5, (rel, acc, weight)
    assert len({head for head, _, _ in best.values()}) == len(corpus.LINKS), best


def test_shipped_measurement_meets_the_acceptance_figures():
    h = model.load_demo_history()
    assert h.steps[0] == 0 and len(h.losses) == h.steps[-1] == h.eval_steps[-1]
    assert set(h.steps) <= set(h.eval_steps)
    assert_acceptance(h.relations[-1])
    assert model.DEMO_PATH.stat().st_size < 600_000


@pytest.mark.slow
def test_recomputed_measurement_equals_the_stored_one_at_every_checkpoint():
    h = model.load_demo_history()
    tc = train.TrainConfig()
    held = model.make_batch(corpus.build("heldout", tc.n_heldout, tc.seed + 1), h.config)
    for step in h.steps:
        m = model.load_demo_model(int(step))
        ev = train.evaluate(m.theta(), held, h.config.num_heads)
        k = h.at(int(step))
        np.testing.assert_allclose(ev["relations"], h.relations[k], atol=1e-12)
        np.testing.assert_allclose(ev["readout_acc"], h.heldout["readout_acc"][k], atol=1e-12)
    assert_acceptance(ev["relations"])


@pytest.mark.slow
def test_the_shipped_file_is_what_the_training_command_writes(tmp_path):
    """`python -m attention_core.train` again, one BLAS thread (the matrices are small, more
    threads only spin): the stored weights equal the shipped ones bit for bit; the measured
    floats (losses, held-out figures) agree within float64 noise, since OpenBLAS picks its
    kernels by CPU (an AMD EPYC sums in another order than an Intel Xeon: eval_loss differed
    by 1.1e-16, which the float16 weights round away)."""
    out = tmp_path / "again.npz"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "attention_core.train", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, timeout=1800)
    with np.load(out) as again, np.load(model.DEMO_PATH) as shipped:
        assert sorted(again.files) == sorted(shipped.files)
        for name in shipped.files:
            if again[name].dtype.kind == "f" and not name.startswith("theta_"):
                np.testing.assert_allclose(again[name], shipped[name], rtol=1e-6, atol=1e-9,
                                           err_msg=name)  # fmt: skip
            else:
                np.testing.assert_array_equal(again[name], shipped[name], err_msg=name)


def test_heads_are_described_from_the_measurement():
    final = model.describe_heads()
    jobs = {s.relation for s in final}
    assert set(corpus.LINKS) <= jobs
    for s in final:
        row = model.load_demo_history().relations[-1, s.head]
        assert s.accuracy == row[:, 0].max()
        assert (s.relation == model.DIFFUSE) == (s.accuracy < model.JOB_THRESHOLD)
    assert all(s.relation == model.DIFFUSE for s in model.describe_heads(0))
    onsets = model.job_onsets()
    steps = model.load_demo_history().eval_steps
    for s, at in zip(final, onsets, strict=True):
        assert (at is None) == (s.relation == model.DIFFUSE)
        assert at is None or 0 < at <= steps[-1]
    with pytest.raises(ValueError, match="measured"):
        model.describe_heads(7)


def test_shipped_model_resolves_the_example_pronoun_in_its_pronoun_head():
    run = model.load_demo_model().run(EXAMPLE)
    texts = run.tokens.texts
    he, xiaoming = texts.index("他"), texts.index("小明")
    reading = model.read_pronoun(texts, run.attention.heads.weights, model.describe_heads())
    assert reading.head is not None and reading.head.relation == "pronoun_antecedent"
    assert reading.decided and reading.keys[0] == xiaoming and reading.query == he
    assert run.attention.heads.weights[reading.head.head, he, xiaoming] > 0.8
    start = model.load_demo_model(0).run(EXAMPLE)
    assert start.attention.heads.weights[:, he, xiaoming].max() < 0.3  # near uniform at step 0
    assert (
        model.read_pronoun(texts, start.attention.heads.weights, model.describe_heads(0)).head
        is None
    )


@pytest.mark.parametrize(
    ("sentence", "answer"),
    [
        ("那天，小红在公园里看见了小刚，他很高兴。", "小刚"),  # gender decides
        ("小明说他明天要去看小刚。", "小明"),  # position decides: 他 looks back
    ],
)
def test_shipped_pronoun_head_on_two_person_sentences(sentence, answer):
    run = model.load_demo_model().run(sentence)
    texts = run.tokens.texts
    reading = model.read_pronoun(texts, run.attention.heads.weights, model.describe_heads())
    assert reading.decided and texts[reading.keys[0]] == answer


def test_shipped_pronoun_head_is_undecided_when_either_boy_could_be_he():
    run = model.load_demo_model().run("小明和小刚去了公园，他很高兴。")
    texts = run.tokens.texts
    reading = model.read_pronoun(texts, run.attention.heads.weights, model.describe_heads())
    assert not reading.decided and {texts[j] for j in reading.keys} == {"小明", "小刚"}


def test_shipped_modifier_and_subject_heads_on_the_examples():
    heads = {s.relation: s.head for s in model.describe_heads() if s.relation != model.DIFFUSE}
    run = model.load_demo_model().run("小明买了一辆旧的自行车，他很喜欢。")
    texts, w = run.tokens.texts, run.attention.heads.weights
    row = w[heads["modifier_noun"], texts.index("旧")]
    assert texts[int(np.argmax(row))] == "自行车" and row.max() > 0.5
    row = w[heads["verb_subject"], texts.index("买")]
    assert texts[int(np.argmax(row))] == "小明"


def test_read_pronoun_says_undecided_when_the_weight_splits():
    heads = [model.HeadSummary(0, "pronoun_antecedent", 0.95, 0.9, "pronoun_antecedent")]
    texts = ["小红", "看见", "小刚", "他"]
    w = np.zeros((1, 4, 4))
    w[0, 3] = [0.47, 0.02, 0.49, 0.02]
    reading = model.read_pronoun(texts, w, heads)
    assert not reading.decided and reading.keys == (2, 0)
    w[0, 3] = [0.2, 0.02, 0.76, 0.02]
    assert model.read_pronoun(texts, w, heads).decided
    assert model.read_pronoun(["小红", "走"], w[:, :2, :2], heads) is None
    diffuse = [model.HeadSummary(0, model.DIFFUSE, 0.2, 0.1, "self")]
    assert model.read_pronoun(texts, w, diffuse).head is None


def test_loaded_weights_are_cached_and_read_only():
    m = model.load_demo_model()
    assert model.load_demo_model(int(model.load_demo_history().steps[-1])) is m
    with pytest.raises(ValueError):
        m.params.w_q[0, 0] = 1.0
    with pytest.raises(ValueError, match="saved steps"):
        model.load_demo_model(7)


def test_unseen_words_and_unknown_tags_work():
    run = model.load_demo_model().run("Zorg 和 赵燕 在 火星 上 吃了 🍎", scale=False)
    n, h = len(run.tokens), model.load_demo_history().config.num_heads
    assert run.attention.heads.weights.shape == (h, n, n)
    np.testing.assert_allclose(run.attention.heads.weights.sum(-1), 1.0)
