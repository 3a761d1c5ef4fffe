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

from demo_model.demo import HeadSummary
from demo_model.features import Vocab
from demo_model.lexicon import classes
from demo_model.plausible import plausible, rival, tag_of, text_of
from demo_model.relations import FIRST_SECOND, LINKS, THIRD_PERSON, questions_of

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


def known_word(token, vocab: Vocab) -> bool:
    """True when the model knows what kind of word this is: a word of a closed class (its tag
    says it: 一杯, 很, 在, punctuation), a name (jieba tags nr: a name's characters need not be
    known), a word Cilin files under a class the model learned (or whose last character it
    files: 小猫), or a word whose characters were all seen in training."""
    text, tag = text_of(token), tag_of(token)
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


def _is_someone(text: str) -> bool:
    return any(code[0] in "AB" for code in classes(text))


def _has_candidate(tokens, i: int, question: str) -> bool:
    """A pronoun or a verb needs someone or something before it: a noun or a pronoun by its
    tag, or a word Cilin files under 人 or 物 (jieba tags 警察 v in 门口站着一个警察)."""
    if question == "modifier_noun":
        return True
    return any(
        not tag_of(t) or tag_of(t).startswith(_CANDIDATE_TAGS) or _is_someone(text_of(t))
        for t in tokens[:i]
    )


def _status(tokens, i, question, head, keys, decided, unknown, rival) -> str:
    """The first reason, in order of precedence, not to present the pick as the answer."""
    text = text_of(tokens[i])
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


def _by_text(text: str) -> tuple[str, ...]:
    return ("pronoun_antecedent",) if text in THIRD_PERSON else ()


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
    rows = [i for i, w in enumerate(texts) if text_of(w) in PRONOUNS]
    if not rows:
        return None
    if vocab is None:
        from demo_model.demo import load_demo_model

        vocab = load_demo_model().vocab
    r = read_token(texts, rows[0], weights, heads, vocab, relation="pronoun_antecedent")
    return PronounReading(r.query, r.head, r.keys, r.weights, r.decided, r.status, r.unknown)
