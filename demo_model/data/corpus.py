"""Templated Chinese sentences with three relations labelled: pronoun → antecedent,
modifier → noun, verb → subject; training and held-out splits share no content word or shape."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from attention_core.tokenize import USER_DICT, tokenize
from demo_model.data import corpus_words as words
from demo_model.data.corpus_words import SPLITS
from demo_model.data.grammar import compose
from demo_model.relations import LINKS, questions_of

__all__ = ["LINKS", "SPLITS", "Example", "Sentence", "build", "generate", "label"]
PRONOUN = {"m": "他", "f": "她"}

# Slots of a pattern (written by grammar.compose): {P1} {P2} people, {N1} an animal, {R1} {R2}
# the pronouns of P1 and P2, {RN} 它 of N1, {RO} 它 of the thing O; {O} {O2} things, {M:O}
# 一 + O's measure word, {D:O} 那 + O's measure word (a demonstrative, tagged r); {L} a place,
# {T} a time; {A>O} an adjective, {C>O} a colour, {a>O} a one-character adjective and {z>O} a
# doubled one (短短的, 湿漉漉) and {g>O} a degree adjective (很轻) modifying O; {S} 我, 你, 我们 or
# 你们 (never meant by 他 or 她); {P1}们 many people of one role; {P1>O}, {R1>O}, {P1>P2} a
# possessor; {vt:P1} a verb of frame vt whose subject is P1, {vt:P1>O} one that also modifies O
# (林明买的帽子); {J} a role word that names no one new (我们的导游名叫林明); {R1/P2} 他 as an
# object in a clause whose doer is P2. A person named before a pronoun of another must differ
# in gender from its antecedent (gender decides), unless it possesses the antecedent (林明的
# 母亲…，她 means the mother) or is the doer of the clause the pronoun is the object of
# (小伙子给他让座: 他 is never 小伙子); a person named after a pronoun may share it (position
# decides: 他 looks back).
_SLOT = re.compile(r"\{([^}]+)\}")
_PEOPLE = ("P1", "P2")
_REFERS = {"R1": "P1", "R2": "P2", "RN": "N1", "RO": "O"}  # pronoun slot → antecedent slot
_ANY_ACTION = ("vi", "vt", "vp")  # frames half filled from the lexicon's pool of verbs


def _introduced(slot: str, pattern: str) -> bool:
    """True when grammar._intro names this person: 名叫林明, 叫做沈丽, 林明是…, 沈强成了…"""
    marks = ("叫{" + slot + "}", "叫做{" + slot + "}", "{" + slot + "}是", "{" + slot + "}成了")
    return any(mark in pattern for mark in marks)


@dataclass(frozen=True)
class Sentence:
    """One generated sentence: text, labelled character spans and the links between them."""

    text: str
    spans: dict  # slot key -> (start, end) character offsets of that word
    links: dict  # relation in LINKS -> tuple of (asking slot key, answering slot key)
    template: str  # the pattern it was filled from (grammar.compose)


@dataclass(frozen=True)
class Example:
    """A sentence after tokenisation, its links as token indices."""

    text: str
    tokens: list
    links: dict  # relation in LINKS -> tuple of (i asking, j answering) token indices
    template: str


def _check_split(split: str) -> None:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")


def names(split: str) -> dict:
    """All given names of a split, by gender: {"m": (...), "f": (...)}."""
    _check_split(split)
    return dict(_names(split))


@functools.cache
def _names(split: str) -> tuple:
    """names() built once per split: every sentence casts its people from them (the tables are
    constants; rebuilding them for each sentence was a fifth of generate's time)."""
    chars = {"m": words.MALE_CHARS, "f": words.FEMALE_CHARS}
    return tuple(
        (
            g,
            tuple(
                s + c for s in words.SURNAMES[split] for c in cs if s + c not in words.TAKEN_NAMES
            ),
        )
        for g, cs in chars.items()
    )


def nicknames(split: str) -> tuple:
    """小林, 老林 …: a surname after 小 or 老 (no gender)."""
    _check_split(split)
    return tuple(p + s for s in words.SURNAMES[split] for p in words.NICK_PREFIXES)


def people(split: str) -> dict:
    """Every person word of a split by kind: kind -> {"m"|"f"|"x": (words …)}."""
    _check_split(split)
    return {
        "name": names(split),
        "kin": dict(words.KIN[split]),
        "nick": {"x": nicknames(split)},
        "job": {"x": words.JOBS[split]},
        "role": {"x": words.lexicon_pools()["roles"][split]},
    }


def verbs(split: str) -> dict:
    """frame -> the split's verbs as written ("挂|在": the verb 挂, written 挂在)."""
    _check_split(split)
    return {frame: pools[split] for frame, pools in words.VERBS.items()}


def heldout_words() -> dict:
    """Exactly what the held-out split holds out, by kind: no word here occurs in training."""
    verb_words = {v.split("|")[0] for pool in verbs("heldout").values() for v in pool}
    return {
        "names": tuple(w for g in names("heldout").values() for w in g) + nicknames("heldout"),
        "people": tuple(w for g in words.KIN["heldout"].values() for w in g)
        + words.JOBS["heldout"],
        "animals": tuple(words.ANIMALS["heldout"]),
        "objects": tuple(words.OBJECTS["heldout"]),
        "places": words.PLACES["heldout"],
        "modifiers": words.ADJECTIVES["heldout"]
        + words.COLOURS["heldout"]
        + words.SHORT_ADJECTIVES["heldout"]
        + tuple(w.split("|")[0] for w in words.DOUBLED["heldout"])
        + words.DEGREE["heldout"],
        "verbs": tuple(sorted(verb_words)),
        **{f"lexicon {k}": v["heldout"] for k, v in words.lexicon_pools().items()},
    }


def vocabulary() -> dict:
    """Every corpus word that must segment as one word, with its POS tag (for the userdict)."""
    out = {}
    for split in SPLITS:
        for group in names(split).values():
            out.update(dict.fromkeys(group, "nr"))
        out.update(dict.fromkeys(nicknames(split), "n"))
        for group in words.KIN[split].values():
            out.update(dict.fromkeys(group, "n"))
        out.update(dict.fromkeys(words.JOBS[split], "n"))
        for table in (words.ANIMALS[split], words.OBJECTS[split]):
            out.update(dict.fromkeys(table, "n"))
            for measure in table.values():
                out["一" + measure] = "m"
                out["那" + measure] = "r"  # a demonstrative: a pronoun-like distractor
        out.update(dict.fromkeys(words.PLACES[split], "n"))
        for pool in verbs(split).values():
            out.update({v: "v" for v in pool if "|" not in v and len(v) > 1})
    return out


def userdict_text() -> str:
    """assets/userdict.txt: the corpus words, the app's example names, and words jieba must not
    join (frequency 0)."""
    names = {w: "nr" for w in words.APP_NAMES}
    lines = [f"{w} 1000 {tag}" for w, tag in {**vocabulary(), **names, **words.KEEP_WHOLE}.items()]
    return "\n".join([*lines, *(f"{w} 0" for w in words.SPLIT_APART)]) + "\n"


# ---- filling templates ---------------------------------------------------------------------------


def generate(split: str, n: int, seed: int = 0) -> list[Sentence]:
    """n sentences of a split, drawn from its templates and word lists (seeded)."""
    _check_split(split)
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    rng = np.random.default_rng(seed)
    return [_fill(split, compose(split, rng), rng) for _ in range(n)]


def _pick(rng: np.random.Generator, items) -> str:
    items = tuple(items)
    return items[int(rng.integers(len(items)))]


def _parts(spec: str) -> tuple[str, str, str]:
    """A slot spec's name, the doer of its clause when it is an object ("R1/P2"), and the
    word it modifies ("P1>O")."""
    spec, _, head = spec.partition(">")
    name, _, local = spec.partition("/")
    return name, local, head


def _differ(pattern: str) -> set:
    """(antecedent, other) person pairs that must differ in gender: the other is named before
    a pronoun of the antecedent, does not possess it and is not the doer of the clause the
    pronoun is the object of."""
    specs = [(_parts(m.group(1)), m.start()) for m in _SLOT.finditer(pattern)]
    first, owns = {}, set()
    for (name, _, head), at in specs:
        first.setdefault(name, at)
        owns |= {(name, head)} if head in _PEOPLE else set()
    pairs = set()
    for (name, local, _), at in specs:
        ante = _REFERS.get(name)
        if ante in _PEOPLE:
            many = {p for p in _PEOPLE if "{" + p + "}们" in pattern}  # 他 is never 队员们
            others = [p for p in _PEOPLE if p not in (ante, local) and p not in many
                      and first.get(p, at) < at]  # fmt: skip
            pairs |= {(ante, p) for p in others if (p, ante) not in owns}
    return pairs


def _alike(pattern: str) -> set:
    """(antecedent, doer) pairs: a pronoun of the antecedent is the object of a clause whose
    doer is that person (小伙子给他让座). Most of the time they share a gender: syntax decides."""
    out = set()
    for m in _SLOT.finditer(pattern):
        name, local, _ = _parts(m.group(1))
        if _REFERS.get(name) in _PEOPLE and local in _PEOPLE:
            out.add((_REFERS[name], local))
    return out


def _gender(slot: str, pairs: set, cast: dict, same: bool, rng) -> str:
    """A gender for slot: the same as, or the other than, its partner already cast."""
    partner = [cast[q][1] for a, b in pairs if slot in (a, b) for q in (a, b) if q in cast]
    known = [g for g in partner if g in PRONOUN]
    if not known:
        return _pick(rng, "mf")
    return known[0] if same else ("f" if known[0] == "m" else "m")


def _cast(split: str, pattern: str, rng: np.random.Generator) -> dict:
    """Each person slot of a pattern → (word, gender "m"/"f"/"x"), gender constraints kept."""
    pairs, alike = _differ(pattern), _alike(pattern)
    many = {p for p in _PEOPLE if "{" + p + "}们" in pattern}  # 队员们: many people of one role
    tied, paired = {p for pair in pairs for p in pair}, {p for pair in alike for p in pair} - many
    pool, cast = people(split), {}
    for slot in (p for p in _PEOPLE if "{" + p in pattern):
        owned = ">" + slot + "}" in pattern  # 林明的母亲: a possessed person is kin or a job
        named = _introduced(slot, pattern)  # 我们的导游名叫林明: a name
        kinds = ("kin",) if owned else ("name",) if named else ("name", "kin")
        if slot in tied:
            kind, gender = _pick(rng, kinds), _gender(slot, pairs, cast, False, rng)
        elif slot in paired and rng.random() < 0.7:
            kind, gender = _pick(rng, kinds), _gender(slot, alike, cast, True, rng)
        else:
            free = ("job", "role") if slot in many else ("name", "name", "kin", "kin", "job",
                                                          "role", "nick")  # fmt: skip
            kind = _pick(rng, ("kin", "job", "role") if owned else ("name",) if named else free)
            gender = "x" if kind in ("job", "role", "nick") else _pick(rng, "mf")
        taken = {w for w, _ in cast.values()}
        cast[slot] = (_pick(rng, [w for w in pool[kind][gender] if w not in taken]), gender)
    return cast


def _things(split: str, rng: np.random.Generator) -> list[tuple[str, str]]:
    """Two different things with their measure words: half from the hand-written objects
    (帽子, 顶), half from the lexicon's pool of nouns of every class (with 个)."""
    out = []
    while len(out) < 2:
        if rng.random() < 0.5:
            thing = _pick(rng, words.OBJECTS[split])
            found = (thing, words.OBJECTS[split][thing])
        else:
            found = (_pick(rng, words.lexicon_pools()["things"][split]), "个")
        if not out or found[0] != out[0][0]:
            out.append(found)
    return out


def _words(split: str, pattern: str, rng: np.random.Generator) -> dict:
    """Every non-verb slot's word for one sentence."""
    cast = _cast(split, pattern, rng)
    out = {slot: word for slot, (word, _) in cast.items()}
    for slot, (_, gender) in cast.items():
        out["R" + slot[1]] = PRONOUN[gender] if gender in PRONOUN else _pick(rng, "他她")
    (obj, m1), (obj2, m2) = _things(split, rng)
    animal = _pick(rng, words.ANIMALS[split])
    measure = {"O": m1, "O2": m2, "N1": words.ANIMALS[split][animal]}
    out |= {"O": obj, "O2": obj2, "N1": animal, "RN": "它", "RO": "它"}
    out |= {f"M:{k}": "一" + m for k, m in measure.items()}
    out |= {f"D:{k}": "那" + m for k, m in measure.items()}
    roles = [w for w in (*words.JOBS[split], *words.lexicon_pools()["roles"][split])
             if w not in out.values()]  # fmt: skip
    out |= {
        "J": _pick(rng, roles),
        "A": _pick(rng, words.ADJECTIVES[split]),
        "C": _pick(rng, words.COLOURS[split]),
        "a": _pick(rng, words.SHORT_ADJECTIVES[split]),
        "z": _pick(rng, words.DOUBLED[split]),
        "g": _pick(rng, words.DEGREE[split]),
        "S": _pick(rng, words.SPEAKERS + words.PLURALS),
        "L": _pick(rng, words.PLACES[split]),
        "T": _pick(rng, words.TIMES[split]),
    }
    return out


def _slot(split: str, spec: str, chosen: dict, rng) -> tuple[str, str, int, list]:
    """A slot's name, written text, labelled length and links [(relation, answering slot)]."""
    spec, _, head = spec.partition(">")
    spec = spec.partition("/")[0]  # R1/P2: the pronoun R1
    links = [("modifier_noun", head)] if head else []
    frame, _, subject = spec.partition(":")
    if frame in words.VERBS:
        pool = verbs(split)[frame]
        if frame in _ANY_ACTION and rng.random() < 0.5:
            pool = words.lexicon_pools()["actions"][split]
        verb, _, particle = _pick(rng, pool).partition("|")
        return "v", verb + particle, len(verb), [("verb_subject", subject), *links]
    if spec in _REFERS:
        links.append(("pronoun_antecedent", _REFERS[spec]))
    word, _, particle = chosen[spec].partition("|")  # "湿漉漉|的": 湿漉漉 is the labelled word
    return spec, word + particle, len(word), links


def _fill(split: str, pattern: str, rng: np.random.Generator) -> Sentence:
    """Fill one pattern with words of its split; record spans and links.

    A modifier's noun is the next slot of that name; a subject or antecedent the last before.
    """
    chosen = _words(split, pattern, rng)
    text, spans, slots, asks, pos = "", {}, [], [], 0
    for m in _SLOT.finditer(pattern):
        text += pattern[pos : m.start()]
        name, written, length, links = _slot(split, m.group(1), chosen, rng)
        key = f"{name}@{len(slots)}"
        slots.append((name, key))
        spans[key] = (len(text), len(text) + length)
        asks += [(rel, len(slots) - 1, target) for rel, target in links]
        text += written
        pos = m.end()
    text += pattern[pos:]
    found = {rel: [] for rel in LINKS}
    for rel, at, target in asks:
        after = rel == "modifier_noun"
        picks = [k for i, (n, k) in enumerate(slots) if n == target and (i > at) == after]
        found[rel].append((slots[at][1], picks[0] if after else picks[-1]))
    return Sentence(text, spans, {r: tuple(v) for r, v in found.items()}, pattern)


def label(sentence: Sentence, tokens: list) -> Example | None:
    """Map a sentence's labelled spans onto token indices; None if jieba split a labelled word.

    A link whose asking token does not ask that question by its POS tag (relations.questions_of:
    a verb jieba tags n, say) is left out, so the corpus asks what the app's reading asks.
    """
    index = {(tok.start, tok.end): i for i, tok in enumerate(tokens)}
    try:
        links = {
            rel: [(index[sentence.spans[a]], index[sentence.spans[b]]) for a, b in pairs]
            for rel, pairs in sentence.links.items()
        }
    except KeyError:
        return None
    kept = {
        rel: tuple((i, j) for i, j in v if rel in questions_of(tokens, i))
        for rel, v in links.items()
    }
    return Example(sentence.text, tokens, kept, sentence.template)


def build(split: str, n: int, seed: int = 0) -> list[Example]:
    """Generate, tokenise (jieba words) and label up to n examples; misaligned ones are dropped."""
    out = []
    for sentence in generate(split, n, seed):
        example = label(sentence, tokenize(sentence.text, mode="word"))
        if example is not None:
            out.append(example)
    return out


def main(argv: list | None = None) -> None:
    """Command line: rewrite assets/userdict.txt (the tokenizer's) and data/corpus_pools.txt from
    the code: `python -m demo_model.data.corpus --pools --userdict`."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--pools", action="store_true", help="rewrite data/corpus_pools.txt")
    parser.add_argument("--userdict", action="store_true", help="rewrite assets/userdict.txt")
    args = parser.parse_args(argv)
    if args.pools:
        words.POOLS_PATH.write_text(words.pools_text(), encoding="utf-8")
        print(f"wrote {words.POOLS_PATH}")
    if args.userdict:
        USER_DICT.write_text(userdict_text(), encoding="utf-8")
        print(f"wrote {USER_DICT}")


if __name__ == "__main__":
    main()
