"""demo_model.data.corpus and corpus_words: the templated corpus — labels, splits, segmentation,
the user dictionary, the pools."""

import re
from pathlib import Path

import pytest

from attention_core.tokenize import USER_DICT, tokenize
from demo_model.data import corpus, corpus_words, grammar
from demo_model.relations import THIRD_PERSON, questions_of

CONTENT = re.compile(r"^(n|v|a|z|b)")  # POS tags of names, nouns, verbs, adjectives
# Words both splits share although jieba may tag them so: 很 (zg in 很重) …
FUNCTION = {*corpus_words.SPEAKERS, *corpus_words.PLURALS, "很"}


@pytest.fixture(scope="module")
def built() -> dict:
    """600 labelled examples of each split."""
    return {split: corpus.build(split, 600, seed=0) for split in corpus.SPLITS}


def test_generation_is_seeded():
    assert corpus.generate("train", 20, seed=3) == corpus.generate("train", 20, seed=3)
    assert corpus.generate("train", 20, seed=3) != corpus.generate("train", 20, seed=4)


@pytest.mark.slow  # builds both splits whole: make test
def test_word_lists_and_shapes_of_the_two_splits_are_disjoint(built):
    held = corpus.heldout_words()
    assert set(held) >= {"names", "objects", "places", "modifiers", "verbs"}
    tables = (corpus_words.OBJECTS, corpus_words.PLACES, corpus_words.SURNAMES)
    for table in (*tables, corpus_words.ADJECTIVES, corpus_words.COLOURS, corpus_words.JOBS):
        assert not set(table["train"]) & set(table["heldout"])
    for pools in (*corpus_words.VERBS.values(), *corpus_words.lexicon_pools().values()):
        assert not set(pools["train"]) & set(pools["heldout"])
    train = corpus.names("train")
    assert not (set(train["m"]) | set(train["f"])) & set(held["names"])
    shapes = {split: {e.template for e in built[split]} for split in corpus.SPLITS}
    assert not shapes["train"] & shapes["heldout"] and len(shapes["heldout"]) > 300
    assert all(grammar.split_of(p) == s for s, ps in shapes.items() for p in ps)


@pytest.mark.slow  # a scan of every sample of both splits
def test_no_content_word_of_a_heldout_sentence_occurs_in_training(built):
    """What the learned page says: the held-out split's names, objects, places, modifiers,
    verbs and sentence shapes never occur in training. Checked on the tokens themselves."""
    seen = {t.text for e in corpus.build("train", 3000, seed=0) for t in e.tokens}
    shared = {
        t.text
        for e in built["heldout"]
        for t in e.tokens
        if CONTENT.match(t.tag) and t.text in seen and t.text not in FUNCTION
    }
    assert not shared, sorted(shared)


@pytest.mark.parametrize("split", corpus.SPLITS)
def test_almost_every_sentence_segments_as_labelled(split, built):
    """jieba keeps every labelled word one token in all but a few sentences (those are
    dropped); the links it keeps ask their question by the POS rule the app reads with."""
    assert len(built[split]) >= 0.95 * 600
    for e in built[split]:
        for rel, pairs in e.links.items():
            assert all(rel in questions_of(e.tokens, i) for i, _ in pairs), e.text


def _people(split: str) -> set:
    found = set()
    for kind in corpus.people(split).values():
        for group in kind.values():
            found.update(group)
    return found


@pytest.mark.parametrize("split", corpus.SPLITS)
def test_labels_point_at_the_right_tokens(split, built):
    people, animals = _people(split), set(corpus_words.ANIMALS[split])
    seen = dict.fromkeys(corpus.LINKS, 0)
    for e in built[split]:
        texts = [t.text for t in e.tokens]
        for i, j in e.links["pronoun_antecedent"]:
            assert texts[i] in THIRD_PERSON and e.tokens[i].tag == "r" and j < i
            if texts[i] == "它":
                assert texts[j] not in people
            else:
                assert texts[j] in people, e.text
        for i, j in e.links["modifier_noun"]:  # the noun after the modifier (and its 的)
            assert j > i and e.tokens[j].tag.startswith("n"), e.text
        for i, j in e.links["verb_subject"]:
            doers = people | animals | {"他", "她", "它", *corpus_words.SPEAKERS}
            doers |= set(corpus_words.PLURALS)
            assert j < i and texts[j] in doers, e.text
        for rel in corpus.LINKS:
            seen[rel] += len(e.links[rel])
    assert min(seen.values()) > 300, seen


SPEAKERS = {*corpus_words.SPEAKERS, *corpus_words.PLURALS}
GENDER = {
    word: g
    for split in corpus.SPLITS
    for group in corpus.people(split).values()
    for g, words in group.items()
    for word in words
}


def _local_doers(e, i: int) -> set:
    """Token indices of the doers of verbs in pronoun i's own clause (no comma between), and
    of whom those doers mean when they are pronouns themselves."""
    texts = [t.text for t in e.tokens]

    def same_clause(a: int, b: int) -> bool:
        return not any(t in "，。" for t in texts[min(a, b) : max(a, b) + 1])

    doers = {j for v, j in e.links["verb_subject"] if same_clause(j, i) and same_clause(v, i)}
    meant = dict(e.links["pronoun_antecedent"])  # a doer 她 stands for whom she means
    return doers | {meant[j] for j in doers if j in meant}


def test_gender_or_position_decides_in_two_person_sentences(built):
    """A person named before a pronoun that is not its antecedent has the other gender,
    unless it owns the antecedent (林明的母亲…，她), is many (队员们) or is the doer of the
    clause the pronoun is the object of (小伙子给他让座: syntax decides); a person named after
    may share it."""
    same_after = same_local = 0
    for e in built["train"]:
        texts = [t.text for t in e.tokens]
        owns = set(e.links["modifier_noun"])  # (possessor, possessed) among others
        one = [k + 1 == len(texts) or texts[k + 1] != "们" for k in range(len(texts))]  # not 队员们
        people = [k for k, t in enumerate(texts) if t in GENDER and one[k]]
        for i, j in e.links["pronoun_antecedent"]:
            if texts[i] == "它":
                continue
            owners = {texts[a] for a, b in owns if b == j}  # 林明 of 林明的母亲, each mention
            roles = {b for a, b in owns if texts[a] in SPEAKERS}  # 我们的导游名叫林明: one person
            others = [p for p in people if p < i and texts[p] not in owners | {texts[j]}]
            others = [p for p in others if p not in roles]
            local = _local_doers(e, i)
            for p in others:
                if p in local:  # a doer of the pronoun's own clause (林明给他, 林明请他修)
                    same_local += GENDER[texts[p]] == GENDER[texts[j]]
                    continue
                assert {GENDER[texts[p]], GENDER[texts[j]]} == {"m", "f"}, e.text
            same_after += any(p > i for p in people)
    # Rare: 9 same-gender doers of the pronoun's own clause in the 3000 sentences of seed 6.
    assert same_after > 10 and same_local > 5, (same_after, same_local)


def test_pronoun_like_distractors_appear_tagged_r(built):
    words = {t.text for e in built["train"] for t in e.tokens if t.tag == "r"}
    assert "那天" in words
    assert any(w.startswith("那") and w not in ("那天", "那里") for w in words)  # 那顶, 那只 …


def test_user_dictionary_is_the_corpus_vocabulary():
    assert Path(USER_DICT).read_text(encoding="utf-8") == corpus.userdict_text()
    texts = [t.text for t in tokenize("这里有一本书，他很喜欢那本书。")]
    assert texts.count("书") == 2 and "一本" in texts and "那本" in texts


@pytest.mark.slow  # draws every pool: make test
def test_pools_asset_is_what_the_code_draws():
    """data/corpus_pools.txt is build_pools() (jieba's dictionary ∩ Cilin, no word of the
    evaluation set); `python -m demo_model.data.corpus --pools` rewrites it."""
    assert corpus_words.POOLS_PATH.read_text(encoding="utf-8") == corpus_words.pools_text()
    pools = corpus_words.lexicon_pools()
    assert min(len(p["train"]) for p in pools.values()) > 100


def test_bad_split_and_count_are_refused():
    with pytest.raises(ValueError, match="split"):
        corpus.generate("dev", 3)
    with pytest.raises(ValueError, match="n must"):
        corpus.generate("train", -1)


def test_groups_and_speakers_are_doers_no_pronoun_means(built):
    """大伙, 人们, 我们 …: many people or the speakers stand in training sentences as doers
    (大伙都很尊敬他), and no 他/她 of the corpus ever means one of them. (Not 大家: the
    development set labels it, so it stays out of the corpus; its class Aa01C is 大伙's.)"""
    doers = [
        e.tokens[j].text for e in built["train"] for _, j in e.links["verb_subject"]
    ]  # fmt: skip
    assert doers.count("大伙") > 5, doers.count("大伙")
    meant = {e.tokens[j].text for e in built["train"] for _, j in e.links["pronoun_antecedent"]}
    assert not meant & {*corpus_words.SPEAKERS, *corpus_words.PLURALS}
