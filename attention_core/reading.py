"""Reading a token of a sentence through the head that measurably does its job, and saying
plainly when that reading is not an answer.

`read_token` tells which question a token asks (by its POS tag, relations.questions_of), finds
the head whose measured job is that question, and returns that head's top keys with a status:
only STATUS "answer" may be presented as the relation's answer — the head decided and every
word of the sentence is within what the model knows. Any other status says why not.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .demo import HeadSummary
from .features import CLAUSE_ENDS, Vocab, model_tag, word_classes
from .lexicon import classes, gender, name_kind
from .relations import FIRST_SECOND, LINKS, THIRD_PERSON, questions_of

PRONOUNS = THIRD_PERSON  # 他, 她, 它: the pronouns the pronoun head resolves
# A head decides when its top weight is at least DECIDED_MIN and DECIDED_GAP above the
# runner-up; otherwise it is undecided. Chosen on the generated held-out split (never on the
# human-written set): there about 1 answer in 100 that passes is wrong (MODEL.md).
DECIDED_MIN = 0.8
DECIDED_GAP = 0.5

ANSWER = "answer"  # decided, and every word is within what the model knows
UNDECIDED = "undecided"  # the head's weight is split: top < DECIDED_MIN or gap < DECIDED_GAP
UNKNOWN_WORDS = "unknown_words"  # words the model has no meaning class or characters for
NO_CANDIDATE = "no_candidate"  # nothing before a pronoun or verb that could be the answer
NO_HEAD = "no_head"  # no head does this job (before training, say)
NOT_ASKED = "not_asked"  # the token asks none of the questions (a noun, 的, punctuation …)
SPEAKER = "first_second_person"  # 我, 你 …: pronouns (r), but the pronoun head reads 他/她/它
ONE_TOKEN = "one_token"  # a one-token sentence: there is nothing else to look at
LOOKS_AHEAD = "looks_ahead"  # the pronoun head decided on a word after 他: 他 refers back
IMPLAUSIBLE = "implausible"  # decided on a word that cannot be the answer (他 → a thing, 它 → 老师)
AMBIGUOUS = "ambiguous"  # decided on one of two people 他/她 fits (`rival`): meaning decides
STATUSES = (
    ANSWER, UNDECIDED, LOOKS_AHEAD, IMPLAUSIBLE, AMBIGUOUS, UNKNOWN_WORDS, NO_CANDIDATE, NO_HEAD,
    NOT_ASKED, SPEAKER, ONE_TOKEN,
)  # fmt: skip
_CANDIDATE_TAGS = ("n", "r")  # POS tags an antecedent or a subject can have (nouns, pronouns)
# Tags of closed word classes (numbers, measure words, adverbs, prepositions, particles,
# punctuation …): the model knows these by their tag, whatever their characters.
_CLOSED_TAGS = ("m", "q", "d", "p", "c", "u", "y", "e", "o", "x", "f", "r", "t", "k", "h")


@dataclass(frozen=True)
class TokenReading:
    """What the head doing a token's question says about it, and how far to trust it."""

    query: int  # token index read
    status: str  # one of STATUSES; only ANSWER may be shown as the relation's answer
    question: str | None  # the relation read (in LINKS), None when the token asks none
    questions: tuple[str, ...]  # every relation the token asks (他的 asks two)
    head: HeadSummary | None  # the best head whose job is `question`
    keys: tuple[int, ...]  # token indices of the two largest weights in that head's row
    weights: tuple[float, ...]  # those weights
    decided: bool  # top weight ≥ DECIDED_MIN and ≥ DECIDED_GAP above the runner-up
    unknown: tuple[int, ...]  # token indices of words outside what the model knows
    rival: int | None = None  # AMBIGUOUS: the other word the pronoun fits as well as keys[0]

    @property
    def answer(self) -> int | None:
        """The token the head answers with, only when the status is ANSWER."""
        return self.keys[0] if self.status == ANSWER else None


def _text(token) -> str:
    return token if isinstance(token, str) else token.text


def _tag(token) -> str:
    return "" if isinstance(token, str) else token.tag


def known_word(token, vocab: Vocab) -> bool:
    """True when the model knows what kind of word this is: a word of a closed class (its tag
    says it: 一杯, 很, 在, punctuation), a name (jieba tags nr: a name's characters need not be
    known), a word Cilin files under a class the model learned (or whose last character it
    files: 小猫), or a word whose characters were all seen in training."""
    text, tag = _text(token), _tag(token)
    closed = tag.startswith(_CLOSED_TAGS) and tag != "eng"  # eng: a Latin word, not e 叹词
    if not any(ch.isalnum() for ch in text) or tag.startswith("nr") or closed:
        return True
    return vocab.knows_class(text) or not vocab.unknown_chars(text)


def unknown_words(tokens, vocab: Vocab) -> tuple[int, ...]:
    """Indices of the tokens outside what the model knows (see known_word)."""
    return tuple(i for i, t in enumerate(tokens) if not known_word(t, vocab))


def best_head(heads: list[HeadSummary], relation: str) -> HeadSummary | None:
    """The head whose measured job is `relation` and that does it best on the held-out split
    (the evaluation set chooses nothing here), or None."""
    doers = [h for h in heads if h.relation == relation]
    return max(doers, key=lambda h: (h.heldout_accuracy, h.accuracy)) if doers else None


def top_two(row: np.ndarray) -> tuple[tuple[int, ...], tuple[float, ...], bool]:
    """The two largest weights of a row, their token indices, and whether the head decided."""
    top = [int(j) for j in np.argsort(row, kind="stable")[::-1][:2]]
    w = tuple(float(row[j]) for j in top)
    gap = w[0] - (w[1] if len(w) > 1 else 0.0)
    return tuple(top), w, w[0] >= DECIDED_MIN and gap >= DECIDED_GAP


def _has_candidate(tokens, i: int, question: str) -> bool:
    """A pronoun or a verb needs someone or something before it: a noun or a pronoun by its
    tag, or a word Cilin files under 人 or 物 (jieba tags 警察 v in 门口站着一个警察)."""
    if question == "modifier_noun":
        return True
    return any(
        not _tag(t) or _tag(t).startswith(_CANDIDATE_TAGS) or _is_someone(_text(t))
        for t in tokens[:i]
    )


def _is_someone(text: str) -> bool:
    return any(code[0] in "AB" for code in classes(text))


def _status(tokens, i, question, head, keys, decided, unknown, rival) -> str:
    """The first reason, in order of precedence, not to present the pick as the answer."""
    text = _text(tokens[i])
    if len(tokens) < 2:
        return ONE_TOKEN
    if question is None:
        return SPEAKER if text in FIRST_SECOND else NOT_ASKED
    if head is None:
        return NO_HEAD
    if not _has_candidate(tokens, i, question):
        return NO_CANDIDATE
    if unknown:
        return UNKNOWN_WORDS
    if not decided:
        return UNDECIDED
    if question == "pronoun_antecedent" and keys[0] >= i:
        return LOOKS_AHEAD
    if not plausible(tokens, i, keys[0], question):
        return IMPLAUSIBLE
    return ANSWER if rival is None else AMBIGUOUS


def read_token(
    tokens, i: int, weights: np.ndarray, heads: list[HeadSummary], vocab: Vocab, *,
    relation: str | None = None,
) -> TokenReading:  # fmt: skip
    """Read token i of a sentence through the head that does its question.

    tokens: the run's tokens (or their texts: then only 他/她/它 ask, by text); weights: the
    heads' (h, n, n) attention; heads: describe_heads() of the same step; vocab: the model's
    (TrainedModel.vocab). relation picks one of the token's questions (default: the first).
    """
    asks = questions_of(tokens, i) if not isinstance(tokens[i], str) else _by_text(tokens[i])
    if relation is not None and relation not in LINKS:
        raise ValueError(f"relation must be one of {LINKS}, got {relation!r}")
    question = relation if relation in asks else (asks[0] if asks and relation is None else None)
    head = best_head(heads, question) if question else None
    keys, w, decided = top_two(weights[head.head, i]) if head else ((), (), False)
    unknown = unknown_words(tokens, vocab)
    other = rival(tokens, i, keys[0]) if keys and question == "pronoun_antecedent" else None
    status = _status(tokens, i, question, head, keys, decided, unknown, other)
    other = other if status == AMBIGUOUS else None
    return TokenReading(i, status, question, asks, head, keys, w, decided, unknown, other)


def _by_text(text: str) -> tuple[str, ...]:
    return ("pronoun_antecedent",) if text in THIRD_PERSON else ()


# ---- can the pick be the answer at all? ---------------------------------------------------------

GROUPS = ("大家", "大伙", "大伙儿", "全家", "全班", "各位", "诸位")  # many people: not 他 or 她
_GROUP_CLASSES = ("Aa01C", "Aa02", "Aa03", "Aa04B")  # 众人; 我, 你 (and 我们 …); 他们
_NOT_NOMINAL = ("v", "a", "d", "p", "c", "u", "m", "q", "x", "y", "e", "o", "z", "b")
# Cilin's top classes of qualities (E 特征) and of states and phenomena (I 现象与状态); not H
# 活动, whose words are often nouns (明天的考试, 饭店的服务).
_NOT_THINGS = ("E", "I")


def _person_like(token, *, listed: bool = False) -> bool:
    """A word that may name a person: a name, or a word Cilin (or its last character) files
    under 人 or under 男/女 (Cilin files 女孩 there); a word Cilin does not know at all too,
    unless `listed` asks for a word it knows."""
    text, tag = _text(token), _tag(token)
    senses = word_classes(text, tag)
    if listed and not (name_kind(text, tag) or classes(text)):
        return bool(senses) and all(c[0] == "A" or c.startswith("Dd15") for c in senses)
    if not senses:
        return not listed
    return any(c[0] == "A" or c.startswith("Dd15") for c in senses)


def _surely_person(token) -> bool:
    """A word that names a person for certain: a name (林明, 小王, 小明 nr: lexicon.name_kind),
    or a word Cilin (or its last character) files under 人 only."""
    text, tag = _text(token), _tag(token)
    if name_kind(text, tag):
        return True
    senses = word_classes(text, tag)
    return bool(senses) and all(c[0] == "A" for c in senses)


def _group(token) -> bool:
    """Many people, or the speakers: 大家, 同学们, 人们, 他们, 我, 你们 — never whom 他 means."""
    text = _text(token)
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
    tag, senses = model_tag(token), classes(_text(token))
    if senses and all(c[0] in "AB" for c in senses):  # 小偷 d in 抓住了小偷: a person still
        return True
    if senses and all(c[0] in _NOT_THINGS for c in senses):
        return False
    return tag in ("vn", "an") or not tag.startswith(_NOT_NOMINAL)


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


# Verbs whose object may go on to do the next verb: pivots (妈妈叫我去买菜: 我 buys), seeing and
# hearing (听老师讲课), 是 and 有 (是爷爷写的, 有人敲门); and the verbs of _SAYING (觉得他会来).
_PIVOTS = ("让", "叫", "请", "派", "要求", "使", "帮", "教", "带", "陪", "催", "逼", "听", "看",
           "看见", "听见", "看到", "听到", "见")  # fmt: skip


def _object_before(tokens, j: int, i: int) -> bool:
    """Word j is the object of another verb before verb i (追着蝴蝶跑: 蝴蝶 is chased, not the one
    who runs), that verb not a pivot, a verb of saying, 是 or 有 (叫我去买: 我 does buy)."""
    k = j - 1
    while k >= 0 and _tag(tokens[k]).startswith(("u", "m", "q")):  # 着, 了, 一只
        k -= 1
    verb = tokens[k] if k >= 0 else None
    lets = (*_PIVOTS, *_SAYING, "是", "有")
    return verb is not None and _tag(verb).startswith("v") and _text(verb) not in lets


def _pivot_between(tokens, j: int, i: int) -> bool:
    """Between word j and verb i, in one clause, a pivot with its object (妈妈叫我去超市买鸡蛋:
    我 buys, not 妈妈)."""
    between = range(j + 1, i)
    if any(_text(tokens[k]) in CLAUSE_ENDS for k in between):
        return False
    return any(_text(tokens[k]) in _PIVOTS and _nominal(tokens[k + 1]) for k in between)


def _phrase_ends(tokens, i: int, j: int) -> bool:
    """Whether a noun phrase ends between tokens i and j: a nominal word not followed by another
    (哥哥的房间里有很多书: 哥哥 describes 房间, not 书; 明亮的大眼睛, 那本书 go on to the noun)."""
    return any(_nominal(tokens[k]) and not _nominal(tokens[k + 1]) for k in range(i + 1, j))


def _fits(query, pick, listed: bool = False) -> bool:
    """Whether the pronoun can mean this word by what the word is (not where it stands);
    `listed`: only a word the lexicon knows to be a person (a rival, not the head's pick)."""
    text = _text(query)
    if text == "它":
        place = _tag(pick).startswith(("s", "t", "f")) and not _is_thing(_text(pick))
        return _nominal(pick) and not _surely_person(pick) and not _group(pick) and not place
    if _text(pick) in ("他", "她"):
        return _text(pick) == text
    other = {"他": "f", "她": "m"}.get(text)
    person = _nominal(pick) and _person_like(pick, listed=listed) and not _group(pick)
    return person and gender(_text(pick), _tag(pick)) != other


# Verbs after which a new clause begins (小明说他明天来: 他 may be 小明)
_SAYING = ("说", "觉得", "认为", "以为", "希望", "相信", "知道", "发现", "听说", "记得", "怀疑",
           "告诉", "提醒", "通知", "问")  # fmt: skip
_TAKES_OBJECT = ("给", "把", "被", "对", "跟", "和", "向", "为", "替", "帮", "让", "叫", "请")


def _in_own_clause(tokens, i: int, j: int) -> bool:
    """Pronoun i is an object (after a verb, 给, 把, 对 …), not a possessor (他的), and word j is
    its clause's doer, before it: a pronoun never means that (小伙子给他让座, 妈妈带她去医院)."""
    if (i + 1 < len(tokens) and _text(tokens[i + 1]) == "的") or i == 0:
        return False
    before = tokens[i - 1]
    if not (_tag(before).startswith("v") or _text(before) in _TAKES_OBJECT):
        return False
    between = [_text(t) for t in tokens[j + 1 : i]]
    return not any(w in CLAUSE_ENDS or w in _SAYING for w in between)


def rival(tokens, i: int, j: int) -> int | None:
    """For 他/她/它 read as word j: another word before the pronoun that it fits just as well
    (both people 他 agrees with, outside the pronoun's own clause; for 它 an animal when j is
    no animal), the nearest first; None when j is the only one."""
    if _text(tokens[i]) not in PRONOUNS or j >= i or isinstance(tokens[j], str):
        return None
    if not plausible(tokens, i, j, _PRONOUN):
        return None
    animal = _text(tokens[i]) == "它" and not _is_animal(tokens[j])
    for k in range(i - 1, -1, -1):
        fits = _fits(tokens[i], tokens[k], listed=True) and not _in_own_clause(tokens, i, k)
        tag = _tag(tokens[k])
        noun = (tag.startswith("n") and not tag.startswith(("ns", "nt"))) or animal
        noun = noun or (_nominal(tokens[k]) and _surely_person(tokens[k]))  # 小偷 tagged d
        if k == j or not fits or not noun or _one_person(tokens, j, k):
            continue
        if _text(tokens[i]) != "它" or (animal and _is_animal(tokens[k])):
            return k
    return None


_PRONOUN = "pronoun_antecedent"
_SAME = ("是", "名叫", "叫做", "当", "成了", "成为", "做")  # 林明是我们的导游: one person


def _one_person(tokens, j: int, k: int) -> bool:
    """Words j and k need not be two people told apart: k possesses j (王阿姨的女儿…，她: the
    daughter, as a reader takes it), or the clause says they are one (李娜是我的同桌, 当过兵)."""
    a, b = sorted((j, k))
    between = [_text(t) for t in tokens[a + 1 : b]]
    owner = (k < j and between[:1] == ["的"]) or (k < j and between[-1:] == ["的"])
    after = _text(tokens[b + 1]) if b + 1 < len(tokens) else "。"
    called = "叫" in between and after in CLAUSE_ENDS  # 我的同桌叫李娜， (not 叫小张回答问题)
    same = any(w in _SAME for w in between) or called
    return owner or (same and not any(w in CLAUSE_ENDS for w in between))


def _is_animal(token) -> bool:
    return any(c.startswith("Bi") for c in word_classes(_text(token), _tag(token)))


def _is_thing(text: str) -> bool:
    """Cilin files the word (or its last character) under 物 or 抽象事物 (小河, 面包店)."""
    return any(c[0] in "BD" for c in word_classes(text))


@dataclass(frozen=True)
class PronounReading:
    """Whom the first 他/她/它 of a sentence means, according to the measured pronoun head."""

    query: int  # token index of the pronoun
    head: HeadSummary | None  # the best head whose job is pronoun → antecedent; None: no such head
    keys: tuple[int, ...]  # token indices of the two largest weights in that head's row
    weights: tuple[float, ...]  # those two weights
    decided: bool  # top weight ≥ DECIDED_MIN and ≥ DECIDED_GAP above the runner-up
    status: str = ANSWER  # as TokenReading.status: only ANSWER may be shown as the answer
    unknown: tuple[int, ...] = ()  # token indices of words outside what the model knows


def read_pronoun(
    texts, weights: np.ndarray, heads: list[HeadSummary], vocab: Vocab | None = None
) -> PronounReading | None:
    """The pronoun head's row of the first 他/她/它 (weights: (h, n, n)); None without one.

    texts: token texts or tokens; vocab: the model's (default: the shipped model's).
    """
    rows = [i for i, w in enumerate(texts) if _text(w) in PRONOUNS]
    if not rows:
        return None
    if vocab is None:
        from .demo import load_demo_model

        vocab = load_demo_model().vocab
    r = read_token(texts, rows[0], weights, heads, vocab, relation="pronoun_antecedent")
    return PronounReading(r.query, r.head, r.keys, r.weights, r.decided, r.status, r.unknown)
