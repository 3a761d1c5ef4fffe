"""The tiny trainable demo model: POS tags + hashed words/characters + positions → attention."""

from __future__ import annotations

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
from .embed import sinusoidal_positions, token_vector
from .tokenize import Tokenized, tokenize

DEMO_PATH = Path(__file__).resolve().parent.parent / "assets" / "demo_model.npz"
# jieba POS tags that get their own learned embedding; any other tag shares "unk".
TAGS = (
    "unk", "n", "nr", "nrfg", "nrt", "ns", "nt", "nz", "ng", "r", "v", "vn", "vg", "a", "ad",
    "ag", "b", "d", "p", "c", "u", "uj", "ul", "uz", "ug", "uv", "f", "t", "tg", "m", "mq", "q",
    "x", "z", "zg", "s", "y", "e", "o", "i", "l", "j", "eng", "df", "g", "h", "k",
)  # fmt: skip
_TAG_INDEX = {tag: i for i, tag in enumerate(TAGS)}
CHAR_SEED = 1  # token_vector seed of the per-character features (word features use seed 0)
RELATIONS = ("pronoun_antecedent", "verb_subject", "self", "previous")


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and feature scales of the demo model."""

    d_model: int = 32  # width of every token vector
    num_heads: int = 4  # attention heads; d_k = d_model / num_heads
    word_scale: float = 1.0  # weight of the hashed word vector in a token's features
    char_scale: float = 1.0  # weight of the hashed last character (gender cue of a name)
    pos_scale: float = 0.5  # weight of the sinusoidal position

    def __post_init__(self) -> None:
        if self.d_model < 2 or self.num_heads < 1 or self.d_model % self.num_heads:
            raise ValueError(
                f"d_model={self.d_model} must be ≥ 2 and divisible by num_heads={self.num_heads}"
            )
        for name in ("word_scale", "char_scale", "pos_scale"):
            if not np.isfinite(getattr(self, name)) or getattr(self, name) < 0:
                raise ValueError(f"{name} must be a finite number ≥ 0, got {getattr(self, name)}")


def tag_ids(tokens: list) -> np.ndarray:
    """Index of each token's POS tag in TAGS (unknown tags → 0, "unk"), shape (n,)."""
    return np.array([_TAG_INDEX.get(t.tag, 0) for t in tokens], dtype=np.int64)


def word_vectors(tokens: list, d_model: int) -> np.ndarray:
    """Unit-scale hashed word vectors (n, d_model): the read-out's targets and part of X."""
    return np.stack([token_vector(t.text, d_model) for t in tokens]) / np.sqrt(d_model)


def fixed_features(tokens: list, config: ModelConfig) -> np.ndarray:
    """Everything in X that is not learned: word + last-character vectors + positions, (n, d).

    A Chinese given name's last character often tells its gender (明, 强 / 丽, 芳), so the
    hashed last character lets the model tell 他 from 她 even for names it never saw.
    """
    d = config.d_model
    chars = np.stack([token_vector(t.text[-1], d, CHAR_SEED) for t in tokens])  # (n, d)
    pos = sinusoidal_positions(len(tokens), d) / np.sqrt(d / 2)  # (n, d), rows of norm 1
    return (
        config.word_scale * word_vectors(tokens, d)
        + config.char_scale * chars / np.sqrt(d)
        + config.pos_scale * pos
    )


@dataclass(frozen=True)
class ModelRun:
    """The demo model applied to one sentence."""

    tokens: Tokenized  # as from tokenize(text, mode="word")
    x: np.ndarray  # (n, d_model) input features
    attention: MultiHeadResult  # the core's multi_head_attention with the trained weights


@dataclass(frozen=True)
class TrainedModel:
    """Learned tag embeddings and attention weights at one training step."""

    config: ModelConfig
    tag_embeddings: np.ndarray  # (len(TAGS), d_model)
    params: AttentionParams
    step: int

    def inputs(self, tokens: list) -> np.ndarray:
        """X (n, d_model) = tag embedding + fixed features."""
        return self.tag_embeddings[tag_ids(tokens)] + fixed_features(tokens, self.config)

    def run(self, text: str, *, scale: bool = True) -> ModelRun:
        """Tokenise `text` (jieba words) and run the trained attention layer on it."""
        tokens = tokenize(text, mode="word")
        x = self.inputs(tokens)
        return ModelRun(tokens, x, multi_head_attention(x, self.params, scale=scale))


# ---- training math: the same forward as the core, batched with padding, and its backprop ----

PARAM_NAMES = ("tags", "w_q", "w_k", "w_v", "w_o")


@dataclass(frozen=True)
class Batch:
    """Padded sentences and their read-out questions (query token → target token)."""

    tags: np.ndarray  # (B, N) tag indices
    fixed: np.ndarray  # (B, N, d) fixed features
    words: np.ndarray  # (B, N, d) read-out target vectors
    valid: np.ndarray  # (B, N) bool, False on padding
    qb: np.ndarray  # (Q,) sentence of each question
    qi: np.ndarray  # (Q,) token asking (pronoun or verb)
    qt: np.ndarray  # (Q,) token that answers (antecedent or subject)


def forward(theta: dict, batch: Batch, num_heads: int, *, scale: bool = True) -> dict:
    """Loss and every intermediate; equals multi_head_attention on each unpadded sentence."""
    x = theta["tags"][batch.tags] + batch.fixed  # (B, N, d)
    q = split_heads(x @ theta["w_q"], num_heads)  # (B, h, N, d_k)
    k = split_heads(x @ theta["w_k"], num_heads)  # (B, h, N, d_k)
    v = split_heads(x @ theta["w_v"], num_heads)  # (B, h, N, d_k)
    c = 1 / np.sqrt(q.shape[-1]) if scale else 1.0
    keys = batch.valid[:, None, None, :]  # (B, 1, 1, N)
    a = softmax(np.where(keys, c * (q @ np.swapaxes(k, -1, -2)), -np.inf))  # (B, h, N, N)
    concat = merge_heads(a @ v)  # (B, N, d)
    y = concat @ theta["w_o"]  # (B, N, d)
    cand = batch.words[batch.qb]  # (Q, N, d)
    logits = np.einsum("qd,qnd->qn", y[batch.qb, batch.qi], cand)  # (Q, N)
    p = softmax(np.where(batch.valid[batch.qb], logits, -np.inf))  # (Q, N)
    picked = p[np.arange(len(p)), batch.qt]
    loss = -np.mean(np.log(np.maximum(picked, 1e-300)))
    return dict(x=x, q=q, k=k, v=v, c=c, a=a, concat=concat, y=y, cand=cand, p=p, loss=loss)


def backward(theta: dict, batch: Batch, fw: dict) -> dict:
    """Gradients of the mean cross-entropy with respect to every parameter in theta."""
    nq = len(batch.qb)
    dlogits = fw["p"].copy()  # (Q, N)
    dlogits[np.arange(nq), batch.qt] -= 1.0
    dlogits /= nq
    dy = np.zeros_like(fw["y"])  # (B, N, d)
    np.add.at(dy, (batch.qb, batch.qi), np.einsum("qn,qnd->qd", dlogits, fw["cand"]))
    g = {"w_o": np.einsum("bnd,bne->de", fw["concat"], dy)}  # (d, d)
    h = fw["q"].shape[1]
    do = split_heads(dy @ theta["w_o"].T, h)  # (B, h, N, d_k)
    a = fw["a"]
    da = do @ np.swapaxes(fw["v"], -1, -2)  # (B, h, N, N)
    dv = np.swapaxes(a, -1, -2) @ do  # (B, h, N, d_k)
    ds = a * (da - np.sum(da * a, axis=-1, keepdims=True)) * fw["c"]  # softmax Jacobian
    dq = ds @ fw["k"]  # (B, h, N, d_k)
    dk = np.swapaxes(ds, -1, -2) @ fw["q"]  # (B, h, N, d_k)
    dx = np.zeros_like(fw["x"])  # (B, N, d)
    for name, d_part in (("w_q", dq), ("w_k", dk), ("w_v", dv)):
        d_full = merge_heads(d_part)  # (B, N, d)
        g[name] = np.einsum("bnd,bne->de", fw["x"], d_full)  # (d, d)
        dx += d_full @ theta[name].T
    g["tags"] = np.zeros_like(theta["tags"])
    np.add.at(g["tags"], batch.tags[batch.valid], dx[batch.valid])
    return g


def make_batch(examples: list, config: ModelConfig) -> Batch:
    """Pad examples (corpus.Example) to one length and list their pronoun and verb questions."""
    n_max, d = max(len(e.tokens) for e in examples), config.d_model
    tags = np.zeros((len(examples), n_max), dtype=np.int64)
    fixed = np.zeros((len(examples), n_max, d))
    words = np.zeros((len(examples), n_max, d))
    valid = np.zeros((len(examples), n_max), dtype=bool)
    questions = []
    for b, e in enumerate(examples):
        n = len(e.tokens)
        tags[b, :n] = tag_ids(e.tokens)
        fixed[b, :n] = fixed_features(e.tokens, config)
        words[b, :n] = word_vectors(e.tokens, d)
        valid[b, :n] = True
        questions += [(b, i, j) for i, j in (*e.pronouns, *e.verbs)]
    qb, qi, qt = np.array(questions, dtype=np.int64).reshape(-1, 3).T
    return Batch(tags, fixed, words, valid, qb, qi, qt)


# ---- the shipped demo model: checkpoints, loss curve and held-out figures ----


@dataclass(frozen=True)
class DemoHistory:
    """What training recorded: checkpoint steps, loss curve, held-out figures per checkpoint."""

    steps: np.ndarray  # (K,) training steps with saved weights, 0 first
    losses: np.ndarray  # (steps,) training loss at every Adam update
    heldout: dict  # name -> (K,) array: loss, readout_acc, any_head_acc, any_head_chance, ...
    relations: np.ndarray  # (K, h, len(RELATIONS), 2) per head: argmax hit rate, mean weight
    config: ModelConfig


@dataclass(frozen=True)
class HeadSummary:
    """What one head does on the held-out split, as numbers and a key the UI can translate."""

    head: int  # 0-based head index
    relation: str  # one of RELATIONS, or "diffuse" when no relation reaches DIFFUSE_BELOW
    accuracy: float  # how often the row's largest weight lands on the relation's target
    weight: float  # mean weight the row gives that target
    closest: str  # the relation with the highest hit rate, even when the head is "diffuse"


DIFFUSE_BELOW = 0.3  # a head whose best relation hits less often than this has no clear job


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.flags.writeable = False
    return a


@functools.lru_cache(maxsize=2)
def _load(path: str) -> dict:
    """Every array of a demo .npz, read-only; cached (immutable data)."""
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m attention_core.train`")
    with np.load(path) as z:
        return {k: _readonly(z[k]) for k in z.files}


def load_demo_history(path: Path = DEMO_PATH) -> DemoHistory:
    """Checkpoint steps, loss curve and held-out figures of the shipped demo model."""
    z = _load(str(path))
    cfg = dict(zip(z["config_keys"].tolist(), z["config_values"].tolist(), strict=True))
    config = ModelConfig(
        **{k: int(v) if k in ("d_model", "num_heads") else v for k, v in cfg.items()}
    )
    heldout = {k.removeprefix("eval_"): z[k] for k in z if k.startswith("eval_")}
    relations = heldout.pop("relations")
    return DemoHistory(z["steps"], z["losses"], heldout, relations, config)


def _checkpoint_index(steps: np.ndarray, step: int | None) -> int:
    if step is None:
        return len(steps) - 1
    hits = np.nonzero(steps == step)[0]
    if not len(hits):
        raise ValueError(f"no checkpoint at step {step}; saved steps are {steps.tolist()}")
    return int(hits[0])


def load_demo_model(step: int | None = None, path: Path = DEMO_PATH) -> TrainedModel:
    """The trained demo model at a saved step (None = final); weights cached and read-only."""
    history = load_demo_history(path)
    return _model_at(_checkpoint_index(history.steps, step), str(path))


@functools.lru_cache(maxsize=32)
def _model_at(i: int, path: str) -> TrainedModel:
    z, history = _load(path), load_demo_history(Path(path))
    w = {k: _readonly(z[f"theta_{k}"][i].astype(np.float64)) for k in PARAM_NAMES}
    params = AttentionParams(w["w_q"], w["w_k"], w["w_v"], w["w_o"], history.config.num_heads)
    return TrainedModel(history.config, w["tags"], params, int(history.steps[i]))


def describe_heads(step: int | None = None, path: Path = DEMO_PATH) -> list[HeadSummary]:
    """Per head, the relation it follows most often on the held-out split (or "diffuse")."""
    history = load_demo_history(path)
    table = history.relations[_checkpoint_index(history.steps, step)]  # (h, R, 2)
    out = []
    for head, rows in enumerate(table):
        best = int(np.argmax(rows[:, 0]))
        relation = RELATIONS[best] if rows[best, 0] >= DIFFUSE_BELOW else "diffuse"
        acc, weight = float(rows[best, 0]), float(rows[best, 1])
        out.append(HeadSummary(head, relation, acc, weight, RELATIONS[best]))
    return out
