"""AppTest checks of the learned-attention page: every checkpoint renders, the maps play in the
browser from frames, labels and the headline come from the measurement."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from demo_model import describe_heads, load_demo_history, load_demo_model
from demo_model.data.corpus import build, heldout_words
from demo_model.relations import LINKS
from tests.app_support import chart_specs, ok, open_app, said, shown_app, unwrapped
from tests.app_support import decode as decode_array
from ui.figures import head_job_label
from ui.text import t

HISTORY = load_demo_history()


STEPS = [int(s) for s in HISTORY.steps]


HEADS = HISTORY.config.num_heads


EXAMPLE = "小明把书放在了桌子上，然后他走了。"


open_page = partial(open_app, "learned")  # the app through its router, on pages/learned.py


charts = chart_specs


def maps(at: AppTest) -> dict:
    (spec,) = [c for c in charts(at) if c.get("frames")]
    return spec


def frame_z(spec: dict, step: int) -> np.ndarray:
    """(h, n, n) weights in percent of the frame of one checkpoint."""
    (frame,) = [f for f in spec["frames"] if f["name"] == str(step)]
    return np.stack([decode_array(d["z"]) for d in frame["data"]])


@pytest.fixture(scope="module")
def page() -> AppTest:
    at = open_page(sentence=EXAMPLE)
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_maps_play_every_checkpoint_from_the_last(page):
    """The chart's own slider is the one step control: every frame is there, it starts at the
    end of training (as the headline), and each frame's map titles are that step's measured
    jobs."""
    assert page.title[0].value == t("learned.title")
    assert page.header[0].value == t("learned.heads", h=HEADS)
    assert "learned_step" not in [w.key for w in page.select_slider]
    spec = maps(page)
    assert [f["name"] for f in spec["frames"]] == [str(s) for s in STEPS]  # play: all frames
    assert spec["layout"]["sliders"][0]["active"] == len(STEPS) - 1
    assert len(charts(page)) == 1 + len(LINKS) + 2  # maps, a chart per question, loss, rates
    tt = partial(t, lang="zh")
    for frame in spec["frames"]:
        titles = [unwrapped(a["text"]) for a in frame["layout"]["annotations"]]
        heads = describe_heads(int(frame["name"]))
        assert titles == [unwrapped(head_job_label(s, tt)) for s in heads]


def test_frames_hold_the_model_weights_and_he_finds_xiaoming(page):
    spec = maps(page)
    run = load_demo_model().run(EXAMPLE)
    np.testing.assert_allclose(
        frame_z(spec, STEPS[-1]), np.rint(run.attention.heads.weights * 100), atol=0
    )
    he, xiaoming = run.tokens.texts.index("他"), run.tokens.texts.index("小明")
    (pronoun_head,) = [s.head for s in describe_heads() if s.relation == "pronoun_antecedent"]
    assert frame_z(spec, STEPS[-1])[pronoun_head, he, xiaoming] > 80
    assert frame_z(spec, 0)[:, he, xiaoming].max() < 30


def test_headline_comes_from_the_pronoun_head(page):
    (pronoun_head,) = [s for s in describe_heads() if s.relation == "pronoun_antecedent"]
    text = " ".join(m.value for m in page.markdown)
    assert "把“他”连到“小明”" in text and f"头 {pronoun_head.head + 1}（" in text
    said = f"{pronoun_head.total} 个“他/她/它”中的 {pronoun_head.hits} 个找对了"
    assert said in text  # the head's count on the human-written set, from the model's numbers
    (first,) = [f for f in maps(page)["frames"] if f["name"] == "0"]  # no head has the job yet
    assert t("learned.frame_none", q="他") in first["layout"]["title"]["text"]


def test_headline_says_undecided_when_two_boys_could_be_he():
    at = open_page(sentence="小明和小刚去了公园，他很高兴。")
    text = " ".join(m.value for m in at.markdown)
    assert "拿不定“他”指谁" in text and "连到" not in text


def test_charts_label_each_chance_line(page):
    rates = [c for c in charts(page) if c["layout"]["title"]["text"] == t("learned.acc_title")]
    names = [tr["name"].replace("<br>", "") for tr in rates[0]["data"]]  # legends wrap (CJK)
    assert t("learned.chance_readout") in names
    assert any(n.startswith(f"{HEADS} 个头里碰巧有一个看对") for n in names)
    assert t("learned.acc_any") in names and "比例" in t("learned.acc_any")
    assert any(n.startswith("读出正确率 · ") for n in names)  # a rate, said as one
    assert LINKS[0] == "pronoun_antecedent"  # the first question's chart
    first = t("learned.rel.pronoun_antecedent")
    jobs = [c for c in charts(page) if c["layout"]["title"]["text"] == first]
    assert t("learned.head_chance") in [tr["name"] for tr in jobs[0]["data"]]


def test_the_sidebar_scaling_switch_applies_here():
    at = open_page(scale=False)
    assert not at.exception, [e.value for e in at.exception]
    assert any("√d_k" in c.value for c in at.caption)
    assert "learned_scale" not in [w.key for w in at.toggle]  # the sidebar's is the one switch


def test_page_says_which_weights_it_shows_whatever_the_sidebar_says():
    for weights in ("random", "trained"):
        at = open_page(weights=weights)
        assert not at.exception, [e.value for e in at.exception]
        assert t("learned.weights_note") in [i.value for i in at.info]


def test_english_and_head_descriptions():
    at = open_page(lang="en")
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == t("learned.title", "en")
    words = " ".join(m.value for m in at.markdown)
    assert t("learned.rel.pronoun_antecedent", "en") in words
    assert "，" not in words and "。" not in words.replace("”。", "")


def test_bad_sentence_gives_a_notice():
    at = open_page(sentence="   ")
    assert not at.exception, [e.value for e in at.exception]


# The page's prose says what its example sentences hold ("一男一女两个人", "两个男生"); the model
# reads a name's gender with demo_model.lexicon.gender, and the lesson's §1 asks with that same
# rule, so the prose's claims must be what that rule says (小红 is neither: 红 is in about twice
# as many women's names as men's, below the rule's confidence).
GENDERS_SAID = {
    "那天，小丽在公园里看见了小刚，他很高兴。": {"小丽": "f", "小刚": "m"},
    "小明和小刚去了公园，他很高兴。": {"小明": "m", "小刚": "m"},
}


@pytest.mark.parametrize("sentence", sorted(GENDERS_SAID))
def test_the_prose_says_of_each_example_what_the_gender_rule_says(sentence):
    from attention_core import tokenize
    from demo_model.lexicon import gender
    from pages.learned import EXAMPLES

    assert sentence in EXAMPLES
    for lang in ("zh", "en"):
        assert sentence in t("learned.try", lang)  # the prose names it
    tags = {tok.text: tok.tag for tok in tokenize(sentence)}
    assert {name: gender(name, tags[name]) for name in GENDERS_SAID[sentence]} == GENDERS_SAID[
        sentence
    ]
    tags = {tok.text: tok.tag for tok in tokenize("那天，小红在公园里看见了小刚，他很高兴。")}
    assert gender("小红", tags["小红"]) == ""  # why the page no longer calls 小红 a girl


def test_6_the_held_out_note_says_what_is_held_out_and_it_is():
    """The note counts the held-out words by kind from the corpus itself, and none of the
    held-out verbs occurs in a training sample (the audit found 找到, 买, 拿 claimed)."""
    at = ok(shown_app("learned"))
    held = heldout_words()
    note = [c.value for c in at.caption if "留出集的句子" in c.value]
    assert note and f"{len(set(held['verbs']))} 个动词" in note[0]
    assert "虚词" in note[0]  # function words are not claimed to be held out
    seen = {tok.text for e in build("train", 400, seed=0) for tok in e.tokens}
    assert not seen & set(held["verbs"])


def test_18_the_learned_maps_have_one_step_control_and_start_at_the_headline_step():
    at = ok(shown_app("learned"))
    assert not [s for s in at.select_slider if s.key == "learned_step"]
    (maps,) = [c for c in chart_specs(at) if c.get("frames")]
    slider = maps["layout"]["sliders"][0]
    last = int(load_demo_history().steps[-1])
    assert slider["steps"][slider["active"]]["label"] == str(last)
    assert f"第 {last} 步" in maps["layout"]["title"]["text"]
    assert f"第 {last} 步" in said(at)


def test_26_the_learned_table_shows_every_column():
    at = ok(shown_app("learned"))
    assert not at.dataframe  # a scrolling grid cut its last column at 1024 px
    (table,) = at.table
    columns = list(table.value.columns)
    assert columns[-1] == t("learned.rel.previous") + " %" and len(columns) == 2 + 5
