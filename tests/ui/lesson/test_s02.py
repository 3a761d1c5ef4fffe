"""§2's row against numpy: with nothing picked, the library shows 他 in the head whose row mixes
most (its second and third shares together, at least MIX_MIN), not the pronoun head's 100%
lookup."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from demo_model import load_demo_model

SENTENCE = "小明把书放在了桌子上，然后他走了。"
SCENE = Path(__file__).resolve().parents[3] / "ui" / "lesson" / "scenes" / "s02.js"


def mix_min() -> float:
    return float(re.search(r"const MIX_MIN = ([\d.]+);", SCENE.read_text(encoding="utf-8"))[1])


def mixed_row(sentence: str = SENTENCE, word: str = "他") -> tuple[int, int, np.ndarray]:
    """(query index, head, its weights (n,)): the word's row in the head whose 2nd + 3rd shares
    are largest (the core's softmax(QKᵀ/√d_k), trained model)."""
    run = load_demo_model().run(sentence)
    i = run.tokens.texts.index(word)
    w = run.attention.heads.weights[:, i]  # (h, n)
    spread = np.sort(w, axis=1)[:, ::-1][:, 1:3].sum(axis=1)  # (h,)
    head = int(np.argmax(spread))
    return i, head, w[head]


def test_the_default_row_is_a_real_mix_not_a_lookup():
    i, _, w = mixed_row()
    top = np.sort(w)[::-1]
    assert top[1] + top[2] >= mix_min() and top[0] < 0.9
    assert (w >= 0.10).sum() >= 3  # 他 60%, 小明 21%, 书 12% today: three cards count
    run = load_demo_model().run(SENTENCE)
    pronoun = run.attention.heads.weights[:, i].max(axis=1)  # (h,)
    assert pronoun.max() > 0.99  # the lookup the issue saw: some head gives one word 100%
