"""The tiny trainable demo model: POS tags, Cilin meaning classes, genders, characters and
positions →
one multi-head attention layer; its numpy backprop, checkpoints and measured head jobs."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .attention import (
    AttentionParams,
    MultiHeadResult,
    merge_heads,
    multi_head_attention,
    softmax,
    split_heads,
)
from .features import (
    TAGS,  # noqa: F401  (model.TAGS, as before the features moved)
    ModelConfig,
    Vocab,
    clause_ids,
    entries,
    fixed_features,
    gender_ids,
    neighbour_ids,
    tag_ids,
    word_vectors,
)
from .relations import LINKS
from .tokenize import Tokenized, tokenize

DEMO_PATH = Path(__file__).resolve().parent.parent / "assets" / "demo_model.npz"
# The relations the model is asked about (one read-out each), then two it is never asked about
# but a head may still follow; every one is measured per head.
RELATIONS = (*LINKS, "self", "previous")
# What a head's weight lands on, measured per head on the human-written set (rows of every
# token): the share on the token itself, the one before, the one after, the first token, and
# on the punctuation, people, nouns and verbs of the sentence.
PROFILES = ("self", "previous", "next", "first", "punctuation", "people", "nouns", "verbs")
PARAM_NAMES = (
    "tags", "before", "after", "clause", "classes", "class_proj", "chars", "char_proj", "genders",
    "w_q", "w_k", "w_v", "w_o", "gates", "readout",
)  # fmt: skip


@dataclass(frozen=True)
class ModelRun:
    """The demo model applied to one sentence."""

    tokens: Tokenized  # as from tokenize(text, mode="word")
    x: np.ndarray  # (n, d_model) input features
    attention: MultiHeadResult  # the core's multi_head_attention with the trained weights


@dataclass(frozen=True)
class TrainedModel:
    """Learned embeddings, attention weights and read-outs at one training step."""

    config: ModelConfig
    vocab: Vocab  # the class codes and characters with a learned row
    weights: dict  # PARAM_NAMES -> array (read-only)
    step: int

    @functools.cached_property  # one object per checkpoint: the weights never change
    def params(self) -> AttentionParams:
        w = self.weights
        return AttentionParams(w["w_q"], w["w_k"], w["w_v"], w["w_o"], self.config.num_heads)

    @property
    def tag_embeddings(self) -> np.ndarray:
        return self.weights["tags"]  # (len(TAGS), d_model)

    @property
    def readout(self) -> np.ndarray:
        return self.weights["readout"]  # (len(LINKS), d, d): each question type's read-out

    def theta(self) -> dict:
        """The parameters as the training code names them (PARAM_NAMES)."""
        return dict(self.weights)

    def inputs(self, tokens: list) -> np.ndarray:
        """X (n, d_model) = tag + class + gender + character embeddings + word and position
        blocks."""
        learned = self.weights["tags"][tag_ids(tokens)]
        if self.config.gender:
            learned = learned + self.weights["genders"][gender_ids(tokens)]
        if self.config.context:
            before, after = neighbour_ids(tokens)  # (n,) each
            learned = learned + self.weights["before"][before] + self.weights["after"][after]
        if self.config.clauses:
            learned = learned + self.weights["clause"][clause_ids(tokens)]
        for kind, proj in (("classes", "class_proj"), ("chars", "char_proj")):
            if getattr(self.config, kind):
                ids, w = entries(tokens, self.vocab, kind)  # (n, K)
                e = np.einsum("nk,nke->ne", w, self.weights[kind][ids])  # (n, d_embed)
                learned = learned + e @ self.weights[proj]  # (n, d_model)
        return learned + fixed_features(tokens, self.config)

    def run(self, text: str, *, scale: bool = True) -> ModelRun:
        """Tokenise `text` (jieba words) and run the trained attention layer on it."""
        tokens = tokenize(text, mode="word")
        x = self.inputs(tokens)
        return ModelRun(tokens, x, multi_head_attention(x, self.params, scale=scale))


# ---- training math: the same forward as the core, batched with padding, and its backprop ----


@dataclass(frozen=True)
class Batch:
    """Padded sentences and their read-out questions (asking token → answering token)."""

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
    masks: np.ndarray  # (B, N, 4) punctuation, people, nouns, verbs (for PROFILES)
    valid: np.ndarray  # (B, N) bool, False on padding
    qb: np.ndarray  # (Q,) sentence of each question
    qi: np.ndarray  # (Q,) token asking (pronoun, modifier or verb)
    qt: np.ndarray  # (Q,) token that answers (antecedent, head noun or subject)
    qr: np.ndarray  # (Q,) which question: index into LINKS, picks the read-out

    def replace(self, **changes) -> Batch:
        return dataclasses.replace(self, **changes)


def _entries(ids: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The non-zero entries of padded (B, N, K) rows and weights: flat token index (b·N + n),
    table row and weight, each (E,), in token order."""
    b, n, k = np.nonzero(w)
    return b * w.shape[1] + n, ids[b, n, k], w[b, n, k]


def _sum_into(index: np.ndarray, vals: np.ndarray, size: int) -> np.ndarray:
    """out[i] = Σ vals[e] over entries e with index[e] = i: (E,) and (E, d) → (size, d), summed
    in entry order (one bincount over i·d + column)."""
    d = vals.shape[1]
    flat = (index[:, None] * d + np.arange(d)).ravel()  # (E·d,)
    return np.bincount(flat, weights=vals.ravel(), minlength=size * d).reshape(size, d)


def _lookup(table: np.ndarray, ids: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Σ_k w[..., k] · table[ids[..., k]]: (B, N, K) rows and weights → (B, N, d)."""
    tok, rows, wt = _entries(ids, w)
    n_batch, n_max, _ = w.shape
    vals = wt[:, None] * table[rows]  # (E, d)
    return _sum_into(tok, vals, n_batch * n_max).reshape(n_batch, n_max, -1)


def _scatter(table: np.ndarray, ids: np.ndarray, w: np.ndarray, dx: np.ndarray) -> np.ndarray:
    """The gradient of a table used by _lookup: each row gets Σ w · dx of the tokens using it."""
    tok, rows, wt = _entries(ids, w)
    vals = wt[:, None] * dx.reshape(-1, dx.shape[-1])[tok]  # (E, d)
    return _sum_into(rows, vals, len(table))


def gates(theta: dict) -> np.ndarray:
    """(L, h): how much question type r reads from head h, softmax over heads (rows sum to 1)."""
    z = theta["gates"] - theta["gates"].max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def forward(
    theta: dict, batch: Batch, num_heads: int, *, scale: bool = True, focus: float = 0.0
) -> dict:
    """Loss and every intermediate; the attention equals multi_head_attention per sentence.

    Question type r reads the asking token's heads through a learned gate g_r (a softmax over
    the heads: concat_i with head h's block scaled by h·g_rh, then W_O), then its own matrix
    R_r, and scores every token j of the sentence by (…·R_r)·word_j: softmax, cross-entropy.
    With even gates this is the token's output y_i = concat_i·W_O, exactly.

    `focus` adds that much of ½·Σ_h (Σ_r g_rh)² − Σ_rh g_rh²: two question types reading the
    same head pay, a question type spreading over heads pays. Which head each question comes
    to read, and what that head looks at, is learned; the answers are never in this term.
    """
    cls_e = _lookup(theta["classes"], batch.cls_ids, batch.cls_w)  # (B, N, d_embed)
    chr_e = _lookup(theta["chars"], batch.chr_ids, batch.chr_w)  # (B, N, d_embed)
    around = theta["before"][batch.before] + theta["after"][batch.after]  # (B, N, d)
    x = (
        theta["tags"][batch.tags]
        + batch.ctx[..., None] * around
        + batch.cl_w[..., None] * theta["clause"][batch.clause]
        + cls_e @ theta["class_proj"]
        + chr_e @ theta["char_proj"]
        + batch.gen_w[..., None] * theta["genders"][batch.gender]
        + batch.fixed
    )  # (B, N, d)
    q = split_heads(x @ theta["w_q"], num_heads)  # (B, h, N, d_k)
    k = split_heads(x @ theta["w_k"], num_heads)  # (B, h, N, d_k)
    v = split_heads(x @ theta["w_v"], num_heads)  # (B, h, N, d_k)
    c = 1 / np.sqrt(q.shape[-1]) if scale else 1.0
    keys = batch.valid[:, None, None, :]  # (B, 1, 1, N)
    a = softmax(np.where(keys, c * (q @ np.swapaxes(k, -1, -2)), -np.inf))  # (B, h, N, N)
    concat = merge_heads(a @ v)  # (B, N, d)
    g = gates(theta)  # (L, h)
    cols = num_heads * np.repeat(g, q.shape[-1], axis=1)  # (L, d) each head's block scaled
    gated = concat[batch.qb, batch.qi] * cols[batch.qr]  # (Q, d)
    asked = gated @ theta["w_o"]  # (Q, d)
    read = np.zeros_like(asked)  # (Q, d): asked · R_r, one matmul per question type
    for r, table in enumerate(theta["readout"]):
        read[batch.qr == r] = asked[batch.qr == r] @ table
    cand = batch.words[batch.qb]  # (Q, N, d)
    logits = (cand @ read[:, :, None])[..., 0]  # (Q, N)
    p = softmax(np.where(batch.valid[batch.qb], logits, -np.inf))  # (Q, N)
    picked = p[np.arange(len(p)), batch.qt]
    loss = -np.mean(np.log(np.maximum(picked, 1e-300)))
    spread = 0.5 * np.sum(g.sum(0) ** 2) - np.sum(g**2)
    out = dict(x=x, q=q, k=k, v=v, c=c, a=a, concat=concat, y=concat @ theta["w_o"])
    out |= dict(cls_e=cls_e, chr_e=chr_e, g=g, cols=cols, gated=gated, asked=asked, read=read)
    return {**out, "focus": focus, "cand": cand, "p": p, "ce": loss, "loss": loss + focus * spread}


def backward(theta: dict, batch: Batch, fw: dict) -> dict:
    """Gradients of the loss with respect to every parameter in theta."""
    nq = len(batch.qb)
    dlogits = fw["p"].copy()  # (Q, N)
    dlogits[np.arange(nq), batch.qt] -= 1.0
    dlogits /= nq
    dread = (dlogits[:, None, :] @ fw["cand"])[:, 0]  # (Q, d)
    grads = {"readout": np.zeros_like(theta["readout"])}  # (L, d, d)
    dasked = np.zeros_like(dread)  # (Q, d)
    for r, table in enumerate(theta["readout"]):
        mine = batch.qr == r
        grads["readout"][r] = fw["asked"][mine].T @ dread[mine]
        dasked[mine] = dread[mine] @ table.T
    grads["w_o"] = fw["gated"].T @ dasked  # (d, d)
    dgated = dasked @ theta["w_o"].T  # (Q, d)
    n_batch, n_max, d = fw["concat"].shape
    h = fw["q"].shape[1]
    asking = batch.qb * n_max + batch.qi  # (Q,) flat index of each asking token
    dcols = _sum_into(batch.qr, dgated * fw["concat"][batch.qb, batch.qi], len(fw["g"]))
    dg = h * dcols.reshape(len(fw["g"]), h, -1).sum(-1)  # (L, h)
    g = fw["g"]
    dg += fw["focus"] * (g.sum(0) - 2 * g)  # d/dg of ½Σ_h (Σ_r g)² − Σ g²
    grads["gates"] = g * (dg - np.sum(g * dg, axis=1, keepdims=True))  # softmax Jacobian
    dcat = _sum_into(asking, dgated * fw["cols"][batch.qr], n_batch * n_max)  # (B·N, d)
    do = split_heads(dcat.reshape(n_batch, n_max, d), h)  # (B, h, N, d_k)
    a = fw["a"]
    da = do @ np.swapaxes(fw["v"], -1, -2)  # (B, h, N, N)
    dv = np.swapaxes(a, -1, -2) @ do  # (B, h, N, d_k)
    ds = a * (da - np.sum(da * a, axis=-1, keepdims=True)) * fw["c"]  # softmax Jacobian
    dq = ds @ fw["k"]  # (B, h, N, d_k)
    dk = np.swapaxes(ds, -1, -2) @ fw["q"]  # (B, h, N, d_k)
    dx = np.zeros_like(fw["x"])  # (B, N, d)
    for name, d_part in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
        d_full = merge_heads(d_part)  # (B, N, d)
        grads[name] = _flat(fw["x"]).T @ _flat(d_full)  # (d, d)
        dx += d_full @ theta[name].T
    return grads | _input_grads(theta, batch, fw, dx)


def _input_grads(theta: dict, batch: Batch, fw: dict, dx: np.ndarray) -> dict:
    """Gradients of the embedding tables and projections from dL/dX (B, N, d)."""
    grads = {"tags": _one_hot(batch.tags[batch.valid], len(theta["tags"])).T @ dx[batch.valid]}
    dctx = (batch.ctx[..., None] * dx)[batch.valid]  # (T, d)
    for side in ("before", "after"):
        grads[side] = _one_hot(getattr(batch, side)[batch.valid], len(theta[side])).T @ dctx
    dcl = (batch.cl_w[..., None] * dx)[batch.valid]  # (T, d)
    grads["clause"] = _one_hot(batch.clause[batch.valid], len(theta["clause"])).T @ dcl
    dgen = (batch.gen_w[..., None] * dx)[batch.valid]  # (T, d)
    grads["genders"] = _one_hot(batch.gender[batch.valid], len(theta["genders"])).T @ dgen
    for table, proj, ids, w, e in (
        ("classes", "class_proj", batch.cls_ids, batch.cls_w, fw["cls_e"]),
        ("chars", "char_proj", batch.chr_ids, batch.chr_w, fw["chr_e"]),
    ):
        grads[proj] = _flat(e).T @ _flat(dx)  # (d_embed, d)
        grads[table] = _scatter(theta[table], ids, w, dx @ theta[proj].T)  # (rows, d_embed)
    return grads


def _flat(a: np.ndarray) -> np.ndarray:
    """(B, N, d) → (B·N, d): sums over sentences and tokens become one matmul."""
    return a.reshape(-1, a.shape[-1])


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    """(k,) integer indices → (k, size) float rows of zeros with one 1 (a scatter as a matmul)."""
    out = np.zeros((len(index), size))
    out[np.arange(len(index)), index] = 1.0
    return out


def token_masks(tokens: list) -> np.ndarray:
    """(n, 4) bool: punctuation, people (names, 他/她, Cilin's 人), nouns, verbs."""
    from .lexicon import is_person

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


def make_batch(examples: list, config: ModelConfig, vocab: Vocab) -> Batch:
    """Pad examples (corpus.Example) to one length and list their questions, one per link."""
    n_max, d, size = max(len(e.tokens) for e in examples), config.d_model, len(examples)
    tags, valid = np.zeros((size, n_max), dtype=np.int64), np.zeros((size, n_max), dtype=bool)
    before, after, gender = np.zeros_like(tags), np.zeros_like(tags), np.zeros_like(tags)
    clause = np.zeros_like(tags)
    fixed, words = np.zeros((size, n_max, d)), np.zeros((size, n_max, d))
    masks, questions = np.zeros((size, n_max, 4), dtype=bool), []
    for b, e in enumerate(examples):
        n = len(e.tokens)
        tags[b, :n], valid[b, :n] = tag_ids(e.tokens), True
        before[b, :n], after[b, :n] = neighbour_ids(e.tokens)
        clause[b, :n] = clause_ids(e.tokens)
        gender[b, :n] = gender_ids(e.tokens)
        fixed[b, :n], words[b, :n] = (
            fixed_features(e.tokens, config),
            word_vectors(e.tokens, config),
        )
        masks[b, :n] = token_masks(e.tokens)
        for r, rel in enumerate(LINKS):
            questions += [(b, i, j, r) for i, j in e.links[rel]]
    cls = _padded([entries(e.tokens, vocab, "classes") for e in examples], n_max)
    chars = _padded([entries(e.tokens, vocab, "chars") for e in examples], n_max)
    cls = cls if config.classes else (cls[0], np.zeros_like(cls[1]))
    chars = chars if config.chars else (chars[0], np.zeros_like(chars[1]))
    qb, qi, qt, qr = np.array(questions, dtype=np.int64).reshape(-1, 4).T
    ctx = valid * float(config.context)  # (B, N)
    gen_w = valid * float(config.gender)  # (B, N)
    cl_w = valid * float(config.clauses)  # (B, N)
    return Batch(
        tags, before, after, ctx, clause, cl_w, *cls, *chars, gender, gen_w, fixed, words, masks,
        valid, qb, qi, qt, qr,
    )  # fmt: skip


# ---- names that live in demo.py (the shipped weights) and reading.py (reading a sentence) ------

_MOVED = {
    "demo": ("DIFFUSE", "JOB_THRESHOLD", "DemoHistory", "HeadSummary", "describe_heads",
             "job_onsets", "load_demo_history", "load_demo_model"),
    "reading": ("DECIDED_GAP", "DECIDED_MIN", "PRONOUNS", "STATUSES", "PronounReading",
                "TokenReading", "read_pronoun", "read_token"),
}  # fmt: skip


def __getattr__(name: str):
    """Pages, the CLI and DESIGN.md's contract import these from attention_core.model; they
    live in demo.py and reading.py, which import this module (so they load on first use)."""
    import importlib

    for module, names in _MOVED.items():
        if name in names:
            return getattr(importlib.import_module(f"attention_core.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
