"""Train the demo model with numpy backprop and Adam: `python -m attention_core.train`.

`OPENBLAS_NUM_THREADS=1 python -m attention_core.train` takes about a minute of CPU; the
matrices are small, so a second BLAS thread only spins (same weights bit for bit).
`--no-classes`, `--no-chars`, `--no-context` and `--no-gender` train the ablations MODEL.md
reports; `--seed` another draw of corpus and weights.

Nobody tells a head where to look. The model is only asked questions at certain tokens — at
他/她/它 "who is meant?", at a modifier "which noun do you describe?", at a verb "who does
it?" — and answers each through that question's own read-out of the token's heads; the
attention weights are never compared with an answer. The pronoun and verb questions read the
heads through learned gates, pushed to settle on one head each and not the same one (left
alone, one head learns both: both look back for a person); which head each settles on, and
what the heads look at, is learned — and measured afterwards.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from . import corpus, evalset
from .attention import init_params
from .features import CLAUSES, NEIGHBOURS, TAGS, ModelConfig, Vocab, build_vocab, position_features
from .model import (
    DEMO_PATH,
    PARAM_NAMES,
    PROFILES,
    RELATIONS,
    Batch,
    backward,
    forward,
    make_batch,
)
from .relations import LINKS

STORE_DTYPE = np.float16  # checkpoints are kept, measured and shipped at this precision


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides a training run; the same config gives the same weights."""

    model: ModelConfig = field(default_factory=ModelConfig)
    steps: int = 1200  # Adam updates
    batch_size: int = 64  # sentences per update
    lr: float = 0.005  # Adam learning rate at the start (MODEL.md: why not 0.01)
    lr_end: float = 0.001  # ... falling along a half cosine to this at the last step
    n_train: int = 3000  # training sentences generated
    n_heldout: int = 600  # held-out sentences (unseen names, words, templates)
    seed: int = 10  # seeds the corpus, the initial weights and the batch order (MODEL.md: why 10)
    checkpoints: tuple = (0, 25, 50, 100, 150, 200, 300, 400, 600, 800, 1000, 1200)  # weights kept
    eval_every: int = 50  # measurement every this many steps (and at checkpoints)
    keep_tags: tuple = ("r",)  # tags whose word vectors stay fixed (他/她); others are redrawn
    max_shift: int = 24  # each training sentence's positions start at a random offset below this
    drop_classes: float = 0.25  # share of training tokens shown as "not in Cilin" each step
    drop_chars: float = 0.25  # share of training tokens shown with unknown characters
    drop_gender: float = 0.25  # share of training tokens shown without a gender
    focus: float = 1.0  # weight of the one-head-per-question term on the gates (model.forward)
    gated: tuple = ("pronoun_antecedent", "verb_subject")  # learned gates; others read all heads

    def __post_init__(self) -> None:
        if min(self.steps, self.batch_size, self.n_train, self.n_heldout, self.eval_every) < 1:
            raise ValueError("steps, batch_size, n_train, n_heldout, eval_every must all be ≥ 1")
        if not 0 < self.lr < 1 or not 0 < self.lr_end <= self.lr:
            raise ValueError(f"need 0 < lr_end ≤ lr < 1, got lr={self.lr}, lr_end={self.lr_end}")
        if list(self.checkpoints) != sorted(set(self.checkpoints)) or self.checkpoints[0] != 0:
            raise ValueError("checkpoints must be increasing and start at step 0")
        if self.checkpoints[-1] > self.steps:
            raise ValueError(f"checkpoint {self.checkpoints[-1]} is past steps={self.steps}")
        if not set(self.gated) <= set(LINKS):
            raise ValueError(f"gated must name question types among {LINKS}, got {self.gated}")
        if self.max_shift < 0:
            raise ValueError(f"max_shift must be ≥ 0, got {self.max_shift}")
        if not all(0 <= p < 1 for p in (self.drop_classes, self.drop_chars, self.drop_gender)):
            raise ValueError("drop_classes, drop_chars and drop_gender must be in [0, 1)")

    def lr_at(self, step: int) -> float:
        """Learning rate of update `step` (0-based): lr down to lr_end along a half cosine."""
        fall = 0.5 * (1 + np.cos(np.pi * step / max(self.steps - 1, 1)))  # 1 → 0
        return float(self.lr_end + (self.lr - self.lr_end) * fall)

    @property
    def eval_steps(self) -> tuple:
        """Steps measured on the held-out split: every eval_every, every checkpoint, the end."""
        every = range(0, self.steps + 1, self.eval_every)
        return tuple(sorted({*every, *self.checkpoints, self.steps}))


def init_theta(config: ModelConfig, vocab: Vocab, seed: int) -> dict:
    """Step-0 parameters: the core's init_params for W_Q, W_K, W_V, W_O; small tag, class and
    character embeddings and one random read-out matrix per question type."""
    p = init_params(config.d_model, config.num_heads, seed)
    rng = np.random.default_rng(seed + 1)
    d = config.d_model
    tags = rng.standard_normal((len(TAGS), d)) / np.sqrt(d)  # (T, d)
    before = rng.standard_normal((len(NEIGHBOURS), d)) / np.sqrt(d)  # (T', d)
    after = rng.standard_normal((len(NEIGHBOURS), d)) / np.sqrt(d)  # (T', d)
    readout = rng.standard_normal((len(LINKS), d, d)) / np.sqrt(d)  # (L, d, d)
    r = config.d_embed
    classes = rng.standard_normal((len(vocab.classes), r)) / np.sqrt(r)  # (C, r)
    chars = rng.standard_normal((len(vocab.chars), r)) / np.sqrt(r)  # (V, r)
    return {
        "tags": tags,
        "before": before,
        "after": after,
        # (S, d): from a generator of its own, so the other tables start as they did before
        "clause": np.random.default_rng(seed + 5).standard_normal((CLAUSES, d)) / np.sqrt(d),
        "classes": classes,
        "class_proj": rng.standard_normal((r, d)) / np.sqrt(r),  # (r, d)
        "chars": chars,
        "char_proj": rng.standard_normal((r, d)) / np.sqrt(r),  # (r, d)
        "genders": np.random.default_rng(seed + 3).standard_normal((3, d)) / np.sqrt(d),  # (G, d)
        "w_q": p.w_q,
        "w_k": p.w_k,
        "w_v": p.w_v,
        "w_o": p.w_o,
        "gates": np.zeros((len(LINKS), config.num_heads)),  # (L, h) even at first
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


def subset(batch: Batch, idx: np.ndarray) -> Batch:
    """The sentences idx of a batch, with their questions renumbered, padded only to the
    longest of them (attention costs n² per sentence)."""
    where = np.full(len(batch.tags), -1)
    where[idx] = np.arange(len(idx))
    keep = where[batch.qb] >= 0
    n = int(batch.valid[idx].sum(1).max())
    per_sentence = ("tags", "before", "after", "ctx", "clause", "cl_w")
    per_sentence += ("cls_ids", "cls_w", "chr_ids", "chr_w")
    per_sentence += ("gender", "gen_w")
    per_sentence += ("fixed", "words", "masks", "valid")
    return batch.replace(
        **{name: getattr(batch, name)[idx, :n] for name in per_sentence},
        qb=where[batch.qb[keep]], qi=batch.qi[keep], qt=batch.qt[keep], qr=batch.qr[keep],
    )  # fmt: skip


def fresh_words(batch: Batch, config: TrainConfig, rng: np.random.Generator) -> Batch:
    """Redraw every word vector but the pronouns': an endless supply of never-seen words.

    The model cannot memorise a word or a template by its hashed vector, so it must answer
    from tags, meaning classes, characters and word order, as it will have to on new text.
    """
    mc = config.model
    redraw = ~np.isin(batch.tags, [TAGS.index(t) for t in config.keep_tags]) & batch.valid
    new = np.zeros_like(batch.words)  # (B, N, d)
    new[..., : mc.d_word] = rng.standard_normal((*redraw.shape, mc.d_word)) / np.sqrt(mc.d_word)
    words = np.where(redraw[..., None], new, batch.words)
    fixed = batch.fixed + mc.word_scale * (words - batch.words)
    return batch.replace(fixed=fixed, words=words)


def _forget(ids: np.ndarray, w: np.ndarray, which: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Tokens `which` (B, N) lose their rows for row 0 at weight 1 (none / unknown)."""
    ids, w = ids.copy(), w.copy()
    ids[which], w[which] = 0, 0.0
    w[which, 0] = 1.0
    return ids, w


def drop_features(batch: Batch, config: TrainConfig, rng: np.random.Generator) -> Batch:
    """Show some tokens as a word Cilin does not list, some with characters never seen, some
    without a gender: the model must still answer, as it must for a word Cilin lacks, a rare
    character or a name that does not tell its gender."""
    no_class = (rng.random(batch.valid.shape) < config.drop_classes) & batch.valid  # (B, N)
    no_chars = (rng.random(batch.valid.shape) < config.drop_chars) & batch.valid  # (B, N)
    no_gender = (rng.random(batch.valid.shape) < config.drop_gender) & batch.valid  # (B, N)
    cls_ids, cls_w = _forget(batch.cls_ids, batch.cls_w, no_class)
    chr_ids, chr_w = _forget(batch.chr_ids, batch.chr_w, no_chars)
    if not config.model.classes:
        cls_w = np.zeros_like(cls_w)
    if not config.model.chars:
        chr_w = np.zeros_like(chr_w)
    gender = np.where(no_gender, 0, batch.gender)  # 0: none
    return batch.replace(cls_ids=cls_ids, cls_w=cls_w, chr_ids=chr_ids, chr_w=chr_w, gender=gender)


def shift_positions(batch: Batch, config: TrainConfig, rng: np.random.Generator) -> Batch:
    """Start each sentence's positions at a random offset: only relative order stays a cue."""
    if config.max_shift <= 1:
        return batch
    n_batch, n_max, _ = batch.fixed.shape
    table = position_features(n_max + config.max_shift, config.model)  # (N + shift, d)
    offset = rng.integers(config.max_shift, size=n_batch)  # (B,)
    moved = table[offset[:, None] + np.arange(n_max)] - table[:n_max]  # (B, N, d)
    return batch.replace(fixed=batch.fixed + moved * batch.valid[..., None])


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


# ---- the training loop --------------------------------------------------------------------------


def _stored(theta: dict) -> dict:
    """theta as it will be shipped: rounded to STORE_DTYPE, back in float64 for measuring."""
    return {k: v.astype(STORE_DTYPE).astype(np.float64) for k, v in theta.items()}


def datasets(config: TrainConfig) -> tuple[Vocab, Batch, Batch, Batch]:
    """The vocabulary (from the training split) and the training, held-out and human batches
    (the human batch: every human-written set, evalset.load_all)."""
    mc = config.model
    train_ex = corpus.build("train", config.n_train, config.seed)
    held_ex = corpus.build("heldout", config.n_heldout, config.seed + 1)
    vocab = build_vocab(t for e in train_ex for t in e.tokens)
    batches = (make_batch(ex, mc, vocab) for ex in (train_ex, held_ex, evalset.load_all()))
    return vocab, *batches


def train(config: TrainConfig, log=print) -> dict:
    """Run training; returns the vocabulary, checkpoints, the loss curve and, per evaluation
    step, the figures on the held-out split and on the human-written set."""
    mc = config.model
    vocab, full, held, human = datasets(config)
    theta = init_theta(mc, vocab, config.seed)
    adam, rng = Adam(config.lr), np.random.default_rng(config.seed + 2)
    learn_gates = np.array([[rel in config.gated] for rel in LINKS], dtype=float)  # (L, 1)
    losses, ckpts, evals, humans = np.zeros(config.steps), [], [], []
    eval_steps = set(config.eval_steps)
    for step in range(config.steps + 1):
        if step in eval_steps:
            kept = _stored(theta)  # measured as shipped
            evals.append(evaluate(kept, held, mc.num_heads))
            humans.append(evaluate(kept, human, mc.num_heads))
            if step in config.checkpoints:
                ckpts.append(kept)
                log(f"step {step:5d}  " + _summary(evals[-1], humans[-1]))
        if step == config.steps:
            break
        batch = subset(full, rng.choice(len(full.tags), config.batch_size, replace=False))
        batch = shift_positions(fresh_words(batch, config, rng), config, rng)
        batch = drop_features(batch, config, rng)
        fw = forward(theta, batch, mc.num_heads, focus=config.focus)
        adam.lr = config.lr_at(step)
        grads = backward(theta, batch, fw)
        grads["gates"] = grads["gates"] * learn_gates  # an ungated question keeps even gates
        adam.update(theta, grads)
        losses[step] = fw["loss"]
    return {"vocab": vocab, "checkpoints": ckpts, "evals": evals, "human": humans, "losses": losses}


def best_heads(table: np.ndarray) -> list[tuple[int, float]]:
    """Per relation in LINKS: (best head, its argmax hit rate) of a (h, R, 2) table."""
    acc = table[:, : len(LINKS), 0]  # (h, L)
    return [(int(np.argmax(acc[:, r])), float(acc[:, r].max())) for r in range(len(LINKS))]


def _summary(ev: dict, human: dict) -> str:
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


def save(path: Path, config: TrainConfig, result: dict) -> None:
    """Write checkpoints (float16), vocabulary, loss curve and measured figures to one .npz."""
    evals, humans, ckpts = result["evals"], result["human"], result["checkpoints"]
    arrays = {
        f"theta_{k}": np.stack([c[k] for c in ckpts]).astype(STORE_DTYPE) for k in PARAM_NAMES
    }
    for key in ("loss", "readout_acc", "readout_chance", "any_head_acc", "any_head_chance"):
        arrays[f"eval_{key}"] = np.array([e[key] for e in evals], dtype=np.float64)
        arrays[f"human_{key}"] = np.array([e[key] for e in humans], dtype=np.float64)
    arrays["eval_relations"] = np.stack([e["relations"] for e in evals])  # (E, h, R, 2)
    arrays["human_relations"] = np.stack([e["relations"] for e in humans])  # (E, h, R, 2)
    arrays["human_profiles"] = np.stack([e["profiles"] for e in humans])  # (E, h, P)
    arrays["human_profile_chance"] = humans[-1]["profile_chance"]  # (P,)
    arrays["heldout_counts"], arrays["human_counts"] = evals[-1]["counts"], humans[-1]["counts"]
    model_cfg = asdict(config.model)
    np.savez_compressed(
        path,
        steps=np.array(config.checkpoints, dtype=np.int64),
        eval_steps=np.array(config.eval_steps, dtype=np.int64),
        losses=result["losses"].astype(np.float32),
        tags=np.array(TAGS),
        links=np.array(LINKS),
        relations=np.array(RELATIONS),
        profiles=np.array(PROFILES),
        vocab_classes=np.array(result["vocab"].classes),
        vocab_chars=np.array(result["vocab"].chars),
        config_keys=np.array(list(model_cfg)),
        config_values=np.array([float(v) for v in model_cfg.values()]),
        seed=np.array(config.seed),
        **arrays,
    )


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


def main(argv: list | None = None) -> None:
    """Command line: train with the default config and write assets/demo_model.npz."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=DEMO_PATH, help="where to write the .npz")
    parser.add_argument("--steps", type=int, default=TrainConfig.steps, help="Adam updates")
    parser.add_argument("--seed", type=int, default=TrainConfig.seed, help="corpus and init seed")
    parser.add_argument("--no-classes", action="store_true", help="ablation: no Cilin classes")
    parser.add_argument("--no-chars", action="store_true", help="ablation: no characters")
    parser.add_argument("--no-context", action="store_true", help="ablation: no neighbours")
    parser.add_argument("--no-gender", action="store_true", help="ablation: no genders")
    parser.add_argument("--no-clauses", action="store_true", help="ablation: no clause numbers")
    args = parser.parse_args(argv)
    checkpoints = (*(s for s in TrainConfig.checkpoints if s < args.steps), args.steps)
    mc = ModelConfig(
        classes=not args.no_classes, chars=not args.no_chars, context=not args.no_context,
        gender=not args.no_gender, clauses=not args.no_clauses,
    )  # fmt: skip
    config = TrainConfig(model=mc, steps=args.steps, checkpoints=checkpoints, seed=args.seed)
    start, cpu = time.perf_counter(), time.process_time()
    result = train(config)
    save(args.out, config, result)
    print("held-out split\n" + head_table(result["evals"][-1]))
    print("human-written set\n" + head_table(result["human"][-1]))
    print(numbers(result))
    size = args.out.stat().st_size / 1024
    wall, used = time.perf_counter() - start, time.process_time() - cpu
    print(f"wrote {args.out} ({size:.0f} KiB) in {wall:.1f} s wall, {used:.1f} s CPU")


if __name__ == "__main__":
    main()
