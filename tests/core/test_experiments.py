"""The lab pages' experiments (attention_core/experiments.py) against loops and the pipeline."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import experiments as ex
from tests.reference import causal_allowed, loop_softmax


def test_cell_counts_count_words_and_characters():
    counts = {"word_n": 3, "word_cells": 9, "char_n": 3, "char_cells": 9}
    cuts = {"chars_cut": 0, "word_cut": 0, "char_cut": 0}
    assert ex.cell_counts("我打你") == {**counts, **cuts}
    assert ex.cell_counts("   ")["word_n"] == 0


def test_cell_counts_are_of_the_sentence_as_cut():
    """5,000 characters: 3,000 cut, then 2,000 characters are 2,000 character tokens, cut to
    128 (1,872 dropped); the counts are of what is kept."""
    c = ex.cell_counts("我们明天去公园散步，" * 500)
    assert c["chars_cut"] == 3000
    assert (c["char_n"], c["char_cut"], c["char_cells"]) == (128, 2000 - 128, 128 * 128)
    assert c["word_n"] == 128 and c["word_cut"] > 0


def test_temperature_stats_at_tau_one_are_the_rows_of_the_plain_softmax():
    scores = np.random.default_rng(1).standard_normal((4, 4)) * 3
    stats = ex.temperature_row_stats(scores, [1.0], causal=True)
    rows = [loop_softmax(scores[i], causal_allowed(4)[i]) for i in range(4)]
    entropy = np.mean([-sum(p * math.log(p) for p in r if p > 0) for r in rows])
    assert stats["entropy"][0] == pytest.approx(entropy)
    assert stats["max"][0] == pytest.approx(np.mean([max(r) for r in rows]))
