"""§3's numbers against numpy: the dimension of q, k and v with the largest |value|, said as people
count (the 17th, not "dimension 16"), for the example's 他 and for other words and sentences."""

from __future__ import annotations

import numpy as np
import pytest

from demo_model import load_demo_model
from ui.text import t

SENTENCE = "小明把书放在了桌子上，然后他走了。"


def largest_dimension(sentence: str, word: str) -> dict[str, int]:
    """{"q": 17, …}: the 1-based position of the largest |value| in the word's row of Q, K, V
    (the heads' pieces side by side: head i holds columns i·d_k … (i+1)·d_k)."""
    run = load_demo_model().run(sentence)
    i = run.tokens.texts.index(word)
    att = run.attention
    out = {}
    for name in ("q", "k", "v"):
        per = getattr(att, name)  # (h, n, d_k)
        row = np.concatenate([per[h, i] for h in range(per.shape[0])])  # (d_model,)
        out[name] = int(np.argmax(np.abs(row))) + 1
    return out


def test_the_examples_he_has_its_largest_q_k_v_at_the_17th_32nd_and_44th_number():
    assert largest_dimension(SENTENCE, "他") == {"q": 17, "k": 32, "v": 44}  # issue 31's audit


def test_the_row_is_said_as_people_count():
    zh = t("lesson.s3.row", "zh", q="他", name="q", d=48, j=17)
    en = t("lesson.s3.row", "en", q="他", name="q", d=48, j=17)
    assert "第 17 个" in zh and "number 17" in en
    assert "维" not in zh and "column" not in en  # no 0-based "dimension 16"


@pytest.mark.parametrize(("sentence", "word"), [(SENTENCE, "小明"), ("猫坐在垫子上。", "猫")])
def test_other_words_and_sentences_count_from_one_too(sentence, word):
    got = largest_dimension(sentence, word)
    assert all(1 <= j <= 48 for j in got.values())


def test_s3s_number_17_and_s4s_dim_5_are_one_number_counted_two_ways_and_each_says_which():
    """他's q: number 17 of 48 across all heads (§3) is head 2's dimension 5 of 12 (§4's cell):
    §3 says it counts the whole row, the cell that it counts within the head."""
    model = load_demo_model()
    run = model.run(SENTENCE)
    row = run.x[run.tokens.texts.index("他")] @ model.params.w_q  # (d_model,) by hand
    j = int(np.argmax(np.abs(row)))
    d_k = row.size // model.params.num_heads
    assert (j + 1, row.size, j // d_k + 1, j % d_k + 1) == (17, 48, 2, 5)
    for lang, whole, within in (("zh", "各个头", "这个头"), ("en", "all heads", "within this")):
        assert whole in t("lesson.s3.row", lang, q="他", name="q", d=48, j=17)
        assert within in t("explorer.cell_dim", lang)
