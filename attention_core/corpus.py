"""Templated Chinese sentences with every pronoun's antecedent and every verb's subject labelled."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

SPLITS = ("train", "heldout")
MALE_CHARS = ("明", "强", "伟", "军", "刚", "杰", "涛", "磊")
FEMALE_CHARS = ("红", "丽", "芳", "婷", "娟", "静", "敏", "燕")
PRONOUN = {"m": "他", "f": "她"}

# Held-out names, objects, places and templates never appear in training.
SURNAMES = {
    "train": ("小", "王", "李", "张", "刘", "陈", "杨"),
    "heldout": ("赵", "黄", "周", "吴"),
}
OBJECTS = {
    "train": ("书", "钥匙", "苹果", "杯子", "雨伞", "手机", "衣服", "电脑", "面包", "钱包"),
    "heldout": ("帽子", "足球", "照片", "鲜花", "自行车", "眼镜"),
}
PLACES = {
    "train": ("桌子", "公园", "学校", "商店", "厨房", "图书馆", "教室"),
    "heldout": ("医院", "车站", "操场", "办公室", "超市"),
}
TIMES = ("那天", "昨天", "今天", "周末", "后来", "晚上")

# Slots: {P1} {P2} persons, {R1} {R2} pronouns for them, {O} object, {L} place, {T} time,
# {v:VERB:SLOT} a verb whose subject is SLOT. Distractors tagged like pronouns: 这里, 那天, 那里.
TEMPLATES = {
    "train": (
        "{P1}把{O}放在了{L}上，然后{R1}{v:走:R1}了。",
        "{T}，{P1}在{L}{v:看见:P1}了{P2}，{R2}很高兴。",
        "{P1}把{O}{v:送给:P1}了{P2}，因为{R1}很{v:喜欢:R1}{R2}。",
        "{T}，{P1}和{P2}去了{L}，{R1}{v:买:R1}了{O}。",
        "这里有{O}，{P1}{v:说:P1}{R1}很{v:喜欢:R1}这里。",
        "{P1}{v:告诉:P1}{P2}，{R2}的{O}在这里。",
        "那天{P1}没有来，因为{R1}{v:生病:R1}了。",
        "{O}是{P1}的，{R1}{v:找:R1}了很久。",
        "{L}里，{O}被{P1}{v:拿走:P1}了，{P2}{v:说:P2}{R1}是故意的。",
        "{T}{P2}在{L}{v:等:P2}{P1}，{R1}来得很晚。",
        "{P1}的{O}丢了，{P2}{v:帮:P2}{R1}找到了。",
        "{P1}把{O}忘在{L}了，{R1}只好回去{v:拿:R1}。",
    ),
    "heldout": (
        "{T}，{P1}在{L}{v:遇到:P1}了{P2}，{R1}{v:请:R1}{R2}吃饭。",
        "{P1}拿着{O}走进了{L}，然后{R1}{v:坐:R1}了下来。",
        "那里的{O}很贵，{P2}{v:劝:P2}{P1}别买，{R1}没有听。",
        "{L}旁边，{P1}{v:借:P1}了{P2}的{O}，{R2}有点生气。",
        "{O}在这里，可是{P1}以为{R1}{v:丢:R1}了。",
    ),
}
_SLOT = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True)
class Sentence:
    """One generated sentence: text, labelled character spans and the links between them."""

    text: str
    spans: dict  # slot name -> (start, end) character offsets of that word
    pronouns: tuple  # (pronoun slot, antecedent slot) pairs
    verbs: tuple  # (verb slot, subject slot) pairs
    template: int  # index into TEMPLATES[split]


@dataclass(frozen=True)
class Example:
    """A sentence after tokenisation: token indices of pronoun→antecedent and verb→subject."""

    text: str
    tokens: list
    pronouns: tuple  # (i_pronoun, j_antecedent) token indices
    verbs: tuple  # (i_verb, j_subject) token indices
    template: int


def names(split: str) -> dict:
    """All person names of a split, by gender: {"m": (...), "f": (...)}."""
    _check_split(split)
    out = {}
    for g, chars in (("m", MALE_CHARS), ("f", FEMALE_CHARS)):
        out[g] = tuple(s + c for s in SURNAMES[split] for c in chars)
    return out


def vocabulary() -> dict:
    """Every corpus word that must segment as one word, with its POS tag (for the userdict)."""
    words = {}
    for split in SPLITS:
        for group in names(split).values():
            words.update(dict.fromkeys(group, "nr"))
        words.update(dict.fromkeys(OBJECTS[split], "n"))
        words.update(dict.fromkeys(PLACES[split], "n"))
    return words


def _check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")


def generate(split: str, n: int, seed: int = 0) -> list[Sentence]:
    """n sentences of a split, drawn from its templates, names, objects and places (seeded)."""
    _check_split(split)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    rng = np.random.default_rng(seed)
    templates = TEMPLATES[split]
    return [_fill(split, int(rng.integers(len(templates))), rng) for _ in range(n)]


def _pick(rng: np.random.Generator, items: tuple) -> str:
    return items[int(rng.integers(len(items)))]


def _fill(split: str, template: int, rng: np.random.Generator) -> Sentence:
    """Fill one template; two persons always differ in gender, so 他/她 decides."""
    genders = ("m", "f") if rng.random() < 0.5 else ("f", "m")
    pool = names(split)
    words = {
        "P1": _pick(rng, pool[genders[0]]),
        "P2": _pick(rng, pool[genders[1]]),
        "R1": PRONOUN[genders[0]],
        "R2": PRONOUN[genders[1]],
        "O": _pick(rng, OBJECTS[split]),
        "L": _pick(rng, PLACES[split]),
        "T": _pick(rng, TIMES),
    }
    text, spans, verbs, pos = "", {}, [], 0
    for m in _SLOT.finditer(TEMPLATES[split][template]):
        text += TEMPLATES[split][template][pos : m.start()]
        key = m.group(1)
        if key.startswith("v:"):
            _, verb, subject = key.split(":")
            key, word = f"v{len(verbs)}", verb
            verbs.append((key, subject))
        else:
            word = words[key]
        spans[key] = (len(text), len(text) + len(word))
        text += word
        pos = m.end()
    text += TEMPLATES[split][template][pos:]
    pronouns = tuple((r, "P" + r[1]) for r in ("R1", "R2") if r in spans)
    return Sentence(text, spans, pronouns, tuple(verbs), template)


def label(sentence: Sentence, tokens: list) -> Example | None:
    """Map a sentence's labelled spans onto token indices; None if jieba split a labelled word."""
    index = {(tok.start, tok.end): i for i, tok in enumerate(tokens)}
    try:
        links = [
            tuple((index[sentence.spans[a]], index[sentence.spans[b]]) for a, b in group)
            for group in (sentence.pronouns, sentence.verbs)
        ]
    except KeyError:
        return None
    return Example(sentence.text, tokens, links[0], links[1], sentence.template)


def build(split: str, n: int, seed: int = 0) -> list[Example]:
    """Generate, tokenise (jieba words) and label up to n examples; misaligned ones are dropped."""
    from .tokenize import tokenize

    out = []
    for sentence in generate(split, n, seed):
        example = label(sentence, tokenize(sentence.text, mode="word"))
        if example is not None:
            out.append(example)
    return out
