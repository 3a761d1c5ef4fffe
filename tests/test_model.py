"""Tests of the demo model: backprop against finite differences, training, the shipped weights
and what they are measured to do."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from attention_core import corpus, features, lexicon, model, train
from attention_core.attention import multi_head_attention
from attention_core.demo import describe_heads, job_onsets, load_demo_history, load_demo_model
from attention_core.features import ModelConfig, build_vocab
from attention_core.tokenize import tokenize

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "小明把书放在了桌子上，然后他走了。"
SMALL = ModelConfig(d_model=12, num_heads=2, d_word=4, d_pos=4, d_embed=3)
# The best head's argmax on the generated held-out split: the 95% for each relation
# (round 3 of issue 21 asks exactly that).
HELDOUT_FLOOR = dict.fromkeys(corpus.LINKS, 0.95)


@pytest.fixture(scope="module")
def small():
    """A tiny config, a few labelled sentences as one padded batch, random parameters."""
    examples = corpus.build("train", 6, seed=0)
    vocab = build_vocab(t.text for e in examples for t in e.tokens)
    theta = train.init_theta(SMALL, vocab, seed=5)
    return vocab, examples, model.make_batch(examples, SMALL, vocab), theta


def finite_difference_check(
    theta: dict, batch, scale: bool, per_param: int = 10, focus: float = 0.0
) -> None:
    def loss(t):
        return model.forward(t, batch, 2, scale=scale, focus=focus)

    grads = model.backward(theta, batch, loss(theta))
    rng = np.random.default_rng(0)
    for name in model.PARAM_NAMES:
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
    assert set(np.unique(batch.qr)) == set(range(len(corpus.LINKS)))  # every read-out is used
    theta = {k: v.copy() for k, v in theta.items()}
    theta["gates"] = np.random.default_rng(2).standard_normal(theta["gates"].shape)  # uneven
    finite_difference_check(theta, batch, scale, focus=focus)


def test_backprop_on_a_training_batch_with_fresh_words_dropped_features_and_shifts(small):
    _, _, batch, theta = small
    tc = train.TrainConfig(model=SMALL, max_shift=8, drop_classes=0.5, drop_chars=0.5)
    rng = np.random.default_rng(3)
    batch = train.shift_positions(train.fresh_words(batch, tc, rng), tc, rng)
    batch = train.drop_features(batch, tc, rng)
    finite_difference_check({k: v.copy() for k, v in theta.items()}, batch, True, per_param=5)


def test_training_forward_equals_the_core_on_each_sentence(small):
    vocab, examples, batch, theta = small
    m = model.TrainedModel(SMALL, vocab, theta, step=0)
    fw = model.forward(theta, batch, 2)
    for b, e in enumerate(examples):
        n = len(e.tokens)
        core = multi_head_attention(m.inputs(e.tokens), m.params)
        np.testing.assert_allclose(fw["x"][b, :n], m.inputs(e.tokens), atol=1e-12)
        np.testing.assert_allclose(fw["a"][b, :, :n, :n], core.heads.weights, atol=1e-12)
        np.testing.assert_allclose(fw["y"][b, :n], core.output, atol=1e-12)


@pytest.mark.parametrize("switch", ["classes", "chars", "context", "gender", "clauses"])
def test_an_ablated_feature_leaves_x_untouched(small, switch):
    """classes=False (chars, context, gender, clauses) trains and runs without that feature: X
    no longer depends on its table, whatever the table holds."""
    vocab, examples, _, theta = small
    off = ModelConfig(**{**SMALL.__dict__, switch: False})
    batch = model.make_batch(examples, off, vocab)
    table = {"classes": "classes", "chars": "chars", "context": "before", "gender": "genders",
             "clauses": "clause"}[switch]  # fmt: skip
    other = {**theta, table: theta[table] + 1.0}
    for t in (theta, other):
        x = model.forward(t, batch, 2)["x"]
        np.testing.assert_array_equal(x, model.forward(theta, batch, 2)["x"])
        m = model.TrainedModel(off, vocab, t, step=0)
        np.testing.assert_allclose(m.inputs(examples[0].tokens), x[0, : len(examples[0].tokens)])


def test_clause_numbers_count_the_clause_ends_before_a_token():
    """The comma ending a clause belongs to it; the next token starts the next clause; a
    sixth clause and later share the last row."""
    from attention_core.features import CLAUSES, clause_ids
    from attention_core.tokenize import tokenize

    tokens = tokenize("老师走进教室，他开始讲课。", mode="word")
    assert [t.text for t in tokens] == ["老师", "走进", "教室", "，", "他", "开始", "讲课", "。"]
    assert clause_ids(tokens).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    many = tokenize("甲，乙，丙，丁，戊，己，庚，辛。", mode="word")
    assert clause_ids(many).tolist()[-3:] == [CLAUSES - 1] * 3
    assert clause_ids([]).tolist() == []


def test_head_measurements_equal_a_plain_loop(small):
    """evaluate(): per head, argmax hit rate and mean target weight per relation, and the
    PROFILES shares, against loops over sentences, tokens and heads."""
    _, examples, batch, theta = small
    ev = train.evaluate(theta, batch, 2)
    a = model.forward(theta, batch, 2)["a"]
    for h in range(2):
        for r, rel in enumerate(corpus.LINKS):
            pairs = [(b, i, j) for b, e in enumerate(examples) for i, j in e.links[rel]]
            hits = [np.argmax(a[b, h, i, : len(examples[b].tokens)]) == j for b, i, j in pairs]
            assert ev["relations"][h, r, 0] == pytest.approx(np.mean(hits))
            assert ev["relations"][h, r, 1] == pytest.approx(
                np.mean([a[b, h, i, j] for b, i, j in pairs])
            )
        shares = {name: [] for name in model.PROFILES}
        for b, e in enumerate(examples):
            n = len(e.tokens)
            masks = model.token_masks(e.tokens)
            for i in range(n):
                row = a[b, h, i, :n]
                shares["self"].append(row[i])
                if i > 0:
                    shares["previous"].append(row[i - 1])
                    shares["first"].append(row[0])
                if i < n - 1:
                    shares["next"].append(row[i + 1])
                for k, name in enumerate(("punctuation", "people", "nouns", "verbs")):
                    shares[name].append(row[masks[:, k]].sum())
        for p, name in enumerate(model.PROFILES):
            assert ev["profiles"][h, p] == pytest.approx(np.mean(shares[name])), name


# ---- what a word is to the model: gender, names, tags -------------------------------------------

# Known by any reader of Chinese, not by the code: the gender of person words and names.
GENDERS = {
    "妈妈": "f", "爸爸": "m", "奶奶": "f", "爷爷": "m", "嫂子": "f", "姨父": "m", "小姨": "f",
    "女儿": "f", "儿子": "m", "新娘": "f", "叔叔": "m", "阿姨": "f", "他": "m", "她": "f",
    "老师": "", "医生": "", "司机": "", "孩子": "", "它": "", "桌子": "", "小猫": "",
}  # fmt: skip
NAMES = {"韩梅梅": "f", "李娜": "f", "黄晓东": "m", "张伟": "m", "小王": "", "老张": ""}


@pytest.mark.parametrize(("word", "expected"), [*GENDERS.items(), *NAMES.items()])
def test_gender_of_person_words_and_names(word, expected):
    (token,) = tokenize(word)
    assert lexicon.gender(word, token.tag) == expected


def test_a_given_names_gender_is_naive_bayes_over_its_characters():
    """梅梅: the odds of a woman's name, from the asset's own counts by hand."""
    counts = lexicon.name_counts()
    (m_all, f_all), (m, f) = counts["-"], counts["梅"]
    odds = (f_all / m_all) * ((f / f_all) / (m / m_all)) ** 2
    assert odds / (1 + odds) > lexicon.NAME_CONFIDENCE and lexicon.given_name_gender("梅梅") == "f"
    assert lexicon.given_name_gender("") == ""  # no evidence: P(female) is the prior, < 0.8
    assert "ngender 0.1.1" in lexicon.NAMES_PATH.read_text(encoding="utf-8").splitlines()[1]


def test_names_are_people_and_common_words_tagged_nr_are_nouns():
    """A name gets Cilin's class 人, not its last character's (梅 a plum tree); a common word
    jieba tags nr (熊猫) is seen as n; the shown tag is jieba's."""
    for text in ("韩梅梅说", "小王说", "老林说"):
        name = tokenize(text)[0]
        assert features.word_classes(name.text, name.tag) == (features.NAME_CLASS,), text
    assert features.word_classes("梅") and features.word_classes("韩梅梅") != ("Aa01A",)
    panda = tokenize("熊猫吃竹子")[0]
    assert panda.tag == "nr" and features.model_tag(panda) == "n"
    assert features.model_tag(tokenize("李娜说")[0]) == "nr"


@pytest.mark.parametrize(
    ("sentence", "word", "jieba", "seen"),
    [
        ("妈妈和哥哥回家了。", "哥哥", "ns", "n"),  # a kin word jieba guesses is a place
        ("门口站着一个警察。", "警察", "v", "n"),  # Cilin files 警察 only under 人
        ("警察检查了他的驾照。", "驾照", "v", "n"),  # … and 驾照 only under 物
        ("他去了北京。", "北京", "ns", "ns"),  # a real place stays one
        ("她很安静。", "安静", "nr", "a"),  # an adjective jieba takes for a name
        ("他开始讲课。", "开始", "v", "v"),
    ],
)
def test_the_model_sees_n_where_jiebas_guess_contradicts_cilin(sentence, word, jieba, seen):
    token = next(t for t in tokenize(sentence) if t.text == word)
    assert (token.tag, features.model_tag(token)) == (jieba, seen)


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
    for key in ("evals", "human"):
        for a, b in zip(runs[0][key], runs[1][key], strict=True):
            np.testing.assert_array_equal(a["relations"], b["relations"])
    assert len(runs[0]["evals"]) == len(TINY_RUN.eval_steps) == 3


def test_saved_run_loads_back_as_it_was_measured(tmp_path):
    result = train.train(TINY_RUN, log=lambda _: None)
    path = tmp_path / "tiny.npz"
    train.save(path, TINY_RUN, result)
    history = load_demo_history(path)
    assert history.steps.tolist() == [0, 2, 4] and history.config == SMALL
    np.testing.assert_array_equal(history.relations[-1], result["evals"][-1]["relations"])
    np.testing.assert_array_equal(history.human[-1], result["human"][-1]["relations"])
    m = load_demo_model(4, path)
    assert m.vocab == result["vocab"]
    for k, v in m.theta().items():
        np.testing.assert_array_equal(v, result["checkpoints"][-1][k])


def test_fresh_words_keep_only_the_pronouns_and_dropped_features_read_as_unknown(small):
    _, _, batch, _ = small
    config = train.TrainConfig(model=SMALL, max_shift=6, drop_classes=0.5, drop_chars=0.5)
    rng = np.random.default_rng(0)
    fresh = train.fresh_words(batch, config, rng)
    pronoun = batch.tags == model.TAGS.index("r")
    np.testing.assert_array_equal(fresh.words[pronoun], batch.words[pronoun])
    other = ~pronoun & batch.valid
    assert not np.allclose(fresh.words[other], batch.words[other])
    dropped = train.drop_features(batch, config, rng)
    gone = (dropped.cls_ids[..., 0] == 0) & (dropped.cls_w[..., 0] == 1.0) & batch.valid
    assert 0.3 < gone.sum() / batch.valid.sum() < 0.8  # about half, plus words Cilin lacks
    assert np.all(dropped.cls_w[gone][:, 1:] == 0)
    moved = train.shift_positions(batch, config, np.random.default_rng(1))
    pos = slice(SMALL.d_word, SMALL.d_word + SMALL.d_pos)
    np.testing.assert_array_equal(moved.fixed[..., : pos.start], batch.fixed[..., : pos.start])
    assert not np.allclose(moved.fixed[..., pos], batch.fixed[..., pos])


def test_learning_rate_falls_from_lr_to_lr_end():
    c = train.TrainConfig()
    assert c.lr_at(0) == pytest.approx(c.lr) and c.lr_at(c.steps - 1) == pytest.approx(c.lr_end)
    assert all(c.lr_at(s) >= c.lr_at(s + 1) for s in range(c.steps - 1))


def test_configs_are_validated():
    with pytest.raises(ValueError, match="divisible"):
        ModelConfig(d_model=30, num_heads=4)
    with pytest.raises(ValueError, match="d_word"):
        ModelConfig(d_model=16, num_heads=4, d_word=12, d_pos=8)
    with pytest.raises(ValueError, match="d_embed"):
        ModelConfig(d_embed=0)
    with pytest.raises(ValueError, match="checkpoints"):
        train.TrainConfig(checkpoints=(5, 10))
    with pytest.raises(ValueError, match="lr_end"):
        train.TrainConfig(lr_end=0.5)
    with pytest.raises(ValueError, match="drop"):
        train.TrainConfig(drop_chars=1.0)


# ---- the shipped weights ------------------------------------------------------------------------


def _held_best() -> dict:
    """relation -> (best head, its argmax hit rate) on the generated held-out split."""
    return dict(zip(corpus.LINKS, train.best_heads(load_demo_history().relations[-1]), strict=True))


def test_shipped_history_and_size():
    h = load_demo_history()
    assert h.steps[0] == 0 and len(h.losses) == h.steps[-1] == h.eval_steps[-1]
    assert set(h.steps) <= set(h.eval_steps)
    assert len({head for head, _ in _held_best().values()}) == len(corpus.LINKS), _held_best()
    assert model.DEMO_PATH.stat().st_size <= 2_000_000


@pytest.mark.parametrize("relation", corpus.LINKS)
def test_shipped_heads_meet_the_floor_on_the_heldout_split(relation):
    """The best head of each relation hits its floor on the generated held-out split (the
    human-written sets' figures: tests/test_eval_set.py)."""
    assert _held_best()[relation][1] >= HELDOUT_FLOOR[relation]


@pytest.mark.slow
def test_recomputed_measurement_equals_the_stored_one_at_every_checkpoint():
    h = load_demo_history()
    config = train.TrainConfig(model=h.config)
    _, _, held, human = train.datasets(config)
    for step in h.steps:
        m = load_demo_model(int(step))
        k = h.at(int(step))
        for batch, stored in ((held, h.relations[k]), (human, h.human[k])):
            ev = train.evaluate(m.theta(), batch, h.config.num_heads)
            np.testing.assert_allclose(ev["relations"], stored, atol=1e-12)
        np.testing.assert_allclose(ev["profiles"], h.profiles[k], atol=1e-12)


@pytest.mark.slow
def test_the_shipped_file_is_what_the_training_command_writes(tmp_path):
    """`python -m attention_core.train` again, one BLAS thread (the matrices are small, more
    threads only spin): the stored weights equal the shipped ones bit for bit; the measured
    floats (losses, figures) agree within float64 noise, since OpenBLAS picks its kernels by
    CPU (an AMD EPYC sums in another order than an Intel Xeon: eval_loss differed by 1.1e-16,
    which the float16 weights round away)."""
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
    history = load_demo_history()
    final = describe_heads()
    assert set(corpus.LINKS) <= {s.relation for s in final}
    for s in final:
        rows, held = history.human[-1, s.head], history.relations[-1, s.head]
        r = model.RELATIONS.index(s.closest)
        assert s.accuracy == rows[r, 0] and s.weight == rows[r, 1]
        assert (s.relation == model.DIFFUSE) == (held[r, 0] < model.JOB_THRESHOLD)
        assert s.total == history.human_counts[r] and s.hits == round(s.accuracy * s.total)
        assert s.heldout_total == history.heldout_counts[r]
        assert s.heldout_hits == round(history.relations[-1, s.head, r, 0] * s.heldout_total)
        p = model.PROFILES.index(s.profile)
        assert s.profile_share == history.profiles[-1, s.head, p]
        assert s.profile_chance == history.profile_chance[p]
    assert all(s.relation == model.DIFFUSE for s in describe_heads(0))
    steps = history.eval_steps
    for s, at in zip(final, job_onsets(), strict=True):
        assert (at is None) == (s.relation == model.DIFFUSE)
        assert at is None or 0 < at <= steps[-1]
    with pytest.raises(ValueError, match="measured"):
        describe_heads(7)


def test_every_trained_head_has_a_measured_job_or_a_measured_habit():
    """Each head of the final model follows a relation in at least half the rows of the
    held-out split (a question, itself or the previous word); a head that does not puts its
    weight somewhere measurably more than evenly (its profile: ≥ 1.5 × the share uniform weights
    would give), which is what the app says of it."""
    for s in describe_heads():
        assert s.relation != model.DIFFUSE or s.profile_share >= 1.5 * s.profile_chance, s


def test_shipped_model_resolves_the_example_pronoun_in_its_pronoun_head():
    run = load_demo_model().run(EXAMPLE)
    texts = run.tokens.texts
    he, xiaoming = texts.index("他"), texts.index("小明")
    reading = model.read_pronoun(run.tokens, run.attention.heads.weights, describe_heads())
    assert reading.head is not None and reading.head.relation == "pronoun_antecedent"
    assert reading.decided and reading.keys[0] == xiaoming and reading.query == he
    assert reading.status == "answer"
    start = load_demo_model(0).run(EXAMPLE)
    assert start.attention.heads.weights[:, he, xiaoming].max() < 0.3  # near uniform at step 0
    early = model.read_pronoun(texts, start.attention.heads.weights, describe_heads(0))
    assert early.head is None and early.status == "no_head"


def test_loaded_weights_are_cached_and_read_only():
    m = load_demo_model()
    assert load_demo_model(int(load_demo_history().steps[-1])) is m
    with pytest.raises(ValueError):
        m.params.w_q[0, 0] = 1.0
    with pytest.raises(ValueError, match="saved steps"):
        load_demo_model(7)


def test_unseen_words_and_unknown_tags_work():
    run = load_demo_model().run("Zorg 和 赵燕 在 火星 上 吃了 🍎", scale=False)
    n, h = len(run.tokens), load_demo_history().config.num_heads
    assert run.attention.heads.weights.shape == (h, n, n)
    np.testing.assert_allclose(run.attention.heads.weights.sum(-1), 1.0)


def test_the_old_names_still_import_from_model():
    """pages/ and the CLI import these from attention_core.model (DESIGN.md's contract)."""
    for name in ("load_demo_model", "load_demo_history", "describe_heads", "job_onsets",
                 "read_pronoun", "read_token", "PRONOUNS", "DIFFUSE", "JOB_THRESHOLD",
                 "DECIDED_MIN", "DECIDED_GAP", "HeadSummary", "DemoHistory"):  # fmt: skip
        assert getattr(model, name) is not None
    with pytest.raises(AttributeError):
        model.no_such_name  # noqa: B018
