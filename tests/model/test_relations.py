"""demo_model.relations: the three questions, and which token of a sentence asks which (by its
jieba POS tag, so the corpus, the evaluation sets and the app's reading agree)."""

import pytest

from attention_core.tokenize import tokenize
from demo_model.relations import LINKS, THIRD_PERSON, asks_modifier, questions_of
from tests.model.support import toks


def test_questions_follow_the_pos_tags():
    tokens = tokenize("他的书很旧，小红看见了漂亮的花。")
    asked = {t.text: questions_of(tokens, i) for i, t in enumerate(tokens)}
    assert asked["他"] == ("pronoun_antecedent", "modifier_noun")  # 他的: two questions
    assert asked["看见"] == ("verb_subject",) and asked["漂亮"] == ("modifier_noun",)
    assert asked["书"] == () and asked["的"] == () and asked["。"] == ()


def test_the_questions_and_the_pronouns_they_are_about():
    assert LINKS == ("pronoun_antecedent", "modifier_noun", "verb_subject")
    assert THIRD_PERSON == ("他", "她", "它")


@pytest.mark.parametrize(
    ("words", "i", "expected"),
    [
        ((("漂亮", "a"), ("的", "uj"), ("花", "n")), 0, True),  # before 的
        ((("买", "v"), ("的", "uj"), ("花", "n")), 0, True),  # a verb before 的 modifies too
        ((("新", "a"), ("书包", "n")), 0, True),  # an adjective right before a noun
        ((("长长的", "z"), ("头发", "n")), 0, True),  # jieba kept the 的 inside
        ((("新", "a"), ("了", "ul")), 0, False),  # no noun after it
        ((("小明", "nr"), ("书包", "n")), 0, False),  # a name before a noun: no 的, no modifier
        ((("，", "x"), ("的", "uj"), ("花", "n")), 0, False),  # punctuation asks nothing
        ((("的", "uj"), ("的", "uj"), ("花", "n")), 0, False),  # nor does 的 itself
        ((("漂亮", "a"),), 0, False),  # the last token has nothing after it
    ],
)
def test_a_modifier_stands_before_de_or_an_adjective_right_before_a_noun(words, i, expected):
    assert asks_modifier(toks(*words), i) is expected


def test_a_verb_asks_for_its_doer_and_a_pronoun_for_whom_it_means():
    tokens = toks(("它", "r"), ("跑", "v"), ("她", "r"), ("我", "r"), ("讲课", "vn"), ("。", "x"))
    assert [questions_of(tokens, i) for i in range(len(tokens))] == [
        ("pronoun_antecedent",), ("verb_subject",), ("pronoun_antecedent",), (),
        ("verb_subject",), (),
    ]  # fmt: skip
