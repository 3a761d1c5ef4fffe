"""The lesson (/lesson?at=N&step=K): the article's §1–§10 as scenes for a projector, one at a time.

The page's Streamlit side: the scene and step the link opens on, a new sentence from the deck,
the numbers of every scene for this sentence (cached), and the header the deck reads
(ui/lesson/). Scenes and steps are the browser's: the deck writes them into the link itself
(history.replaceState), so turning a page never reruns this script.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import replace
from functools import partial

import numpy as np
import streamlit as st

import classroom
from attention_core.experiments import cell_counts
from ui import explorer, palette, sidebar, state, text
from ui.lesson import data, deck, measure, scenes, skeleton, words
from ui.lesson.class_text import class_text
from ui.links import MAX_URL_SENTENCE, parse_query
from ui.routing import ensure_router
from ui.settings import DEFAULT_SENTENCE, Settings
from ui.text import t

PRESENTER = "presenter"  # the link key of the teacher's second window: /lesson?presenter=1
STEP_CHARS = 40  # characters of the link's step= passed on (a number or a step's id)
BLOCKS = "_lesson_blocks"  # measurements the deck asked for: "variance" (§5), "cost" (§7)
ACK = "lesson_ack"  # sequence number of the last deck state applied
# Static CSS of the lesson page (no user text): the deck takes the whole screen under
# Streamlit's transparent header, whose » (sidebar) and ⋮ (menu) buttons stay clickable.
PAGE_CSS = """<style>
[data-testid="stMainBlockContainer"] { padding: 0 8px !important; max-width: none !important; }
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] { gap: 0 !important; }
[data-testid="stHeader"] { background: transparent !important; }
[data-testid="stHeader"], [data-testid="stHeader"] * { pointer-events: none !important; }
[data-testid="stHeader"] :is(button, a, [role="button"]) { pointer-events: auto !important; }
.st-key-lesson_h1 {
  position: absolute !important; width: 1px; height: 1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap;
}
/* A rerun (a scene change, a measurement) never dims the deck nor flashes "Running…" over its
   tools: the deck already shows the new state; the figure says when it waits for a measurement. */
[data-testid="stStatusWidget"] { display: none !important; }
[data-testid="stMainBlockContainer"] [data-stale="true"] { opacity: 1 !important; }
/* The printed handout (the deck's print rules lay out its pages): nothing of Streamlit's frame,
   and no box that clips the pages to one screen. */
@media print {
  [data-testid="stSidebar"], [data-testid="stHeader"], [data-testid="stToolbar"],
  [data-testid="stDecoration"], [data-testid="stBottom"] { display: none !important; }
  html, body, #root, [data-testid="stApp"], [data-testid="stAppViewContainer"],
  [data-testid="stMain"], [data-testid="stMainBlockContainer"] {
    height: auto !important; overflow: visible !important; position: static !important;
  }
}
</style>"""


# ---- the scene in the link ----------------------------------------------------------------------


def parse_at(raw: str | None) -> tuple[int | float, bool]:
    """(scene, exact) for the link's at=: a scene's number (ui/lesson/scenes.py), the nearest
    scene for another number, the first for anything else."""
    first = scenes.SCENES[0].number
    if raw is None:
        return first, True
    try:
        value = float(str(raw).strip())
    except ValueError:
        return first, False
    if not math.isfinite(value):
        return first, False
    return scenes.nearest(value)


def link_of(lang: str) -> tuple[int | float, str | None, list[str]]:
    """(scene, step, notices) the link names: at= (the nearest scene for a bad one, with a
    notice), step= as written (the deck reads a number or a step's id). Read on every run: the
    deck takes them when it starts (a fresh load, a share link), and owns them afterwards."""
    raw = st.query_params.get("at")
    at, exact = parse_at(raw)
    bad = [] if exact else [t("lesson.at_bad", lang, value=raw[:20], n=data.SCENES, used=at)]
    step = st.query_params.get("step")
    return at, None if step is None else str(step)[:STEP_CHARS], bad


def write_link(at: int) -> None:
    """at= into the address bar when the link has none or a bad one; the deck writes at= and
    step= itself from then on (the settings: app.py's sidebar.sync_query)."""
    if st.query_params.get("at") != str(at):
        st.query_params["at"] = str(at)


# ---- the live class in the link (room=new | room=CODE: the teacher; join=CODE: a phone) ---------

CODE_RE = re.compile(r"[2-9A-HJ-NP-Z]{4,6}")  # classroom/codes.py's alphabet: no 0/O/1/I


def class_of(lang: str) -> dict:
    """What the deck needs of the class the link names: room ("new" or a code), join (a code),
    the class's words. A malformed code is passed on as it was typed (cut), so the phone says
    that no class has it; the deck's class.js talks to the server itself."""
    room = str(st.query_params.get("room") or "")[:8].strip()
    join = str(st.query_params.get("join") or "")[:8].strip().upper()
    room = room if room == "new" or CODE_RE.fullmatch(room) else ""
    service = classroom.running()
    return {
        "room": room or None,
        "join": join or None,
        "text": class_text(lang),
        # the join hint names the command that runs this server, opened to the LAN (make serve
        # sets SERVE_HOST for its app processes; make run does not)
        "command": f"make {'serve' if os.environ.get('SERVE_HOST') else 'run'} HOST=0.0.0.0",
        # TEACHER_PASSCODE set: starting a class asks for it (never sent: only whether it is set)
        "passcode": bool(service and service.settings.passcode),
    }


# ---- what the deck sends back: a new sentence ---------------------------------------------------


# The teacher's model a following phone takes with the sentence (the class's setup: settings_of's
# names → the link's), read as a link is read: a forged value is clamped or dropped.
FOLLOWED = {"weights": "w", "d": "d", "h": "h", "seed": "seed", "pos": "pos", "mode": "mode"}


def apply_deck() -> None:
    """on_deck_change: a new sentence from the deck's sentence box, or a class's sentence and
    model for a phone that follows it (nothing else reruns)."""
    ss = st.session_state
    got = (ss.get(deck.KEY) or {}).get("deck")
    if not isinstance(got, dict):
        return
    if isinstance(got.get("sentence"), str):
        ss["sentence"] = got["sentence"][:MAX_URL_SENTENCE]
        ss["focus_text"] = ""
    if isinstance(got.get("model"), dict):
        params = {FOLLOWED[k]: [str(int(v) if isinstance(v, bool) else v)[:16]]
                  for k, v in got["model"].items() if k in FOLLOWED}  # fmt: skip
        found, _ = parse_query(params, trained_ok=state.trained_available())
        ss.update(found)
    if isinstance(got.get("seq"), int):
        ss[ACK] = got["seq"]


def ask_block() -> None:
    """on_block_change: the deck reached a scene whose measurement is not made yet."""
    ss = st.session_state
    names = str((ss.get(deck.KEY) or {}).get("block") or "").split()  # every one asked so far
    ss[BLOCKS] = sorted({*ss.get(BLOCKS, []), *(n for n in names if n in ("variance", "cost"))})


# ---- numbers (cached: widget values in, plain data out) -----------------------------------------


def trained_lab(s: Settings) -> state.Lab | None:
    """The trained model on this sentence (the settings' √d_k and mask), or None without it."""
    if not state.trained_available():
        return None
    lab, _ = state.lab_for(replace(s, weights="trained"))
    return lab if lab is not None and lab.source == "trained" else None


@st.cache_data(max_entries=24, ttl=3600, show_spinner=False)
def sentence_set(s: Settings, prefix: str) -> tuple[dict, dict[str, np.ndarray]]:
    """The sentence's part (the settings' weights) and the trained model's part, and which
    scenes this sentence cannot show."""
    say = partial(t, lang=s.lang)
    lab, _ = state.lab_for(s)
    info, arrays = (None, {}) if lab is None else data.lab_part(lab, prefix, s.focus, s.lang)
    found = trained_lab(s) if lab is not None else None
    tinfo = None
    if found is not None:
        tinfo, tarr = data.trained_part(found, prefix + "t.", s.focus, s.sentence, say, s.lang)
        arrays.update(tarr)
    if info is not None:
        info["skeleton"] = skeleton_part(arrays, prefix, info)
    needs = data.scene_needs(info, tinfo)
    if found is None and lab is not None and tinfo is None:
        needs.update({k: "lesson.need.trained" for k in data.TRAINED_SCENES})
    return {"lab": info, "trained": tinfo, "needs": needs}, arrays


def skeleton_part(arrays: dict, prefix: str, info: dict) -> dict:
    """§9: the skeleton's weights of head 1 (X and head 1's columns of W_Q, W_K, W_V), mask off
    and on, added to `arrays` (the lesson's numbers always divide by √d_k: lesson_settings)."""
    x = arrays[f"{prefix}x"]  # (n, d_model)
    d_k = info["d_k"]
    w_q, w_k, w_v = (arrays[f"{prefix}w_{m}"][:, :d_k] for m in "qkv")  # (d_model, d_k) head 1
    head = 0
    for causal in (False, True):
        mask = skeleton.causal_mask(info["n"]) if causal else None
        _, w = skeleton.attention(x, w_q, w_k, w_v, mask=mask)  # (n, n)
        arrays[f"{prefix}sk{int(causal)}"] = w
    return {"head": head}


@st.cache_data(max_entries=8, show_spinner=False)
def order_set(d_model: int, heads: int, seed: int):
    return data.order_part(d_model, heads, seed)


@st.cache_data(max_entries=4, show_spinner=False)
def variance_block(seed: int, d_k: int | None) -> dict:
    return measure.variance_block(seed, d_k)


@st.cache_data(max_entries=1, ttl=3600, show_spinner=False)
def cost_block() -> dict:
    return measure.cost_block()


# ---- which window this is: the projector, the presenter, a phone in a class -------------------


def window_of() -> str:
    """ "joined" (a browser that joined a class: never the teacher's notes), "presenter" (the
    teacher's second window, /lesson?presenter=1) or "deck" (the projector, a reader alone)."""
    if "join" in st.query_params:
        return "joined"
    return "presenter" if st.query_params.get(PRESENTER) == "1" else "deck"


def gets_notes(window: str) -> bool:
    """The notes go to the presenter window alone: in a class (room=CODE) only when this browser
    holds the class's secret. Without a class: on a server only this machine reaches, the reader
    is their own teacher; on one that phones can reach (HOST not loopback, SERVE_HOST, or
    PUBLIC_URL: classroom.exposed), only a browser that leads a live class (its cookie)."""
    if window != "presenter":
        return False
    room = st.query_params.get("room")
    cookies = st.context.cookies
    if room is not None:
        return classroom.is_teacher(str(room)[:STEP_CHARS], cookies)
    if classroom.exposed(st.get_option("server.address") or ""):
        return classroom.leads_any(cookies)
    return True


def lesson_settings(s: Settings) -> Settings:
    """The settings the lesson's numbers are made with: the session's sentence and model; √d_k
    on, no mask and the default focus (each scene's what-ifs are its own, in the browser)."""
    return replace(s, scale=True, causal=False, focus="")


def settings_of(s: Settings) -> dict:
    return {
        "sentence": s.sentence,
        "weights": s.weights,
        "d": s.d_model,
        "h": s.heads,
        "seed": s.seed,
        "pos": s.pos,
        "mode": s.mode,
    }


def notices_for(s: Settings, more: list[str]) -> list[str]:
    """The link's notices in plain text (the deck sets textContent: nothing is markup)."""
    return [t(key, s.lang, **fmt) for _, key, fmt in sidebar.link_notices(s)] + more


def build(s: Settings, link: tuple[int, str | None, list[str]]) -> tuple[dict, dict]:
    """The deck's header and arrays for these settings, opening on the link's scene and step."""
    at, step, bad = link
    linked = "at" in st.query_params
    user, arrays = sentence_set(s, "u.")
    sets = {"user": user}
    if any(user["needs"].values()):
        example = replace(s, sentence=DEFAULT_SENTENCE, focus="")
        sets["example"], more = sentence_set(example, "e.")
        arrays = {**arrays, **more}
    order, oarr = order_set(s.d_model, s.heads, s.seed)
    blocks = {"variance": None, "cost": None}
    klass = class_of(s.lang)
    # A teacher's class shows the projector's figures on every phone: measure both up front.
    wanted = ("variance", "cost") if klass["room"] else st.session_state.get(BLOCKS, [])
    for name in wanted:
        d_k = user["lab"]["d_k"] if user["lab"] else None  # §5 measures the sentence's d_k too
        blocks[name] = variance_block(s.seed, d_k) if name == "variance" else cost_block()
    window = window_of()
    header = {
        "v": 1,
        "window": window,  # "deck", "presenter" (the notes' window) or "joined" (window_of)
        "at": at,
        "linked": linked,  # the link names a scene (else the deck may go where it left off)
        "step": step,
        "scenes": data.SCENES,
        "numbers": scenes.NUMBERS,  # each scene's number, as its text table declares it
        "labs": scenes.LABS,  # each scene's lab page ("try it in the lab")
        "ack": int(st.session_state.get(ACK, 0) or 0),
        "lang": s.lang,
        "html_lang": text.LANGUAGES[s.lang].html,  # the deck's <html lang> (frame.js)
        "settings": settings_of(s),
        "notices": notices_for(s, bad),
        "text": words.strings(s.lang),
        # Only the presenter window of the lesson's teacher gets the notes (gets_notes): §5's
        # state the answer, and the projector shows the address bar and whatever is on screen.
        "notes": words.notes(s.lang) if gets_notes(window) else None,
        "glossary": words.glossary(s.lang),
        "sets": sets,
        "order": order,
        "blocks": blocks,
        "code": words.listing(),
        "numpy": {f"{int(a)}|{int(c)}": words.numpy_lines(a, c) for a in (0, 1) for c in (0, 1)},
        "cells": cell_counts(s.sentence),
        "heads_cost": data.heads_cost(*heads_of(user)),
        "example": DEFAULT_SENTENCE,
        "decided": explorer.DECIDED,  # the reading's rule, answered live by the deck's views
        "keys": deck.key_help(s.lang),  # the key list's lines, from the key map (deck.KEY_MAP)
        "key_map": deck.key_map(),  # which keys do what, as keys.js binds them
        "colours": palette.for_lesson(),  # the one palette: the view's (room size), the deck's
        "view_text": explorer.strings(s.lang),  # the attention view's words (its maps are the view)
        "classroom": klass,  # the class the link names, and its words (class.js)
    }
    return header, {**arrays, **oarr}


def heads_of(user: dict) -> tuple[int, int, int]:
    """(n, d_model, h) of the trained model's run when there is one (§6), else of the settings'."""
    info = user["trained"] or user["lab"] or {"n": 1, "d_model": 64, "h": 4}
    return max(info["n"], 1), info["d_model"], info["h"]


def show(s: Settings, link: tuple[int, str | None, list[str]]) -> None:
    """Mount the deck, opening (when it starts) on the link's scene and step."""
    header, arrays = build(s, link)
    deck.mount(header, arrays, on_deck=apply_deck, on_block=ask_block)


# ---- the page ---------------------------------------------------------------------------------


def main() -> None:
    ensure_router()  # a fresh server's first visit may skip app.py: rerun through it
    s = lesson_settings(sidebar.current_settings())
    sidebar.own_settings("scale", "causal", note=t("lesson.side_owned", s.lang))
    st.html(PAGE_CSS)  # the deck fills the screen: no padding, no header band
    with st.container(key="lesson_h1"):  # the page's name for screen readers; each scene has an h2
        st.title(t("lesson.nav", s.lang))
    link = link_of(s.lang)  # ?at=N&step=K, the nearest scene for a bad one (with a notice)
    show(s, link)  # every scene's numbers for this sentence; the browser steps through them
    write_link(link[0])


if __name__ == "__main__":  # st.navigation runs a page as __main__; tests import its functions
    main()
