"""AppTest checks of the teaching pages: they render, survive bad input, show the core's numbers."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import app
from attention_core import build_inputs, init_params, multi_head_attention, tokenize
from attention_core import experiments as ex
from attention_core.analysis import attention_cost, qk_variance
from demo_model import describe_heads, load_demo_history
from tests.app_support import captions, chart_specs, decode, open_app, shown_app
from ui import figures
from ui.settings import DEFAULTS
from ui.state import compute_lab
from ui.text import t

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds: a shared 2-core machine; never a timing assertion
TRAINED_HEADS = load_demo_history().config.num_heads
# heads page: random and trained maps of the demo model, then the sidebar's heads, concat, W_O
HEADS_MAPS = 2 * TRAINED_HEADS + DEFAULTS.heads  # open_page below uses the random weights
# The teaching pages: app.PAGES but the main page, the lesson and the learned page (their own
# files test them), each with the plotly charts it draws on first load with the default settings.
TEACHING = tuple(stem for stem, *_ in app.PAGES if stem not in ("main", "lesson", "learned"))
PAGES = {"steps": 2, "scaling": 7, "heads": 2 + HEADS_MAPS, "cost": 0, "order": 7, "library": 5}
TITLES = {  # page → its title's text key
    "steps": "steps.title",
    "scaling": "scaling.title",
    "heads": "heads.title",
    "cost": "cost.title",
    "order": "order.title",
    "library": "library.title",
}


# The app through its router, switched to pages/<page>.py, with session values set; these
# tests are about the random playground unless they say `weights=…`.
open_page = partial(open_app, weights="random")
shown_page = partial(shown_app, weights="random")  # the same first run, shared: read only
charts = chart_specs


def unwrapped(title: str) -> str:
    """A chart title without the line breaks and spaces its wrapping may put or take away."""
    return re.sub(r"<br>|\s", "", title)


def metric(at: AppTest, label: str) -> float:
    found = [m.value for m in at.metric if m.label == label]
    assert found, f"no metric {label!r}; have {[m.label for m in at.metric]}"
    return float(found[0].replace(",", ""))


def test_every_teaching_page_of_the_router_is_counted_here():
    assert set(PAGES) == set(TITLES) == set(TEACHING)


@pytest.mark.parametrize("name", PAGES)
def test_page_renders_with_its_charts(name):
    at = shown_page(name)
    assert not at.exception, [e.value for e in at.exception]
    assert len(charts(at)) == PAGES[name]
    assert at.title[0].value == t(TITLES[name])


@pytest.mark.parametrize("name", [*PAGES, "learned"])
def test_every_teaching_chart_holds_still(name):
    """No drag-zoom on any chart: the config removes double-click and the reset button, so a
    chart zoomed by a stray drag on a projector's laptop could not be put back."""
    for spec in charts(shown_page(name)):
        layout = spec["layout"]
        axes = [k for k in layout if re.fullmatch(r"[xy]axis\d*", k)]
        assert layout.get("dragmode") is False, layout.get("title")
        assert axes and all(layout[k].get("fixedrange") is True for k in axes), axes


@pytest.mark.parametrize("name", ["steps", "library", "heads"])
def test_page_runs_alone_without_the_router(name):
    at = AppTest.from_file(str(ROOT / "pages" / f"{name}.py"), default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    assert charts(at)


@pytest.mark.parametrize("name", TEACHING)
@pytest.mark.parametrize("sentence", ["   ", "<script>alert(1)</script>", "。。！"])
def test_bad_sentences_give_a_notice_not_a_traceback(name, sentence):
    at = open_page(name, sentence=sentence)
    assert not at.exception, [e.value for e in at.exception]
    if not sentence.strip():
        assert at.warning, "an empty sentence must say so"


def test_english_page_text():
    at = shown_page("library", lang="en")
    assert at.title[0].value == t("library.title", "en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_lists_in_a_sentence_use_the_ui_languages_punctuation(lang):
    """The library's "the m heaviest books" and the heads page's strongest links: 、 and ，
    between items in Chinese, never in an English line (the tokens themselves are quoted)."""
    library = shown_page("library", lang=lang)
    assert library.session_state["library_terms"] >= 2  # at least two names in the list
    start = t("library.terms_say", lang).split("{")[0]
    line = next(c.value for c in library.caption if c.value.startswith(start))
    links = [x.value for x in shown_page("heads", lang=lang).text]
    assert links and all(" → " in x for x in links)
    if lang == "en":
        assert "、" not in line and all("，" not in x.replace("“，”", "") for x in links)
    else:
        assert "、" in line and all("，“" in x for x in links)


@pytest.mark.slow
def test_cost_page_fits_plain_memory_slope_near_two():
    at = open_page("cost")
    at.select_slider(key="cost_range").set_value((128, 1024)).run()
    at.button(key="cost_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    slope = metric(at, t("cost.slope.plain_bytes"))
    assert 1.8 <= slope <= 2.2
    res = at.session_state["cost_results"]
    assert res["n"] == [128, 256, 512, 1024]
    fitted = ex.fit_slope(res["n"], res["plain_bytes"], ex.FIT_FROM)
    assert fitted == pytest.approx(slope, abs=0.006)
    assert ex.fit_slope(res["n"], res["tiled_bytes"], ex.FIT_FROM) < 1.2  # no n² term
    assert len(charts(at)) == 2


@pytest.mark.slow
def test_cost_page_kv_cache_panel():
    at = open_page("cost")
    at.button(key="cost_kv_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    res = at.session_state["cost_kv"]
    assert max(res["max_diff"]) < 1e-3  # cached and uncached generation agree
    assert all(a > b for a, b in zip(res["nocache_flops"], res["cache_flops"], strict=True))
    assert len(charts(at)) == 1
    ways = ("nocache", "kvonly", "cache")
    assert all(f <= m for w in ways for f, m in zip(res[f"{w}_s"], res[f"{w}_median_s"],
                                                     strict=True))  # fmt: skip
    fit = {w: ex.fit_slope(res["t"], res[f"{w}_s"], ex.KV_FIT_FROM) for w in ways}
    flops = {w: ex.fit_slope(res["t"], res[f"{w}_flops"], ex.KV_FIT_FROM) for w in ways}
    noise = max(max(res[f"{w}_noise"]) for w in ways)
    said = t("cost.kv_noise", r=ex.KV_REPEATS, noise=noise, t0=64, a=fit["nocache"],
             b=fit["kvonly"], c=fit["cache"], fa=flops["nocache"], fb=flops["kvonly"],
             fc=flops["cache"])  # fmt: skip
    assert said in [c.value for c in at.caption]
    assert t("cost.timed") in [c.value for c in at.caption]  # which attention is timed


def test_scaling_page_variance_at_256_matches_d_k():
    at = open_page("scaling")
    at.select_slider(key="scaling_dk").set_value(256).run()
    raw = metric(at, t("scaling.var_raw"))
    assert abs(raw - 256) <= 0.1 * 256
    assert raw == pytest.approx(qk_variance(256).raw_variance, abs=0.05)


def test_steps_next_moves_on_and_the_cell_matches_the_core():
    at = open_page("steps")
    at.button(key="steps_next").click().run()
    at.button(key="steps_next").click().run()
    assert at.session_state["steps_step"] == 2
    spec = charts(at)[0]
    s = DEFAULTS
    tokens = tokenize(s.sentence)
    x = build_inputs(tokens, s.d_model)  # token vectors as the main page makes them
    core = multi_head_attention(x, init_params(s.d_model, s.heads, s.seed))
    shown = decode(spec["data"][0]["z"])
    np.testing.assert_allclose(shown, core.heads.scores[0], atol=1e-4)
    i, j = tokens.texts.index("他"), at.selectbox(key="steps_j").value
    assert f"{core.heads.weights[0, i, j]:.4f}" in at.latex[-1].value


def test_steps_previous_at_the_first_step_stays_there():
    at = open_page("steps")
    at.button(key="steps_prev").click().run()
    assert not at.exception and at.session_state["steps_step"] == 0
    assert at.radio(key="steps_step").value == 0
    assert "X" in at.latex[0].value  # step ①'s formula still shown


def test_steps_next_at_the_last_step_stays_there():
    at = open_page("steps", steps_step=6)
    at.button(key="steps_next").click().run()
    assert not at.exception and at.session_state["steps_step"] == 6
    assert at.radio(key="steps_step").value == 6
    assert "W_O" in at.latex[0].value  # step ⑦'s formula still shown
    at.button(key="steps_prev").click().run()
    assert at.session_state["steps_step"] == 5


def test_heads_page_draws_one_map_per_head():
    at = open_page("heads", weights="random")
    at.radio(key="heads_h").set_value(8).run()
    titles = [c["layout"]["title"]["text"] for c in charts(at)]
    assert sum(title.startswith(t("teach.head", h="")) for title in titles) == 8
    assert t("heads.weights_random", d=DEFAULTS.d_model, seed=DEFAULTS.seed) in captions(at)


@pytest.mark.parametrize("weights", ["random", "trained"])
def test_heads_page_compares_random_and_trained_heads_by_measured_jobs(weights):
    at = shown_page("heads", weights=weights)
    assert not at.exception, [e.value for e in at.exception]
    titles = [unwrapped(c["layout"]["title"]["text"]) for c in charts(at)]
    last = int(load_demo_history().steps[-1])
    for key, step in (("heads.tag_random", 0), ("heads.tag_trained", last)):
        tag = unwrapped(t(key, step=last) + " · ")
        expect = [tag + unwrapped(figures.head_job_label(job, t)) for job in describe_heads(step)]
        assert [x for x in titles if x.startswith(tag)] == expect
    assert all(job.relation == "diffuse" for job in describe_heads(0))
    assert len({job.relation for job in describe_heads(last)} - {"diffuse"}) >= 3


def test_heads_page_follows_the_sidebar_weights():
    at = shown_page("heads", weights="trained")
    assert not at.exception, [e.value for e in at.exception]
    assert "heads_h" not in [r.key for r in at.radio]  # h is built into the trained model
    cfg = load_demo_history().config
    assert t("heads.weights_trained", h=cfg.num_heads, d=cfg.d_model) in captions(at)
    titles = [unwrapped(c["layout"]["title"]["text"]) for c in charts(at)]
    grid = [unwrapped(figures.head_job_label(job, t)) for job in describe_heads()]
    assert sorted(x for x in titles if x in grid) == sorted(grid)  # measured jobs as titles
    at = shown_page("heads", weights="random")
    assert "heads_h" in [r.key for r in at.radio]


def test_heads_intro_says_what_the_cost_table_shows():
    at = shown_page("heads", weights="random")
    table = at.dataframe[0].value
    keys = ("heads.col.params", "heads.col.flops", "heads.col.cells", "heads.col.h")
    params, flops, cells, hs = (table[t(key)].tolist() for key in keys)
    n = len(tokenize(DEFAULTS.sentence))
    assert len(set(params)) == 1 and params[0] == 4 * DEFAULTS.d_model**2  # unchanged
    assert cells == [h * n * n for h in hs]  # h-fold
    base = attention_cost(n, DEFAULTS.d_model, 1)
    for h, f in zip(hs, flops, strict=True):
        assert f - base.total == (h - 1) * (base.softmax)  # only the softmax grows
    for words in ("4·d_model²", "2n²·d_model", "h·n²", "softmax"):
        assert words in t("heads.intro")


def test_library_bars_are_the_core_weights_of_ta():
    at = shown_page("library")
    spec = charts(at)[0]
    weights = decode(spec["data"][0]["y"])
    s = DEFAULTS
    tokens = tokenize(s.sentence)
    x = build_inputs(tokens, s.d_model)  # token vectors as the main page makes them
    core = multi_head_attention(x, init_params(s.d_model, s.heads, s.seed))
    i, head = tokens.texts.index("他"), at.selectbox(key="library_head").value
    np.testing.assert_allclose(weights, core.heads.weights[head, i], atol=1e-4)


SHELVES = "我买了书，他借了书，你看了书，书很好，书很新。"  # five 书, three 了


def shown_tokens(spec: dict) -> list[str]:
    """The tokens a chart names: a bar chart's bars (their hover text "书₃: 0.12"), a heatmap's
    rows; without plotly's zero-width marks and upright line breaks."""
    trace = spec["data"][0]
    raw = [h.rsplit(": ", 1)[0] for h in trace["hovertext"]] if "hovertext" in trace else trace["y"]
    return [re.sub("\u200b|<br>", "", label) for label in raw]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_library_names_every_token_as_the_other_pages_do(lang):
    """Issue 31 (audit): the library page showed repeated tokens bare (two 了, five 书) on its key
    cards, its bars and its RNN map, while its captions named 书₃. Every place it shows a token
    now numbers the repeats, as ui.gloss.token_names names them on every page."""
    from tests.app_support import chart_specs_by_key
    from ui.gloss import named, token_names

    texts = tokenize(SHELVES).texts
    names, last = token_names(texts), len(texts) - 1 - texts[::-1].index("书")  # 书₅
    at = open_page("library", lang=lang, sentence=SHELVES, library_query=last)
    assert not at.exception
    assert [card.label for card in at.metric] == names  # one card per key: 书₁ … 书₅
    assert t("library.cards", lang, q="书₅") in [c.value for c in at.caption]
    assert named(texts, last, lang) in at.selectbox(key="library_query").options
    specs = chart_specs_by_key(at)
    assert shown_tokens(specs["library_bars"]) == names
    mixed = shown_tokens(specs["library_gap"])[1:]  # after the bar of no terms, heaviest first
    assert sorted(mixed) == sorted(names)
    assert shown_tokens(specs["library_rnn"]) == names[: last + 1]
    assert shown_tokens(specs["library_rnn_row"]) == names


def test_value_mixture_ends_at_the_core_output():
    lab = compute_lab(
        "小明把书放在了桌子上，然后他走了。", "word", 16, 2, True, False, False, 0, "random"
    )
    mix = ex.value_mixture(lab, head=1, i=3)
    np.testing.assert_allclose(mix["partial"][-1], lab.result.heads.output[1, 3], atol=1e-12)
    assert mix["gap"][-1] < 1e-12
    assert np.all(np.diff(mix["weights"]) <= 0)


def test_match_perm_pairs_repeated_tokens_in_order():
    assert ex.match_perm(["我", "打", "你"], ["你", "打", "我"]) == [2, 1, 0]
    assert ex.match_perm(["了", "a", "了"], ["了", "了", "a"]) == [0, 2, 1]
    assert ex.match_perm(["我"], ["你"]) is None
