"""demo_model.data.grammar: the clause grammar that writes the corpus's sentence patterns — seeded,
each pattern in the split its hash gives it, every pronoun after the one it means."""

import hashlib
import re

import numpy as np
import pytest

from demo_model.data.grammar import HELDOUT_SHARE, LITERALS, PRONOUN_OF, compose, split_of

SLOT = re.compile(r"\{([^}]+)\}")
ANTECEDENT = {pronoun: who for who, pronoun in PRONOUN_OF.items()}  # R1 → P1 …


def test_a_pattern_is_held_out_when_its_hash_says_so():
    """One shape in HELDOUT_SHARE: the first byte of the pattern's 2-byte BLAKE2b digest."""
    for pattern in ("{P1}笑了。", "{P1}把{O}{vbl:P1}{L}里。", "{T}，{P1}{vi:P1}了。"):
        first = hashlib.blake2b(pattern.encode(), digest_size=2).digest()[0]
        assert split_of(pattern) == ("heldout" if first % HELDOUT_SHARE == 0 else "train")


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_compose_is_seeded_and_keeps_to_its_split(split):
    a = [compose(split, np.random.default_rng(4)) for _ in range(3)]
    assert a == [compose(split, np.random.default_rng(4)) for _ in range(3)]
    rng = np.random.default_rng(0)
    patterns = [compose(split, rng) for _ in range(300)]
    assert all(split_of(p) == split and p.endswith("。") for p in patterns)
    assert all(1 <= p.count("，") + 1 <= 4 for p in patterns)  # one to three clauses (+ a time)
    assert len(set(patterns)) > 250  # shapes vary


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_every_pronoun_comes_after_the_one_it_means(split):
    """{R1} only once P1 is named ({P1}, {P1>O}, {vt:P1} …), {RN} after the animal, {RO} after
    the thing: a pronoun looks back."""
    rng = np.random.default_rng(1)
    for _ in range(300):
        pattern, seen = compose(split, rng), set()
        for spec in SLOT.findall(pattern):
            name = spec.split(">")[0].split("/")[0].split(":")[0]
            if name in ANTECEDENT:
                assert ANTECEDENT[name] in seen, pattern
            seen.update(re.split("[>/:]", spec))


def test_the_two_splits_share_no_literal_content_word():
    def words(split):
        out = set()
        for value in LITERALS[split].values():
            out.update((value,) if isinstance(value, str) else value)
        return out

    assert not words("train") & words("heldout")
