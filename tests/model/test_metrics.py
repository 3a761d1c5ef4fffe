"""demo_model.metrics: per head and relation the argmax hit rate and the target's mean weight,
where a head's weight goes (PROFILES), against loops and hand-computed cases; the tables."""

import numpy as np
import pytest

from demo_model.batch import token_masks
from demo_model.metrics import (
    PROFILES,
    RELATIONS,
    best_heads,
    evaluate,
    head_relation,
    head_table,
    numbers,
    summary,
)
from demo_model.network import forward
from demo_model.relations import LINKS


def test_relations_are_the_questions_then_self_and_previous():
    assert (*LINKS, "self", "previous") == RELATIONS
    assert PROFILES[:4] == ("self", "previous", "next", "first")


def test_head_relation_by_hand():
    """Two rows, two heads, three tokens: head 0 hits both targets, head 1 one of them."""
    a = np.zeros((1, 2, 3, 3))  # (B, h, N, N)
    a[0, 0, 1] = [0.7, 0.2, 0.1]  # row 1 → token 0
    a[0, 0, 2] = [0.1, 0.6, 0.3]  # row 2 → token 1
    a[0, 1, 1] = [0.6, 0.3, 0.1]
    a[0, 1, 2] = [0.1, 0.2, 0.7]
    rows = (np.array([0, 0]), np.array([1, 2]), np.array([0, 1]))  # targets 0 and 1
    np.testing.assert_allclose(head_relation(a, rows), [[1.0, 0.65], [0.5, 0.4]])


def test_best_heads_pick_the_highest_hit_rate_per_question():
    table = np.zeros((3, len(RELATIONS), 2))  # (h, R, 2)
    table[:, 0, 0] = [0.2, 0.9, 0.5]
    table[:, 1, 0] = [0.8, 0.1, 0.3]
    table[:, 2, 0] = [0.1, 0.2, 0.6]
    table[:, 3, 0] = [1.0, 1.0, 1.0]  # "self" is no question: never reported
    assert best_heads(table) == [(1, 0.9), (0, 0.8), (2, 0.6)]


def test_the_tables_print_the_figures():
    table = np.zeros((2, len(RELATIONS), 2))
    table[1, 0] = [0.952, 0.92]
    ev = {"relations": table, "loss": 0.5, "counts": np.arange(1, len(RELATIONS) + 1)}
    lines = head_table(ev).splitlines()
    assert lines[0].split() == ["head", *RELATIONS] and "95.2% (0.92)" in lines[2]
    assert lines[2].split()[:3] == ["2", "95.2%", "(0.92)"]  # heads are numbered from 1
    best = "h2 95%, h1 0%, h1 0%"
    assert summary(ev, ev) == f"loss 0.500  held-out {best}  human {best}"
    out = numbers({"evals": [ev], "human": [ev]}).splitlines()
    assert out[0].split() == ["relation", "held-out", "split", "human-written", "set"]
    assert out[1].split() == ["pronoun_antecedent", *["h2", "95.2%", "of", "1"] * 2]


def test_head_measurements_equal_a_plain_loop(small):
    """evaluate(): per head, argmax hit rate and mean target weight per relation, and the
    PROFILES shares, against loops over sentences, tokens and heads."""
    _, examples, batch, theta = small
    ev = evaluate(theta, batch, 2)
    a = forward(theta, batch, 2)["a"]
    for h in range(2):
        for r, rel in enumerate(LINKS):
            pairs = [(b, i, j) for b, e in enumerate(examples) for i, j in e.links[rel]]
            hits = [np.argmax(a[b, h, i, : len(examples[b].tokens)]) == j for b, i, j in pairs]
            assert ev["relations"][h, r, 0] == pytest.approx(np.mean(hits))
            assert ev["relations"][h, r, 1] == pytest.approx(
                np.mean([a[b, h, i, j] for b, i, j in pairs])
            )
        shares = {name: [] for name in PROFILES}
        for b, e in enumerate(examples):
            n = len(e.tokens)
            masks = token_masks(e.tokens)
            for i in range(n):
                row = a[b, h, i, :n]
                shares["self"].append(row[i])
                if i > 0:
                    shares["previous"].append(row[i - 1])
                    shares["first"].append(row[0])
                if i < n - 1:
                    shares["next"].append(row[i + 1])
                for k, name in enumerate(("punctuation", "people", "nouns", "verbs")):
                    shares[name].append(row[masks[:, k]].sum())
        for p, name in enumerate(PROFILES):
            assert ev["profiles"][h, p] == pytest.approx(np.mean(shares[name])), name


def test_self_previous_and_the_read_outs_against_loops(small):
    """The rows of "self" and "previous"; per question type the read-out's accuracy, how often
    some head's argmax hits, the chance of each; the chance shares of PROFILES; the counts."""
    _, examples, batch, theta = small
    ev, fw = evaluate(theta, batch, 2), forward(theta, batch, 2)
    a, h = fw["a"], 2
    lengths = [len(e.tokens) for e in examples]
    for r, rel in enumerate(("self", "previous"), start=len(LINKS)):
        rows = [(b, i, i - (rel == "previous")) for b, n in enumerate(lengths) for i in range(n)]
        rows = [(b, i, j) for b, i, j in rows if j >= 0]
        for head in range(h):
            hits = [np.argmax(a[b, head, i, : lengths[b]]) == j for b, i, j in rows]
            assert ev["relations"][head, r, 0] == pytest.approx(np.mean(hits)), rel
        assert ev["counts"][r] == len(rows)
    questions = list(enumerate(zip(batch.qb, batch.qi, batch.qt, batch.qr, strict=True)))
    for r in range(len(LINKS)):
        asked = [(q, b, i, t) for q, (b, i, t, k) in questions if k == r]
        n = np.array([lengths[b] for _, b, _, _ in asked], dtype=float)
        right = [np.argmax(fw["p"][q]) == t for q, _, _, t in asked]
        some = [any(np.argmax(a[b, head, i]) == t for head in range(h)) for _, b, i, t in asked]
        assert ev["counts"][r] == len(asked)
        assert ev["readout_acc"][r] == pytest.approx(np.mean(right))
        assert ev["readout_chance"][r] == pytest.approx(np.mean(1 / n))
        assert ev["any_head_acc"][r] == pytest.approx(np.mean(some))
        assert ev["any_head_chance"][r] == pytest.approx(np.mean(1 - (1 - 1 / n) ** h))
    n = np.array([m for m in lengths for _ in range(m)], dtype=float)  # per token, its sentence's
    first = np.array([i > 0 for m in lengths for i in range(m)])
    assert ev["profile_chance"][PROFILES.index("self")] == pytest.approx(np.mean(1 / n))
    assert ev["profile_chance"][PROFILES.index("first")] == pytest.approx(np.mean(1 / n[first]))
    masks = np.concatenate([token_masks(e.tokens) for e in examples])  # (T, 4)
    people = [masks[sum(lengths[:b]) : sum(lengths[: b + 1]), 1].sum() / m
              for b, m in enumerate(lengths) for _ in range(m)]  # fmt: skip
    assert ev["profile_chance"][PROFILES.index("people")] == pytest.approx(np.mean(people))
    assert ev["loss"] == fw["loss"]
