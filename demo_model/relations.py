"""The three questions the demo model is asked, and which token of a sentence asks which.

The rule reads only the tokens and their jieba POS tags, so the corpus, the evaluation set and
the app's reading of a focus token agree with the POS chip the app shows beside each token.
"""

from __future__ import annotations

# The relations a sentence labels, each as (asking token → answering token).
LINKS = ("pronoun_antecedent", "modifier_noun", "verb_subject")
THIRD_PERSON = ("他", "她", "它")  # the pronouns the pronoun head is about
FIRST_SECOND = ("我", "你", "您", "我们", "你们", "咱们", "咱")  # pronouns (r) about the speakers
DE = "的"
ADJECTIVE_TAGS = ("a", "ag", "an", "b", "z")  # adjectives, distinguishing and descriptive words


def _is_word(token) -> bool:
    """A token that can ask anything: not punctuation, not 的 itself."""
    return token.tag != "x" and token.text != DE and any(c.isalnum() for c in token.text)


def asks_modifier(tokens, i: int) -> bool:
    """True when token i modifies a noun after it: it stands before 的 (小明的, 漂亮的,
    买的), or an adjective stands right before a noun (新 书包), or jieba kept the 的 inside an
    adjective (长长的 头发)."""
    tok = tokens[i]
    if not _is_word(tok) or i + 1 >= len(tokens):
        return False
    nxt = tokens[i + 1]
    if nxt.text == DE:
        return True
    before_noun = nxt.tag.startswith("n") and _is_word(nxt)
    return before_noun and (
        tok.tag in ADJECTIVE_TAGS or (tok.text.endswith(DE) and len(tok.text) > 1)
    )


def questions_of(tokens, i: int) -> tuple[str, ...]:
    """The relations token i asks about, in LINKS order; () for a token no head was trained on.

    他/她/它 ask whom they mean; a word jieba tags as a verb (v, vn, …) asks who does it; a
    modifier asks which noun it describes (see asks_modifier). 他的 asks two questions.
    """
    tok = tokens[i]
    out = []
    if tok.text in THIRD_PERSON:
        out.append("pronoun_antecedent")
    if asks_modifier(tokens, i):
        out.append("modifier_noun")
    if tok.tag.startswith("v") and _is_word(tok):
        out.append("verb_subject")
    return tuple(out)
