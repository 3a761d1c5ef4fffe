"""A small clause grammar that writes the corpus's sentence patterns, so no fixed template
gives the answers away: one to three clauses, each a frame (把, 被, serial verbs, a clause
after 觉得, a person asked to do something …) with optional times, places and modifiers.

A pattern uses corpus.py's slot language ("{P1}把{M:O}{A>O}的{O}{vbl:P1}{L}里，然后{R1}{vi:R1}
了。"); its shape — the pattern with every word slot — decides its split: one shape in
HELDOUT_SHARE is held out (by a hash), so no held-out sentence has a shape seen in training.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np

from demo_model.data import corpus_words as words

HELDOUT_SHARE = 4  # one shape in this many belongs to the held-out split
PRONOUN_OF = {"P1": "R1", "P2": "R2", "N1": "RN", "O": "RO"}
LITERALS = words.LITERALS  # literal words of a split (corpus_words.toml)


def split_of(pattern: str) -> str:
    """ "heldout" for one pattern in HELDOUT_SHARE (by a hash of the pattern), else "train"."""
    digest = hashlib.blake2b(pattern.encode(), digest_size=2).digest()
    return "heldout" if digest[0] % HELDOUT_SHARE == 0 else "train"


@dataclass
class _State:
    """What the sentence has introduced so far."""

    rng: np.random.Generator
    words: dict
    people: list = field(default_factory=list)  # person slots named so far ("P1", "P2")
    many: set = field(default_factory=set)  # person slots written with 们 (no 他/她 means them)
    animal: bool = False
    things: list = field(default_factory=list)  # thing slots named so far ("O", "O2")

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, items):
        items = tuple(items)
        return items[int(self.rng.integers(len(items)))]


def _new_person(s: _State) -> str | None:
    free = [p for p in ("P1", "P2") if p not in s.people]
    if not free:
        return None
    s.people.append(free[0])
    return free[0]


def _one(s: _State) -> list:
    """The people named so far that 他 or 她 can mean (not 队员们)."""
    return [p for p in s.people if p not in s.many]


def _subject(s: _State, first: bool) -> tuple[str, str]:
    """(pattern, slot of the doer): a person by name or role, 林明的母亲, 队员们, 我, an
    animal, or a pronoun of someone already named."""
    it = _it(s)
    if not first and _one(s) and s.chance(0.6):
        who = s.pick(_one(s))
        return "{" + PRONOUN_OF[who] + "}", PRONOUN_OF[who]
    if s.chance(0.08 if first else 0.12):  # 我, 大伙 …: a doer 他 never means
        return "{S}", "S"
    if not first and it == "N1" and s.chance(0.5):
        return "{RN}", "RN"
    if not first and it == "O" and s.chance(0.25):  # 它坏了, 它开机要等: the thing again
        return "{RO}", "RO"
    if not s.animal and not s.things and s.chance(0.15):
        s.animal = True
        return s.pick(["", "", "那只", "一只"]) + "{N1}", "N1"
    if len(s.people) == 0 and s.chance(0.3):
        owner, owned = _new_person(s), _new_person(s)
        return "{" + owner + ">" + owned + "}的{" + owned + "}", owned
    who = _new_person(s)
    if who is None:
        mine = PRONOUN_OF[s.pick(_one(s))] if _one(s) else "S"
        return "{" + mine + "}", mine
    if s.chance(0.12):
        s.many.add(who)
        return "{" + who + "}们", who
    if s.chance(0.2):  # 那位导游, 一个少年: the doer is the noun, not the word before it
        return s.pick(["那位", "那个", "一个", "一位", "这个", "这位"]) + "{" + who + "}", who
    return "{" + who + "}", who


def _it(s: _State) -> str | None:
    """The one non-person 它 can mean: the animal (the doer it was named as, even beside
    things: 熊猫吃竹子，它…), else the thing when only one is named."""
    if s.animal:
        return "N1"
    return "O" if s.things == ["O"] else None


def _thing(s: _State, doer: str | None) -> str:
    """A noun phrase of a new thing, with a modifier most of the time."""
    it = _it(s)
    if it and doer not in ("N1", "RN", "RO") and s.chance(0.3):
        return "{" + PRONOUN_OF[it] + "}"  # 它: the animal, or the one thing named before
    if len(s.things) >= 2:
        return "{O}"
    o = "O" if "O" not in s.things else "O2"
    s.things.append(o)
    measure = s.pick(["", "{M:" + o + "}", "{D:" + o + "}"])
    kind = s.pick(["plain", "adj", "colour", "owner", "pronoun", "clause", "short", "doubled",
                   "stacked"])  # fmt: skip
    others = [p for p in _one(s) if p != doer]  # never 队员们 again, without 们
    if kind == "adj":
        adjective = "{A>" + o + "}" if s.chance(0.7) else "{g>" + o + "}"
        return measure + adjective + "的{" + o + "}"
    if kind == "colour":
        return measure + "{C>" + o + "}的{" + o + "}"
    if kind == "stacked":  # 漂亮的红裙子: both modify the noun, the first across the second
        second = s.pick(["{a>" + o + "}", "{C>" + o + "}"])
        return measure + "{A>" + o + "}的" + second + "{" + o + "}"
    if kind == "short":
        return measure + "{a>" + o + "}{" + o + "}"
    if kind == "doubled":  # 短短的 is one token; 湿漉漉 brings its 的 along
        return measure + "{z>" + o + "}{" + o + "}"
    if kind == "pronoun" and _one(s):
        who = s.pick(_one(s))
        return "{" + PRONOUN_OF[who] + ">" + o + "}的" + measure + "{" + o + "}"
    if kind == "pronoun":
        return "{S>" + o + "}的" + measure + "{" + o + "}"
    if kind in ("owner", "clause"):
        who = s.pick(others) if others and s.chance(0.5) else _new_person(s)
        if who is not None:
            head = (
                "{" + who + ">" + o + "}"
                if kind == "owner"
                else "{" + who + "}{vt:" + who + ">" + o + "}"
            )
            return head + "的" + measure + "{" + o + "}"
    return measure + "{" + o + "}"


def _person_object(s: _State, doer: str) -> str | None:
    """Someone other than the doer: a new person, or a pronoun of someone named before. Such a
    pronoun never means its own clause's doer (小伙子给他让座: 他 is not 小伙子), so that doer
    may share its gender: "{R1/P2}" says P2 is the doer here."""
    own = doer if doer in ("P1", "P2") else {"R1": "P1", "R2": "P2"}.get(doer)
    earlier = [p for p in _one(s) if p != own]
    if earlier and s.chance(0.5):
        local = "/" + own if own else ""
        return "{" + PRONOUN_OF[s.pick(earlier)] + local + "}"
    if doer != "S" and s.chance(0.15):
        return "{S}"
    who = _new_person(s)
    return "{" + who + "}" if who else None


def _adverbial(s: _State, split: str, doer: str) -> str:
    """Words between a doer and its verb, each there or not: a time, an adverb, a place or
    someone the deed is for, to or with (给林明, 对她, 和郑丽一起), a modal verb (要, 想) —
    the nearest person before a verb need not be the one who does it."""
    lit, out = LITERALS[split], ""
    if s.chance(0.25):
        out += "{T}"
    if s.chance(0.4):
        out += s.pick(lit["adverbs"])
    if s.chance(0.15):
        out += s.pick(lit["manner"])
    if s.chance(0.2):
        other = _person_object(s, doer)
        if other:
            out += (
                s.pick(["给", "对", "跟", "为"]) + other if s.chance(0.7) else "和" + other + "一起"
            )
    elif s.chance(0.25):
        out += s.pick(["在{L}", "在{L}里", "在{L}上", "从{L}"])
    if s.chance(0.15):
        out += s.pick(lit["modals"])
    return out


def _intro(s: _State, split: str) -> str:
    """A person introduced by name and role: 我们的导游名叫林明 / 林明是我们的导游. A pronoun
    later means the name (the role word J is the same person, never labelled)."""
    who = _new_person(s)
    role = "{S>J}的{J}"
    if s.chance(0.5):
        return role + LITERALS[split]["called"] + "{" + who + "}"
    return "{" + who + "}" + LITERALS[split]["is"] + role


def _owned(s: _State) -> str:
    """A thing of someone named before as the doer, and what it is like: 他的帽子很重,
    它的尾巴很短, 它的一条腿很软 (the pronoun stands before the thing it owns, and means
    someone or something before: the animal, or the one thing named)."""
    owner = s.pick(_one(s) + (["N1"] if s.animal else []) + (["O"] if _it(s) == "O" else []))
    o = "O" if "O" not in s.things else "O2"
    if o not in s.things:
        s.things.append(o)
    measure = s.pick(["", "", "{M:" + o + "}"])
    return "{" + PRONOUN_OF[owner] + ">" + o + "}的" + measure + "{" + o + "}{g}"


def _serial(s: _State, split: str, doer: str, verb) -> str:
    """Two verbs of one doer with a thing between: 拿着帽子离开了, 修了台灯才出发, 一边画地图一边
    擦箱子 — the noun nearest the second verb is not who does it."""
    if s.chance(0.3):
        return "一边" + verb("vt") + _thing(s, doer) + "一边" + verb("vt") + _thing(s, doer)
    adv = _adverbial(s, split, doer)
    first = verb("vt") + s.pick(["着", "了", ""]) + _thing(s, doer)
    return adv + first + s.pick(["", "就", "才"]) + verb("vi") + "了"


def _clause(s: _State, split: str, first: bool) -> str:
    """One clause: a frame with its doer, verb and objects."""
    lit = LITERALS[split]
    frame = s.pick(["vi", "vt", "vt", "vp", "ba", "bei", "bei_p", "vs", "vq", "vm", "feel",
                    "there", "intro", "owned", "serial"])  # fmt: skip
    if frame == "intro" and first and not s.people:
        return _intro(s, split)
    if frame == "owned" and not first and (_one(s) or s.animal) and len(s.things) < 2:
        return _owned(s)
    if frame == "there":
        return "{L}里" + lit["there"] + _thing(s, None)
    if frame == "bei":
        thing = _thing(s, None)
        who, doer = _subject(s, first=False)
        return thing + "被" + who + "{vt:" + doer + "}了"
    free = 2 - len(s.people)
    if frame == "bei_p" and free >= (1 if _one(s) else 2):  # someone named or new, then a doer
        patient = "{" + PRONOUN_OF[s.pick(_one(s))] + "}" if _one(s) else None
        patient = patient or "{" + _new_person(s) + "}"
        agent = _new_person(s)
        return patient + "被{" + agent + "}{vp:" + agent + "}了"
    who, doer = _subject(s, first)
    verb = lambda f, obj="": "{" + f + ":" + doer + (">" + obj if obj else "") + "}"  # noqa: E731
    # Every piece is made in the order it is written: a pronoun may only mean someone before it.
    if frame == "vq":
        other = _person_object(s, doer)
        if other:
            helper = other.strip("{}").partition("/")[0]
            return who + verb("vq") + other + "{vt:" + helper + "}" + _thing(s, None)
    if frame == "vs":
        return who + verb("vs") + _clause(s, split, first=False)
    if frame == "vm":
        return who + verb("vm") + "{L}" + verb("vt") + _thing(s, doer)
    if frame == "serial":
        return who + _serial(s, split, doer, verb)
    if frame == "feel":
        return who + s.pick(lit["feel"])
    adv = _adverbial(s, split, doer)
    if frame == "vp":
        other = _person_object(s, doer)
        if other:  # 感谢了他, 很担心他
            return who + adv + verb("vp") + s.pick(["了", "了", ""]) + other
    if frame == "ba":
        thing = _thing(s, doer)
        goal = None if s.chance(0.6) else _person_object(s, doer)
        if goal:
            return who + adv + "把" + thing + verb("vbp") + "了" + goal
        return who + adv + "把" + thing + verb("vbl") + "{L}里"
    if frame in ("vt", "vp", "vq") or s.chance(0.5):
        return who + adv + verb("vt") + "了" + _thing(s, doer)
    return who + adv + verb("vi") + "了"


def compose(split: str, rng: np.random.Generator) -> str:
    """A sentence pattern of the split: one to three clauses joined by commas and links."""
    while True:
        s = _State(rng, {})
        n = s.pick([1, 2, 2, 3])
        parts = [_clause(s, split, first=True)]
        for _ in range(n - 1):
            link = s.pick(["", "", *LITERALS[split]["links"]])
            parts.append("，" + link + _clause(s, split, first=False))
        pattern = ("{T}，" if s.chance(0.15) else "") + "".join(parts) + "。"
        if split_of(pattern) == split:
            return pattern
