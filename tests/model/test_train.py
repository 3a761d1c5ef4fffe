"""demo_model.train: the starting weights, what each step shows the model (fresh words, dropped
features, shifted positions), the loop's determinism, the file it writes, and the shipped file
being exactly what the training command writes."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attention_core.attention import init_params
from demo_model import load_demo_history, load_demo_model
from demo_model.features import CLAUSES, NEIGHBOURS, TAGS
from demo_model.metrics import evaluate
from demo_model.model import DEMO_PATH, PARAM_NAMES
from demo_model.train import (
    TrainConfig,
    drop_features,
    fresh_words,
    init_theta,
    measured_sets,
    save,
    shift_positions,
    train,
)
from tests.model.support import SMALL

ROOT = Path(__file__).resolve().parents[2]
TINY_RUN = TrainConfig(
    model=SMALL, steps=4, batch_size=4, n_train=12, n_heldout=6, checkpoints=(0, 2, 4), eval_every=2
)


def test_the_starting_weights_are_the_cores_init_and_seeded_tables(small):
    """W_Q … W_O are attention_core.init_params(seed); every table has one row per id, the
    gates start even (zeros), and the same seed gives the same weights."""
    vocab = small[0]
    theta = init_theta(SMALL, vocab, seed=7)
    p = init_params(SMALL.d_model, SMALL.num_heads, 7)
    for name in ("w_q", "w_k", "w_v", "w_o"):
        np.testing.assert_array_equal(theta[name], getattr(p, name))
    d, r = SMALL.d_model, SMALL.d_embed
    shapes = {"tags": (len(TAGS), d), "before": (len(NEIGHBOURS), d), "clause": (CLAUSES, d),
              "classes": (len(vocab.classes), r), "chars": (len(vocab.chars), r),
              "class_proj": (r, d), "genders": (3, d), "readout": (3, d, d),
              "gates": (3, 2)}  # fmt: skip
    assert {k: theta[k].shape for k in shapes} == shapes and set(theta) == set(PARAM_NAMES)
    assert not theta["gates"].any()
    again = init_theta(SMALL, vocab, seed=7)
    assert all(np.array_equal(theta[k], again[k]) for k in theta)


def test_measured_steps_are_every_eval_every_every_checkpoint_and_the_end():
    c = TrainConfig(steps=120, eval_every=50, checkpoints=(0, 25, 120))
    assert c.eval_steps == (0, 25, 50, 100, 120)


@pytest.mark.slow  # trains twice: make test
def test_training_twice_gives_identical_weights_and_measurements():
    runs = [train(TINY_RUN, log=lambda _: None) for _ in range(2)]
    for a, b in zip(runs[0]["checkpoints"], runs[1]["checkpoints"], strict=True):
        for k in PARAM_NAMES:
            np.testing.assert_array_equal(a[k], b[k])
    np.testing.assert_array_equal(runs[0]["losses"], runs[1]["losses"])
    for key in ("evals", "human"):
        for a, b in zip(runs[0][key], runs[1][key], strict=True):
            np.testing.assert_array_equal(a["relations"], b["relations"])
    assert len(runs[0]["evals"]) == len(TINY_RUN.eval_steps) == 3


@pytest.mark.slow  # trains and saves a run: make test
def test_saved_run_loads_back_as_it_was_measured(tmp_path):
    result = train(TINY_RUN, log=lambda _: None)
    path = tmp_path / "tiny.npz"
    save(path, TINY_RUN, result)
    history = load_demo_history(path)
    assert history.steps.tolist() == [0, 2, 4] and history.config == SMALL
    np.testing.assert_array_equal(history.relations[-1], result["evals"][-1]["relations"])
    np.testing.assert_array_equal(history.human[-1], result["human"][-1]["relations"])
    m = load_demo_model(4, path)
    assert m.vocab == result["vocab"]
    for k, v in m.weights.items():
        np.testing.assert_array_equal(v, result["checkpoints"][-1][k])


def test_fresh_words_keep_only_the_pronouns_and_dropped_features_read_as_unknown(small):
    _, _, batch, _ = small
    config = TrainConfig(model=SMALL, max_shift=6, drop_classes=0.5, drop_chars=0.5)
    rng = np.random.default_rng(0)
    fresh = fresh_words(batch, config, rng)
    pronoun = batch.tags == TAGS.index("r")
    np.testing.assert_array_equal(fresh.words[pronoun], batch.words[pronoun])
    other = ~pronoun & batch.valid
    assert not np.allclose(fresh.words[other], batch.words[other])
    dropped = drop_features(batch, config, rng)
    gone = (dropped.cls_ids[..., 0] == 0) & (dropped.cls_w[..., 0] == 1.0) & batch.valid
    assert 0.3 < gone.sum() / batch.valid.sum() < 0.8  # about half, plus words Cilin lacks
    assert np.all(dropped.cls_w[gone][:, 1:] == 0)
    moved = shift_positions(batch, config, np.random.default_rng(1))
    pos = slice(SMALL.d_word, SMALL.d_word + SMALL.d_pos)
    np.testing.assert_array_equal(moved.fixed[..., : pos.start], batch.fixed[..., : pos.start])
    assert not np.allclose(moved.fixed[..., pos], batch.fixed[..., pos])


def test_learning_rate_falls_from_lr_to_lr_end():
    c = TrainConfig()
    assert c.lr_at(0) == pytest.approx(c.lr) and c.lr_at(c.steps - 1) == pytest.approx(c.lr_end)
    assert all(c.lr_at(s) >= c.lr_at(s + 1) for s in range(c.steps - 1))


def test_the_training_config_is_validated():
    with pytest.raises(ValueError, match="checkpoints"):
        TrainConfig(checkpoints=(5, 10))
    with pytest.raises(ValueError, match="lr_end"):
        TrainConfig(lr_end=0.5)
    with pytest.raises(ValueError, match="drop"):
        TrainConfig(drop_chars=1.0)


@pytest.mark.slow(s=10)
def test_recomputed_measurement_equals_the_stored_one_at_every_checkpoint():
    """Every checkpoint as the app loads it, measured on the held-out split and the human-written
    sets with the vocabulary the file stores, gives the stored figures. The training split is not
    built again for its vocabulary (3,000 sentences through jieba, a third of this test): the
    file's is the command's (test_the_shipped_file_is_what_the_training_command_writes)."""
    h = load_demo_history()
    config = TrainConfig(model=h.config)
    held, human = measured_sets(config, load_demo_model(int(h.steps[-1])).vocab)
    for step in h.steps:
        m = load_demo_model(int(step))
        k = h.at(int(step))
        for batch, stored in ((held, h.relations[k]), (human, h.human[k])):
            ev = evaluate(dict(m.weights), batch, h.config.num_heads)
            np.testing.assert_allclose(ev["relations"], stored, atol=1e-12)
        np.testing.assert_allclose(ev["profiles"], h.profiles[k], atol=1e-12)


@pytest.mark.slow(s=40)  # trains the shipped model
def test_the_shipped_file_is_what_the_training_command_writes(tmp_path):
    """`python -m demo_model` again, one BLAS thread (the matrices are small, more
    threads only spin): the stored weights equal the shipped ones bit for bit; the measured
    floats (losses, figures) agree within float64 noise, since OpenBLAS picks its kernels by
    CPU (an AMD EPYC sums in another order than an Intel Xeon: eval_loss differed by 1.1e-16,
    which the float16 weights round away)."""
    out = tmp_path / "again.npz"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "demo_model", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True, timeout=1800)
    with np.load(out) as again, np.load(DEMO_PATH) as shipped:
        assert sorted(again.files) == sorted(shipped.files)
        for name in shipped.files:
            if again[name].dtype.kind == "f" and not name.startswith("theta_"):
                np.testing.assert_allclose(again[name], shipped[name], rtol=1e-6, atol=1e-9,
                                           err_msg=name)  # fmt: skip
            else:
                np.testing.assert_array_equal(again[name], shipped[name], err_msg=name)
