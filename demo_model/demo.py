"""The shipped demo model: its checkpoints, what training measured, and each head's job.

Every head is measured at every evaluation step on two sets: the generated held-out split
(unseen names, words and sentence shapes) and every human-written set (data/eval_*.txt,
evalset.load_all). A head's job is read from the held-out split (so nothing in the app is
chosen by the human-written sets); its score on them stands beside it. The numbers are stored
with the weights, never recomputed here.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from demo_model.features import ModelConfig, Vocab
from demo_model.metrics import PROFILES, RELATIONS
from demo_model.model import DEMO_PATH, MODE, PARAM_NAMES, TrainedModel
from demo_model.relations import LINKS, THIRD_PERSON

JOB_THRESHOLD = 0.5  # a head has a job when its largest weight hits the target in ≥ half the rows
DIFFUSE = "diffuse"  # the relation name of a head without a clear job


@dataclass(frozen=True)
class DemoHistory:
    """What training recorded: kept checkpoints, loss curve, figures per evaluation step."""

    steps: np.ndarray  # (K,) training steps with saved weights, 0 first
    eval_steps: np.ndarray  # (E,) steps measured (steps among them)
    losses: np.ndarray  # (S,) training loss at every Adam update
    heldout: dict  # name -> (E,) or (E, L) array: loss, readout_acc, any_head_acc, chances
    relations: np.ndarray  # (E, h, len(RELATIONS), 2) generated held-out split, per head:
    #                        argmax hit rate, mean weight on the target
    config: ModelConfig
    human: np.ndarray  # (E, h, len(RELATIONS), 2) the same on the human-written set
    heldout_counts: np.ndarray  # (R,) rows measured per relation, generated held-out split
    human_counts: np.ndarray  # (R,) rows measured per relation, human-written set
    profiles: np.ndarray  # (E, h, len(PROFILES)) mean share of a row's weight (human set)
    profile_chance: np.ndarray  # (len(PROFILES),) the same share under uniform weights

    def at(self, step: int | None) -> int:
        """Index into eval_steps of a measured step (None = the last)."""
        return _step_index(self.eval_steps, step, "measured")


@dataclass(frozen=True)
class HeadSummary:
    """What one head does, as numbers and keys the UI can translate.

    `relation` is the job read from the generated held-out split; hits/total count the
    human-written set's rows whose largest weight lands on that relation's target ("他/她
    resolved in 54 of 60"), heldout_hits/heldout_total the same on the held-out split. A head
    without a job ("diffuse") reports them for `closest`, and `profile` says where its weight
    goes instead (measured on the human-written set).
    """

    head: int  # 0-based head index
    relation: str  # one of RELATIONS, or DIFFUSE when none reaches JOB_THRESHOLD
    accuracy: float  # hits / total: the human-written set
    weight: float  # mean weight the row gives that target on the human-written set
    closest: str  # the relation with the highest hit rate, even when the head is DIFFUSE
    hits: int = 0  # human-written set: rows whose argmax is the target …
    total: int = 0  # … of this many rows asking that question
    heldout_hits: int = 0  # generated held-out split: the same count …
    heldout_total: int = 0  # … of this many rows
    profile: str = ""  # PROFILES key where the weight lands most above chance (human set)
    profile_share: float = 0.0  # mean share of a row's weight there
    profile_chance: float = 0.0  # that share if the head spread its weight evenly

    @property
    def heldout_accuracy(self) -> float:
        return self.heldout_hits / self.heldout_total if self.heldout_total else 0.0


def _readonly(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.flags.writeable = False
    return a


@functools.lru_cache(maxsize=4)
def _load(path: str) -> dict:
    """Every array of a demo .npz, read-only; cached (immutable data)."""
    if not Path(path).exists():
        raise FileNotFoundError(f"{path} is missing: run `python -m demo_model`")
    with np.load(path) as z:
        return {k: _readonly(z[k]) for k in z.files}


def _config(z: dict) -> ModelConfig:
    cfg = dict(zip(z["config_keys"].tolist(), z["config_values"].tolist(), strict=True))
    kinds = {f.name: f.type for f in dataclasses.fields(ModelConfig)}
    cast = {"int": int, "bool": bool, "float": float}
    return ModelConfig(**{k: cast[kinds[k]](v) for k, v in cfg.items()})


def load_demo_history(path: Path = DEMO_PATH) -> DemoHistory:
    """Checkpoint steps, loss curve and measured figures of the shipped demo model."""
    z = _load(str(path))
    if tuple(z["relations"].tolist()) != RELATIONS or tuple(z["profiles"].tolist()) != PROFILES:
        raise ValueError(f"{path} measures {z['relations'].tolist()}, this code {RELATIONS}")
    heldout = {k.removeprefix("eval_"): z[k] for k in z if k.startswith("eval_")}
    relations = heldout.pop("relations")
    human = {k.removeprefix("human_"): z[k] for k in z if k.startswith("human_")}
    return DemoHistory(
        z["steps"], z["eval_steps"], z["losses"], heldout, relations, _config(z),
        human["relations"], z["heldout_counts"], human["counts"], human["profiles"],
        human["profile_chance"],
    )  # fmt: skip


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
    vocab = Vocab(tuple(z["vocab_classes"].tolist()), tuple(z["vocab_chars"].tolist()))
    return TrainedModel(history.config, vocab, w, int(history.steps[i]))


@dataclass(frozen=True)
class DemoWeights:
    """The shipped demo model as the core's pipeline takes it (attention_core.pipeline's
    TrainedWeights): its saved steps, the weights at each, and what it fixes."""

    path: Path = DEMO_PATH  # the .npz train.save wrote
    mode: str = MODE  # it reads jieba words
    positions: bool = True  # its X carries a position block of its own (features.py)
    focus_words: tuple[str, ...] = THIRD_PERSON  # 他, 她, 它: what its pronoun head resolves

    def available(self) -> bool:
        return self.path.exists()

    def steps(self) -> tuple[int, ...]:
        try:
            return tuple(int(s) for s in load_demo_history(self.path).steps)
        except Exception:  # a missing or half-written file: the caller falls back
            return ()

    def at(self, step: int | None = None) -> TrainedModel:
        return load_demo_model(step, self.path)


DEMO = DemoWeights()  # what the app and `python -m attention_core` pass to the pipeline


def _job(rows: np.ndarray) -> tuple[str, int]:
    """(job, index into RELATIONS) of one head's (R, 2) table: the best of the asked relations
    if it reaches JOB_THRESHOLD, else the best of self/previous if that does, else DIFFUSE."""
    asked = int(np.argmax(rows[: len(LINKS), 0]))
    if rows[asked, 0] >= JOB_THRESHOLD:
        return RELATIONS[asked], asked
    best = int(np.argmax(rows[:, 0]))
    return (RELATIONS[best] if rows[best, 0] >= JOB_THRESHOLD else DIFFUSE), best


def summarise(history: DemoHistory, k: int) -> list[HeadSummary]:
    """Per head at evaluation index k: its job (held-out split), its scores on both sets, and
    where its weight goes."""
    out = []
    lift = history.profiles[k] - history.profile_chance  # (h, P)
    for head, held in enumerate(history.relations[k]):
        relation, r = _job(held)
        rows = history.human[k, head]
        total, held_total = int(history.human_counts[r]), int(history.heldout_counts[r])
        p = int(np.argmax(lift[head]))
        out.append(
            HeadSummary(
                head, relation, float(rows[r, 0]), float(rows[r, 1]), RELATIONS[r],
                round(float(rows[r, 0]) * total), total,
                round(float(history.relations[k, head, r, 0]) * held_total), held_total,
                PROFILES[p], float(history.profiles[k, head, p]), float(history.profile_chance[p]),
            )
        )  # fmt: skip
    return out


def describe_heads(step: int | None = None, path: Path = DEMO_PATH) -> list[HeadSummary]:
    """Per head, the job it does at a measured step (None = final), from the measurements
    stored with the weights: DIFFUSE below JOB_THRESHOLD on the held-out split."""
    history = load_demo_history(path)
    return summarise(history, history.at(step))


def job_onsets(path: Path = DEMO_PATH) -> list[int | None]:
    """Per head, the first measured step from which its final job's hit rate (held-out split)
    stays at or above JOB_THRESHOLD to the end (None for a head without a job)."""
    history = load_demo_history(path)
    out = []
    for head, final in enumerate(summarise(history, len(history.eval_steps) - 1)):
        if final.relation == DIFFUSE:
            out.append(None)
            continue
        r = RELATIONS.index(final.relation)
        below = np.nonzero(history.relations[:, head, r, 0] < JOB_THRESHOLD)[0]  # (k,)
        first = int(below[-1]) + 1 if len(below) else 0
        out.append(int(history.eval_steps[first]))
    return out
