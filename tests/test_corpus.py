"""Tests of the templated corpus: labels, splits, segmentation."""

import pytest

from attention_core import corpus


def test_generation_is_seeded():
    assert corpus.generate("train", 20, seed=3) == corpus.generate("train", 20, seed=3)
    assert corpus.generate("train", 20, seed=3) != corpus.generate("train", 20, seed=4)


def test_heldout_shares_no_names_objects_places_or_templates_with_train():
    for table in (corpus.OBJECTS, corpus.PLACES, corpus.TEMPLATES, corpus.SURNAMES):
        assert not set(table["train"]) & set(table["heldout"])
    train, held = corpus.names("train"), corpus.names("heldout")
    assert not (set(train["m"]) | set(train["f"])) & (set(held["m"]) | set(held["f"]))


@pytest.mark.parametrize("split", corpus.SPLITS)
def test_labels_point_at_the_right_tokens(split):
    examples = corpus.build(split, 200, seed=0)
    assert len(examples) >= 190  # almost nothing dropped for misaligned segmentation
    all_names = {n for group in corpus.names(split).values() for n in group}
    for e in examples:
        assert e.pronouns, e.text
        for i, j in e.pronouns:
            assert e.tokens[i].text in ("他", "她") and e.tokens[i].tag == "r"
            assert e.tokens[j].text in all_names and e.tokens[j].tag == "nr"
            female = e.tokens[j].text[-1] in corpus.FEMALE_CHARS
            assert e.tokens[i].text == ("她" if female else "他")
        for _, j in e.verbs:
            assert e.tokens[j].text in all_names | {"他", "她"}


def test_two_person_sentences_differ_in_gender_and_persons_stand_anywhere():
    examples = corpus.build("train", 300, seed=1)
    two = [e for e in examples if sum(t.tag == "nr" for t in e.tokens) == 2]
    assert two
    for e in two:
        genders = {t.text[-1] in corpus.FEMALE_CHARS for t in e.tokens if t.tag == "nr"}
        assert genders == {True, False}
    first_person = {next(i for i, t in enumerate(e.tokens) if t.tag == "nr") for e in examples}
    assert len(first_person) > 2  # not always the first token
    assert any(e.tokens[0].text in ("这里", "那天") for e in examples)  # r-tagged distractors


def test_bad_split_and_count_are_refused():
    with pytest.raises(ValueError, match="split"):
        corpus.generate("dev", 3)
    with pytest.raises(ValueError, match="n must"):
        corpus.generate("train", -1)
