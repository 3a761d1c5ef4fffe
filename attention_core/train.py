"""Train the demo model with numpy backprop and Adam: `python -m attention_core.train`.

`OPENBLAS_NUM_THREADS=1 python -m attention_core.train` takes ~32 s of CPU; the matrices are
small, so a second BLAS thread only spins (~80 s of CPU, same weights bit for bit).

Nobody tells a head what to do. The model is only asked questions at certain tokens — at
他/她 "who is meant?", at a modifier "which noun do you describe?", at a verb "who does it?" —
and answers each through that question's own read-out of the token's output. The attention
weights are never supervised; which head takes which job is measured afterwards.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import corpus
from .attention import init_params
from .corpus import LINKS
from .model import (
    DEMO_PATH,
    PARAM_NAMES,
    RELATIONS,
    TAGS,
    Batch,
    ModelConfig,
    backward,
    forward,
    make_batch,
    position_features,
)

STORE_DTYPE = np.float16  # checkpoints are kept, measured and shipped at this precision


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run; the same config gives the same weights."""

    model: ModelConfig = field(default_factory=ModelConfig)
    steps: int = 1200  # Adam updates
    batch_size: int = 64  # sentences per update
    lr: float = 0.01  # Adam learning rate at the start
    lr_end: float = 0.001  # ... falling along a half cosine to this at the last step
    n_train: int = 3000  # training sentences generated
    n_heldout: int = 600  # held-out sentences (unseen names, words, templates)
    seed: int = 0  # seeds the corpus, the initial weights and the batch order
    checkpoints: tuple = (0, 25, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1200)  # weights kept
    eval_every: int = 25  # held-out measurement every this many steps (and at checkpoints)
    keep_tags: tuple = ("r",)  # tags whose word vectors stay fixed (他/她); others are redrawn
    keep_char_tags: tuple = ("nr", "r")  # tags whose last-character vector stays (gender cue)
    max_shift: int = 24  # each training sentence's positions start at a random offset below this

    def __post_init__(self) -> None:
        if min(self.steps, self.batch_size, self.n_train, self.n_heldout, self.eval_every) < 1:
            raise ValueError("steps, batch_size, n_train, n_heldout, eval_every must all be ≥ 1")
        if not 0 < self.lr < 1 or not 0 < self.lr_end <= self.lr:
            raise ValueError(f"need 0 < lr_end ≤ lr < 1, got lr={self.lr}, lr_end={self.lr_end}")
        if list(self.checkpoints) != sorted(set(self.checkpoints)) or self.checkpoints[0] != 0:
            raise ValueError("checkpoints must be increasing and start at step 0")
        if self.checkpoints[-1] > self.steps:
            raise ValueError(f"checkpoint {self.checkpoints[-1]} is past steps={self.steps}")
        if self.max_shift < 0:
            raise ValueError(f"max_shift must be ≥ 0, got {self.max_shift}")

    def lr_at(self, step: int) -> float:
        """Learning rate of update `step` (0-based): lr down to lr_end along a half cosine."""
        fall = 0.5 * (1 + np.cos(np.pi * step / max(self.steps - 1, 1)))  # 1 → 0
        return float(self.lr_end + (self.lr - self.lr_end) * fall)

    @property
    def eval_steps(self) -> tuple:
        """Steps measured on the held-out split: every eval_every, every checkpoint, the end."""
        every = range(0, self.steps + 1, self.eval_every)
        return tuple(sorted({*every, *self.checkpoints, self.steps}))


def init_theta(config: ModelConfig, seed: int) -> dict:
    """Step-0 parameters: the core's init_params for W_Q, W_K, W_V, W_O; small tag embeddings
    and one random read-out matrix per question type."""
    p = init_params(config.d_model, config.num_heads, seed)
    rng = np.random.default_rng(seed + 1)
    d = config.d_model
    tags = rng.standard_normal((len(TAGS), d)) / np.sqrt(d)  # (T, d)
    readout = rng.standard_normal((len(LINKS), d, d)) / np.sqrt(d)  # (L, d, d)
    return {
        "tags": tags,
        "w_q": p.w_q,
        "w_k": p.w_k,
        "w_v": p.w_v,
        "w_o": p.w_o,
        "readout": readout,
    }


@dataclass
class Adam:
    """Adam (Kingma & Ba) over a dict of arrays."""

    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0
    m: dict = field(default_factory=dict)
    v: dict = field(default_factory=dict)

    def update(self, theta: dict, grads: dict) -> None:
        """One in-place step on theta."""
        self.t += 1
        for name, g in grads.items():
            m = self.m[name] = self.beta1 * self.m.get(name, 0.0) + (1 - self.beta1) * g
            v = self.v[name] = self.beta2 * self.v.get(name, 0.0) + (1 - self.beta2) * g * g
            m_hat = m / (1 - self.beta1**self.t)
            v_hat = v / (1 - self.beta2**self.t)
            theta[name] -= self.lr * m_hat / (np.sqrt(v_hat) + self.eps)


def _questions(batch: Batch) -> tuple:
    """The fields of a batch after its vectors: valid, qb, qi, qt, qr."""
    return (batch.valid, batch.qb, batch.qi, batch.qt, batch.qr)


def subset(batch: Batch, idx: np.ndarray) -> Batch:
    """The sentences idx of a batch, with their questions renumbered."""
    where = np.full(len(batch.tags), -1)
    where[idx] = np.arange(len(idx))
    keep = where[batch.qb] >= 0
    asked = (where[batch.qb[keep]], batch.qi[keep], batch.qt[keep], batch.qr[keep])
    return Batch(batch.tags[idx], batch.fixed[idx], batch.words[idx], batch.valid[idx], *asked)


def fresh_words(batch: Batch, config: TrainConfig, rng: np.random.Generator) -> Batch:
    """Redraw every word vector but the pronouns', and every last character but those of names
    and pronouns: an endless supply of never-seen words.

    The model cannot memorise a word or a template, so it must answer from tags, the gender
    of a name's last character and word order, as it will have to on the held-out split.
    """
    mc = config.model
    redraw = ~np.isin(batch.tags, [TAGS.index(t) for t in config.keep_tags]) & batch.valid
    new = np.zeros_like(batch.words)  # (B, N, d)
    new[..., : mc.d_word] = rng.standard_normal((*redraw.shape, mc.d_word)) / np.sqrt(mc.d_word)
    words = np.where(redraw[..., None], new, batch.words)
    fixed = batch.fixed + mc.word_scale * (words - batch.words)
    redraw = ~np.isin(batch.tags, [TAGS.index(t) for t in config.keep_char_tags]) & batch.valid
    lo, hi = mc.d_word, mc.d_word + mc.d_char
    chars = rng.standard_normal((*redraw.shape, mc.d_char)) / np.sqrt(mc.d_char)  # (B, N, c)
    fixed[..., lo:hi] = np.where(redraw[..., None], mc.char_scale * chars, fixed[..., lo:hi])
    return Batch(batch.tags, fixed, words, *_questions(batch))


def shift_positions(batch: Batch, config: TrainConfig, rng: np.random.Generator) -> Batch:
    """Start each sentence's positions at a random offset: only relative order stays a cue."""
    if config.max_shift <= 1:
        return batch
    n_batch, n_max, _ = batch.fixed.shape
    table = position_features(n_max + config.max_shift, config.model)  # (N + shift, d)
    offset = rng.integers(config.max_shift, size=n_batch)  # (B,)
    moved = table[offset[:, None] + np.arange(n_max)] - table[:n_max]  # (B, N, d)
    fixed = batch.fixed + moved * batch.valid[..., None]
    return Batch(batch.tags, fixed, batch.words, *_questions(batch))


# ---- measuring what the heads do ----------------------------------------------------------------


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


def evaluate(theta: dict, batch: Batch, num_heads: int) -> dict:
    """Held-out figures: per head × relation hit rate and weight; per question type the
    read-out's accuracy, how often some head's argmax hits, and the chance of each."""
    fw = forward(theta, batch, num_heads)
    a = fw["a"]  # (B, h, N, N)
    rows = relation_rows(batch)
    n_tok = batch.valid.sum(1)[batch.qb].astype(float)  # (Q,) tokens in each question's sentence
    readout_hit = np.argmax(fw["p"], -1) == batch.qt  # (Q,)
    some_head = (np.argmax(a[batch.qb, :, batch.qi, :], -1) == batch.qt[:, None]).any(1)  # (Q,)
    per = np.stack([batch.qr == r for r in range(len(LINKS))]).astype(float)  # (L, Q)
    count = per.sum(1)  # (L,)
    return {
        "loss": fw["loss"],
        "readout_acc": per @ readout_hit / count,  # (L,)
        "readout_chance": per @ (1 / n_tok) / count,  # (L,) one guess among n tokens
        "any_head_acc": per @ some_head / count,  # (L,)
        "any_head_chance": per @ (1 - (1 - 1 / n_tok) ** num_heads) / count,  # (L,)
        "relations": np.stack([head_relation(a, rows[r]) for r in RELATIONS], axis=1),  # (h, R, 2)
    }


# ---- the training loop --------------------------------------------------------------------------


def _stored(theta: dict) -> dict:
    """theta as it will be shipped: rounded to STORE_DTYPE, back in float64 for measuring."""
    return {k: v.astype(STORE_DTYPE).astype(np.float64) for k, v in theta.items()}


def train(config: TrainConfig, log=print) -> dict:
    """Run training; returns checkpoints, the loss curve and held-out figures per eval step."""
    mc = config.model
    train_ex = corpus.build("train", config.n_train, config.seed)
    held_ex = corpus.build("heldout", config.n_heldout, config.seed + 1)
    full, held = make_batch(train_ex, mc), make_batch(held_ex, mc)
    theta = init_theta(mc, config.seed)
    adam, rng = Adam(config.lr), np.random.default_rng(config.seed + 2)
    losses, ckpts, evals = np.zeros(config.steps), [], []
    eval_steps = set(config.eval_steps)
    for step in range(config.steps + 1):
        if step in eval_steps:
            kept = _stored(theta)  # measured as shipped
            evals.append(evaluate(kept, held, mc.num_heads))
            if step in config.checkpoints:
                ckpts.append(kept)
                log(f"step {step:5d}  held-out: " + _summary(evals[-1]))
        if step == config.steps:
            break
        batch = subset(full, rng.choice(len(train_ex), config.batch_size, replace=False))
        batch = shift_positions(fresh_words(batch, config, rng), config, rng)
        fw = forward(theta, batch, mc.num_heads)
        adam.lr = config.lr_at(step)
        adam.update(theta, backward(theta, batch, fw))
        losses[step] = fw["loss"]
    return {"checkpoints": ckpts, "evals": evals, "losses": losses}


def _summary(ev: dict) -> str:
    acc = ev["relations"][:, : len(LINKS), 0]  # (h, L)
    best = [
        f"{rel} head {np.argmax(acc[:, r]) + 1} {acc[:, r].max():.0%}"
        for r, rel in enumerate(LINKS)
    ]
    readout = " ".join(f"{x:.0%}" for x in ev["readout_acc"])
    return f"loss {ev['loss']:.3f}  read-outs {readout}  best " + ", ".join(best)


def head_table(ev: dict) -> str:
    """Per head × relation: argmax hit rate % (mean weight), as a plain-text table."""
    rel = ev["relations"]  # (h, R, 2)
    lines = ["head  " + "  ".join(f"{r:>20}" for r in RELATIONS)]
    for h, rows in enumerate(rel):
        cells = [f"{100 * acc:5.1f}% ({w:.2f})" for acc, w in rows]
        lines.append(f"{h + 1:4d}  " + "  ".join(f"{c:>20}" for c in cells))
    return "\n".join(lines)


def save(path: Path, config: TrainConfig, result: dict) -> None:
    """Write checkpoints (float16), loss curve and held-out figures to one small .npz."""
    evals, ckpts = result["evals"], result["checkpoints"]
    arrays = {
        f"theta_{k}": np.stack([c[k] for c in ckpts]).astype(STORE_DTYPE) for k in PARAM_NAMES
    }
    for key in ("loss", "readout_acc", "readout_chance", "any_head_acc", "any_head_chance"):
        arrays[f"eval_{key}"] = np.array([e[key] for e in evals], dtype=np.float64)
    arrays["eval_relations"] = np.stack([e["relations"] for e in evals])  # (E, h, R, 2)
    model_cfg = asdict(config.model)
    np.savez_compressed(
        path,
        steps=np.array(config.checkpoints, dtype=np.int64),
        eval_steps=np.array(config.eval_steps, dtype=np.int64),
        losses=result["losses"].astype(np.float32),
        tags=np.array(TAGS),
        links=np.array(LINKS),
        relations=np.array(RELATIONS),
        config_keys=np.array(list(model_cfg)),
        config_values=np.array([float(v) for v in model_cfg.values()]),
        seed=np.array(config.seed),
        **arrays,
    )


def main(argv: list | None = None) -> None:
    """Command line: train with the default config and write assets/demo_model.npz."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEMO_PATH, help="where to write the .npz")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps, help="Adam updates")
    args = parser.parse_args(argv)
    checkpoints = (*(s for s in TrainConfig.checkpoints if s < args.steps), args.steps)
    config = TrainConfig(steps=args.steps, checkpoints=checkpoints)
    start, cpu = time.perf_counter(), time.process_time()
    result = train(config)
    save(args.out, config, result)
    print(head_table(result["evals"][-1]))
    size = args.out.stat().st_size / 1024
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"wrote {args.out} ({size:.0f} KiB) in {wall:.1f} s wall, {used:.1f} s CPU")


if __name__ == "__main__":
    main()
