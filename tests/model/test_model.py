"""demo_model.model: the trained model at one checkpoint — X from its tables, the core's attention
on it, and the shipped weights reading the article's sentence."""

import numpy as np
import pytest

from attention_core.attention import multi_head_attention
from demo_model import load_demo_history, load_demo_model
from demo_model.batch import make_batch
from demo_model.demo import describe_heads
from demo_model.features import (
    NEIGHBOURS,
    ModelConfig,
    clause_ids,
    fixed_features,
    gender_ids,
    neighbour_ids,
    tag_ids,
)
from demo_model.model import MODE, PARAM_NAMES, TrainedModel
from demo_model.network import forward
from demo_model.reading import read_pronoun
from tests.model.support import SMALL

EXAMPLE = "小明把书放在了桌子上，然后他走了。"


def test_x_is_the_sum_of_the_tables_rows_and_the_fixed_blocks(small):
    """X by a loop over tokens: tag, gender, neighbour and clause rows, the class and character
    rows weighted and projected, plus the word and position blocks (features.py's formula)."""
    vocab, examples, _, theta = small
    tokens = examples[0].tokens
    x = TrainedModel(SMALL, vocab, theta, step=0).inputs(tokens)  # (n, d_model)
    tags, genders, clauses = tag_ids(tokens), gender_ids(tokens), clause_ids(tokens)
    before, after = neighbour_ids(tokens)
    fixed = fixed_features(tokens, SMALL)
    for i in range(len(tokens)):
        row = theta["tags"][tags[i]] + theta["genders"][genders[i]] + fixed[i]
        row = row + theta["before"][before[i]] + theta["after"][after[i]]
        row = row + theta["clause"][clauses[i]]
        for kind, proj in (("classes", "class_proj"), ("chars", "char_proj")):
            found = vocab.class_entries(tokens[i].text, tokens[i].tag) if kind == "classes" else (
                vocab.char_entries(tokens[i].text)
            )  # fmt: skip
            mixed = sum(weight * theta[kind][r] for r, weight in found.items())  # (d_embed,)
            row = row + mixed @ theta[proj]
        np.testing.assert_allclose(x[i], row, atol=1e-12)
    assert before[0] == len(NEIGHBOURS) - 1 and after[-1] == len(NEIGHBOURS) - 1  # "^" edges


def test_run_is_the_cores_attention_on_the_models_own_x(small):
    vocab, _, _, theta = small
    m = TrainedModel(SMALL, vocab, theta, step=3)
    run = m.run("小明走了，他很高兴。", scale=False)
    assert run.tokens.texts == ["小明", "走", "了", "，", "他", "很", "高兴", "。"]
    assert MODE == "word" and m.params.num_heads == SMALL.num_heads and m.step == 3
    core = multi_head_attention(m.inputs(run.tokens), m.params, scale=False)
    np.testing.assert_array_equal(run.x, m.inputs(run.tokens))
    np.testing.assert_array_equal(run.attention.heads.weights, core.heads.weights)
    assert set(m.weights) == set(PARAM_NAMES) and m.params is m.params  # made once


@pytest.mark.parametrize("switch", ["classes", "chars", "context", "gender", "clauses"])
def test_an_ablated_feature_leaves_x_untouched(small, switch):
    """classes=False (chars, context, gender, clauses) trains and runs without that feature: X
    no longer depends on its table, whatever the table holds."""
    vocab, examples, _, theta = small
    off = ModelConfig(**{**SMALL.__dict__, switch: False})
    batch = make_batch(examples, off, vocab)
    table = {"classes": "classes", "chars": "chars", "context": "before", "gender": "genders",
             "clauses": "clause"}[switch]  # fmt: skip
    other = {**theta, table: theta[table] + 1.0}
    for t in (theta, other):
        x = forward(t, batch, 2)["x"]
        np.testing.assert_array_equal(x, forward(theta, batch, 2)["x"])
        m = TrainedModel(off, vocab, t, step=0)
        np.testing.assert_allclose(m.inputs(examples[0].tokens), x[0, : len(examples[0].tokens)])


def test_shipped_model_resolves_the_example_pronoun_in_its_pronoun_head():
    run = load_demo_model().run(EXAMPLE)
    texts = run.tokens.texts
    he, xiaoming = texts.index("他"), texts.index("小明")
    reading = read_pronoun(run.tokens, run.attention.heads.weights, describe_heads())
    assert reading.head is not None and reading.head.relation == "pronoun_antecedent"
    assert reading.decided and reading.keys[0] == xiaoming and reading.query == he
    assert reading.status == "answer"
    start = load_demo_model(0).run(EXAMPLE)
    assert start.attention.heads.weights[:, he, xiaoming].max() < 0.3  # near uniform at step 0
    early = read_pronoun(texts, start.attention.heads.weights, describe_heads(0))
    assert early.head is None and early.status == "no_head"


def test_unseen_words_and_unknown_tags_work():
    run = load_demo_model().run("Zorg 和 赵燕 在 火星 上 吃了 🍎", scale=False)
    n, h = len(run.tokens), load_demo_history().config.num_heads
    assert run.attention.heads.weights.shape == (h, n, n)
    np.testing.assert_allclose(run.attention.heads.weights.sum(-1), 1.0)
