"""Whether a head's pick can be the answer at all, by rules any reader of Chinese knows.

What a word is (a person, a group, an animal, a thing, a noun at all), then where it stands (an
object of another verb, the doer of the pronoun's own clause, past the end of a noun phrase),
then plausible() and rival() built from them. The word lists are in data/reading_words.py.
"""

from __future__ import annotations

from demo_model.data.reading_words import GROUPS, PIVOTS, SAME, SAYING, TAKES_OBJECT
from demo_model.features import CLAUSE_ENDS, model_tag, word_classes
from demo_model.lexicon import classes, gender, name_kind
from demo_model.relations import FIRST_SECOND, THIRD_PERSON

_GROUP_CLASSES = ("Aa01C", "Aa02", "Aa03", "Aa04B")  # Cilin: 众人; 我, 你 (and 我们 …); 他们
_NOT_NOMINAL = ("v", "a", "d", "p", "c", "u", "m", "q", "x", "y", "e", "o", "z", "b")  # POS tags
# Cilin's top classes of qualities (E 特征) and of states and phenomena (I 现象与状态); not H
# 活动, whose words are often nouns (明天的考试, 饭店的服务).
_NOT_THINGS = ("E", "I")


def text_of(token) -> str:
    """A token's text (tokens may also be given as bare texts)."""
    return token if isinstance(token, str) else token.text


def tag_of(token) -> str:
    """A token's jieba POS tag ("" for a bare text)."""
    return "" if isinstance(token, str) else token.tag


# ---- what a word is ---------------------------------------------------------------------------


def _is_animal(token) -> bool:
    return any(c.startswith("Bi") for c in word_classes(text_of(token), tag_of(token)))


def _is_thing(text: str) -> bool:
    """Cilin files the word (or its last character) under 物 or 抽象事物 (小河, 面包店)."""
    return any(c[0] in "BD" for c in word_classes(text))


def _person_like(token, *, listed: bool = False) -> bool:
    """A word that may name a person: a name, or a word Cilin (or its last character) files
    under 人 or under 男/女 (Cilin files 女孩 there); a word Cilin does not know at all too,
    unless `listed` asks for a word it knows."""
    text, tag = text_of(token), tag_of(token)
    senses = word_classes(text, tag)
    if listed and not (name_kind(text, tag) or classes(text)):
        return bool(senses) and all(c[0] == "A" or c.startswith("Dd15") for c in senses)
    if not senses:
        return not listed
    return any(c[0] == "A" or c.startswith("Dd15") for c in senses)


def _surely_person(token) -> bool:
    """A word that names a person for certain: a name (林明, 小王, 小明 nr: lexicon.name_kind),
    or a word Cilin (or its last character) files under 人 only."""
    text, tag = text_of(token), tag_of(token)
    if name_kind(text, tag):
        return True
    senses = word_classes(text, tag)
    return bool(senses) and all(c[0] == "A" for c in senses)


def _group(token) -> bool:
    """Many people, or the speakers: 大家, 同学们, 人们, 他们, 我, 你们 — never whom 他 means."""
    text = text_of(token)
    return (
        text in GROUPS or text.endswith("们") or text in FIRST_SECOND
        or any(c.startswith(_GROUP_CLASSES) for c in classes(text))
    )  # fmt: skip


def _nominal(token) -> bool:
    """Not a verb, an adjective or a function word by the tag the model sees (features.model_tag:
    Cilin overrules jieba's guess for 警察 v), nor a word Cilin files only as a quality or a
    state whatever jieba's tag (脸红 n, 深深地 i: no noun a modifier describes, no doer)."""
    if isinstance(token, str):
        return True
    tag, senses = model_tag(token), classes(text_of(token))
    if senses and all(c[0] in "AB" for c in senses):  # 小偷 d in 抓住了小偷: a person still
        return True
    if senses and all(c[0] in _NOT_THINGS for c in senses):
        return False
    return tag in ("vn", "an") or not tag.startswith(_NOT_NOMINAL)


# ---- where it stands ------------------------------------------------------------------------


def _object_before(tokens, j: int, i: int) -> bool:
    """Word j is the object of another verb before verb i (追着蝴蝶跑: 蝴蝶 is chased, not the one
    who runs), that verb not a pivot, a verb of saying, 是 or 有 (叫我去买: 我 does buy)."""
    k = j - 1
    while k >= 0 and tag_of(tokens[k]).startswith(("u", "m", "q")):  # 着, 了, 一只
        k -= 1
    verb = tokens[k] if k >= 0 else None
    lets = (*PIVOTS, *SAYING, "是", "有")
    return verb is not None and tag_of(verb).startswith("v") and text_of(verb) not in lets


def _pivot_between(tokens, j: int, i: int) -> bool:
    """Between word j and verb i, in one clause, a pivot with its object (妈妈叫我去超市买鸡蛋:
    我 buys, not 妈妈)."""
    between = range(j + 1, i)
    if any(text_of(tokens[k]) in CLAUSE_ENDS for k in between):
        return False
    return any(text_of(tokens[k]) in PIVOTS and _nominal(tokens[k + 1]) for k in between)


def _phrase_ends(tokens, i: int, j: int) -> bool:
    """Whether a noun phrase ends between tokens i and j: a nominal word not followed by another
    (哥哥的房间里有很多书: 哥哥 describes 房间, not 书; 明亮的大眼睛, 那本书 go on to the noun)."""
    return any(_nominal(tokens[k]) and not _nominal(tokens[k + 1]) for k in range(i + 1, j))


def _in_own_clause(tokens, i: int, j: int) -> bool:
    """Pronoun i is an object (after a verb, 给, 把, 对 …), not a possessor (他的), and word j is
    its clause's doer, before it: a pronoun never means that (小伙子给他让座, 妈妈带她去医院)."""
    if (i + 1 < len(tokens) and text_of(tokens[i + 1]) == "的") or i == 0:
        return False
    before = tokens[i - 1]
    if not (tag_of(before).startswith("v") or text_of(before) in TAKES_OBJECT):
        return False
    between = [text_of(t) for t in tokens[j + 1 : i]]
    return not any(w in CLAUSE_ENDS or w in SAYING for w in between)


def _one_person(tokens, j: int, k: int) -> bool:
    """Words j and k need not be two people told apart: k possesses j (王阿姨的女儿…，她: the
    daughter, as a reader takes it), or the clause says they are one (李娜是我的同桌, 当过兵)."""
    a, b = sorted((j, k))
    between = [text_of(t) for t in tokens[a + 1 : b]]
    owner = (k < j and between[:1] == ["的"]) or (k < j and between[-1:] == ["的"])
    after = text_of(tokens[b + 1]) if b + 1 < len(tokens) else "。"
    called = "叫" in between and after in CLAUSE_ENDS  # 我的同桌叫李娜， (not 叫小张回答问题)
    same = any(w in SAME for w in between) or called
    return owner or (same and not any(w in CLAUSE_ENDS for w in between))


# ---- the rules -------------------------------------------------------------------------------


def _fits(query, pick, listed: bool = False) -> bool:
    """Whether the pronoun can mean this word by what the word is (not where it stands);
    `listed`: only a word the lexicon knows to be a person (a rival, not the head's pick)."""
    text = text_of(query)
    if text == "它":
        place = tag_of(pick).startswith(("s", "t", "f")) and not _is_thing(text_of(pick))
        return _nominal(pick) and not _surely_person(pick) and not _group(pick) and not place
    if text_of(pick) in ("他", "她"):
        return text_of(pick) == text
    other = {"他": "f", "她": "m"}.get(text)
    person = _nominal(pick) and _person_like(pick, listed=listed) and not _group(pick)
    return person and gender(text_of(pick), tag_of(pick)) != other


def plausible(tokens, i: int, j: int, question: str) -> bool:
    """Whether token j can be what token i asks for, by rules any reader of Chinese knows:
    他/她 means one person before it (not a thing, a place, a time, a group or the speaker; of
    the pronoun's gender where that is known; not the doer of its own clause), 它 an animal or
    a thing (not a person, not a place or a time word like 门口, 上周); a verb's doer is another
    word, a noun or a pronoun; a modifier describes a noun after it."""
    query, pick = tokens[i], tokens[j]
    if j == i:
        return False
    if isinstance(pick, str):  # texts without tags: nothing to judge the pick by
        return True
    if question == "modifier_noun":
        return j > i and _nominal(pick) and not _phrase_ends(tokens, i, j)
    if question == "verb_subject":
        return (
            _nominal(pick) and not _object_before(tokens, j, i) and not _pivot_between(tokens, j, i)
        )
    if j > i or _in_own_clause(tokens, i, j):
        return False
    return _fits(query, pick)


def rival(tokens, i: int, j: int) -> int | None:
    """For 他/她/它 read as word j: another word before the pronoun that it fits just as well
    (both people 他 agrees with, outside the pronoun's own clause; for 它 an animal when j is
    no animal), the nearest first; None when j is the only one."""
    if text_of(tokens[i]) not in THIRD_PERSON or j >= i or isinstance(tokens[j], str):
        return None
    if not plausible(tokens, i, j, "pronoun_antecedent"):
        return None
    animal = text_of(tokens[i]) == "它" and not _is_animal(tokens[j])
    for k in range(i - 1, -1, -1):
        fits = _fits(tokens[i], tokens[k], listed=True) and not _in_own_clause(tokens, i, k)
        tag = tag_of(tokens[k])
        noun = (tag.startswith("n") and not tag.startswith(("ns", "nt"))) or animal
        noun = noun or (_nominal(tokens[k]) and _surely_person(tokens[k]))  # 小偷 tagged d
        if k == j or not fits or not noun or _one_person(tokens, j, k):
            continue
        if text_of(tokens[i]) != "它" or (animal and _is_animal(tokens[k])):
            return k
    return None
