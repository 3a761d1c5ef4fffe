"""Sidebar and sentence widgets → one Settings dataclass, kept in sync with the share-link query."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path

import streamlit as st

from ui.state import Notice, trained_available, trained_config
from ui.text import LANGS, md_escape, t

EXAMPLES_FILE = Path(__file__).resolve().parent.parent / "assets" / "examples.json"
DEFAULT_SENTENCE = "小明把书放在了桌子上，然后他走了。"
D_MODEL_MIN, D_MODEL_MAX, D_MODEL_STEP = 8, 256, 8
MAX_HEADS = 16
SEED_MAX = 999_999
MAX_URL_SENTENCE = 2000  # characters of the sentence written into the address bar
QUERY_KEYS = (
    "s",
    "d",
    "h",
    "scale",
    "causal",
    "pos",
    "seed",
    "w",
    "focus",
    "mode",
    "lang",
    "class",
    "shared",
    "nums",
)
# Page-level query parameters (not Settings fields), kept in links instead of reported unknown:
# the main page's inspected head (1-based), the view's temperature τ and which occurrence of the
# focus token it looks from (nth=2: the second 了) (pages/main.py); the lesson's scene
# (pages/lesson.py).
PAGE_QUERY_KEYS: tuple[str, ...] = ("head", "tau", "nth", "at")
# Settings a page may own on its screen (its own control is the setting; the sidebar then shows
# no second one): pages call `own_settings(...)` before the sidebar is drawn.
OWNABLE = ("scale", "causal", "pos")
OWNED = "_page_owns"  # session key: what the page running now owns
OWNED_NOTE = "_page_owns_note"  # session key: the sidebar's line saying where they are


@dataclass(frozen=True)
class Settings:
    """Every control shared by the pages; validated so a page can trust it."""

    sentence: str = DEFAULT_SENTENCE  # the text as typed (tokenize() cuts and reports)
    mode: str = "word"  # "word" (jieba) or "char"
    d_model: int = 64  # model width, a multiple of 8 in 8…256
    heads: int = 4  # h, a divisor of d_model, at most MAX_HEADS
    scale: bool = True  # divide Q·Kᵀ by √d_k
    causal: bool = False  # mask future tokens
    pos: bool = False  # add sinusoidal positions to X
    seed: int = 0  # seed of the random projections
    weights: str = "trained"  # "trained" (the demo model) or "random" (the playground)
    focus: str = ""  # text of the focus token ("" = 他 if present)
    shared_scale: bool = True  # one 0–1 colour scale for all heads
    numbers: bool = False  # numbers in heatmap cells
    lang: str = "zh"  # "zh" or "en"
    classroom: bool = False  # projection mode

    def __post_init__(self) -> None:
        if self.mode not in ("word", "char"):
            raise ValueError(f"mode must be 'word' or 'char', got {self.mode!r}")
        if not D_MODEL_MIN <= self.d_model <= D_MODEL_MAX:
            raise ValueError(f"d_model must be in {D_MODEL_MIN}…{D_MODEL_MAX}, got {self.d_model}")
        if self.heads < 1 or self.d_model % self.heads:
            raise ValueError(f"heads={self.heads} must divide d_model={self.d_model}")
        if self.weights not in ("random", "trained"):
            raise ValueError(f"weights must be 'random' or 'trained', got {self.weights!r}")
        if self.lang not in LANGS:
            raise ValueError(f"lang must be one of {LANGS}, got {self.lang!r}")


DEFAULTS = Settings()
# Widget keys in st.session_state, one per Settings field except focus (kept as "focus_text").
WIDGET_KEYS = tuple(f for f in asdict(DEFAULTS) if f != "focus")


def head_options(d_model: int) -> list[int]:
    """Head counts offered for a width: the divisors of d_model up to MAX_HEADS."""
    return [h for h in range(1, min(d_model, MAX_HEADS) + 1) if d_model % h == 0]


def nearest_heads(d_model: int, heads: int) -> int:
    """The offered head count closest to `heads` (ties go to the smaller)."""
    return min(head_options(d_model), key=lambda h: (abs(h - heads), h))


@cache
def examples() -> tuple[dict, ...]:
    """Preset sentences from assets/examples.json (read once; an empty tuple if missing)."""
    try:
        return tuple(json.loads(EXAMPLES_FILE.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return ()


# ---- share links: query parameters ⇄ settings ------------------------------------------------

_FLAGS = {
    "scale": "scale",
    "causal": "causal",
    "pos": "pos",
    "class": "classroom",
    "shared": "shared_scale",
    "nums": "numbers",
}
_CHOICES = {
    "w": ("weights", ("random", "trained")),
    "mode": ("mode", ("word", "char")),
    "lang": ("lang", LANGS),
}
_TRUE, _FALSE = ("1", "true", "on", "yes"), ("0", "false", "off", "no")


def _short(value: str, limit: int = 40) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _bad(name: str, value: str, used: object) -> Notice:
    return ("warning", "notice.param_bad", {"name": name, "value": _short(value), "used": used})


def _clamped(name: str, value: str, used: object) -> Notice:
    return ("warning", "notice.param_clamped", {"name": name, "value": _short(value), "used": used})


def _parse_int(name: str, raw: str, lo: int, hi: int, default: int) -> tuple[int, Notice | None]:
    """An integer clamped to lo…hi; a non-number falls back to `default` with a notice."""
    try:
        value = int(raw.strip())
    except ValueError:
        return default, _bad(name, raw, default)
    used = min(max(value, lo), hi)
    return used, None if used == value else _clamped(name, raw, used)


def _parse_d_model(raw: str) -> tuple[int, Notice | None]:
    """d_model clamped to its range, then to the nearest multiple of D_MODEL_STEP (the slider's
    values); each change noticed with its own reason."""
    value, note = _parse_int("d", raw, D_MODEL_MIN, D_MODEL_MAX, DEFAULTS.d_model)
    stepped = max(D_MODEL_MIN, D_MODEL_STEP * round(value / D_MODEL_STEP))
    if note is None and stepped != value:
        fmt = {"name": "d", "value": _short(raw), "step": D_MODEL_STEP, "used": stepped}
        note = ("warning", "notice.param_stepped", fmt)
    return stepped, note


def _parse_one(name: str, raw: str, found: dict) -> Notice | None:
    """Parse one known parameter into `found` (settings field → value); return its notice."""
    if name == "s":
        found["sentence"] = raw
    elif name == "focus":
        found["focus"] = raw[:100]
    elif name == "d":
        found["d_model"], note = _parse_d_model(raw)
        return note
    elif name == "h":
        found["heads"], note = _parse_int("h", raw, 1, MAX_HEADS, DEFAULTS.heads)
        return note
    elif name == "seed":
        found["seed"], note = _parse_int("seed", raw, 0, SEED_MAX, DEFAULTS.seed)
        return note
    elif name in _FLAGS:
        field = _FLAGS[name]
        if raw.strip().lower() not in _TRUE + _FALSE:
            return _bad(name, raw, int(getattr(DEFAULTS, field)))
        found[field] = raw.strip().lower() in _TRUE
    elif name in _CHOICES:
        field, allowed = _CHOICES[name]
        if raw.strip().lower() not in allowed:
            return _bad(name, raw, getattr(DEFAULTS, field))
        found[field] = raw.strip().lower()
    return None


def parse_query(params: dict[str, list[str]], *, trained_ok: bool) -> tuple[dict, list[Notice]]:
    """Query parameters (name → all its values) → settings fields to apply, and notices.

    Out-of-range numbers are clamped, unparseable values ignored, repeats use the first value,
    unknown names are listed; never raises.
    """
    found: dict = {}
    notes: list[Notice] = []
    unknown = [n for n in params if n not in QUERY_KEYS and n not in PAGE_QUERY_KEYS]
    for name in QUERY_KEYS:
        values = params.get(name) or []
        if not values:
            continue
        if len(values) > 1:
            notes.append(("warning", "notice.param_repeated", {"name": name}))
        note = _parse_one(name, str(values[0]), found)
        if note:
            notes.append(note)
    d_model = found.get("d_model", DEFAULTS.d_model)
    heads = found.get("heads", DEFAULTS.heads)
    if d_model % heads:
        used = nearest_heads(d_model, heads)
        notes.append(("warning", "notice.heads_adjusted", {"h": heads, "d": d_model, "used": used}))
        found["heads"] = used
    if found.get("weights") == "trained" and not trained_ok:
        found["weights"] = "random"
        notes.append(("warning", "side.weights_unavailable", {}))
    if unknown:
        names = ", ".join(_short(n, 20) for n in unknown[:8])
        notes.append(("info", "notice.param_unknown", {"names": names}))
    return found, notes


def to_query(settings: Settings) -> dict[str, str]:
    """Settings → the share-link parameters named in DESIGN.md."""
    return {
        "s": settings.sentence[:MAX_URL_SENTENCE],
        "d": str(settings.d_model),
        "h": str(settings.heads),
        "scale": str(int(settings.scale)),
        "causal": str(int(settings.causal)),
        "pos": str(int(settings.pos)),
        "seed": str(settings.seed),
        "w": settings.weights,
        "focus": settings.focus,
        "mode": settings.mode,
        "lang": settings.lang,
        "class": str(int(settings.classroom)),
    } | display_query(settings)


# The display switches go into links only when they differ from the defaults (shared=0, nums=1):
# the link holds what the screen shows, and a default link stays short.
DISPLAY_KEYS = ("shared", "nums")


def display_query(settings: Settings) -> dict[str, str]:
    """The display switches' link parameters that differ from the defaults."""
    out = {}
    if settings.shared_scale != DEFAULTS.shared_scale:
        out["shared"] = str(int(settings.shared_scale))
    if settings.numbers != DEFAULTS.numbers and not settings.classroom:  # class=1 implies it
        out["nums"] = str(int(settings.numbers))
    return out


# ---- Streamlit side: session defaults, sidebar, sentence box ---------------------------------

LANG_NAMES = {"zh": "中文", "en": "English"}
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
            if name not in QUERY_KEYS and name not in PAGE_QUERY_KEYS:
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
    """The UI language from the session (zh before the switch is drawn)."""
    lang = st.session_state.get("lang", DEFAULTS.lang)
    return lang if lang in LANGS else DEFAULTS.lang


def _fix_heads() -> None:
    """After d_model moves, keep h a divisor of it."""
    ss = st.session_state
    ss["heads"] = nearest_heads(ss["d_model"], ss.get("heads", DEFAULTS.heads))


def _frame_controls() -> str:
    """Language and classroom switches; returns the language."""
    st.radio(
        t("side.lang", current_lang()),
        LANGS,
        key="lang",
        horizontal=True,
        format_func=LANG_NAMES.get,
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


def sidebar(fixed_weights: str | None = None) -> Settings:
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


def sentence_box(lang: str) -> None:
    """Example presets, the sentence box and the word/char switch (values land in the session)."""
    presets = examples()
    if presets:
        st.pills(
            t("main.examples", lang),
            options=list(range(len(presets))),
            key="example",
            format_func=lambda i: md_escape(presets[i].get(lang) or presets[i]["text"]),
            on_change=_use_example,
        )
    box, mode = st.columns([4, 1], vertical_alignment="top")
    with box:
        st.text_area(t("main.sentence", lang), key="sentence", height=68, persist_state="session")
        # Streamlit's own "Press Ctrl+Enter to apply" is English and hidden (style.css); this
        # says it in the UI language, and the button applies a typed sentence on a phone too
        # (leaving the box commits its text; the click reruns the page with it).
        with st.container(horizontal=True, vertical_alignment="center", key="sentence_apply_row"):
            st.button(t("sentence.apply", lang), key="sentence_apply", icon=":material/check:")
            st.caption(t("sentence.apply_hint", lang))
    mode.radio(
        t("main.mode", lang),
        ["word", "char"],
        key="mode",
        horizontal=True,  # one row on a phone, where the columns stack
        persist_state="session",
        format_func=lambda m: t(MODE_KEYS[m], lang),
    )


def sync_query(settings: Settings) -> None:
    """Write the settings into the address bar (only the parameters that changed)."""
    wanted = to_query(settings)
    changed = {k: v for k, v in wanted.items() if st.query_params.get_all(k) != [v]}
    if changed:
        st.query_params.update(changed)
    for name in DISPLAY_KEYS:  # back at its default: the parameter leaves the link
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
