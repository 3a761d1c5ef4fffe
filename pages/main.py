"""Main page: the sentence, the attention view (ui/explorer), the matrices, export."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from functools import partial
from pathlib import Path

import streamlit as st

from demo_model import describe_heads, load_demo_model, reading
from demo_model.relations import questions_of
from ui import charts, explorer, sidebar, state, widgets
from ui import figures as fig
from ui.figures import RELATION_KEYS
from ui.gloss import gloss, named, tag_name
from ui.links import to_query
from ui.readings import TOLD
from ui.settings import Settings
from ui.text import md_escape, t

HITS_KEYS = {  # a job → how its count on the human-written set is said
    "pronoun_antecedent": "main.hits.pronoun_antecedent",
    "modifier_noun": "main.hits.modifier_noun",
    "verb_subject": "main.hits.verb_subject",
}
MATRIX_TITLES = {  # the matrices section's names → their titles' text keys
    "x": "main.m.x",
    "q": "main.m.q",
    "k": "main.m.k",
    "v": "main.m.v",
    "out": "main.m.out",
}


def numpy_lines(lab: state.Lab, s: Settings) -> dict[str, str]:
    """The numpy line behind each matrix, as it was computed in the settings in force."""
    if lab.source == "trained":
        x = "X = tag_vec[tags] + word_vec + last_char_vec + positions  # (n, d_model), learned"
    else:
        x = "X = embed(tokens)" + (" + positions" if s.pos else "") + "  # (n, d_model)"
    scores = "Q @ K.swapaxes(-1, -2)" + (" / np.sqrt(d_k)" if s.scale else "")
    if s.causal:
        scores = f"np.where(causal_mask(n), {scores}, -np.inf)"
    project = "(X @ W_{0}).reshape(n, h, d_k).transpose(1, 0, 2)   # (h, n, d_k)"
    return {
        "x": x,
        **{m.lower(): f"{m} = {project.format(m)}" for m in "QKV"},
        "out": f"out = concat(softmax({scores}) @ V) @ W_O  # (n, d_model)",
    }


def read_page_link(lab: state.Lab, lang: str) -> None:
    """The main page's own link parameters (head, τ, nth), read once per session; bad ones
    noticed."""
    ss = st.session_state
    if ss.get("_page_link_read"):
        return
    ss["_page_link_read"] = True
    notes: list[state.Notice] = []
    raw = st.query_params.get("head")
    if raw is not None:
        head = int(raw) if raw.strip().isdigit() else None
        used = 1 if head is None else min(max(head, 1), lab.heads)
        ss[explorer.HEAD] = used - 1
        if head != used:
            kind = "notice.param_bad" if head is None else "notice.param_clamped"
            notes.append(("warning", kind, {"name": "head", "value": raw[:40], "used": used}))
    raw = st.query_params.get("tau")
    if raw is not None:
        tau = explorer.clean_tau(raw, lab.d_k)
        ss[explorer.TAU] = tau
        try:
            exact = float(raw) == tau
        except ValueError:
            exact = False
        if not exact:
            kind = "notice.param_bad" if tau is None else "notice.param_clamped"
            used = "√d_k" if tau is None else f"{tau:g}"
            notes.append(("warning", kind, {"name": "tau", "value": raw[:40], "used": used}))
    notes += read_nth(lab, str(ss.get("focus_text") or ""), st.query_params.get("nth"))
    sidebar.show_notices(notes, lang)


def occurrences(texts: list[str], text: str) -> list[int]:
    """Positions of every token equal to `text`."""
    return [i for i, s in enumerate(texts) if s == text]


def read_nth(lab: state.Lab, focus: str, raw: str | None) -> list[state.Notice]:
    """nth=2: the focus is the second occurrence of its text (the second 了); notices if bad."""
    if raw is None:
        return []
    places = occurrences(lab.texts, lab.texts[lab.focus(focus)])
    nth = int(raw) if raw.strip().isdigit() else None
    used = 1 if nth is None else min(max(nth, 1), len(places))
    st.session_state[explorer.FOCUS_POS] = places[used - 1]
    if nth == used:
        return []
    kind = "notice.param_bad" if nth is None else "notice.param_clamped"
    return [("warning", kind, {"name": "nth", "value": raw[:40], "used": used})]


# The link's parameters the view's fragment owns: it writes them after a view change (app.py's
# sidebar.sync_query writes every setting, but only on a full run).
VIEW_PARAMS = ("scale", "causal", "focus")


def write_page_link(lab: state.Lab, s: Settings, view: explorer.ViewState) -> None:
    """The view's settings (√d_k, mask, focus), head (1-based), τ and which occurrence of the
    focus text (nth, from 2) into the address bar, so a copied link restores the view; only the
    parameters that changed, and no other."""
    texts = lab.texts
    nth = occurrences(texts, texts[view.focus]).index(view.focus) + 1
    settings = to_query(s)
    wanted = {name: settings[name] for name in VIEW_PARAMS} | {
        "head": str(view.head + 1),
        "tau": None if view.tau is None else f"{view.tau:g}",
        "nth": str(nth) if nth > 1 else None,
    }
    for name, value in wanted.items():
        if value is None:
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get_all(name) != [value]:
            st.query_params[name] = value


def view_state(lab: state.Lab, s: Settings) -> explorer.ViewState:
    """What the view starts from: the settings, the focus token, the chosen head and τ."""
    ss = st.session_state
    head = min(max(int(ss.get(explorer.HEAD) or 0), 0), lab.heads - 1)
    tau = explorer.clean_tau(ss.get(explorer.TAU), lab.d_k) if ss.get(explorer.TAU) else None
    focus = lab.focus(s.focus, ss.get(explorer.FOCUS_POS))
    return explorer.ViewState(s.scale, s.causal, focus, head, tau)


@st.cache_resource(max_entries=8, ttl=3600, show_spinner=False)
def head_jobs(source: str, heads: int, lang: str) -> list[dict]:
    """Per head, the job measured with the trained weights (and how often it is right on the
    sentences people wrote), or none (random). Once per language in the process (the view's
    header carries it on every rerun; never changed afterwards)."""
    if source != "trained":
        return [{"label": "", "rel": "", "clear": False, "relation": ""}] * heads
    say = partial(t, lang=lang)
    return [
        {
            "label": job_label(head, say),  # "代词 → 所指的人（人写的测试句答对 64/76）"
            "rel": say(RELATION_KEYS[head.relation]),
            "clear": head.relation != "diffuse",
            "relation": head.relation,
        }
        for head in describe_heads()
    ]


def job_label(head, say) -> str:
    """A head's measured job, with its count on the human-written set: how many of the questions
    people wrote its row's largest weight answered (not a weight), or where a head without a job
    puts its weight."""
    if head.relation == "diffuse":
        return fig.job_text(head, say)
    rel = say(RELATION_KEYS[head.relation])
    return say("main.job_label", rel=rel, hits=head.hits, total=head.total)


def token_readings(lab: state.Lab, weights) -> list[list]:
    """Per token, the core's reading of each question it asks (read_token: the head doing that
    job, its pick, and whether the pick may be told as the answer); [] with random weights."""
    if lab.source != "trained":
        return [[] for _ in lab.tokens]
    heads, vocab, tokens = describe_heads(), load_demo_model().vocab, list(lab.tokens)
    out = []
    for i in range(len(tokens)):
        asks = questions_of(tokens, i) or (None,)
        out.append([reading.read_token(tokens, i, weights, heads, vocab, relation=q) for q in asks])
    return out


def story_lines(lab: state.Lab, lang: str, mine: list) -> list[str]:
    """A token's readings as plain lines for the view's story, when its own rule (argmax,
    decided or torn) would tell them wrong: a reading that is neither an answer nor undecided
    (one token, unknown words, looks ahead, nothing before it, 我/你). [] otherwise."""
    told = (reading.ANSWER, reading.UNDECIDED, reading.NOT_ASKED)
    if all(r.status in told for r in mine):
        return []
    return [reading_line(r, lab, lang, escape=str) for r in mine]


@st.cache_resource(max_entries=64, show_spinner=False)
def view_tokens(key: tuple, tau: float | None, causal: bool, lang: str) -> tuple[list, list]:
    """(the view's tokens, every token's readings) for the Lab computed with `key`
    (state.lab_key) in the weights the view shows at τ and the mask: about 90 ms at 128 tokens,
    so once per sentence, setting and language in the process, shared by every session and
    never changed afterwards (a resource, not a copy per rerun)."""
    lab = state.compute_lab(*key)
    readings = token_readings(lab, state.weights_at(lab, tau, causal))
    roles = token_roles(readings)
    tokens = [
        {
            "t": tok.text,
            "tag": tok.tag,
            "tag_name": tag_name(tok.tag, lang),
            "gloss": gloss(tok.text),  # shown under the token in English
            "roles": roles[i],
            # the core's reading where the view's story would tell it wrong (plain text)
            "reading": story_lines(lab, lang, readings[i]),
        }
        for i, tok in enumerate(lab.tokens)
    ]
    return tokens, readings


def token_roles(readings: list[list]) -> list[list[str]]:
    """Per token, the measured jobs the view's story may tell for it: looking at itself or the
    previous word, and a question the token asks (the core's rule, as its POS chip says) only
    when the head's pick is an answer or plainly undecided — never a miss told as a fact."""
    told = (reading.ANSWER, reading.UNDECIDED)
    return [
        ["self", "previous", *(r.question for r in mine if r.status in told)] for mine in readings
    ]


def reading_line(r, lab: state.Lab, lang: str, escape=md_escape) -> str:
    """One reading in words, from its status: a pick is told as the answer only when the core
    says it is one; otherwise the line says why not. escape: md_escape for Markdown (a token is
    user text), str for plain text."""
    say, name = partial(t, lang=lang), lambda j: named(lab.texts, j, lang, escape)
    fmt = widgets.reading_fields(r, name, say) | {"tag": tag_name(lab.tokens[r.query].tag, lang)}
    if (head := r.head) is not None:  # the count said as a sentence here
        fmt["rel"] = say(RELATION_KEYS[head.relation])
        fmt["hits"] = say(HITS_KEYS[head.relation], hits=head.hits, total=head.total)
    return say(TOLD[r.status].main, **fmt)


def in_training_state(view: explorer.ViewState) -> bool:
    """The settings the model was trained and measured in: √d_k on, no mask, τ not moved."""
    return view.scale and not view.causal and view.tau is None


def reading_section(lab: state.Lab, lang: str, view: explorer.ViewState, readings) -> None:
    """Under the view: how the trained model reads the focus token, in the weights the view
    shows, with the statuses of demo_model.reading (random weights: the view says chance)."""
    if lab.source != "trained":
        return
    name = named(lab.texts, view.focus, lang, md_escape)
    st.markdown(f"**{t('main.read_title', lang, q=name)}**")
    for r in readings[view.focus]:
        st.markdown("- " + reading_line(r, lab, lang))
    if not in_training_state(view):
        st.caption(t("main.read_untested", lang))


def _use_weights(source: str) -> None:
    st.session_state["weights"] = source


def jobs_found(lab: state.Lab) -> int:
    """How many of the trained heads have a measured job (0 for random weights)."""
    if lab.source != "trained":
        return 0
    return sum(head.relation != "diffuse" for head in describe_heads())


def weights_line(lab: state.Lab, s: Settings) -> None:
    """Which weights the view shows, what that means, and the switch to the other ones."""
    trained = lab.source == "trained"
    key = "main.weights_trained" if trained else "main.weights_random"
    line = t(key, s.lang, d=lab.d_model, h=lab.heads, seed=s.seed, jobs=jobs_found(lab))
    text, button = st.columns([3, 2], vertical_alignment="center")
    text.markdown(line)
    if trained and s.mode == "char":
        text.caption(t("main.trained_words", s.lang))
    if state.trained_available():
        other = "random" if trained else "trained"
        button.button(
            t("main.to_random" if trained else "main.to_trained", s.lang),
            key="switch_weights",
            on_click=_use_weights,
            args=(other,),
        )


def focus_notice(lab: state.Lab, s: Settings, index: int) -> None:
    """A focus token from a link (or another sentence) that is not in this sentence."""
    if s.focus and s.focus not in lab.texts:
        used = md_escape(lab.texts[index])
        st.info(t("notice.focus_missing", s.lang, focus=md_escape(s.focus[:40]), used=used))
        st.session_state["focus_text"] = ""


def view_settings(s: Settings) -> Settings:
    """The settings with what the view last sent (√d_k, mask, focus) from the session: in a
    fragment run the page's own `s` is the full run's."""
    ss = st.session_state
    return replace(
        s,
        scale=bool(ss.get("scale", s.scale)),
        causal=bool(ss.get("causal", s.causal)),
        focus=str(ss.get("focus_text", s.focus) or ""),
    )


def explorer_section(lab: state.Lab, s: Settings) -> tuple[explorer.ViewState, list]:
    """The client-side view: maps per head, the chosen head's before/after, the focus bars;
    and every token's reading by the trained heads, in the weights the view shows."""
    read_page_link(lab, s.lang)
    view = view_state(lab, s)
    focus_notice(lab, s, view.focus)
    tokens, readings = view_tokens(state.lab_key(s), view.tau, view.causal, s.lang)
    explorer.mount(
        lab,
        view,
        lang=s.lang,
        classroom=s.classroom,
        numbers=s.numbers,
        shared=s.shared_scale,
        tokens=tokens,
        jobs=head_jobs(lab.source, lab.heads, s.lang),
        start=state.first_step_lab(state.qk_key(state.lab_key(s))),  # the q–k map's step 0
        page_run=st.session_state.get(PAGE_RUNS, 0),
    )
    return view, readings


PAGE_RUNS = "_main_runs"  # session key: full runs of this page (the view shows it, for tests)
FULL_RUN = "_main_full_run"  # session key: True while a full run of the page draws the view
MATRICES_DREW = "_main_matrices_drew"  # session key: (head, √d_k, mask) the open matrices show


def matrices_behind(lab: state.Lab, s: Settings) -> bool:
    """In a fragment run: the matrices section is open and shows another head, √d_k or mask
    than the view now does (it is drawn by full runs only)."""
    ss = st.session_state
    if ss.get(FULL_RUN) or not ss.get("matrices_open"):
        return False
    return ss.get(MATRICES_DREW) != (view_state(lab, s).head, s.scale, s.causal)


VIEW_NOW = "_main_view"  # session key: {"view", "settings"} as the view's fragment last drew


@st.fragment
def view_fragment(lab: state.Lab, s: Settings) -> None:
    """The view, the reading under it and the link: what the view sends back after drawing it
    in the browser (its switches, τ, focus, head) reruns only this, not the page around it.

    `lab` is the full run's: the view's Q and K do not depend on √d_k or the mask, and what
    does (the readings, the step-0 map) is looked up by the settings in force now. The export
    buttons, drawn by the full run, read what this drew last when clicked (VIEW_NOW)."""
    s = view_settings(s)
    if matrices_behind(lab, s):  # open matrices show another head or setting: the whole page
        st.rerun(scope="app")
    view, readings = explorer_section(lab, s)
    reading_section(lab, s.lang, view, readings)
    write_page_link(lab, s, view)
    st.session_state.setdefault(VIEW_NOW, {}).update(view=view, settings=s)


def matrices(lab: state.Lab, s: Settings, head: int) -> list[tuple]:
    """(name, numpy line, matrix) for X, Q, K, V of one head, and the output."""
    res, lines = lab.result, numpy_lines(lab, s)
    items = [("x", lab.x)] if lab.x is not None else []
    items += [("q", res.q[head]), ("k", res.k[head]), ("v", res.v[head]), ("out", res.output)]
    return [(name, lines[name], values) for name, values in items]


@st.fragment
def matrices_section(lab: state.Lab, s: Settings) -> None:
    """X, Q, K, V and the output, each with its numpy line; drawn only while open."""
    lang = s.lang
    box = st.expander(t("main.matrices", lang), key="matrices_open", on_change="rerun")
    if not box.open:
        return
    now = view_settings(s)  # the view may have changed √d_k or the mask since the full run
    if (now.scale, now.causal) != (s.scale, s.causal):
        st.rerun(scope="app")  # the output needs the Lab of the settings in force
    with box:
        head = min(int(st.session_state.get("chosen_head") or 0), lab.heads - 1)
        st.session_state[MATRICES_DREW] = (head, s.scale, s.causal)
        for name, line, values in matrices(lab, s, head):
            title = t(MATRIX_TITLES[name], lang, i=head + 1)
            st.markdown(f"**{title}** · `{values.shape[0]} × {values.shape[1]}`")
            st.code(line, language="python")
            charts.chart(
                fig.matrix_heatmap(values, lab.texts, title="", lang=lang, classroom=s.classroom),
                key=f"matrix_{name}",
                lang=lang,
            )


def export_section(lab: state.Lab, s: Settings) -> None:
    """Download buttons in reading order; each file is built only when clicked, from what the
    view shows then (the fragment may have changed τ, the mask, the head since this ran)."""
    st.subheader(t("main.export", s.lang))  # under the view's own h2s, not above them
    st.caption(t("main.export_caption", s.lang))
    now = st.session_state.setdefault(VIEW_NOW, {})  # the fragment updates it in place
    download = partial(st.download_button, on_click="ignore", icon=":material/download:")
    say = partial(t, lang=s.lang)
    # fmt: off
    files = [(f"csv_{i}", say("main.csv_head", i=i + 1), partial(head_csv, now, lab, s, i),
              f"attention_head{i + 1}.csv", "text/csv") for i in range(lab.heads)]
    files += [("npz", say("main.npz"), partial(npz_now, now, lab, s),
               "attention_lab.npz", "application/octet-stream"),
              ("settings_json", say("main.settings_json"), partial(settings_json, now, lab, s),
               "attention_lab_settings.json", "application/json")]
    # fmt: on
    with st.container(horizontal=True, key="exports"):
        for key, label, build, name, mime in files:
            download(label, build, file_name=name, mime=mime, key=key)


def _shown(now: dict, lab: state.Lab, s: Settings) -> tuple:
    """(view, settings, Lab) as the view's fragment last drew them (`now`, the holder the export
    captured: a click builds its file outside any script run), else as the full run drew them."""
    view, shown = now.get("view"), now.get("settings")
    if view is None or shown is None:  # no fragment run yet: the full run's settings
        focus = lab.focus(s.focus)
        return explorer.ViewState(s.scale, s.causal, focus, 0, None), s, lab
    key = state.lab_key(shown)
    return view, shown, lab if key == state.lab_key(s) else state.lab_at(key)


def head_csv(now: dict, lab: state.Lab, s: Settings, i: int) -> str:
    """Head i's weights as the view shows them now, as CSV."""
    view, _, shown = _shown(now, lab, s)
    return state.weights_csv(state.weights_at(shown, view.tau, view.causal)[i], shown.texts)


def npz_now(now: dict, lab: state.Lab, s: Settings) -> bytes:
    """Every matrix of the view as it is now, in one .npz."""
    view, _, shown = _shown(now, lab, s)
    return state.all_npz(shown, view.tau, view.causal)


def settings_json(now: dict, lab: state.Lab, s: Settings) -> str:
    """The settings the view shows now, with what the numbers were computed with."""
    view, settings, shown = _shown(now, lab, s)
    used = shown.record.as_dict()  # what the numbers were computed with
    settings = {**asdict(settings), "head": view.head + 1, "tau": view.tau, "in_force": used}
    return json.dumps(settings, ensure_ascii=False, indent=2)


def page_top() -> Settings:
    """The first screen's top, kept short so that the view's first row of maps fits under it: the
    title with the lesson's link beside it, then the sentence row (ui/sidebar.py sentence_box)."""
    lesson = str(Path(__file__).with_name("lesson.py"))  # the projected lesson, /lesson
    with st.container(key="main_top", gap="xsmall"):
        with st.container(horizontal=True, vertical_alignment="center", key="main_title"):
            s, _ = widgets.open_page("main.title", title_width="content")
            st.page_link(lesson, label=t("main.lesson_link", s.lang), help=t("lesson.open", s.lang))
        sidebar.show_notices(sidebar.link_notices(s), s.lang)
        sidebar.sentence_box(s.lang)
    return s


def main() -> None:
    ss = st.session_state
    ss[PAGE_RUNS] = ss.get(PAGE_RUNS, 0) + 1
    s = page_top()
    lab, notices = state.lab_for(s)
    sidebar.show_notices(notices, s.lang)
    if lab is None:
        return
    explorer.mount_code()  # the view's code: once per full run, never in the fragment's
    ss[FULL_RUN] = True
    try:
        view_fragment(lab, s)
    finally:  # an interrupted run too: the fragment's own runs then know they are alone
        ss[FULL_RUN] = False
    sidebar.own_settings("scale", "causal")  # the view's switches are the settings here
    weights_line(lab, s)  # what the view above was computed with, and the switch
    if not s.classroom:  # the projector needs the room for the maps
        st.caption(t("main.intro", s.lang))
    matrices_section(lab, s)
    export_section(lab, s)


main()
