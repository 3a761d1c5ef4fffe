"""Fixtures of the demo model's tests: a tiny config and a few labelled sentences as one batch."""

import pytest

from demo_model.batch import make_batch
from demo_model.data import corpus
from demo_model.features import build_vocab
from demo_model.train import init_theta
from tests.model.support import SMALL


@pytest.fixture(scope="module")
def small():
    """(vocab, examples, batch, theta): six training sentences of SMALL, random parameters."""
    examples = corpus.build("train", 6, seed=0)
    vocab = build_vocab(t.text for e in examples for t in e.tokens)
    theta = init_theta(SMALL, vocab, seed=5)
    return vocab, examples, make_batch(examples, SMALL, vocab), theta
