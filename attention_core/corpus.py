"""Templated Chinese sentences with three relations labelled: pronoun → antecedent,
modifier → head noun (X的Y), verb → subject."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

SPLITS = ("train", "heldout")
# The relations a sentence labels, each as (asking token → answering token).
LINKS = ("pronoun_antecedent", "modifier_noun", "verb_subject")
MALE_CHARS = ("明", "强", "伟", "军", "刚", "杰", "涛", "磊")
FEMALE_CHARS = ("红", "丽", "芳", "婷", "娟", "静", "敏", "燕")
PRONOUN = {"m": "他", "f": "她"}
DISTRACTORS = ("这里", "那里", "那天")  # tagged r like 他/她, but nobody's name

# Held-out names, objects, places, modifiers and templates never appear in training.
SURNAMES = {
    "train": ("小", "王", "李", "张", "刘", "陈", "杨"),
    "heldout": ("赵", "黄", "周", "吴"),
}
# object → its measure word (一本书, 那本书)
OBJECTS = {
    "train": {
        "书": "本", "钥匙": "把", "苹果": "个", "杯子": "个", "雨伞": "把", "手机": "部",
        "衣服": "件", "电脑": "台", "面包": "个", "钱包": "个", "狗": "只", "汽车": "辆",
    },
    "heldout": {
        "帽子": "顶", "足球": "个", "照片": "张", "鲜花": "束", "自行车": "辆", "眼镜": "副",
        "兔子": "只", "毛衣": "件",
    },
}  # fmt: skip
PLACES = {
    "train": ("桌子", "公园", "学校", "商店", "厨房", "图书馆", "教室"),
    "heldout": ("医院", "车站", "操场", "办公室", "超市"),
}
# Adjectives jieba tags "a", and colours (tagged "n", all ending in 色).
ADJECTIVES = {
    "train": ("新", "旧", "大", "小", "漂亮", "聪明", "干净", "便宜"),
    "heldout": ("长", "厚", "轻", "有趣", "简单"),
}
COLOURS = {"train": ("红色", "白色", "黑色", "灰色"), "heldout": ("蓝色", "黄色", "绿色")}
SPLIT_APART = ("个旧", "本书", "那本书")  # jieba joins 一个旧 (a city), 一本书, 那本书 (a name)
TIMES = ("那天", "昨天", "今天", "周末", "后来", "晚上")

# Slots: {P1} {P2} persons; {R1} {R2} their pronouns; {O} {O2} objects, {M:O} 一 + O's measure
# word, {D:O} 那 + O's measure word (a demonstrative, tagged r); {L} place; {T} time;
# {A>O} an adjective and {C>O} a colour modifying O; {P1>O}, {R1>O} a possessor of O;
# {v:VERB:SUBJ} a verb whose subject is SUBJ, {v:VERB:SUBJ>O} one that also modifies O
# (a relative clause, 小明买的书). Persons both named before a pronoun differ in gender
# (gender decides); a person named after it may share it (position decides: 他 looks back).
TEMPLATES = {
    "train": (
        "{P1}把{O}放在了{L}上，然后{R1}{v:走:R1}了。",
        "{T}，{P1}在{L}{v:看见:P1}了{P2}，{R2}很高兴。",
        "{P1}{v:买:P1}了{M:O}{A>O}的{O}，{R1}很{v:喜欢:R1}。",
        "{P1}{v:看见:P1}{P2}{v:拿:P2}着{M:O}{C>O}的{O}。",
        "{P1>O}的{O}丢了，{P2}{v:帮:P2}{R1}找到了。",
        "{P1}{v:告诉:P1}{P2}，{R2>O}的{O}在{L}。",
        "{P1}{v:买:P1>O}的{O}很好看，{P2}{v:说:P2}{R1}花了很多钱。",
        "这里有{M:O}{A>O}的{O}，{P1}{v:说:P1}{R1}很{v:喜欢:R1}这里。",
        "那天{P1}没有来，因为{R1}{v:感冒:R1}了。",
        "{P1}{v:说:P1}{R1}明天要去{v:看:R1}{P2}。",
        "{T}{P2}在{L}{v:找:P2}{P1}，因为{R1}拿走了{R2>O}的{O}。",
        "{P1}很{v:喜欢:P1}{D:O}{O}，{R1}每天都{v:带:R1}着。",
        "{L}里，{O}被{P1}{v:拿走:P1}了，{P2}{v:说:P2}{R1}是故意的。",
        "{P2}{v:喜欢:P2}{P1}{v:做:P1>O}的{O}，{R2}说{R1}做得很好。",
        "{P1}把{C>O}的{O}{v:送给:P1}了{P2}，{R2}非常高兴。",
        "{P1}{v:觉得:P1}{R1}应该{v:帮助:R1}{P2}。",
        "{P1}{v:看见:P1}了{P2}{v:买:P2>O}的{O}，{R1}也很{v:想要:R1}。",
        "{P1}{v:告诉:P1}{P2}，{R1}明天不能{v:来:R1}了。",
        "那是{P2}{v:带:P2>O}的{O}，{P1}{v:说:P1}{R2}总是很小心。",
    ),
    "heldout": (
        "{T}，{P1}在{L}{v:遇到:P1}了{P2}，{R1}{v:请:R1}{R2}吃饭。",
        "{P1}拿着{M:O}{A>O}的{O}走进了{L}，然后{R1}{v:坐:R1}了下来。",
        "{P2}{v:劝:P2}{P1}别买{D:O}{C>O}的{O}，{R1}没有听。",
        "{L}旁边，{P1}{v:借:P1}了{P2>O}的{O}，{R2}有点生气。",
        "{P2}{v:收到:P2}了{P1}{v:寄:P1>O}的{O}，{R2}{v:感谢:R2}了{R1}。",
        "{P1}在{L}{v:找到:P1}了{R1>O}的{O}，{R1}{v:笑:R1}了。",
        "{P1}{v:希望:P1}{R1}明天能{v:见到:R1}{P2}。",
    ),
}
_SLOT = re.compile(r"\{([^}]+)\}")


@dataclass(frozen=True)
class Sentence:
    """One generated sentence: text, labelled character spans and the links between them."""

    text: str
    spans: dict  # slot key -> (start, end) character offsets of that word
    links: dict  # relation in LINKS -> tuple of (asking slot key, answering slot key)
    template: int  # index into TEMPLATES[split]


@dataclass(frozen=True)
class Example:
    """A sentence after tokenisation, its links as token indices."""

    text: str
    tokens: list
    links: dict  # relation in LINKS -> tuple of (i asking, j answering) token indices
    template: int

    @property
    def pronouns(self) -> tuple:
        return self.links["pronoun_antecedent"]

    @property
    def verbs(self) -> tuple:
        return self.links["verb_subject"]


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
        for measure in OBJECTS[split].values():
            words["一" + measure] = "m"
            words["那" + measure] = "r"  # a demonstrative: a pronoun-like distractor
    return words


def userdict_text() -> str:
    """assets/userdict.txt: the corpus words, and words jieba must not join (frequency 0)."""
    lines = [f"{w} 1000 {tag}" for w, tag in vocabulary().items()]
    return "\n".join([*lines, *(f"{w} 0" for w in SPLIT_APART)]) + "\n"


def _check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")


def generate(split: str, n: int, seed: int = 0) -> list[Sentence]:
    """n sentences of a split, drawn from its templates and word lists (seeded)."""
    _check_split(split)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    rng = np.random.default_rng(seed)
    templates = TEMPLATES[split]
    return [_fill(split, int(rng.integers(len(templates))), rng) for _ in range(n)]


def _pick(rng: np.random.Generator, items) -> str:
    items = tuple(items)
    return items[int(rng.integers(len(items)))]


def _genders(template: str, rng: np.random.Generator) -> tuple[str, str]:
    """P1's and P2's gender: different when both are named before one of their pronouns."""
    first = "m" if rng.random() < 0.5 else "f"
    second = "m" if rng.random() < 0.5 else "f"
    at = {m.group(1).split(">")[0]: m.start() for m in _SLOT.finditer(template)}
    for r, other in (("R1", "P2"), ("R2", "P1")):
        if r in at and other in at and at[other] < at[r]:
            second = "f" if first == "m" else "m"
    return first, second


def _words(split: str, template: str, rng: np.random.Generator) -> dict:
    g1, g2 = _genders(template, rng)
    pool, objects = names(split), OBJECTS[split]
    p1, o1 = _pick(rng, pool[g1]), _pick(rng, objects)
    return {
        "P1": p1,
        "P2": _pick(rng, [p for p in pool[g2] if p != p1]),
        "R1": PRONOUN[g1],
        "R2": PRONOUN[g2],
        "O": o1,
        "O2": _pick(rng, [o for o in objects if o != o1]),
        "M:O": "一" + objects[o1],
        "D:O": "那" + objects[o1],
        "A": _pick(rng, ADJECTIVES[split]),
        "C": _pick(rng, COLOURS[split]),
        "L": _pick(rng, PLACES[split]),
        "T": _pick(rng, TIMES),
    }


def _slot(spec: str, words: dict) -> tuple[str, str, list]:
    """A slot's name, word and links [(relation, answering slot name)] from its spec."""
    spec, _, head = spec.partition(">")
    links = [("modifier_noun", head)] if head else []
    if spec.startswith("v:"):
        _, verb, subject = spec.split(":")
        return "v", verb, [("verb_subject", subject), *links]
    if spec in ("R1", "R2"):
        links.append(("pronoun_antecedent", "P" + spec[1]))
    return spec, words[spec], links


def _fill(split: str, template: int, rng: np.random.Generator) -> Sentence:
    """Fill one template with words of its split; record spans and links.

    A modifier's noun is the next slot of that name; a subject or antecedent the last before.
    """
    pattern = TEMPLATES[split][template]
    words = _words(split, pattern, rng)
    text, spans, slots, asks, pos = "", {}, [], [], 0
    for m in _SLOT.finditer(pattern):
        text += pattern[pos : m.start()]
        name, word, links = _slot(m.group(1), words)
        key = f"{name}@{len(slots)}"
        slots.append((name, key))
        spans[key] = (len(text), len(text) + len(word))
        asks += [(rel, len(slots) - 1, target) for rel, target in links]
        text += word
        pos = m.end()
    text += pattern[pos:]
    found = {rel: [] for rel in LINKS}
    for rel, at, target in asks:
        after = rel == "modifier_noun"
        picks = [k for i, (n, k) in enumerate(slots) if n == target and (i > at) == after]
        found[rel].append((slots[at][1], picks[0] if after else picks[-1]))
    return Sentence(text, spans, {r: tuple(v) for r, v in found.items()}, template)


def label(sentence: Sentence, tokens: list) -> Example | None:
    """Map a sentence's labelled spans onto token indices; None if jieba split a labelled word."""
    index = {(tok.start, tok.end): i for i, tok in enumerate(tokens)}
    try:
        links = {
            rel: tuple((index[sentence.spans[a]], index[sentence.spans[b]]) for a, b in pairs)
            for rel, pairs in sentence.links.items()
        }
    except KeyError:
        return None
    return Example(sentence.text, tokens, links, sentence.template)


def build(split: str, n: int, seed: int = 0) -> list[Example]:
    """Generate, tokenise (jieba words) and label up to n examples; misaligned ones are dropped."""
    from .tokenize import tokenize

    out = []
    for sentence in generate(split, n, seed):
        example = label(sentence, tokenize(sentence.text, mode="word"))
        if example is not None:
            out.append(example)
    return out
