"""demo_model.batch: sentences padded into one batch by field name, their questions listed in
order, and subset() picking sentences as if they had been batched alone."""

import dataclasses

import numpy as np

from demo_model.batch import QUESTIONS, Batch, make_batch, subset, token_masks
from demo_model.data.corpus import Example
from demo_model.features import ModelConfig, Vocab, token_arrays
from demo_model.relations import LINKS
from tests.model.support import SMALL, toks

VOCAB = Vocab(("-", "A", "Aa", "Aa01", "Aa01A"), ("-", "小", "明", "他"))  # Aa01A: a name's class


def _example(pairs, **links) -> Example:
    tokens = toks(*pairs)
    text = "".join(t.text for t in tokens)
    return Example(text, tokens, {r: links.get(r, ()) for r in LINKS}, "")


SHORT = _example((("他", "r"), ("走", "v")), verb_subject=((1, 0),))
LONG = _example(
    (("小明", "nr"), ("走", "v"), ("，", "x"), ("他", "r"), ("笑", "v")),
    pronoun_antecedent=((3, 0),), verb_subject=((1, 0), (4, 3)),
)  # fmt: skip


def test_people_punctuation_nouns_and_verbs_are_masked_by_tag_and_cilin():
    tokens = toks(("小明", "nr"), ("，", "x"), ("老师", "n"), ("走", "v"), ("书", "n"))
    assert token_masks(tokens).tolist() == [
        [False, True, True, False], [True, False, False, False], [False, True, True, False],
        [False, False, False, True], [False, False, True, False],
    ]  # fmt: skip


def test_sentences_are_padded_by_field_name_and_questions_listed_in_order():
    batch = make_batch([SHORT, LONG], SMALL, VOCAB)
    assert batch.valid.tolist() == [[True, True, False, False, False], [True] * 5]
    for b, e in enumerate((SHORT, LONG)):
        n = len(e.tokens)
        for name, arr in token_arrays(e.tokens, SMALL).items():
            np.testing.assert_array_equal(getattr(batch, name)[b, :n], arr, err_msg=name)
            assert not getattr(batch, name)[b, n:].any(), name  # zeros on padding
    # questions: sentence by sentence, then in LINKS order, then as labelled
    rows = np.stack([batch.qb, batch.qi, batch.qt, batch.qr], axis=1).tolist()
    assert rows == [[0, 1, 0, 2], [1, 3, 0, 0], [1, 1, 0, 2], [1, 4, 3, 2]]
    assert batch.chr_ids[1, 0].tolist() == [1, 2] and batch.chr_w[1, 0].tolist() == [0.5, 0.5]
    assert batch.cls_ids[1, 0].tolist() == [1, 2, 3, 4] and batch.cls_w[1, 0].tolist() == [1.0] * 4
    assert batch.cls_ids[1, 1].tolist() == [0] * 4 and batch.cls_w[1, 1].tolist() == [1, 0, 0, 0]
    assert batch.ctx.tolist() == batch.valid.astype(float).tolist() == batch.gen_w.tolist()


def test_every_field_has_the_type_the_network_indexes_or_weighs_with():
    batch = make_batch([SHORT, LONG], SMALL, VOCAB)
    kinds = {f.name: getattr(batch, f.name).dtype.str for f in dataclasses.fields(Batch)}
    ints = {"tags", "before", "after", "clause", "cls_ids", "chr_ids", "gender", *QUESTIONS}
    flags = {"masks", "valid"}
    assert {k for k, d in kinds.items() if d == "<i8"} == ints
    assert {k for k, d in kinds.items() if d == "|b1"} == flags
    assert {k for k, d in kinds.items() if d == "<f8"} == set(kinds) - ints - flags


def test_a_switched_off_feature_weighs_zero():
    off = ModelConfig(**{**SMALL.__dict__, "context": False, "chars": False, "gender": False})
    batch = make_batch([SHORT, LONG], off, VOCAB)
    assert not batch.ctx.any() and not batch.gen_w.any() and not batch.chr_w.any()
    assert batch.chr_w.shape == batch.chr_ids.shape and batch.chr_ids[1, 0].tolist() == [1, 2]
    assert batch.cl_w.sum() == 7 and batch.cls_w.sum() == 4 + 6  # 小明: 4 levels; 6 others: none
    rest = ModelConfig(**{**SMALL.__dict__, "classes": False, "clauses": False})
    batch = make_batch([SHORT, LONG], rest, VOCAB)
    assert not batch.cls_w.any() and not batch.cl_w.any() and batch.chr_w.sum() == 7
    assert batch.cls_w.shape == batch.cls_ids.shape
    assert batch.cls_ids[1, 0].tolist() == [1, 2, 3, 4]  # the rows stay, weighing nothing


def test_subset_is_the_batch_of_those_sentences_alone():
    """Every per-sentence field (all but QUESTIONS) is sliced and padded to the longest kept
    sentence; the kept questions are renumbered: as if make_batch saw only those sentences."""
    both = make_batch([LONG, SHORT, LONG], SMALL, VOCAB)
    picked = subset(both, np.array([1]))
    alone = make_batch([SHORT], SMALL, VOCAB)
    for f in dataclasses.fields(Batch):
        got, want = getattr(picked, f.name), getattr(alone, f.name)
        if f.name in ("cls_ids", "cls_w", "chr_ids", "chr_w"):  # K columns: the batch's widest
            k = want.shape[-1]
            assert not getattr(picked, f.name.replace("ids", "w"))[..., k:].any()
            got = got[..., :k]
        np.testing.assert_array_equal(got, want, err_msg=f.name)
    assert set(QUESTIONS) < {f.name for f in dataclasses.fields(Batch)}
    two = subset(both, np.array([2, 0]))
    assert two.qb.tolist() == [1, 1, 1, 0, 0, 0]  # sentence 0 becomes 1, sentence 2 becomes 0
    assert two.tags.shape == (2, 5)  # the longer of the two, not their sum
