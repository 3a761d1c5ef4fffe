"""Training the demo model: the config, the starting weights, the batches' augmentations and
the loop (network.py's backprop, optim.py's Adam, metrics.py's measurements), and the .npz it
writes. The command line is `python -m demo_model` (__main__.py).

Nobody tells a head where to look. The model is only asked questions at certain tokens — at
他/她/它 "who is meant?", at a modifier "which noun do you describe?", at a verb "who does
it?" — and answers each through that question's own read-out of the token's heads; the
attention weights are never compared with an answer. The pronoun and verb questions read the
heads through learned gates, pushed to settle on one head each and not the same one (left
alone, one head learns both: both look back for a person); which head each settles on, and
what the heads look at, is learned — and measured afterwards.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from attention_core.attention import init_params
from demo_model.batch import Batch, make_batch, subset
from demo_model.data import corpus, evalset
from demo_model.features import (
    CLAUSES,
    NEIGHBOURS,
    TAGS,
    ModelConfig,
    Vocab,
    build_vocab,
    position_features,
)
from demo_model.metrics import PROFILES, RELATIONS, evaluate, summary
from demo_model.model import PARAM_NAMES
from demo_model.network import backward, forward
from demo_model.optim import Adam
from demo_model.relations import LINKS

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
    focus: float = 1.0  # weight of the one-head-per-question term on the gates (network.forward)
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


# ---- what each training step shows the model: fresh words, dropped features, shifted positions


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


# ---- the training loop and the file it writes ----------------------------------------------


def _stored(theta: dict) -> dict:
    """theta as it will be shipped: rounded to STORE_DTYPE, back in float64 for measuring."""
    return {k: v.astype(STORE_DTYPE).astype(np.float64) for k, v in theta.items()}


def datasets(config: TrainConfig) -> tuple[Vocab, Batch, Batch, Batch]:
    """The vocabulary (from the training split) and the training, held-out and human batches
    (the human batch: every human-written set, evalset.load_all)."""
    train_ex = corpus.build("train", config.n_train, config.seed)
    vocab = build_vocab(t for e in train_ex for t in e.tokens)
    return vocab, make_batch(train_ex, config.model, vocab), *measured_sets(config, vocab)


def measured_sets(config: TrainConfig, vocab: Vocab) -> tuple[Batch, Batch]:
    """The held-out and human batches the training measures on, in `vocab` (a saved model's own,
    to measure a checkpoint again without building the training split)."""
    held_ex = corpus.build("heldout", config.n_heldout, config.seed + 1)
    return tuple(make_batch(ex, config.model, vocab) for ex in (held_ex, evalset.load_all()))


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
                log(f"step {step:5d}  " + summary(evals[-1], humans[-1]))
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
