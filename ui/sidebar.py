"""The settings' Streamlit side: session defaults from the share link, the shared sidebar, the
sentence box, and the address bar kept in step with the settings."""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from ui import text
from ui.links import PARAMS, QUERY_KEYS, lesson_query, parse_query, to_query
from ui.settings import (
    D_MODEL_MAX,
    D_MODEL_MIN,
    D_MODEL_STEP,
    DEFAULTS,
    EXAMPLES_FILE,
    SEED_MAX,
    WIDGET_KEYS,
    Settings,
    examples,
    head_options,
    nearest_heads,
)
from ui.state import Notice, trained_available, trained_config
from ui.text import md_escape, t
from ui.text.load import FALLBACK

# Settings a page may own on its screen (its own control is the setting; the sidebar then shows
# no second one): pages call `own_settings(...)` before the sidebar is drawn.
OWNABLE = ("scale", "causal", "pos")
OWNED = "_page_owns"  # session key: what the page running now owns
OWNED_NOTE = "_page_owns_note"  # session key: the sidebar's line saying where they are

# Each radio option → the key of its label.
WEIGHTS_KEYS = {"random": "side.weights.random", "trained": "side.weights.trained"}
MODE_KEYS = {"word": "main.mode.word", "char": "main.mode.char"}


def init_state() -> None:
    """Session defaults, set once; on a session's first run the share link's values win."""
    ss = st.session_state
    if "_link_read" not in ss:
        params = {name: st.query_params.get_all(name) for name in st.query_params}
        found, notes = parse_query(params, trained_ok=trained_available())
        for field, value in found.items():
            ss["focus_text" if field == "focus" else field] = value
        for name in params:
            if name not in PARAMS:
                del st.query_params[name]
        ss["_link_notices"] = notes
        ss["_link_read"] = True
    for field in WIDGET_KEYS:
        # Re-assigning keeps a widget's value when its id changes between runs (AppTest runs
        # every time through Streamlit's legacy pages/ path, the server only before
        # ui.routing's rerun) and when a page run skips drawing it.
        ss[field] = ss.get(field, getattr(DEFAULTS, field))
    ss.setdefault("focus_text", DEFAULTS.focus)
    if ss["heads"] not in head_options(ss["d_model"]):
        ss["heads"] = nearest_heads(ss["d_model"], ss["heads"])


def current_lang() -> str:
    """The UI language from the session (the default one before the picker is drawn)."""
    lang = st.session_state.get("lang", DEFAULTS.lang)
    return lang if lang in text.LANGUAGES else DEFAULTS.lang


def _fix_heads() -> None:
    """After d_model moves, keep h a divisor of it."""
    ss = st.session_state
    ss["heads"] = nearest_heads(ss["d_model"], ss.get("heads", DEFAULTS.heads))


def _frame_controls() -> str:
    """Language and classroom switches; returns the language."""
    st.radio(
        t("side.lang", current_lang()),
        list(text.LANGUAGES),
        key="lang",
        horizontal=True,
        format_func=lambda code: text.LANGUAGES[code].name,
    )
    lang = current_lang()
    st.toggle(
        t("side.classroom", lang),
        key="classroom",
        help=t("side.classroom_help", lang),
        on_change=_classroom_sidebar,
    )
    return lang


SIDEBAR_STATE = "_sidebar_state"  # session key app.py passes to st.set_page_config
COLLAPSE_NOW = "_collapse_sidebar"  # session key: classroom was just switched on
# Streamlit's « pressed once: a changed page config loses to the choice the browser remembers.
COLLAPSE_JS = (EXAMPLES_FILE.parent / "collapse_sidebar.html").read_text(encoding="utf-8")


def _classroom_sidebar() -> None:
    """Classroom on: the sidebar collapses, as its help says (» brings it back); off: Streamlit's
    own choice (open on a desktop). A link with class=1 opens collapsed (app.py)."""
    ss = st.session_state
    ss[SIDEBAR_STATE] = "collapsed" if ss.get("classroom") else "auto"
    ss[COLLAPSE_NOW] = bool(ss.get("classroom"))


def _weights_control(lang: str, fixed: str | None) -> str:
    """The weights radio, or, on a page that always uses one source, that source greyed out
    with a line saying so (the shared setting stays as it was). Returns the source in use."""
    ss = st.session_state
    trained_ok = trained_available()
    if not trained_ok and ss["weights"] == "trained":
        ss["weights"] = "random"
    options = ["trained", "random"] if trained_ok else ["random"]
    if fixed in ("random", "trained"):
        st.radio(
            t("side.weights", lang),
            ["trained", "random"],
            index=["trained", "random"].index(fixed),
            key=f"weights_fixed_{fixed}",  # one widget per source: never a stale choice
            disabled=True,
            format_func=lambda w: t(WEIGHTS_KEYS[w], lang),
        )
        st.caption(t("side.weights_fixed", lang, name=t(WEIGHTS_KEYS[fixed], lang)))
        return fixed
    st.radio(
        t("side.weights", lang),
        options,
        key="weights",
        format_func=lambda w: t(WEIGHTS_KEYS[w], lang),
    )
    if not trained_ok:
        st.caption(t("side.weights_unavailable", lang))
    return ss["weights"]


def _model_controls(lang: str, fixed_weights: str | None = None) -> None:
    """Weights source, d_model, heads, scaling, mask, positions, seed."""
    ss = st.session_state
    st.header(t("side.controls", lang))
    fixed = _weights_control(lang, fixed_weights) == "trained"
    st.slider(
        t("side.d_model", lang),
        D_MODEL_MIN,
        D_MODEL_MAX,
        step=D_MODEL_STEP,
        key="d_model",
        on_change=_fix_heads,
        disabled=fixed,
    )
    st.select_slider(
        t("side.heads", lang), options=head_options(ss["d_model"]), key="heads", disabled=fixed
    )
    config = trained_config() if fixed else None
    if config is not None:  # the greyed sliders keep the random-weights values; say what is used
        st.caption(t("side.trained_fixed", lang, d=config.d_model, h=config.num_heads))
    owned = st.session_state.pop(OWNED, ())
    note = st.session_state.pop(OWNED_NOTE, "")
    if "scale" not in owned:
        st.toggle(t("side.scale", lang), key="scale")
    if "causal" not in owned:
        st.toggle(t("side.causal", lang), key="causal")  # a what-if on any weights' scores
    if "pos" not in owned:
        st.toggle(t("side.pos", lang), key="pos", disabled=fixed)
        if fixed:
            st.caption(t("side.trained_pos", lang))
    if owned:  # the page's own switches are the settings: say where they are
        st.caption(note or t("explorer.side_owned", lang))
    st.number_input(t("side.seed", lang), 0, SEED_MAX, step=1, key="seed", disabled=fixed)


def own_settings(*fields: str, note: str = "") -> None:
    """The running page shows its own control for these settings (OWNABLE); the sidebar, drawn
    after the page, leaves its own out this run, so the screen has one control per setting, and
    shows `note` (in the UI language: where the page's switches are) in their place."""
    st.session_state[OWNED] = tuple(f for f in fields if f in OWNABLE)
    st.session_state[OWNED_NOTE] = note


def _display_controls(lang: str) -> None:
    st.header(t("side.display", lang))
    st.toggle(t("side.shared_scale", lang), key="shared_scale")
    st.toggle(t("side.numbers", lang), key="numbers", disabled=st.session_state["classroom"])
    st.caption(t("side.share", lang))


def draw(fixed_weights: str | None = None) -> Settings:
    """Draw the shared sidebar (every page) and return the settings it holds.

    fixed_weights: "random" or "trained" on a page that always uses that source, so the
    sidebar names the weights the page actually shows (app.py PAGES says which page).
    """
    with st.sidebar:
        lang = _frame_controls()
        _model_controls(lang, fixed_weights)
        _display_controls(lang)
        if st.session_state.pop(COLLAPSE_NOW, False):
            st.html(COLLAPSE_JS, unsafe_allow_javascript=True)
    return current_settings()


def current_settings() -> Settings:
    """The shared Settings from st.session_state (call after init_state); never raises."""
    ss = st.session_state
    values = {f: ss.get(f, getattr(DEFAULTS, f)) for f in WIDGET_KEYS}
    values["focus"] = str(ss.get("focus_text", "") or "")
    values["sentence"] = str(values["sentence"] or "")
    values["seed"] = int(values["seed"] or 0)
    values["numbers"] = bool(values["numbers"] or values["classroom"])
    try:
        return Settings(**values)
    except (TypeError, ValueError):
        safe = {f: values[f] for f in ("sentence", "focus", "lang") if f in values}
        return replace(DEFAULTS, **{**safe, "lang": current_lang()})


def _use_example() -> None:
    ss = st.session_state
    chosen = ss.get("example")
    presets = examples()
    if chosen is not None and 0 <= chosen < len(presets):
        ss["sentence"] = presets[chosen]["text"]
        ss["focus_text"] = ""
    ss["example"] = None
    ss[EXAMPLES_MENU] = False  # chosen: the menu closes, the view under it shows the sentence


def example_label(preset: dict, lang: str) -> str:
    """A preset's chip label in the UI language (English without one, else the sentence)."""
    return preset.get(lang) or preset.get(FALLBACK) or preset["text"]


EXAMPLES_MENU = "examples_menu"  # session key: the examples' popover is open


def example_menu(lang: str) -> None:
    """The example presets behind one button (a popover), so the sentence row stays one line; the
    pills are drawn while it is open, and choosing one closes it."""
    presets = examples()
    menu = st.popover(
        t("main.examples", lang), icon=":material/list:", key=EXAMPLES_MENU, on_change="rerun"
    )
    if not menu.open:
        return
    with menu:
        st.pills(
            t("main.examples", lang),
            options=list(range(len(presets))),
            key="example",
            format_func=lambda i: md_escape(example_label(presets[i], lang)),
            on_change=_use_example,
        )


def sentence_box(lang: str) -> None:
    """The sentence row: the box; Apply and the example presets, with how to apply a typed
    sentence under them; the word/char switch. One row on a laptop, stacked on a phone (values
    land in the session)."""
    with st.container(
        horizontal=True, key="sentence_row", vertical_alignment="bottom", gap="small"
    ):
        st.text_area(t("main.sentence", lang), key="sentence", height=68, persist_state="session")
        with st.container(key="sentence_actions", gap="xxsmall", width="content"):
            # Streamlit's own "Press Ctrl+Enter to apply" is English and hidden (style.css); the
            # caption says it in the UI language, and the button applies a typed sentence on a
            # phone too (leaving the box commits its text; the click reruns the page with it).
            with st.container(horizontal=True, gap="xsmall", wrap=False, key="sentence_apply_row"):
                st.button(t("sentence.apply", lang), key="sentence_apply", icon=":material/check:")
                example_menu(lang)
            st.caption(t("sentence.apply_hint", lang))
        st.radio(
            t("main.mode", lang),
            ["word", "char"],
            key="mode",
            horizontal=True,  # one row on a phone, where the row stacks
            persist_state="session",
            format_func=lambda m: t(MODE_KEYS[m], lang),
        )


def sync_query(settings: Settings, lesson: bool = False) -> None:
    """Write the settings into the address bar (only the parameters that changed); on the
    lesson, only what a lesson link carries (links.lesson_query)."""
    wanted = lesson_query(settings) if lesson else to_query(settings)
    changed = {k: v for k, v in wanted.items() if st.query_params.get_all(k) != [v]}
    if changed:
        st.query_params.update(changed)
    for name in QUERY_KEYS:  # a display switch back at its default leaves the link
        if name not in wanted and name in st.query_params:
            del st.query_params[name]


def show_notices(notices: list[Notice], lang: str) -> None:
    """Render notices as st.warning / st.info; user-supplied values are Markdown-escaped."""
    for level, key, fmt in notices:
        safe = {k: md_escape(v) if isinstance(v, str) else v for k, v in fmt.items()}
        (st.warning if level == "warning" else st.info)(t(key, lang, **safe))


def link_notices(settings: Settings) -> list[Notice]:
    """Notices about the share link this session opened with, until a setting changes."""
    ss = st.session_state
    first = ss.setdefault("_link_settings", settings)
    if settings != first:
        ss["_link_notices"] = []
    return list(ss.get("_link_notices", []))
