"""A training batch: padded sentences and the questions asked of them, built by name in one place.

Every per-token array of a sentence comes from features.token_arrays(), keyed by Batch field
name (the model's X at run time reads the same arrays); make_batch() pads them by name and lists
the questions; subset() picks sentences, slicing every field but QUESTIONS. A new per-token
feature is one entry of token_arrays() and one field of Batch.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from demo_model.features import ModelConfig, Vocab, entries, token_arrays
from demo_model.lexicon import is_person
from demo_model.relations import LINKS

QUESTIONS = ("qb", "qi", "qt", "qr")  # Batch fields with one entry per question (Q,)


@dataclass(frozen=True)
class Batch:
    """Padded sentences (B, N, …) and their read-out questions (Q,): asking → answering token.

    Every field but QUESTIONS has one row per sentence, padded to N tokens (subset slices them).
    """

    tags: np.ndarray  # (B, N) tag indices
    before: np.ndarray  # (B, N) index in NEIGHBOURS of the token before
    after: np.ndarray  # (B, N) … and of the token after
    ctx: np.ndarray  # (B, N) 1.0 where the neighbours' embeddings count (config.context)
    clause: np.ndarray  # (B, N) clause number (features.clause_ids)
    cl_w: np.ndarray  # (B, N) 1.0 where the clause embedding counts (config.clauses)
    cls_ids: np.ndarray  # (B, N, Kc) rows of the class table
    cls_w: np.ndarray  # (B, N, Kc) their weights (0 on padding)
    chr_ids: np.ndarray  # (B, N, Kh) rows of the character table
    chr_w: np.ndarray  # (B, N, Kh) their weights
    gender: np.ndarray  # (B, N) index in lexicon.GENDERS
    gen_w: np.ndarray  # (B, N) 1.0 where the gender embedding counts (config.gender)
    fixed: np.ndarray  # (B, N, d) fixed features
    words: np.ndarray  # (B, N, d) read-out target vectors
    masks: np.ndarray  # (B, N, 4) punctuation, people, nouns, verbs (metrics.PROFILES)
    valid: np.ndarray  # (B, N) bool, False on padding
    qb: np.ndarray  # (Q,) sentence of each question
    qi: np.ndarray  # (Q,) token asking (pronoun, modifier or verb)
    qt: np.ndarray  # (Q,) token that answers (antecedent, head noun or subject)
    qr: np.ndarray  # (Q,) which question: index into LINKS, picks the read-out

    def replace(self, **changes) -> Batch:
        return dataclasses.replace(self, **changes)


def token_masks(tokens: list) -> np.ndarray:
    """(n, 4) bool: punctuation, people (names, 他/她, Cilin's 人), nouns, verbs."""
    return np.array(
        [
            (t.tag == "x", t.tag.startswith("nr") or is_person(t.text), t.tag.startswith("n"),
             t.tag.startswith("v"))
            for t in tokens
        ],
        dtype=bool,
    ).reshape(len(tokens), 4)  # fmt: skip


def _padded(parts: list, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-sentence (n, K) rows and weights → (B, N, K_max) arrays padded with weight 0."""
    k = max(ids.shape[1] for ids, _ in parts)
    ids = np.zeros((len(parts), n_max, k), dtype=np.int64)
    w = np.zeros((len(parts), n_max, k))
    for b, (i, x) in enumerate(parts):
        ids[b, : len(i), : i.shape[1]], w[b, : len(x), : x.shape[1]] = i, x
    return ids, w


def _stacked(rows: list[dict], n_max: int) -> dict[str, np.ndarray]:
    """Per-sentence token_arrays() → (B, N, …) arrays padded with zeros, by name."""
    out = {}
    for name, first in rows[0].items():
        out[name] = np.zeros((len(rows), n_max, *first.shape[1:]), dtype=first.dtype)
        for b, row in enumerate(rows):
            out[name][b, : len(row[name])] = row[name]
    return out


def make_batch(examples: list, config: ModelConfig, vocab: Vocab) -> Batch:
    """Pad examples (corpus.Example) to one length and list their questions, one per link."""
    n_max = max(len(e.tokens) for e in examples)
    rows = [{**token_arrays(e.tokens, config), "masks": token_masks(e.tokens)} for e in examples]
    fields = _stacked(rows, n_max)
    valid = np.arange(n_max) < np.array([len(e.tokens) for e in examples])[:, None]  # (B, N)
    cls = _padded([entries(e.tokens, vocab, "classes") for e in examples], n_max)
    chars = _padded([entries(e.tokens, vocab, "chars") for e in examples], n_max)
    cls = cls if config.classes else (cls[0], np.zeros_like(cls[1]))
    chars = chars if config.chars else (chars[0], np.zeros_like(chars[1]))
    asked = [
        (b, i, j, r)
        for b, e in enumerate(examples)
        for r, rel in enumerate(LINKS)
        for i, j in e.links[rel]
    ]
    qb, qi, qt, qr = np.array(asked, dtype=np.int64).reshape(-1, 4).T
    return Batch(
        **fields,
        valid=valid,
        ctx=valid * float(config.context),
        cl_w=valid * float(config.clauses),
        gen_w=valid * float(config.gender),
        cls_ids=cls[0], cls_w=cls[1], chr_ids=chars[0], chr_w=chars[1],
        qb=qb, qi=qi, qt=qt, qr=qr,
    )  # fmt: skip


def subset(batch: Batch, idx: np.ndarray) -> Batch:
    """The sentences idx of a batch, with their questions renumbered, padded only to the
    longest of them (attention costs n² per sentence)."""
    where = np.full(len(batch.tags), -1)
    where[idx] = np.arange(len(idx))
    keep = where[batch.qb] >= 0
    n = int(batch.valid[idx].sum(1).max())
    per_sentence = [f.name for f in dataclasses.fields(Batch) if f.name not in QUESTIONS]
    return batch.replace(
        **{name: getattr(batch, name)[idx, :n] for name in per_sentence},
        qb=where[batch.qb[keep]], qi=batch.qi[keep], qt=batch.qt[keep], qr=batch.qr[keep],
    )  # fmt: skip
