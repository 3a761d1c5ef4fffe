"""English readers: a word-by-word gloss of Chinese tokens and the names of jieba's POS tags."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from ui.text import t

GLOSS_CHARS = 12  # a gloss under an axis label is cut to this many characters
GLOSS_FILE = Path(__file__).resolve().parent.parent / "assets" / "gloss.json"
# jieba's POS tags → the key of their names (ui/text/gloss.toml); any other tag is pos.unknown.
# fmt: off
POS_KEYS = {
    "a": "pos.a", "ad": "pos.ad", "ag": "pos.ag", "an": "pos.an", "b": "pos.b",
    "c": "pos.c", "d": "pos.d", "df": "pos.df", "dg": "pos.dg", "e": "pos.e",
    "eng": "pos.eng", "f": "pos.f", "g": "pos.g", "h": "pos.h", "i": "pos.i",
    "j": "pos.j", "k": "pos.k", "l": "pos.l", "m": "pos.m", "mg": "pos.mg",
    "mq": "pos.mq", "n": "pos.n", "ng": "pos.ng", "nr": "pos.nr",
    "nrfg": "pos.nrfg", "nrt": "pos.nrt", "ns": "pos.ns", "nt": "pos.nt",
    "nz": "pos.nz", "o": "pos.o", "p": "pos.p", "q": "pos.q", "r": "pos.r",
    "rg": "pos.rg", "rr": "pos.rr", "rz": "pos.rz", "s": "pos.s", "t": "pos.t",
    "tg": "pos.tg", "u": "pos.u", "ud": "pos.ud", "ug": "pos.ug", "uj": "pos.uj",
    "ul": "pos.ul", "uv": "pos.uv", "uz": "pos.uz", "v": "pos.v", "vd": "pos.vd",
    "vg": "pos.vg", "vi": "pos.vi", "vn": "pos.vn", "vq": "pos.vq", "x": "pos.x",
    "y": "pos.y", "z": "pos.z", "zg": "pos.zg",
}
# fmt: on


@cache
def _table() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(words, surnames, given-name characters) from assets/gloss.json, read once."""
    doc = json.loads(GLOSS_FILE.read_text(encoding="utf-8"))
    return doc["words"], doc["surnames"], doc["given"]


def _name(text: str, surnames: dict[str, str], given: dict[str, str]) -> str | None:
    """A two-character person name such as 小明 → "Xiaoming (name)", 王丽 → "Wang Li (name)"."""
    if len(text) != 2 or text[0] not in surnames or text[1] not in given:
        return None
    first, second = surnames[text[0]], given[text[1]]
    spelled = first + second.lower() if text[0] == "小" else f"{first} {second}"
    return f"{spelled} (name)"


SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉"  # token_names' numbers of a repeated token
SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"  # an exponent in a sentence: (1−1/n)⁴


def written_in(k: int, digits: str) -> str:
    """A whole number in other digits: written_in(12, SUBSCRIPTS) → "₁₂"."""
    return str(k).translate(str.maketrans("0123456789", digits))


def gloss(text: str) -> str | None:
    """The English gloss of one token (他 → "he", 把 → "(object marker)"); None when unknown.

    The UI shows t("gloss.none", lang) for None. Surrounding spaces are ignored, and a token's
    name from token_names glosses as its token (了₂ → "(aspect particle)").
    """
    word = str(text).strip().rstrip(SUBSCRIPTS)
    if not word:
        return None
    words, surnames, given = _table()
    return words.get(word) or _name(word, surnames, given)


def tag_name(tag: str, lang: str = "zh") -> str:
    """The name of a jieba POS tag in the UI language (nr → "人名" / "person's name").

    A tag the table does not know reads as "other (tag)".
    """
    key = POS_KEYS.get(tag)
    return t(key, lang) if key else t("pos.unknown", lang, tag=tag)


def glossed(text: str, lang: str) -> str:
    """A token as a sentence names it: in English with its gloss, “他 (he)”; else the text."""
    word = gloss(text) if lang == "en" else None
    if not word:
        return str(text)
    if word.startswith("(") and word.endswith(")") and word.count("(") == 1:
        return f"{text} {word}"  # 把 (object marker), not 把 ((object marker))
    flat = re.sub(r"(?<!/) \(", ", ", word).replace("(", "").replace(")", "")
    return f"{text} ({flat})"  # 小明 (Xiaoming, name); 家 (home / measure word)


def short_gloss(text: str, lang: str, max_chars: int = GLOSS_CHARS) -> str | None:
    """The gloss an axis label carries in English, cut to `max_chars` ("…" at the cut); None in
    Chinese or when none is known."""
    word = gloss(text) if lang == "en" else None
    if not word:
        return None
    if len(word) > max_chars and not word.startswith("("):  # "walk / leave" → "walk"
        word = re.split(r" / | \(", word)[0]
    return word if len(word) <= max_chars else word[: max_chars - 1].rstrip() + "…"


def token_names(texts: Sequence[str]) -> list[str]:
    """Tokens as a sentence of the page names them: a text that occurs more than once carries
    its occurrence as a subscript (了₁, 了₂), so two different 了 never read as one."""
    counts, seen, out = Counter(texts), Counter(), []
    for text in texts:
        seen[text] += 1
        out.append(text + written_in(seen[text], SUBSCRIPTS) if counts[text] > 1 else text)
    return out


def named(texts: Sequence[str], i: int, lang: str, escape: Callable[[str], str] = str) -> str:
    """Token i as the pages' sentences and pickers name it: repeats numbered (了₂) and, in
    English, glossed as glossed() writes it — “了₂ (aspect particle)”, “小明 (Xiaoming, name)”;
    `escape` (md_escape for Markdown) applies to the token, user text, never to our gloss."""
    text = texts[i]
    return escape(token_names(texts)[i]) + glossed(text, lang)[len(text) :]
