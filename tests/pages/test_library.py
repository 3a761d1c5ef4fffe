"""The library page (AppTest): the cards and bars are the core's weights of 他, told honestly."""

from __future__ import annotations

import html
import math

import numpy as np
import pytest

from attention_core import analysis  # attributes looked up in each test: one fails alone
from tests.app_support import EXAMPLE_TOKENS as TEXTS
from tests.app_support import (
    TA,
    captions,
    chart,
    chart_specs_by_key,
    decode,
    lab,
    shown_random,
)
from tests.app_support import opened as open_page
from tests.app_support import shown as shown_page
from ui.gloss import token_names
from ui.settings import DEFAULT_SENTENCE
from ui.state import compute_lab
from ui.text import md_escape, t


def entropy(row) -> float:
    """−Σ p log p, written out term by term."""
    total = 0.0
    for p in row:
        if p > 0:
            total -= float(p) * math.log(float(p))
    return total


def test_library_says_when_one_key_takes_it_all_and_draws_distances_honestly():
    """#21: trained, 他, head 1 (one bar ≈ 1): the page says so; the distance bars start at
    ‖output‖ and show no rounding noise (nothing between 0 and 0.0005)."""
    at = shown_page("library", weights="trained")
    specs = chart_specs_by_key(at)
    bars = decode(specs["library_bars"]["data"][0]["y"])
    best = int(np.argmax(bars))
    said = [c for c in captions(at) if f"{bars[best]:.1%}" in c]
    if bars[best] >= 0.99:
        assert said and TEXTS[best] in said[0], captions(at)
    gaps = decode(specs["library_gap"]["data"][0]["y"])
    lab = compute_lab(DEFAULT_SENTENCE, "word", 64, 4, True, False, False, 0, "trained")
    head = at.selectbox(key="library_head").value
    out = lab.result.heads.output[head, TA]
    assert gaps[0] == pytest.approx(math.sqrt(sum(float(x) ** 2 for x in out)), abs=1e-3)
    assert not np.any((gaps > 0) & (gaps < 0.0005)), gaps


def test_library_names_the_head_where_the_query_mixes_most():
    """#21: the head named as spreading 他's weight most is the one with the largest entropy."""
    at = open_page("library", weights="trained")
    lab = compute_lab(DEFAULT_SENTENCE, "word", 64, 4, True, False, False, 0, "trained")
    rows = lab.result.heads.weights[:, TA]  # (h, n)
    best = max(range(len(rows)), key=lambda h: entropy(rows[h]))
    want = t("library.head_there", q="他", best=best + 1) if best else None
    assert want is None or want in captions(at)
    at.selectbox(key="library_head").set_value(best).run()
    assert t("library.head_here", q="他", best=best + 1) in captions(at)


@pytest.mark.parametrize("scale", [True, False])
def test_library_cards_show_what_the_softmax_used_and_masked_keys(scale):
    at = shown_random("library", scale=scale, causal=True)
    want = lab(scale=scale, causal=True).result.heads
    assert t("library.cards" if scale else "library.cards_raw", q="他") in captions(at)
    cards = at.metric[: len(TEXTS)]
    assert [m.label for m in cards] == [md_escape(x) for x in token_names(TEXTS)]  # 了₁, 了₂
    for j, card in enumerate(cards):
        if j > TA:  # a future key under the causal mask: −∞ before the softmax
            assert card.value == "−∞" and card.proto.delta == t("library.masked")
        else:
            raw = want.scores[0, TA, j] / (4.0 if scale else 1.0)  # d_k = 16
            assert float(card.value) == pytest.approx(raw, abs=0.006)
    best = [j for j, card in enumerate(cards) if card.proto.delta == t("library.best")]
    assert best == [int(np.argmax(want.scaled[0, TA, : TA + 1]))]
    assert want.weights[0, TA, best[0]] == want.weights[0, TA].max() > 0


def test_library_contrasts_the_rnn_state_with_the_row_of_ta():
    at = shown_random("library")
    assert t("library.rnn") in [h.value for h in at.header]
    spec = chart(at, html.escape(t("library.rnn_states")))
    states = decode(spec["data"][0]["z"])
    np.testing.assert_allclose(states, analysis.rnn_states(lab().x)[: TA + 1], atol=1e-4)
    x = lab().x
    changed = x.copy()
    changed[TA + 1 :] += 1.0  # the state at 他 cannot depend on what comes later
    np.testing.assert_array_equal(analysis.rnn_states(changed)[TA], analysis.rnn_states(x)[TA])
