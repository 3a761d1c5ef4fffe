"""Train the demo model with numpy backprop and Adam: `python -m attention_core.train`."""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import corpus
from .attention import init_params
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
)


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run; the same config gives the same weights."""

    model: ModelConfig = field(default_factory=ModelConfig)
    steps: int = 1200  # Adam updates
    batch_size: int = 64  # sentences per update
    lr: float = 0.01  # Adam learning rate
    n_train: int = 3000  # training sentences generated
    n_heldout: int = 600  # held-out sentences (unseen names, objects, templates)
    seed: int = 0  # seeds the corpus, the initial weights and the batch order
    checkpoints: tuple = (0, 25, 50, 100, 200, 400, 800, 1200)  # steps whose weights are kept
    keep_tags: tuple = ("r",)  # tags whose word vectors stay fixed (他/她); others are redrawn

    def __post_init__(self) -> None:
        if self.steps < 1 or self.batch_size < 1 or self.n_train < 1 or self.n_heldout < 1:
            raise ValueError("steps, batch_size, n_train and n_heldout must all be ≥ 1")
        if not 0 < self.lr < 1:
            raise ValueError(f"lr must be in (0, 1), got {self.lr}")
        if list(self.checkpoints) != sorted(set(self.checkpoints)) or self.checkpoints[0] != 0:
            raise ValueError("checkpoints must be increasing and start at step 0")
        if self.checkpoints[-1] > self.steps:
            raise ValueError(f"checkpoint {self.checkpoints[-1]} is past steps={self.steps}")


def init_theta(config: ModelConfig, seed: int) -> dict:
    """Step-0 parameters: the core's init_params for W_Q, W_K, W_V, W_O; small tag embeddings."""
    p = init_params(config.d_model, config.num_heads, seed)
    rng = np.random.default_rng(seed + 1)
    tags = rng.standard_normal((len(TAGS), config.d_model)) / np.sqrt(config.d_model)
    return {"tags": tags, "w_q": p.w_q, "w_k": p.w_k, "w_v": p.w_v, "w_o": p.w_o}


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


def subset(batch: Batch, idx: np.ndarray) -> Batch:
    """The sentences idx of a batch, with their questions renumbered."""
    where = np.full(len(batch.tags), -1)
    where[idx] = np.arange(len(idx))
    keep = where[batch.qb] >= 0
    return Batch(
        batch.tags[idx],
        batch.fixed[idx],
        batch.words[idx],
        batch.valid[idx],
        where[batch.qb[keep]],
        batch.qi[keep],
        batch.qt[keep],
    )


def fresh_words(batch: Batch, config: TrainConfig, rng: np.random.Generator) -> Batch:
    """Redraw every word vector but the pronouns': an endless supply of never-seen words.

    The model cannot memorise who is who, so it must find the antecedent from tags, last
    characters and order, as it will have to for the held-out names, objects and verbs.
    """
    ids = [TAGS.index(t) for t in config.keep_tags]
    redraw = ~np.isin(batch.tags, ids) & batch.valid  # (B, N)
    d = config.model.d_model
    new = rng.standard_normal(batch.words.shape) / np.sqrt(d)  # (B, N, d)
    words = np.where(redraw[..., None], new, batch.words)
    fixed = batch.fixed + config.model.word_scale * (words - batch.words)
    return Batch(batch.tags, fixed, words, batch.valid, batch.qb, batch.qi, batch.qt)


def _links(examples: list, kind: str) -> tuple:
    """(sentence, asking token, answering token) arrays of one kind of link."""
    rows = [(b, i, j) for b, e in enumerate(examples) for i, j in getattr(e, kind)]
    return tuple(np.array(rows, dtype=np.int64).reshape(-1, 3).T)


def _relation(a: np.ndarray, rows: tuple) -> np.ndarray:
    """Per head (h, 2): how often the row's argmax is the target, and the target's mean weight."""
    b, i, j = rows
    w = a[b, :, i, :]  # (R, h, N)
    hit = np.argmax(w, axis=-1) == j[:, None]  # (R, h)
    return np.stack([hit.mean(0), w[np.arange(len(b)), :, j].mean(0)], axis=-1)  # (h, 2)


def evaluate(theta: dict, batch: Batch, examples: list, num_heads: int) -> dict:
    """Held-out figures: pronoun→antecedent per head and over heads, read-out, relations."""
    fw = forward(theta, batch, num_heads)
    a = fw["a"]  # (B, h, N, N)
    pb, pi, pt = _links(examples, "pronouns")
    hit = np.argmax(a[pb, :, pi, :], axis=-1) == pt[:, None]  # (P, h)
    per_head = a[pb, :, pi, pt].mean(0)  # (h,)
    n_tok = batch.valid.sum(1)[pb]  # (P,)
    valid_rows = np.nonzero(batch.valid)
    rows = {
        "pronoun_antecedent": (pb, pi, pt),
        "verb_subject": _links(examples, "verbs"),
        "self": (*valid_rows, valid_rows[1]),
        "previous": tuple(r[valid_rows[1] > 0] for r in (*valid_rows, valid_rows[1] - 1)),
    }
    return {
        "loss": fw["loss"],
        "readout_acc": np.mean(np.argmax(fw["p"], -1) == batch.qt),
        "any_head_acc": hit.any(1).mean(),
        "any_head_chance": np.mean(1 - (1 - 1 / n_tok) ** num_heads),
        "best_head": int(np.argmax(per_head)),
        "best_head_weight": per_head.max(),
        "relations": np.stack([_relation(a, rows[r]) for r in RELATIONS], axis=1),  # (h, R, 2)
    }


def train(config: TrainConfig, log=print) -> dict:
    """Run training; returns checkpoints, the loss curve and held-out figures per checkpoint."""
    mc = config.model
    train_ex = corpus.build("train", config.n_train, config.seed)
    held_ex = corpus.build("heldout", config.n_heldout, config.seed + 1)
    full, held = make_batch(train_ex, mc), make_batch(held_ex, mc)
    theta = init_theta(mc, config.seed)
    adam, rng = Adam(config.lr), np.random.default_rng(config.seed + 2)
    losses, ckpts, evals = np.zeros(config.steps), [], []
    for step in range(config.steps + 1):
        if step in config.checkpoints:
            ckpts.append({k: v.copy() for k, v in theta.items()})
            evals.append(evaluate(theta, held, held_ex, mc.num_heads))
            log(f"step {step:5d}  held-out: " + _summary(evals[-1]))
        if step == config.steps:
            break
        batch = subset(full, rng.choice(len(train_ex), config.batch_size, replace=False))
        batch = fresh_words(batch, config, rng)
        fw = forward(theta, batch, mc.num_heads)
        adam.update(theta, backward(theta, batch, fw))
        losses[step] = fw["loss"]
    return {"checkpoints": ckpts, "evals": evals, "losses": losses}


def _summary(ev: dict) -> str:
    return (
        f"loss {ev['loss']:.3f}  read-out {ev['readout_acc']:.1%}  "
        f"some head on antecedent {ev['any_head_acc']:.1%} (chance {ev['any_head_chance']:.1%})  "
        f"best head {ev['best_head'] + 1} weight {ev['best_head_weight']:.2f}"
    )


def save(path: Path, config: TrainConfig, result: dict) -> None:
    """Write checkpoints (float32), loss curve and held-out figures to one small .npz."""
    evals, ckpts = result["evals"], result["checkpoints"]
    arrays = {f"theta_{k}": np.stack([c[k] for c in ckpts]).astype(np.float32) for k in PARAM_NAMES}
    for key in ("loss", "readout_acc", "any_head_acc", "any_head_chance", "best_head_weight"):
        arrays[f"eval_{key}"] = np.array([e[key] for e in evals], dtype=np.float64)
    arrays["eval_best_head"] = np.array([e["best_head"] for e in evals], dtype=np.int64)
    arrays["eval_relations"] = np.stack([e["relations"] for e in evals])  # (K, h, R, 2)
    model_cfg = asdict(config.model)
    np.savez_compressed(
        path,
        steps=np.array(config.checkpoints, dtype=np.int64),
        losses=result["losses"].astype(np.float32),
        tags=np.array(TAGS),
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
    start = time.perf_counter()
    result = train(config)
    save(args.out, config, result)
    size = args.out.stat().st_size / 1024
    print(f"wrote {args.out} ({size:.0f} KiB) in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
