"""What the demo model's heads do, measured: per head and relation how often its largest weight
lands on the answer, where its weight goes, and the read-outs' accuracy; printed as tables.

Training measures a labelled set with evaluate() at every evaluation step (train.py) and stores
the figures with the weights; demo.py reads them back, never recomputing them.
"""

from __future__ import annotations

import numpy as np

from demo_model.batch import Batch
from demo_model.network import forward
from demo_model.relations import LINKS

# The relations the model is asked about (one read-out each), then two it is never asked about
# but a head may still follow; every one is measured per head.
RELATIONS = (*LINKS, "self", "previous")
# What a head's weight lands on, measured per head on the human-written set (rows of every
# token): the share on the token itself, the one before, the one after, the first token, and
# on the punctuation, people, nouns and verbs of the sentence (Batch.masks).
PROFILES = ("self", "previous", "next", "first", "punctuation", "people", "nouns", "verbs")


def relation_rows(batch: Batch) -> dict:
    """(sentence, asking token, answering token) index arrays for every name in RELATIONS."""
    rows = {
        rel: (batch.qb[batch.qr == r], batch.qi[batch.qr == r], batch.qt[batch.qr == r])
        for r, rel in enumerate(LINKS)
    }
    b, i = np.nonzero(batch.valid)
    rows["self"] = (b, i, i)
    rows["previous"] = (b[i > 0], i[i > 0], i[i > 0] - 1)
    return rows


def head_relation(a: np.ndarray, rows: tuple) -> np.ndarray:
    """Per head (h, 2): how often the row's argmax is the target, and the target's mean weight.

    a: (B, h, N, N) attention weights; rows: (sentence, asking token, answering token) arrays.
    """
    b, i, j = rows
    w = a[b, :, i, :]  # (R, h, N)
    hit = np.argmax(w, axis=-1) == j[:, None]  # (R, h)
    return np.stack([hit.mean(0), w[np.arange(len(b)), :, j].mean(0)], axis=-1)  # (h, 2)


def profiles(a: np.ndarray, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
    """Per head, the mean share of a row's weight on each of PROFILES (h, P), and the share
    uniform weights would give (P,). Rows: every token (previous, next, first: those that have
    one). a: (B, h, N, N) attention weights."""
    b, i = np.nonzero(batch.valid)  # (T,) every real token
    n = batch.valid.sum(1)[b].astype(float)  # (T,) tokens in its sentence
    rows = a[b, :, i, :]  # (T, h, N)
    t = np.arange(len(b))
    picks = {
        "self": (np.ones_like(i, dtype=bool), i),
        "previous": (i > 0, np.maximum(i - 1, 0)),
        "next": (i < n - 1, np.minimum(i + 1, n.astype(int) - 1)),
        "first": (i > 0, np.zeros_like(i)),
    }
    share, chance = [], []
    for name in PROFILES:
        if name in picks:
            sel, j = picks[name]
            share.append(rows[t, :, j][sel].mean(0))  # (h,)
            chance.append(float(np.mean(1 / n[sel])))
        else:
            m = batch.masks[b][..., PROFILES.index(name) - len(picks)]  # (T, N)
            share.append(np.einsum("thn,tn->h", rows, m) / len(b))
            chance.append(float(np.mean(m.sum(1) / n)))
    return np.stack(share, axis=1), np.array(chance)  # (h, P), (P,)


def evaluate(theta: dict, batch: Batch, num_heads: int) -> dict:
    """Figures on one labelled set: per head × relation hit rate and weight, where each head's
    weight goes; per question type the read-out's accuracy, how often some head's argmax hits,
    and the chance of each."""
    fw = forward(theta, batch, num_heads)
    a = fw["a"]  # (B, h, N, N)
    rows = relation_rows(batch)
    n_tok = batch.valid.sum(1)[batch.qb].astype(float)  # (Q,) tokens in each question's sentence
    readout_hit = np.argmax(fw["p"], -1) == batch.qt  # (Q,)
    some_head = (np.argmax(a[batch.qb, :, batch.qi, :], -1) == batch.qt[:, None]).any(1)  # (Q,)
    per = np.stack([batch.qr == r for r in range(len(LINKS))]).astype(float)  # (L, Q)
    count = per.sum(1)  # (L,)
    share, chance = profiles(a, batch)
    return {
        "loss": fw["loss"],
        "readout_acc": per @ readout_hit / count,  # (L,)
        "readout_chance": per @ (1 / n_tok) / count,  # (L,) one guess among n tokens
        "any_head_acc": per @ some_head / count,  # (L,)
        "any_head_chance": per @ (1 - (1 - 1 / n_tok) ** num_heads) / count,  # (L,)
        "relations": np.stack([head_relation(a, rows[r]) for r in RELATIONS], axis=1),  # (h, R, 2)
        "counts": np.array([len(rows[r][0]) for r in RELATIONS]),  # (R,) rows measured
        "profiles": share,  # (h, P)
        "profile_chance": chance,  # (P,)
    }


def best_heads(table: np.ndarray) -> list[tuple[int, float]]:
    """Per relation in LINKS: (best head, its argmax hit rate) of a (h, R, 2) table."""
    acc = table[:, : len(LINKS), 0]  # (h, L)
    return [(int(np.argmax(acc[:, r])), float(acc[:, r].max())) for r in range(len(LINKS))]


def summary(ev: dict, human: dict) -> str:
    """One line of the training log: loss, and per relation the best head on both sets."""

    def line(table):
        return ", ".join(f"h{h + 1} {acc:.0%}" for h, acc in best_heads(table))

    return (
        f"loss {ev['loss']:.3f}  held-out {line(ev['relations'])}  human {line(human['relations'])}"
    )


def head_table(ev: dict) -> str:
    """Per head × relation: argmax hit rate % (mean weight), as a plain-text table."""
    rel = ev["relations"]  # (h, R, 2)
    lines = ["head  " + "  ".join(f"{r:>20}" for r in RELATIONS)]
    for h, rows in enumerate(rel):
        cells = [f"{100 * acc:5.1f}% ({w:.2f})" for acc, w in rows]
        lines.append(f"{h + 1:4d}  " + "  ".join(f"{c:>20}" for c in cells))
    return "\n".join(lines)


def numbers(result: dict) -> str:
    """The final figures: per relation, the best head's hit rate on both sets."""
    lines = [f"{'relation':<20} {'held-out split':>18} {'human-written set':>20}"]
    held, human = result["evals"][-1], result["human"][-1]
    for rel, (hh, ha), (uh, ua) in zip(
        LINKS, best_heads(held["relations"]), best_heads(human["relations"]), strict=True
    ):
        r = RELATIONS.index(rel)
        n_held, n_human = held["counts"][r], human["counts"][r]
        cell = f"h{hh + 1} {ha:6.1%} of {n_held}"
        lines.append(f"{rel:<20} {cell:>18} {f'h{uh + 1} {ua:6.1%} of {n_human}':>20}")
    return "\n".join(lines)
