"""The tiny trainable demo model: POS tags + hashed words/characters + positions → attention."""

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
from .corpus import LINKS
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
# The relations the model is asked about (one read-out each), then two it is never asked about
# but a head may still follow; every one is measured per head on the held-out split.
RELATIONS = (*LINKS, "self", "previous")


@dataclass(frozen=True)
class ModelConfig:
    """Sizes and feature scales of the demo model.

    A token's fixed features sit side by side in X: the hashed word in columns [0, d_word),
    its last character in the next d_char, the sinusoidal position in the next d_pos; the
    learned POS-tag embedding spans all d_model columns.
    """

    d_model: int = 48  # width of every token vector
    num_heads: int = 4  # attention heads; d_k = d_model / num_heads
    d_word: int = 16  # columns of the hashed word vector (also the read-out's targets)
    d_char: int = 16  # columns of the hashed last character (gender cue of a name)
    d_pos: int = 16  # columns of the sinusoidal position
    word_scale: float = 1.0  # norm of the word block
    char_scale: float = 1.0  # norm of the character block
    pos_scale: float = 1.0  # norm of the position block

    def __post_init__(self) -> None:
        if self.d_model < 2 or self.num_heads < 1 or self.d_model % self.num_heads:
            raise ValueError(
                f"d_model={self.d_model} must be ≥ 2 and divisible by num_heads={self.num_heads}"
            )
        blocks = (self.d_word, self.d_char, self.d_pos)
        if min(blocks) < 1 or sum(blocks) > self.d_model:
            raise ValueError(
                f"d_word + d_char + d_pos = {sum(blocks)} must be ≤ d_model "
                f"= {self.d_model}, each ≥ 1"
            )
        for name in ("word_scale", "char_scale", "pos_scale"):
            if not np.isfinite(getattr(self, name)) or getattr(self, name) < 0:
                raise ValueError(f"{name} must be a finite number ≥ 0, got {getattr(self, name)}")


def tag_ids(tokens: list) -> np.ndarray:
    """Index of each token's POS tag in TAGS (unknown tags → 0, "unk"), shape (n,)."""
    return np.array([_TAG_INDEX.get(t.tag, 0) for t in tokens], dtype=np.int64)


def _placed(block: np.ndarray, start: int, d_model: int) -> np.ndarray:
    """(n, b) → (n, d_model) with the block in columns [start, start + b), zeros elsewhere."""
    out = np.zeros((len(block), d_model))
    out[:, start : start + block.shape[1]] = block
    return out


def word_vectors(tokens: list, config: ModelConfig) -> np.ndarray:
    """Unit-norm hashed word vectors in the word columns (n, d_model): the read-out's targets."""
    w = np.stack([token_vector(t.text, config.d_word) for t in tokens])  # (n, d_word)
    return _placed(w / np.sqrt(config.d_word), 0, config.d_model)


def position_features(n: int, config: ModelConfig) -> np.ndarray:
    """Sinusoidal positions 0 … n-1 in the position columns, rows of norm pos_scale, (n, d)."""
    pe = sinusoidal_positions(n, config.d_pos) / np.sqrt(config.d_pos / 2)  # rows of norm ≈ 1
    return config.pos_scale * _placed(pe, config.d_word + config.d_char, config.d_model)


def fixed_features(tokens: list, config: ModelConfig) -> np.ndarray:
    """Everything in X that is not learned: word, last character, position blocks, (n, d).

    A Chinese given name's last character often tells its gender (明, 强 / 丽, 芳), so the
    hashed last character lets the model tell 他 from 她 even for names it never saw.
    """
    chars = np.stack([token_vector(t.text[-1], config.d_char, CHAR_SEED) for t in tokens])
    chars = _placed(chars / np.sqrt(config.d_char), config.d_word, config.d_model)  # (n, d)
    return (
        config.word_scale * word_vectors(tokens, config)
        + config.char_scale * chars
        + position_features(len(tokens), config)
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
    readout: np.ndarray | None = None  # (len(LINKS), d, d): each question type's read-out

    def theta(self) -> dict:
        """The parameters as the training code names them (PARAM_NAMES)."""
        p = self.params
        w = {"tags": self.tag_embeddings, "w_q": p.w_q, "w_k": p.w_k, "w_v": p.w_v, "w_o": p.w_o}
        return {**w, "readout": self.readout}

    def inputs(self, tokens: list) -> np.ndarray:
        """X (n, d_model) = tag embedding + fixed features."""
        return self.tag_embeddings[tag_ids(tokens)] + fixed_features(tokens, self.config)

    def run(self, text: str, *, scale: bool = True) -> ModelRun:
        """Tokenise `text` (jieba words) and run the trained attention layer on it."""
        tokens = tokenize(text, mode="word")
        x = self.inputs(tokens)
        return ModelRun(tokens, x, multi_head_attention(x, self.params, scale=scale))


# ---- training math: the same forward as the core, batched with padding, and its backprop ----

PARAM_NAMES = ("tags", "w_q", "w_k", "w_v", "w_o", "readout")


@dataclass(frozen=True)
class Batch:
    """Padded sentences and their read-out questions (asking token → answering token)."""

    tags: np.ndarray  # (B, N) tag indices
    fixed: np.ndarray  # (B, N, d) fixed features
    words: np.ndarray  # (B, N, d) read-out target vectors
    valid: np.ndarray  # (B, N) bool, False on padding
    qb: np.ndarray  # (Q,) sentence of each question
    qi: np.ndarray  # (Q,) token asking (pronoun, modifier or verb)
    qt: np.ndarray  # (Q,) token that answers (antecedent, head noun or subject)
    qr: np.ndarray  # (Q,) which question: index into LINKS, picks the read-out


def forward(theta: dict, batch: Batch, num_heads: int, *, scale: bool = True) -> dict:
    """Loss and every intermediate; the attention equals multi_head_attention per sentence.

    Each question type r reads the asking token's output y_i through its own matrix R_r and
    scores every token j of the sentence by (y_i·R_r)·word_j: softmax, cross-entropy.
    """
    x = theta["tags"][batch.tags] + batch.fixed  # (B, N, d)
    q = split_heads(x @ theta["w_q"], num_heads)  # (B, h, N, d_k)
    k = split_heads(x @ theta["w_k"], num_heads)  # (B, h, N, d_k)
    v = split_heads(x @ theta["w_v"], num_heads)  # (B, h, N, d_k)
    c = 1 / np.sqrt(q.shape[-1]) if scale else 1.0
    keys = batch.valid[:, None, None, :]  # (B, 1, 1, N)
    a = softmax(np.where(keys, c * (q @ np.swapaxes(k, -1, -2)), -np.inf))  # (B, h, N, N)
    concat = merge_heads(a @ v)  # (B, N, d)
    y = concat @ theta["w_o"]  # (B, N, d)
    asked = y[batch.qb, batch.qi]  # (Q, d)
    read = np.einsum("qd,qde->qe", asked, theta["readout"][batch.qr])  # (Q, d)
    cand = batch.words[batch.qb]  # (Q, N, d)
    logits = np.einsum("qd,qnd->qn", read, cand)  # (Q, N)
    p = softmax(np.where(batch.valid[batch.qb], logits, -np.inf))  # (Q, N)
    picked = p[np.arange(len(p)), batch.qt]
    loss = -np.mean(np.log(np.maximum(picked, 1e-300)))
    out = dict(x=x, q=q, k=k, v=v, c=c, a=a, concat=concat, y=y, asked=asked, read=read)
    return {**out, "cand": cand, "p": p, "loss": loss}


def backward(theta: dict, batch: Batch, fw: dict) -> dict:
    """Gradients of the mean cross-entropy with respect to every parameter in theta."""
    nq = len(batch.qb)
    dlogits = fw["p"].copy()  # (Q, N)
    dlogits[np.arange(nq), batch.qt] -= 1.0
    dlogits /= nq
    dread = np.einsum("qn,qnd->qd", dlogits, fw["cand"])  # (Q, d)
    which = _one_hot(batch.qr, len(theta["readout"]))  # (Q, L)
    g = {"readout": np.einsum("ql,qd,qe->lde", which, fw["asked"], dread)}  # (L, d, d)
    dasked = np.einsum("qde,qe->qd", theta["readout"][batch.qr], dread)  # (Q, d)
    n_batch, n_max, d = fw["y"].shape
    rows = _one_hot(batch.qb * n_max + batch.qi, n_batch * n_max)  # (Q, B·N)
    dy = (rows.T @ dasked).reshape(n_batch, n_max, d)  # (B, N, d) sums questions per token
    g["w_o"] = np.einsum("bnd,bne->de", fw["concat"], dy)  # (d, d)
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
    g["tags"] = _one_hot(batch.tags[batch.valid], len(theta["tags"])).T @ dx[batch.valid]
    return g


def _one_hot(index: np.ndarray, size: int) -> np.ndarray:
    """(k,) integer indices → (k, size) float rows of zeros with one 1 (a scatter as a matmul)."""
    out = np.zeros((len(index), size))
    out[np.arange(len(index)), index] = 1.0
    return out


def make_batch(examples: list, config: ModelConfig) -> Batch:
    """Pad examples (corpus.Example) to one length and list their questions, one per link."""
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
        words[b, :n] = word_vectors(e.tokens, config)
        valid[b, :n] = True
        for r, rel in enumerate(LINKS):
            questions += [(b, i, j, r) for i, j in e.links[rel]]
    qb, qi, qt, qr = np.array(questions, dtype=np.int64).reshape(-1, 4).T
    return Batch(tags, fixed, words, valid, qb, qi, qt, qr)


# ---- the shipped demo model: checkpoints, loss curve and held-out figures ----


@dataclass(frozen=True)
class DemoHistory:
    """What training recorded: kept checkpoints, loss curve, held-out figures per eval step."""

    steps: np.ndarray  # (K,) training steps with saved weights, 0 first
    eval_steps: np.ndarray  # (E,) steps measured on the held-out split (steps among them)
    losses: np.ndarray  # (S,) training loss at every Adam update
    heldout: dict  # name -> (E,) or (E, L) array: loss, readout_acc, any_head_acc, chances
    relations: np.ndarray  # (E, h, len(RELATIONS), 2) per head: argmax hit rate, mean weight
    config: ModelConfig

    def at(self, step: int | None) -> int:
        """Index into eval_steps of a measured step (None = the last)."""
        return _step_index(self.eval_steps, step, "measured")


@dataclass(frozen=True)
class HeadSummary:
    """What one head does on the held-out split, as numbers and a key the UI can translate."""

    head: int  # 0-based head index
    relation: str  # one of RELATIONS, or "diffuse" when none reaches JOB_THRESHOLD
    accuracy: float  # how often the row's largest weight lands on the relation's target
    weight: float  # mean weight the row gives that target
    closest: str  # the relation with the highest hit rate, even when the head is "diffuse"


JOB_THRESHOLD = 0.5  # a head has a job when its largest weight hits the target in ≥ half the rows
DIFFUSE = "diffuse"  # the relation name of a head without a clear job


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
    if tuple(z["relations"].tolist()) != RELATIONS:
        raise ValueError(f"{path} measures {z['relations'].tolist()}, this code {RELATIONS}")
    cfg = dict(zip(z["config_keys"].tolist(), z["config_values"].tolist(), strict=True))
    ints = {f.name for f in dataclasses.fields(ModelConfig) if f.type == "int"}
    config = ModelConfig(**{k: int(v) if k in ints else v for k, v in cfg.items()})
    heldout = {k.removeprefix("eval_"): z[k] for k in z if k.startswith("eval_")}
    relations = heldout.pop("relations")
    return DemoHistory(z["steps"], z["eval_steps"], z["losses"], heldout, relations, config)


def _step_index(steps: np.ndarray, step: int | None, what: str) -> int:
    if step is None:
        return len(steps) - 1
    hits = np.nonzero(steps == step)[0]
    if not len(hits):
        raise ValueError(f"no {what} step {step}; the {what} steps are {steps.tolist()}")
    return int(hits[0])


def load_demo_model(step: int | None = None, path: Path = DEMO_PATH) -> TrainedModel:
    """The trained demo model at a saved step (None = final); weights cached and read-only."""
    history = load_demo_history(path)
    return _model_at(_step_index(history.steps, step, "saved"), str(path))


@functools.lru_cache(maxsize=32)
def _model_at(i: int, path: str) -> TrainedModel:
    z, history = _load(path), load_demo_history(Path(path))
    w = {k: _readonly(z[f"theta_{k}"][i].astype(np.float64)) for k in PARAM_NAMES}
    params = AttentionParams(w["w_q"], w["w_k"], w["w_v"], w["w_o"], history.config.num_heads)
    return TrainedModel(history.config, w["tags"], params, int(history.steps[i]), w["readout"])


def summarise_heads(table: np.ndarray) -> list[HeadSummary]:
    """Per head, from a (h, R, 2) measurement: the relation it follows most often, or diffuse."""
    out = []
    for head, rows in enumerate(table):
        best = int(np.argmax(rows[:, 0]))
        relation = RELATIONS[best] if rows[best, 0] >= JOB_THRESHOLD else DIFFUSE
        acc, weight = float(rows[best, 0]), float(rows[best, 1])
        out.append(HeadSummary(head, relation, acc, weight, RELATIONS[best]))
    return out


def describe_heads(step: int | None = None, path: Path = DEMO_PATH) -> list[HeadSummary]:
    """Per head, the relation it follows on the held-out split at a measured step (None =
    final), from the measurement stored with the weights; "diffuse" below JOB_THRESHOLD."""
    history = load_demo_history(path)
    return summarise_heads(history.relations[history.at(step)])


def job_onsets(path: Path = DEMO_PATH) -> list[int | None]:
    """Per head, the first measured step from which its final job's hit rate stays at or above
    JOB_THRESHOLD to the end: the moment it found its job (None for a head without one)."""
    history = load_demo_history(path)
    out = []
    for head, final in enumerate(summarise_heads(history.relations[-1])):
        if final.relation == DIFFUSE:
            out.append(None)
            continue
        r = RELATIONS.index(final.relation)
        below = np.nonzero(history.relations[:, head, r, 0] < JOB_THRESHOLD)[0]  # (k,)
        first = int(below[-1]) + 1 if len(below) else 0
        out.append(int(history.eval_steps[first]))
    return out


# ---- reading a sentence through the measured pronoun head ------------------------------------

PRONOUNS = ("他", "她")
DECIDED_MIN = 0.5  # the pronoun head decides when its top weight is at least this …
DECIDED_GAP = 0.2  # … and this much above the runner-up; otherwise it is undecided


@dataclass(frozen=True)
class PronounReading:
    """Whom the first 他/她 of a sentence means, according to the measured pronoun head."""

    query: int  # token index of the pronoun
    head: HeadSummary | None  # the best head whose job is pronoun → antecedent; None: no such head
    keys: tuple[int, ...]  # token indices of the two largest weights in that head's row
    weights: tuple[float, ...]  # those two weights
    decided: bool  # top weight ≥ DECIDED_MIN and ≥ DECIDED_GAP above the runner-up


def read_pronoun(
    texts: list[str], weights: np.ndarray, heads: list[HeadSummary]
) -> PronounReading | None:
    """The pronoun head's row of the first 他/她 (weights: (h, n, n)); None without a pronoun."""
    rows = [i for i, w in enumerate(texts) if w in PRONOUNS]
    if not rows:
        return None
    i = rows[0]
    doers = [s for s in heads if s.relation == "pronoun_antecedent"]
    if not doers:
        return PronounReading(i, None, (), (), False)
    best = max(doers, key=lambda s: s.accuracy)
    row = weights[best.head, i]  # (n,)
    top = [int(j) for j in np.argsort(row, kind="stable")[::-1][:2]]
    w = tuple(float(row[j]) for j in top)
    gap = w[0] - (w[1] if len(w) > 1 else 0.0)
    return PronounReading(i, best, tuple(top), w, w[0] >= DECIDED_MIN and gap >= DECIDED_GAP)
