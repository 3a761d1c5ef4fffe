"""The human-written evaluation sets (data/eval_*.txt): parse, align with jieba, check, measure.

Each line is a sentence and its labels, "老师走进教室，他开始讲课。 | P 他>老师 | V 开始>他";
a label names words, not positions (了#2 = the second 了), so it survives a change of
segmentation or it fails loudly: load() reports every label whose words are not tokens, and
every query that does not ask its question by the rule the app reads tokens with.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from attention_core.tokenize import tokenize
from demo_model.relations import LINKS, questions_of

EVAL_PATH = Path(__file__).resolve().parent / "eval_set.txt"  # development
TEST_PATH = EVAL_PATH.parent / "eval_test.txt"  # written before round 2, evaluated once at its end
BLIND_PATH = EVAL_PATH.parent / "eval_blind.txt"  # written before round 3, measured thrice
ROUND4_PATH = EVAL_PATH.parent / "eval_round4.txt"  # written before round 4, measured thrice
ROUND5_PATH = EVAL_PATH.parent / "eval_round5.txt"  # written before round 5, measured blind once
ALL_SETS = {
    "dev": EVAL_PATH, "test": TEST_PATH, "blind": BLIND_PATH, "round4": ROUND4_PATH,
    "round5": ROUND5_PATH,
}  # fmt: skip
# The sets written before the shipped model was trained: the corpus pools avoid every word of
# their sentences (corpus_words.build_pools). The round-5 set came after; only its labelled
# words are kept out of the corpus (tests/model/test_eval_set.py), so the corpus and the shipped
# weights stay what they were when it was written.
POOLS_AVOID = ("dev", "test", "blind", "round4")
CODES = {"P": "pronoun_antecedent", "M": "modifier_noun", "V": "verb_subject"}
_LABEL = re.compile(r"^([PMV]) (\S+?)>(\S+)$")


class EvalSetError(ValueError):
    """The evaluation file has labels that do not align with jieba's tokens (all listed)."""


@dataclass(frozen=True)
class Item:
    """One labelled question: the asking token, the answering token, both as token indices."""

    relation: str  # one of LINKS
    query: int
    target: int


@dataclass(frozen=True)
class EvalSentence:
    """A sentence of the set, tokenised, with its labels."""

    line: int  # line number in the file (1-based)
    text: str
    tokens: list
    items: tuple[Item, ...]

    @property
    def links(self) -> dict:
        """relation -> ((query, target), …), the shape of corpus.Example.links."""
        return {r: tuple((i.query, i.target) for i in self.items if i.relation == r) for r in LINKS}


def parse(path: Path = EVAL_PATH) -> list[tuple[int, str, list[tuple[str, str, str]]]]:
    """(line number, sentence, [(code, query word, target word), …]) for every sentence line."""
    out = []
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        text, *labels = (part.strip() for part in line.split(" | "))
        found = [_LABEL.match(label) for label in labels]
        if not labels or not all(found):
            raise EvalSetError(f"line {number}: cannot read the labels of {line!r}")
        out.append((number, text, [m.groups() for m in found]))
    return out


def _find(texts: list[str], word: str) -> int | None:
    """Index of a word among the token texts; "了#2" is the second 了; None if it is not one."""
    name, _, nth = word.partition("#")
    hits = [i for i, t in enumerate(texts) if t == name]
    k = int(nth) if nth else 1
    return hits[k - 1] if 0 < k <= len(hits) else None


def _align(number: int, text: str, labels: list, tokens: list) -> tuple[list, list[str]]:
    """The labels as Items, and a message for every one that does not align."""
    texts, items, problems = [t.text for t in tokens], [], []
    shown = " ".join(f"{t.text}/{t.tag}" for t in tokens)
    for code, query, target in labels:
        i, j = _find(texts, query), _find(texts, target)
        relation = CODES[code]
        if i is None or j is None:
            missing = query if i is None else target
            problems.append(f"line {number}: {missing!r} is not a token of {shown}")
        elif relation not in questions_of(tokens, i):
            problems.append(f"line {number}: {query!r} does not ask {relation} in {shown}")
        elif i == j:
            problems.append(f"line {number}: {query!r} cannot answer itself")
        else:
            items.append(Item(relation, i, j))
    return items, problems


def check(path: Path = EVAL_PATH) -> tuple[list[EvalSentence], list[str]]:
    """Every sentence with its aligned labels, and a message per label that does not align."""
    sentences, problems = [], []
    for number, text, labels in parse(path):
        tokens = tokenize(text, mode="word")
        items, bad = _align(number, text, labels, tokens)
        sentences.append(EvalSentence(number, text, tokens, tuple(items)))
        problems += bad
    return sentences, problems


def load(path: Path = EVAL_PATH) -> list[EvalSentence]:
    """The evaluation set, every label aligned with jieba's tokens; EvalSetError lists the
    labels that do not align (a word jieba splits or joins, a query that asks nothing)."""
    sentences, problems = check(path)
    if problems:
        raise EvalSetError(f"{len(problems)} labels do not align:\n" + "\n".join(problems))
    return sentences


def load_all() -> list[EvalSentence]:
    """Every sentence of every set (ALL_SETS, in order): what the stored "human" figures of a
    trained model and the app's captions count."""
    return [s for path in ALL_SETS.values() for s in load(path)]


@dataclass(frozen=True)
class Score:
    """One relation of one set, read as the app reads it (totals only, no sentence named)."""

    relation: str
    head: int | None  # the head the app reads (best on the held-out split), 0-based
    hits: int  # labels whose largest weight in that head's row is the target …
    total: int  # … of this many labels
    best_head: int  # the head with most hits on this set (MODEL.md's "best head" column)
    best_hits: int
    presented: int  # readings with status "answer"
    presented_right: int  # … of them naming the target
    held_back: int  # misses whose status is not "answer"


def measure(path: Path = EVAL_PATH, weights: Path | None = None) -> list[Score]:
    """Per relation in LINKS, the shipped (or given) model's totals on a set."""
    import numpy as np

    from demo_model.demo import DEMO_PATH, describe_heads, load_demo_model
    from demo_model.reading import ANSWER, best_head, read_token

    weights = weights or DEMO_PATH
    model, heads = load_demo_model(path=weights), describe_heads(path=weights)
    out = []
    for relation in LINKS:
        doer = best_head(heads, relation)
        per_head = np.zeros(model.config.num_heads, dtype=int)  # (h,) hits per head
        hits = total = presented = right = held_back = 0
        for s in load(path):
            items = [i for i in s.items if i.relation == relation]
            a = model.run(s.text).attention.heads.weights if items else None  # (h, n, n)
            for item in items:
                r = read_token(s.tokens, item.query, a, heads, model.vocab, relation=relation)
                hit = bool(r.keys) and r.keys[0] == item.target
                per_head += np.argmax(a[:, item.query], axis=-1) == item.target
                total, hits = total + 1, hits + hit
                presented += r.status == ANSWER
                right += hit and r.status == ANSWER
                held_back += not hit and r.status != ANSWER
        best = int(np.argmax(per_head))
        head = doer.head if doer else None
        out.append(Score(relation, head, hits, total, best, int(per_head[best]), presented, right,
                         held_back))  # fmt: skip
    return out


def table(scores: list[Score]) -> str:
    """The scores as a plain-text table."""
    head = "app's head        best head         presented (right)  misses held back"
    lines = [f"{'relation':<20} {head}"]
    for s in scores:
        app = (
            f"h{s.head + 1} {s.hits}/{s.total} = {s.hits / s.total:.1%}"
            if s.head is not None
            else "-"
        )
        best = f"h{s.best_head + 1} {s.best_hits}/{s.total} = {s.best_hits / s.total:.1%}"
        lines.append(
            f"{s.relation:<20} {app:<17} {best:<17} {s.presented:>3} ({s.presented_right:>3})"
            f"          {s.held_back}/{s.total - s.hits}"
        )
    return "\n".join(lines)


def main(argv: list | None = None) -> None:
    """Command line: `python -m demo_model.data.evalset round5 [--weights file.npz]` prints the
    totals of one set (dev, test, blind, round4, round5), never a sentence."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("set", choices=tuple(ALL_SETS), help="which human-written set")
    parser.add_argument("--weights", type=Path, default=None, help="a trained .npz")
    args = parser.parse_args(argv)
    print(table(measure(ALL_SETS[args.set], args.weights)))


if __name__ == "__main__":
    main()
