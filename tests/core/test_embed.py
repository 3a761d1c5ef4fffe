"""Token vectors are stable per token text; sinusoidal positions follow the paper."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from attention_core import build_inputs, embed_tokens, sinusoidal_positions, token_vector, tokenize
from tests.reference import sinusoid


def test_same_token_same_vector_in_every_sentence():
    a, b = embed_tokens(["我", "打", "你"], 8), embed_tokens(["你", "打", "我"], 8)
    np.testing.assert_array_equal(a[[2, 1, 0]], b)
    assert not np.allclose(token_vector("我", 8, seed=0), token_vector("我", 8, seed=1))


def test_vectors_are_the_same_in_a_fresh_process():
    code = "from attention_core import token_vector; print(token_vector('小明', 4).tolist())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == token_vector("小明", 4).tolist()


def test_embed_accepts_tokens_and_strings():
    tokens = tokenize("小明走了")
    np.testing.assert_array_equal(
        embed_tokens(tokens, 6), embed_tokens([t.text for t in tokens], 6)
    )


@pytest.mark.parametrize(("n", "d"), [(5, 6), (4, 5), (1, 1), (0, 3), (50, 8)])
def test_sinusoidal_positions_formula(n, d):
    np.testing.assert_allclose(sinusoidal_positions(n, d), sinusoid(n, d), rtol=1e-12, atol=1e-15)


def test_sinusoidal_positions_hand_values():
    pe = sinusoidal_positions(3, 4)  # p / 10000^(0/4) = p, p / 10000^(2/4) = p / 100
    np.testing.assert_allclose(pe[2], [np.sin(2), np.cos(2), np.sin(0.02), np.cos(0.02)])
    np.testing.assert_array_equal(pe[0], [0, 1, 0, 1])


def test_build_inputs_adds_positions():
    x0 = build_inputs(["a", "b"], 4)
    x1 = build_inputs(["a", "b"], 4, positions=True)
    np.testing.assert_allclose(x1 - x0, sinusoid(2, 4), atol=1e-15)
    np.testing.assert_array_equal(x0, np.stack([token_vector("a", 4), token_vector("b", 4)]))


def test_token_vectors_have_unit_variance_components_and_depend_on_the_seed():
    vecs = embed_tokens([str(i) for i in range(400)], 64)  # (400, 64)
    assert abs(vecs.mean()) < 0.02 and abs(vecs.var() - 1) < 0.03
    assert not np.array_equal(embed_tokens(["我"], 8, seed=0), embed_tokens(["我"], 8, seed=1))
    assert embed_tokens([], 5).shape == (0, 5)
    assert not token_vector("我", 8).flags.writeable  # cached: shared, so read-only


@pytest.mark.parametrize(
    "call",
    [
        lambda: token_vector("a", 0),
        lambda: embed_tokens(["a"], -1),
        lambda: sinusoidal_positions(-1, 4),
        lambda: sinusoidal_positions(3, 0),
    ],
)
def test_bad_sizes_raise_value_error(call):
    with pytest.raises(ValueError, match="must be an integer"):
        call()


def test_sizes_must_be_true_integers_and_one_is_allowed():
    for bad in (2.5, True, "4", None):
        with pytest.raises(ValueError, match="must be an integer"):
            token_vector("a", bad)
        with pytest.raises(ValueError, match="must be an integer"):
            sinusoidal_positions(3, bad)
    assert token_vector("a", 1).shape == (1,) and embed_tokens(["a", "b"], 1).shape == (2, 1)
    assert sinusoidal_positions(0, 1).shape == (0, 1) and token_vector("a", np.int64(3)).shape == (
        3,
    )


def test_the_seed_reaches_every_vector():
    np.testing.assert_array_equal(embed_tokens(["a"], 4)[0], token_vector("a", 4, seed=0))
    np.testing.assert_array_equal(build_inputs(["a"], 4, seed=3)[0], token_vector("a", 4, seed=3))
    assert not np.array_equal(build_inputs(["a"], 4, seed=3), build_inputs(["a"], 4))
