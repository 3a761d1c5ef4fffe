"""The heads page (AppTest): what it claims about each head's job, its strongest edges, its
heads control and tips."""

from __future__ import annotations

from demo_model import describe_heads, load_demo_history
from tests.app_support import chart_specs, ok, open_app, said, shown_app
from ui.settings import MAX_HEADS
from ui.text import t

JOBS = describe_heads()


def test_7_no_page_says_every_head_has_a_job_unless_measured():
    found = sum(h.relation != "diffuse" for h in JOBS)
    h = load_demo_history().config.num_heads
    at = ok(shown_app("heads", weights="random"))
    text = said(at)
    assert "各有各的活" not in text
    assert f"训练后 {h} 个头里有 {found} 个有分工" in text


def test_9_strongest_edges_tell_the_two_le_apart_and_skip_self_edges():
    at = ok(shown_app("heads", weights="random"))
    lines = [x.value for x in at.text]
    assert lines and not [x for x in lines if "“了” → “了”" in x]
    assert any("了₁" in x or "了₂" in x for x in lines)
    at = ok(shown_app("heads", weights="random", sentence="他"))
    assert not [x.value for x in at.text if "→" in x.value]
    assert t("heads.edges_one_token", "zh") in [i.value for i in at.info]


def test_19_the_heads_radio_is_the_setting():
    at = ok(open_app("heads", weights="random", d_model=64, heads=MAX_HEADS))
    (radio,) = [r for r in at.radio if r.key == "heads_h"]
    assert radio.value == MAX_HEADS and str(MAX_HEADS) in radio.options
    radio.set_value(2).run()
    ok(at)
    assert at.session_state["heads"] == 2  # the sidebar's key: its slider and the link follow
    titles = [c["layout"]["title"]["text"] for c in chart_specs(at)]
    assert sum(x.startswith(t("teach.head", h="")) for x in titles) == 2


def test_20_the_heads_tip_sends_the_reader_to_the_sentence_box_where_it_is():
    at = ok(shown_app("heads", weights="random"))
    tip = next(i.value for i in at.info if i.value.startswith("试一试"))
    assert "在侧栏换一句话" not in tip and t("nav.main", "zh") in tip
