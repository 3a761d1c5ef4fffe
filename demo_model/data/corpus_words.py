"""The corpus's word lists, split into training and held-out words (never shared): the ones written
by hand in corpus_words.toml, and the pools drawn from jieba's dictionary and Cilin.

None of them is a labelled word of the human-written sets beside this file (eval_*.txt), so the
model must reach those through their meaning class (Cilin) and their characters.
tests/model/test_evalset.py checks it.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

SPLITS = ("train", "heldout")


def _tuples(value):
    """TOML's lists as tuples, all the way down (the lists are constants)."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


_HAND = _tuples(tomllib.loads((Path(__file__).with_suffix(".toml")).read_text(encoding="utf-8")))
SURNAMES = _HAND["surnames"]
MALE_CHARS = _HAND["male_chars"]
FEMALE_CHARS = _HAND["female_chars"]
NICK_PREFIXES = _HAND["nick_prefixes"]
KIN = _HAND["kin"]
JOBS = _HAND["jobs"]
PLACES = _HAND["places"]
ADJECTIVES = _HAND["adjectives"]
COLOURS = _HAND["colours"]
DOUBLED = _HAND["doubled"]
DEGREE = _HAND["degree"]
SHORT_ADJECTIVES = _HAND["short_adjectives"]
VERBS = _HAND["verbs"]
SPEAKERS = _HAND["speakers"]
PLURALS = _HAND["plurals"]
TIMES = _HAND["times"]
SPLIT_APART = _HAND["split_apart"]
TAKEN_NAMES = _HAND["taken_names"]
APP_NAMES = _HAND["app_names"]
# "word measure" → {word: measure}
ANIMALS = {split: dict(pair.split() for pair in pairs) for split, pairs in _HAND["animals"].items()}
OBJECTS = {split: dict(pair.split() for pair in pairs) for split, pairs in _HAND["objects"].items()}
KEEP_WHOLE = {
    **dict.fromkeys(TAKEN_NAMES, "nr"),
    **{word: tag for tag, group in _HAND["keep_whole"].items() for word in group},
}
LITERALS = _HAND["literals"]  # grammar.py's literal words of each split


# ---- words drawn from the lexicon: many classes, so that no class gives the answer away ----------

POOL_MIN_FREQ = 1000  # jieba's dictionary frequency a drawn word needs (common words only)
HELDOUT_SHARE = 5  # one drawn word in this many is held out (by a hash of the word)
POOLS = {  # kind -> (jieba tag, Cilin top classes every sense must be in, level-2 classes left out)
    "things": ("n", "BCD", ()),  # 物, 时空, 抽象事物: objects of verbs, nouns after 的
    "actions": ("v", "FGHI", ()),  # 动作, 心理活动, 活动, 现象与状态
    "roles": ("n", "A", ("Aa", "Ah", "An")),  # people by role (not 人们, not kin, not 丑类)
}


def _jieba_words() -> dict:
    """word -> (frequency, tag) of jieba's own dictionary (the pinned jieba's dict.txt)."""
    import os

    import jieba

    out = {}
    with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as f:
        for line in f:
            word, freq, tag = line.split()
            out[word] = (int(freq), tag)
    return out


def _held_out(word: str) -> bool:
    import hashlib

    return hashlib.blake2b(word.encode(), digest_size=2).digest()[0] % HELDOUT_SHARE == 0


POOLS_PATH = Path(__file__).resolve().parent / "corpus_pools.txt"


@functools.lru_cache(maxsize=1)
def lexicon_pools(path: Path = POOLS_PATH) -> dict:
    """kind -> {"train": words, "heldout": words}, as build_pools() wrote them to the asset."""
    out: dict = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            kind, split, *found = line.split()
            out.setdefault(kind, {})[split] = tuple(found)
    return out


def pools_text() -> str:
    """data/corpus_pools.txt: build_pools() one line per kind and split, after a header."""
    head = [
        "# Words the corpus draws from jieba's dictionary and Cilin",
        "# (demo_model/data/corpus_words.py build_pools); rewrite with:",
        "# python -m demo_model.data.corpus --pools",
    ]
    lines = [
        f"{k} {split} {' '.join(ws)}" for k, v in build_pools().items() for split, ws in v.items()
    ]
    return "\n".join(head + lines) + "\n"


def build_pools() -> dict:
    """kind -> {"train": words, "heldout": words}: two-character words jieba tags as POOLS says,
    at least POOL_MIN_FREQ common, that Cilin files only under the given classes. None occurs
    in any sentence of the human-written sets written before the shipped model
    (evalset.POOLS_AVOID), nor in the hand-written lists above."""
    from demo_model import lexicon
    from demo_model.data import evalset

    paths = [evalset.ALL_SETS[name] for name in evalset.POOLS_AVOID]
    texts = [text for path in paths for _, text, _ in evalset.parse(path)]
    lex, found = lexicon.load(), {}
    hand = _hand_words()
    for word, (freq, tag) in _jieba_words().items():
        if len(word) != 2 or freq < POOL_MIN_FREQ or word not in lex or word in hand:
            continue
        for kind, (want, tops, skip) in POOLS.items():
            senses = lex[word]
            fits = all(c[0] in tops and c[:2] not in skip for c in senses)
            if tag == want and fits and not word.startswith("不") and not _in_any(word, texts):
                found.setdefault(kind, []).append(word)
    return {
        kind: {
            "train": tuple(w for w in sorted(ws) if not _held_out(w)),
            "heldout": tuple(w for w in sorted(ws) if _held_out(w)),
        }
        for kind, ws in found.items()
    }


def _in_any(word: str, texts: list) -> bool:
    return any(word in text for text in texts)


def _hand_words() -> set:
    """Every word of the hand-written lists above, both splits."""
    out = set()
    for table in (KIN, ANIMALS, OBJECTS, PLACES, ADJECTIVES, COLOURS, JOBS, DOUBLED, DEGREE):
        for part in table.values():
            items = part.values() if isinstance(part, dict) and table is KIN else [part]
            for group in items:
                out.update(w.split("|")[0] for w in group)
    for pools in VERBS.values():
        for pool in pools.values():
            out.update(v.split("|")[0] for v in pool)
    return out
