"""The order page (AppTest): it computes with the settings in force, against tests/reference.py's
loops, shows its point and says which weights it uses."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from attention_core import (
    init_params,
)
from attention_core.embed import embed_tokens
from tests.app_support import (
    captions,
    chart_specs_by_key,
    decode,
    shown_random,
)
from tests.app_support import opened as open_page
from tests.app_support import shown as shown_page
from tests.reference import causal_allowed, loop_multi_head, sinusoid
from ui.text import t

PAIR = (["我", "打", "你"], ["你", "打", "我"])  # the order page's default sentences A and B


def reference_weights(texts: list[str], *, scale: bool, causal: bool, pos: bool) -> np.ndarray:
    """Head 1's (n, n) weights by the loops of tests/reference.py, on the page's random weights
    (d_model 64, h 4, seed 0) and token vectors."""
    x = embed_tokens(texts, 64) + (sinusoid(len(texts), 64) if pos else 0)  # (n, 64)
    p = init_params(64, 4, 0)
    allowed = causal_allowed(len(texts)) if causal else None
    weights, _ = loop_multi_head(x, p.w_q, p.w_k, p.w_v, p.w_o, 4, scale, allowed)
    return weights[0]


def maps(at: AppTest, part: str = "pair") -> tuple[np.ndarray, np.ndarray]:
    """The order page's two maps of a part: A's, and B's put back in A's order."""
    by_key = chart_specs_by_key(at)
    return tuple(decode(by_key[f"order_{part}_{k}"]["data"][0]["z"]) for k in ("a", "back"))


STATES = [  # (scale, causal, pos): the audit's /order?w=random&causal=1 among them
    (True, False, False),
    (False, False, False),
    (True, True, False),
    (True, False, True),
    (False, True, True),
]


def sidebar_app() -> None:
    """The shared sidebar alone, drawn after a page that owns positions and the mask."""
    from ui import sidebar

    sidebar.init_state()
    sidebar.own_settings("pos", "causal", note="NOTE")
    sidebar.draw(fixed_weights="random")


@pytest.mark.parametrize(("scale", "causal", "pos"), STATES)
def test_2_order_page_computes_with_the_settings_in_force(scale, causal, pos):
    """Item 2: both maps are the loops' weights under the sidebar's scaling, the mask and the
    positions; the page names them; it claims identical outputs only where they are."""
    at = shown_page("order", weights="random", scale=scale, causal=causal, pos=pos)
    a, back = maps(at)
    np.testing.assert_allclose(a, reference_weights(PAIR[0], scale=scale, causal=causal, pos=pos),
                               atol=1e-4)  # fmt: skip
    b = reference_weights(PAIR[1], scale=scale, causal=causal, pos=pos)
    where = [PAIR[1].index(tok) for tok in PAIR[0]]  # each of A's tokens in B
    np.testing.assert_allclose(back, b[np.ix_(where, where)], atol=1e-4)
    line = " · ".join([t("teach.scale_on" if scale else "teach.scale_off"),
                       t("teach.causal_on" if causal else "teach.causal_off"),
                       t("teach.pos_True" if pos else "teach.pos_False")])  # fmt: skip
    assert any(line in c.value for c in at.caption), [c.value for c in at.caption]
    start = t("order.same").split("{")[0]
    same = [s.value for s in at.success if s.value.startswith(start)]
    differ = [w.value for w in at.warning if w.value.startswith(start)]
    if causal or pos:
        assert not same and len(differ) == 2  # the pair and the shuffled sentence
        assert np.abs(a - back).max() > 0.01
    else:
        assert len(same) == 2 and not differ
        np.testing.assert_allclose(a, back, atol=1e-4)


def test_2_order_page_switches_are_the_settings():
    """Item 2: the page's positions and mask switches are the settings themselves (their keys
    are the sidebar's), so a link's values show on them; the old local switch is gone."""
    at = open_page("order", weights="random", pos=True, causal=True)
    assert at.toggle(key="pos").value is True and at.toggle(key="causal").value is True
    assert "order_pos" not in [tg.key for tg in at.toggle]
    at.toggle(key="pos").set_value(False).run()
    assert at.session_state["pos"] is False  # the shared setting moved, not a copy


def test_2_the_sidebar_leaves_out_what_the_page_owns():
    """Item 2: one control per setting on a screen: none of the sidebar's own, and a line
    saying where they are instead."""
    at = AppTest.from_function(sidebar_app, default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    keys = [tg.key for tg in at.sidebar.toggle]
    assert "pos" not in keys and "causal" not in keys and "scale" in keys
    assert "NOTE" in [c.value for c in at.sidebar.caption]


def test_22_order_page_puts_b_back_beside_a_and_draws_no_round_off():
    """Item 22: 你打我's map un-permuted beside 我打你's, equal cell by cell; the outputs' change in
    percent of their length on an axis of at least 10 %, every bar labelled 0.0 — not 1e-16
    drawn on a 0–0.001 axis. With positions the same chart shows real change."""
    at = shown_page("order", weights="random")
    a, back = maps(at)
    np.testing.assert_allclose(a, back, atol=1e-4)
    moved = chart_specs_by_key(at)["order_pair_moved"]
    assert moved["layout"]["yaxis"]["range"][1] >= 10
    assert moved["layout"]["yaxis"]["title"]["text"] == t("order.moved_y")
    assert moved["data"][0]["text"] == ["0.0"] * 3
    at = shown_page("order", weights="random", pos=True)
    moved = chart_specs_by_key(at)["order_pair_moved"]
    assert min(decode(moved["data"][0]["y"])) > 1  # percent of the output's length


def test_order_page_shuffle_button_gives_a_new_order_and_the_same_numbers():
    """The shuffle button: each click a new order of the sentence, never its own; B's map put
    back still matches A's cell for cell (no positions, no mask)."""
    at = open_page("order", weights="random")
    start = t("order.b_is").split("{")[0]
    orders = []
    for _ in range(3):
        said = [c.value for c in at.caption if c.value.startswith(start)]
        assert len(said) == 2  # the pair's line, then the shuffled sentence's
        orders.append(said[1])
        a, back = maps(at, "shuffle")
        np.testing.assert_allclose(a, back, atol=1e-4)
        at.button(key="order_shuffle").click().run()
    texts = ["小明", "把", "书", "放在", "了", "桌子", "上", "，", "然后", "他", "走", "了", "。"]
    own = t("order.b_is", b=" / ".join(texts), unit=t("unit.word"))
    assert len(set(orders)) == 3 and own not in orders
    assert at.session_state["order_shuffle_seed"] == 4


def test_16_char_mode_order_page_says_characters():
    """Item 16: split by character, the order page's lines say 字 / character, not 词."""
    for lang, unit in (("zh", "字"), ("en", "character")):
        at = shown_page("order", weights="random", mode="char", lang=lang)
        why = t("order.why_none", lang, unit=unit)
        assert why in [c.value for c in at.caption]
    assert "每个字" in t("order.why_none", unit="字")


def test_order_page_says_it_uses_random_weights():
    at = shown_random("order", weights="trained", d_model=32, heads=2, seed=7)
    assert t("order.random", d=32, h=2, seed=7) in captions(at)
    assert t("order.random_trained") in [i.value for i in at.info]
