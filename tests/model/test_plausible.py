"""demo_model.plausible: whether a head's pick can be the answer at all, by rules any reader of
Chinese knows (what a word is, where it stands), and which other word a pronoun fits as well."""

import pytest

from demo_model.data import reading_words
from demo_model.plausible import plausible, rival, tag_of, text_of
from tests.model.support import toks


def test_a_bare_text_has_no_tag_and_passes_every_rule_it_cannot_be_judged_by():
    tokens = toks(("小刚", "nr"), ("看见", "v"))
    assert (text_of(tokens[0]), tag_of(tokens[0])) == ("小刚", "nr")
    assert (text_of("他"), tag_of("他")) == ("他", "")
    assert plausible(["小刚", "走", "他"], 2, 0, "pronoun_antecedent")  # nothing to judge by
    assert not plausible(["小刚", "他"], 1, 1, "pronoun_antecedent")  # never the token itself


@pytest.mark.parametrize(
    ("words", "i", "j", "expected"),
    [
        ((("小刚", "nr"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, True),  # a man before 他
        ((("小红", "nr"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, True),  # 红: no sure gender
        ((("李娜", "nr"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, False),  # a woman's name
        ((("李娜", "nr"), ("走", "v"), ("，", "x"), ("她", "r")), 3, 0, True),
        ((("妈妈", "n"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, False),  # Cilin: 母
        ((("小刚", "nr"), ("走", "v"), ("，", "x"), ("他", "r")), 0, 3, False),  # never after 他
        ((("书", "n"), ("掉", "v"), ("，", "x"), ("它", "r")), 3, 0, True),  # 它: a thing
        ((("小刚", "nr"), ("走", "v"), ("，", "x"), ("它", "r")), 3, 0, False),  # … not a person
        ((("大家", "n"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, False),  # a group
        ((("同学们", "n"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, False),  # …们
        ((("我", "r"), ("走", "v"), ("，", "x"), ("他", "r")), 3, 0, False),  # the speaker
    ],
)
def test_whom_a_pronoun_can_mean_by_what_the_word_is(words, i, j, expected):
    assert plausible(toks(*words), i, j, "pronoun_antecedent") is expected


def test_a_pronoun_after_a_verb_or_a_preposition_never_means_its_own_clauses_doer():
    """小伙子给他让座: 他 is not 小伙子; 小刚说他走: a verb of saying (reading_words.SAYING) opens a
    new clause, so 他 may be 小刚; 小刚的 possesses, it is no object."""
    seat = toks(("小伙子", "n"), ("给", "p"), ("他", "r"))
    assert not plausible(seat, 2, 0, "pronoun_antecedent")
    assert "说" in reading_words.SAYING and "给" in reading_words.TAKES_OBJECT
    said = toks(("小刚", "nr"), ("说", "v"), ("他", "r"), ("走", "v"))
    assert plausible(said, 2, 0, "pronoun_antecedent")
    own = toks(("小刚", "nr"), ("拿", "v"), ("他", "r"), ("的", "uj"), ("书", "n"))
    assert plausible(own, 2, 0, "pronoun_antecedent")


def test_a_rival_is_another_person_the_pronoun_fits_the_nearest_first():
    """小红看见小刚，他…: read as 小刚, 小红 (no sure gender) fits too; read as 小红, 小刚 does."""
    seen = toks(("小红", "nr"), ("看见", "v"), ("小刚", "nr"), ("，", "x"), ("他", "r"))
    assert rival(seen, 4, 2) == 0 and rival(seen, 4, 0) == 2
    one = toks(("小刚", "nr"), ("看见", "v"), ("书", "n"), ("，", "x"), ("他", "r"))
    assert rival(one, 4, 0) is None  # a book is no person
    assert rival(one, 4, 2) is None  # an implausible pick has no rival
    assert rival(seen, 1, 0) is None  # 看见 is no pronoun
    named = toks(("李娜", "nr"), ("是", "v"), ("我", "r"), ("的", "uj"), ("同桌", "n"), ("，", "x"),
                 ("她", "r"))  # fmt: skip
    assert rival(named, 6, 0) is None  # 是: 李娜 and 同桌 are one person (reading_words.SAME)


def test_it_prefers_an_animal_over_a_thing():
    """小狗咬坏了鞋子，它…: read as 鞋子, the animal 小狗 is a rival; read as 小狗, no thing is."""
    dog = toks(("小狗", "n"), ("咬坏", "v"), ("了", "ul"), ("鞋子", "n"), ("，", "x"), ("它", "r"))
    assert rival(dog, 5, 3) == 0 and rival(dog, 5, 0) is None


def test_a_modifier_describes_the_noun_its_phrase_ends_on():
    """哥哥的房间里有很多书: 哥哥 describes 房间 (the phrase ends there), never 书; a noun
    phrase goes on through 大 and 那本 to its noun."""
    room = toks(("哥哥", "n"), ("的", "uj"), ("房间", "n"), ("里", "f"), ("有", "v"),
                ("很多", "m"), ("书", "n"))  # fmt: skip
    assert plausible(room, 0, 2, "modifier_noun")
    assert not plausible(room, 0, 6, "modifier_noun")
    eyes = toks(("明亮", "a"), ("的", "uj"), ("大", "n"), ("眼睛", "n"))
    assert plausible(eyes, 0, 3, "modifier_noun")
    book = toks(("我", "r"), ("的", "uj"), ("那本", "r"), ("书", "n"))
    assert plausible(book, 0, 3, "modifier_noun")


def test_a_verbs_doer_is_not_an_earlier_verbs_object_unless_a_pivot_hands_it_on():
    chase = toks(("孩子", "n"), ("在", "p"), ("草地", "n"), ("上", "f"), ("追", "v"), ("着", "uz"),
                 ("蝴蝶", "n"), ("跑", "v"))  # fmt: skip
    assert not plausible(chase, 7, 6, "verb_subject")  # 蝴蝶 is chased
    assert plausible(chase, 7, 0, "verb_subject")
    ask = toks(("妈妈", "n"), ("叫", "v"), ("我", "r"), ("去", "v"), ("超市", "n"), ("买", "v"))
    assert plausible(ask, 5, 2, "verb_subject")  # 叫我去买: 我 buys
    assert not plausible(ask, 5, 0, "verb_subject")
    listen = toks(("学生", "n"), ("听", "v"), ("老师", "n"), ("讲课", "v"))
    assert plausible(listen, 3, 2, "verb_subject")
    knock = toks(("有", "v"), ("人", "n"), ("敲门", "v"))
    assert plausible(knock, 2, 1, "verb_subject")
    apart = toks(("妈妈", "n"), ("叫", "v"), ("我", "r"), ("，", "x"), ("她", "r"), ("买", "v"))
    assert plausible(apart, 5, 0, "verb_subject")  # a comma between: the pivot rule stops


def test_a_word_cilin_files_only_as_a_quality_or_a_state_is_no_noun_whatever_its_tag():
    """那个腼腆的小伙子脸红了: jieba tags 脸红 n, Cilin files it only under I (states): 腼腆
    describes 小伙子, not 脸红. 深深地吸了一口气: 深深地 (i; Cilin E, qualities) does not breathe.
    An activity noun (H: 明天的考试) still is one, and so is a word Cilin lacks."""
    blush = toks(("那个", "r"), ("腼腆", "a"), ("的", "uj"), ("小伙子", "n"), ("脸红", "n"),
                 ("了", "ul"))  # fmt: skip
    assert not plausible(blush, 1, 4, "modifier_noun")
    assert plausible(blush, 1, 3, "modifier_noun")
    breath = toks(("钟小燕", "nr"), ("，", "x"), ("深深地", "i"), ("吸", "v"))
    assert not plausible(breath, 3, 2, "verb_subject")
    assert plausible(breath, 3, 0, "verb_subject")
    exam = toks(("明天", "t"), ("的", "uj"), ("考试", "n"))
    assert plausible(exam, 0, 2, "modifier_noun")
    new = toks(("小红", "nr"), ("的", "uj"), ("嘟嘟车", "n"))
    assert plausible(new, 0, 2, "modifier_noun")
