"""Tests of the templated corpus: labels, splits, segmentation, the user dictionary."""

import re
from pathlib import Path

import pytest

from attention_core import corpus
from attention_core.tokenize import USER_DICT, tokenize

VERB = re.compile(r"\{v:([^:}]+):")


def test_generation_is_seeded():
    assert corpus.generate("train", 20, seed=3) == corpus.generate("train", 20, seed=3)
    assert corpus.generate("train", 20, seed=3) != corpus.generate("train", 20, seed=4)


def test_heldout_shares_no_names_words_or_templates_with_train():
    tables = (corpus.OBJECTS, corpus.PLACES, corpus.TEMPLATES, corpus.SURNAMES)
    for table in (*tables, corpus.ADJECTIVES, corpus.COLOURS):
        assert not set(table["train"]) & set(table["heldout"])
    train, held = corpus.names("train"), corpus.names("heldout")
    assert not (set(train["m"]) | set(train["f"])) & (set(held["m"]) | set(held["f"]))
    verbs = {s: {v for t in corpus.TEMPLATES[s] for v in VERB.findall(t)} for s in corpus.SPLITS}
    assert verbs["train"] and verbs["heldout"] and not verbs["train"] & verbs["heldout"]


@pytest.mark.parametrize("split", corpus.SPLITS)
def test_every_labelled_word_is_one_token(split):
    sentences = corpus.generate(split, 300, seed=0)
    assert len(corpus.build(split, 300, seed=0)) == len(sentences)  # nothing dropped
    for s in sentences[:50]:
        tokens = tokenize(s.text)
        assert corpus.label(s, tokens) is not None, [t.text for t in tokens]


@pytest.mark.parametrize("split", corpus.SPLITS)
def test_labels_point_at_the_right_tokens(split):
    examples = corpus.build(split, 300, seed=0)
    all_names = {n for group in corpus.names(split).values() for n in group}
    seen = dict.fromkeys(corpus.LINKS, 0)
    for e in examples:
        texts = [t.text for t in e.tokens]
        for i, j in e.links["pronoun_antecedent"]:
            assert texts[i] in ("他", "她") and e.tokens[i].tag == "r" and j < i
            assert texts[j] in all_names and e.tokens[j].tag == "nr"
            female = texts[j][-1] in corpus.FEMALE_CHARS
            assert texts[i] == ("她" if female else "他")
        for i, j in e.links["modifier_noun"]:  # X 的 Y: the modifier's row points at Y
            assert texts[i + 1] == "的" and j == i + 2 and e.tokens[j].tag == "n", texts
        for i, j in e.links["verb_subject"]:
            assert e.tokens[i].tag == "v" and j < i
            assert texts[j] in all_names | {"他", "她"}
        for rel in corpus.LINKS:
            seen[rel] += len(e.links[rel])
    assert min(seen.values()) > 100, seen


def test_gender_or_position_decides_in_two_person_sentences():
    examples = corpus.build("train", 400, seed=1)
    same_gender = 0
    for e in examples:
        people = [i for i, t in enumerate(e.tokens) if t.tag == "nr"]
        for i, j in e.links["pronoun_antecedent"]:
            before = [p for p in people if p < i and p != j]
            for p in before:  # another person named before the pronoun: gender decides
                assert (e.tokens[p].text[-1] in corpus.FEMALE_CHARS) != (
                    e.tokens[j].text[-1] in corpus.FEMALE_CHARS
                ), e.text
            after = [p for p in people if p > i]
            female = {e.tokens[p].text[-1] in corpus.FEMALE_CHARS for p in (j, *after)}
            same_gender += bool(after) and len(female) == 1  # position decides
    assert same_gender > 10


def test_pronoun_like_distractors_appear_tagged_r():
    examples = corpus.build("train", 400, seed=2)
    words = {t.text for e in examples for t in e.tokens if t.tag == "r"}
    assert {"这里", "那天"} <= words
    assert any(w.startswith("那") and w not in ("那天", "那里") for w in words)  # 那本, 那辆 …


def test_user_dictionary_is_the_corpus_vocabulary():
    assert Path(USER_DICT).read_text(encoding="utf-8") == corpus.userdict_text()
    texts = [t.text for t in tokenize("这里有一本书，他很喜欢那本书。")]
    assert texts.count("书") == 2 and "一本" in texts and "那本" in texts


def test_bad_split_and_count_are_refused():
    with pytest.raises(ValueError, match="split"):
        corpus.generate("dev", 3)
    with pytest.raises(ValueError, match="n must"):
        corpus.generate("train", -1)
