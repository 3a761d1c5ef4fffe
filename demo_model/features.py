"""What the demo model knows of a token: POS tag, meaning class (Cilin), gender, characters,
position.

X = tag embedding + neighbours' embeddings + class embedding · P_class + gender embedding
    + character embedding · P_char   (all learned)
  + hashed word vector (columns [0, d_word)) + sinusoidal position (the next d_pos columns).

A token also sees the tags of the token before and the token after it (the word itself for 的,
被, 把 and a few other function words): one attention layer cannot otherwise know that 漂亮
stands before 的, or that 他 follows a verb and is its object. And it sees which clause of the
sentence it stands in (a learned vector per clause number, counted by the commas and stops
before it): a query and a key each carry theirs, so one layer can prefer a key in an earlier
clause — 他 in 老师很担心他 means someone of a clause before, not 老师 beside it.

The class and character tables are d_embed wide and projected to d_model by learned matrices
(a factorised embedding, as in ALBERT), which keeps thousands of rows small to ship.

A word's class embedding is the mean over its Cilin senses of the learned vectors of the
classes it belongs to at levels 1–4 (人, 亲人眷属, 父母, 母); a word Cilin does not list gets
the learned "none" vector (a compound Cilin lacks takes its last character's classes: 小猫
those of 猫); a name (林明, 韩梅梅, 小王: lexicon.name_kind) gets the class 人 (Aa01A), never
its last character's (梅 is a plum tree). Its character embedding is the mean of its
characters' learned vectors; a character never seen in training gets the learned "unknown"
vector. So 校长, 院长 and 店长 share 长, and 妈妈 shares the class 母 with 母亲 even if the
corpus never used 妈妈. Its gender (lexicon.gender: male, female or none) picks one of three
learned vectors: Cilin's classes of men and women (嫂子, 姨父), a name's given-name characters
(李娜, 韩梅梅), 他 and 她.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from attention_core.embed import sinusoidal_positions, token_vector
from demo_model import lexicon

# jieba POS tags that get their own learned embedding; any other tag shares "unk".
TAGS = (
    "unk", "n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "ng", "r", "v", "vn", "vg", "a", "ad",
    "ag", "b", "d", "p", "c", "u", "uj", "ul", "uz", "ug", "uv", "f", "t", "tg", "m", "mq", "q",
    "x", "z", "zg", "s", "y", "e", "o", "i", "l", "j", "eng", "df", "g", "h", "k",
)  # fmt: skip
_TAG_INDEX = {tag: i for i, tag in enumerate(TAGS)}
# What a token sees of its neighbours: their tag, or for these function words the word itself
# (的 and 地 share no tag with 被 and 把 apart: 被 and 把 are both p); "^" is the sentence edge.
FUNCTION_WORDS = (
    "的", "地", "得", "了", "着", "过", "把", "被", "给", "对", "和", "跟", "在", "从", "是",
    "有", "很", "都", "也", "就", "还", "说", "，", "。", "、", "？", "！", "：", "；",
)  # fmt: skip
NEIGHBOURS = (*TAGS, *FUNCTION_WORDS, "^")
_NEIGHBOUR_INDEX = {w: len(TAGS) + i for i, w in enumerate(FUNCTION_WORDS)}
# Where a clause (or a list item: 、) ends, for the model's clause numbers and the reading's
# "own clause" rules alike.
CLAUSE_ENDS = ("，", "。", "、", "；", "：", "！", "？", ",", ";", ":", "!", "?")
CLAUSES = 6  # rows of the clause table: clause 0 … 5 (a sixth clause or later shares row 5)
NONE_CLASS = "-"  # row 0 of the class table: a word Cilin does not list
NAME_CLASS = "Aa01A"  # 人 人物 人士: the Cilin class every name gets
UNKNOWN_CHAR = "-"  # row 0 of the character table: a character not seen in training


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and feature switches of the demo model (see the module docstring for X)."""

    d_model: int = 48  # width of every token vector
    num_heads: int = 4  # attention heads; d_k = d_model / num_heads
    d_word: int = 16  # columns of the hashed word vector (also the read-out's targets)
    d_pos: int = 16  # columns of the sinusoidal position
    word_scale: float = 1.0  # norm of the word block
    pos_scale: float = 3.0  # norm of the position block (×3: word order must outweigh words)
    d_embed: int = 16  # width of the class and character tables (projected to d_model)
    context: bool = True  # learned embeddings of the neighbours' tags (False: without them)
    classes: bool = True  # learned Cilin class embeddings (False: the ablation without them)
    chars: bool = True  # learned character embeddings (False: the ablation without them)
    gender: bool = True  # learned gender embeddings (False: the ablation without them)
    clauses: bool = True  # learned clause-number embeddings (False: the ablation without them)

    def __post_init__(self) -> None:
        if self.d_model < 2 or self.num_heads < 1 or self.d_model % self.num_heads:
            raise ValueError(
                f"d_model={self.d_model} must be ≥ 2 and divisible by num_heads={self.num_heads}"
            )
        if self.d_embed < 1:
            raise ValueError(f"d_embed must be ≥ 1, got {self.d_embed}")
        if min(self.d_word, self.d_pos) < 1 or self.d_word + self.d_pos > self.d_model:
            raise ValueError(
                f"d_word + d_pos = {self.d_word + self.d_pos} must be ≤ d_model "
                f"= {self.d_model}, each ≥ 1"
            )
        for name in ("word_scale", "pos_scale"):
            if not np.isfinite(getattr(self, name)) or getattr(self, name) < 0:
                raise ValueError(f"{name} must be a finite number ≥ 0, got {getattr(self, name)}")


@dataclass(frozen=True)
class Vocab:
    """The class codes and characters that have a learned row (row 0: none / unknown)."""

    classes: tuple[str, ...]  # NONE_CLASS, then class codes at levels 1–4 ("A", "Ah", …)
    chars: tuple[str, ...]  # UNKNOWN_CHAR, then characters

    def __post_init__(self) -> None:
        object.__setattr__(self, "_class_index", {c: i for i, c in enumerate(self.classes)})
        object.__setattr__(self, "_char_index", {c: i for i, c in enumerate(self.chars)})

    def class_entries(self, word: str, tag: str = "") -> dict[int, float]:
        """Row → weight of the class table for a word (its jieba tag tells a name): each sense
        weighs 1/senses, spread over its levels that have a row; {0: 1.0} when Cilin lists
        neither the word nor its last character (see word_classes)."""
        senses, out = word_classes(word, tag), {}
        for code in senses:
            for level in lexicon.LEVELS:
                row = self._class_index.get(code[:level])
                if row is not None:
                    out[row] = out.get(row, 0.0) + 1 / len(senses)
        return out or {0: 1.0}

    def char_entries(self, word: str) -> dict[int, float]:
        """Row → weight of the character table: the mean of the word's characters."""
        out = {}
        for ch in word:
            row = self._char_index.get(ch, 0)
            out[row] = out.get(row, 0.0) + 1 / len(word)
        return out

    def knows_class(self, word: str) -> bool:
        """True when Cilin lists the word under a class that has a learned row."""
        return self.class_entries(word) != {0: 1.0}

    def unknown_chars(self, word: str) -> tuple[str, ...]:
        """The characters of a word that were never seen in training."""
        return tuple(ch for ch in word if ch not in self._char_index)


def word_classes(word: str, tag: str = "") -> tuple[str, ...]:
    """A word's Cilin codes; a name's NAME_CLASS; for a word Cilin does not list, those of its
    last character — a Chinese compound is mostly a kind of its last part (小猫 of 猫, 打篮球
    of 球, 店长 of 长)."""
    if lexicon.name_kind(word, tag):
        return (NAME_CLASS,)
    return lexicon.classes(word) or (lexicon.classes(word[-1]) if len(word) > 1 else ())


def build_vocab(tokens) -> Vocab:
    """Rows for every class code (levels 1–4) and character of the training tokens (tokens, or
    their texts), and for NAME_CLASS."""
    codes, chars = {NAME_CLASS[:level] for level in lexicon.LEVELS}, set()
    for token in tokens:
        text, tag = (token, "") if isinstance(token, str) else (token.text, token.tag)
        chars.update(text)
        codes.update(c[:level] for c in word_classes(text, tag) for level in lexicon.LEVELS)
    return Vocab((NONE_CLASS, *sorted(codes)), (UNKNOWN_CHAR, *sorted(chars)))


def gender_ids(tokens: list) -> np.ndarray:
    """Index of each token's gender in lexicon.GENDERS (0 none, 1 male, 2 female), shape (n,)."""
    genders = [lexicon.gender(t.text, t.tag) for t in tokens]
    return np.array([lexicon.GENDERS.index(g) for g in genders], dtype=np.int64)


# Cilin's top classes by the part of speech their words mostly are (A 人, B 物: nouns; E 特征:
# adjectives; F–J 动作, 心理活动, 活动, 现象与状态, 关联: verbs).
CLASS_TAGS = {"A": "n", "B": "n", "E": "a", "F": "v", "G": "v", "H": "v", "I": "v", "J": "v"}


def model_tag(token) -> str:
    """The POS tag the model sees: jieba's, except where jieba's guess for a word its
    dictionary lacks contradicts Cilin, which files the word under one part of speech only
    (CLASS_TAGS): a proper-noun tag on a common word that is no name takes the part of speech
    of most of its senses (熊猫 nr, 哥哥 ns → n; 安静 nr → a), as does a phrase tag (l) on a
    word Cilin files (小蚂蚁 l → n, by 蚂蚁); a verb tag on a word filed only as a noun becomes
    n (警察 v, 驾照 v). The POS chip shows jieba's tag."""
    tag, text = token.tag, token.text
    senses = lexicon.classes(text)
    named = lexicon.name_kind(text, tag)
    if not senses and tag.startswith(("nr", "l")) and not named and text[0] in "小大老":
        senses = lexicon.classes(text[1:]) or lexicon.classes(text[-1])  # 小狗 nr, 小蚂蚁 l
    if not senses or not tag.startswith(("nr", "ns", "nt", "v", "l")) or tag.startswith("vn"):
        return tag
    if named:
        return tag
    kinds = [CLASS_TAGS.get(code[0], "") for code in senses]
    if not lexicon.classes(text):  # read by a part (小狗 by 狗): its parts of speech only
        kinds = [k for k in kinds if k] or kinds
    if tag.startswith("v"):  # a verb tag is overruled only when every sense is a noun
        return "n" if set(kinds) == {"n"} else tag
    top = max(CLASS_TAGS.values(), key=kinds.count)  # most senses; ties: n before a before v
    return top if 2 * kinds.count(top) > len(kinds) else tag


def tag_ids(tokens: list) -> np.ndarray:
    """Index of each token's POS tag in TAGS (model_tag; unknown tags → 0, "unk"), shape (n,)."""
    return np.array([_TAG_INDEX.get(model_tag(t), 0) for t in tokens], dtype=np.int64)


def neighbour_ids(tokens: list) -> tuple[np.ndarray, np.ndarray]:
    """Index in NEIGHBOURS of the token before and the token after each token, (n,) each: the
    word itself for FUNCTION_WORDS, else its tag; "^" past either end of the sentence."""
    kinds = [_NEIGHBOUR_INDEX.get(t.text, _TAG_INDEX.get(model_tag(t), 0)) for t in tokens]
    edge = [len(NEIGHBOURS) - 1]
    before = np.array((edge + kinds)[: len(kinds)], dtype=np.int64)  # (n,)
    after = np.array((kinds + edge)[1:], dtype=np.int64)  # (n,)
    return before, after


def clause_ids(tokens: list) -> np.ndarray:
    """Each token's clause number, (n,): how many clause ends (CLAUSE_ENDS) stand before it —
    the comma ending a clause belongs to that clause — at most CLAUSES - 1."""
    ends = np.array([t.text in CLAUSE_ENDS for t in tokens], dtype=np.int64)  # (n,)
    return np.minimum(np.cumsum(ends) - ends, CLAUSES - 1)  # ends before token i


def entries(tokens: list, vocab: Vocab, kind: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows and weights of each token in the class or char table: (n, K) ints and floats,
    padded with row 0 at weight 0."""
    if kind == "classes":
        found = [vocab.class_entries(t.text, t.tag) for t in tokens]
    else:
        found = [vocab.char_entries(t.text) for t in tokens]
    k = max((len(f) for f in found), default=1)
    ids, w = np.zeros((len(tokens), k), dtype=np.int64), np.zeros((len(tokens), k))
    for i, f in enumerate(found):
        ids[i, : len(f)], w[i, : len(f)] = list(f), list(f.values())
    return ids, w


def _placed(block: np.ndarray, start: int, d_model: int) -> np.ndarray:
    """(n, b) → (n, d_model) with the block in columns [start, start + b), zeros elsewhere."""
    out = np.zeros((len(block), d_model))
    out[:, start : start + block.shape[1]] = block
    return out


def word_vectors(tokens: list, config: ModelConfig) -> np.ndarray:
    """Hashed word vectors / √d_word (norm ≈ 1) in the word columns (n, d_model): the read-out's
    targets."""
    w = np.stack([token_vector(t.text, config.d_word) for t in tokens])  # (n, d_word)
    return _placed(w / np.sqrt(config.d_word), 0, config.d_model)


def position_features(n: int, config: ModelConfig) -> np.ndarray:
    """Sinusoidal positions 0 … n-1 in the position columns, rows of norm pos_scale, (n, d)."""
    pe = sinusoidal_positions(n, config.d_pos) / np.sqrt(config.d_pos / 2)  # rows of norm ≈ 1
    return config.pos_scale * _placed(pe, config.d_word, config.d_model)


def fixed_features(tokens: list, config: ModelConfig) -> np.ndarray:
    """Everything in X that is not learned: the word and position blocks, (n, d_model)."""
    return config.word_scale * word_vectors(tokens, config) + position_features(len(tokens), config)


def token_arrays(tokens: list, config: ModelConfig) -> dict[str, np.ndarray]:
    """What the model knows of each token of a sentence, (n, …) arrays keyed by the name a batch
    gives them (batch.Batch): the rows of its learned tables and the fixed blocks. The class and
    character rows, several per token, come from entries()."""
    before, after = neighbour_ids(tokens)
    return {
        "tags": tag_ids(tokens),
        "before": before,
        "after": after,
        "clause": clause_ids(tokens),
        "gender": gender_ids(tokens),
        "fixed": fixed_features(tokens, config),
        "words": word_vectors(tokens, config),
    }
