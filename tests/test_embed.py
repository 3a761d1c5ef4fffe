"""Token vectors are stable per token text; sinusoidal positions follow the paper."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from attention_core import build_inputs, embed_tokens, sinusoidal_positions, token_vector, tokenize


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


def test_sinusoidal_positions_formula():
    pe = sinusoidal_positions(5, 6)
    p, i = 3, 1
    assert pe.shape == (5, 6)
    assert pe[p, 2 * i] == pytest.approx(np.sin(p / 10000 ** (2 * i / 6)))
    assert pe[p, 2 * i + 1] == pytest.approx(np.cos(p / 10000 ** (2 * i / 6)))
    assert sinusoidal_positions(4, 5).shape == (4, 5)  # odd width


def test_build_inputs_adds_positions():
    x0 = build_inputs(["a", "b"], 4)
    x1 = build_inputs(["a", "b"], 4, positions=True)
    np.testing.assert_allclose(x1 - x0, sinusoidal_positions(2, 4))


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
