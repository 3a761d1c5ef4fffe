"""The lesson's browser side: one components-v2 element (the deck's committed bundle, its CSS in
it) and its binary payload (header JSON + named float32 arrays), sent again only when the numbers
change."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from urllib.parse import urlencode

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException

from ui import explorer
from ui.lesson import scenes
from ui.links import lesson_query
from ui.text import t

HERE = Path(__file__).resolve().parent
# The deck's code: its ES modules and the attention view's (its maps are the view, mounted with
# createView), bundled from the entry run.js by `make js` (esbuild, tools/js/build.mjs) into one
# committed file, read here, so the app needs no node; tests/tools/test_js.py fails when it is
# older than its sources.
BUNDLE = HERE / "dist" / "deck.js"
# The deck's keys, written once (reveal.js keeps its key map in one place and builds its help
# from it): per action, the keys that do it (KeyboardEvent.key; a letter in capitals stands for
# both cases, "Space" for " ", "Shift+Space" for Space with Shift held) and its line in the key
# list. keys.js binds them (the header carries them: key_map), the key list (?) shows
# key_help's lines; README's key table is tested against them (tests/ui/lesson/test_deck.py).
KEY_MAP = (
    ("next", ("ArrowRight", "ArrowDown", "Space", "PageDown", "N"), "lesson.k.next"),
    ("prev", ("ArrowLeft", "ArrowUp", "Shift+Space", "PageUp", "Backspace", "P"), "lesson.k.prev"),
    ("first", ("Home",), "lesson.k.first"),
    ("last", ("End",), "lesson.k.last"),
    ("jump", ("1", "2", "3", "4", "5", "6", "7", "8", "9", "0"), "lesson.k.jump"),
    ("presenter", ("S",), "lesson.k.presenter"),  # the notes' window, never on the projector
    ("full", ("F",), "lesson.k.full"),
    ("black", ("B", "."), "lesson.k.black"),
    ("glossary", ("G",), "lesson.k.glossary"),
    ("overview", ("O",), "lesson.k.overview"),
    ("help", ("?",), "lesson.k.help"),
    ("close", ("Escape",), "lesson.k.close"),  # nothing open: the overview
    # The live class's (ui/lesson/class.js): the teacher's, with a class; no mouse needed.
    ("class_join", ("J",), "classroom.k.join"),
    ("class_tally", ("T",), "classroom.k.tally"),
    ("class_reveal", ("R",), "classroom.k.reveal"),
    ("class_reset", ("X",), "classroom.k.reset"),
    ("class_summary", ("Q",), "classroom.k.summary"),
    ("class_end", ("E",), "classroom.k.end"),
)
# How the key list writes a key (any other key as KeyboardEvent.key names it: PageDown, N, ?).
KEY_NAMES = {"ArrowRight": "→", "ArrowLeft": "←", "ArrowUp": "↑", "ArrowDown": "↓", "Escape": "Esc"}
KEY_WORDS = {
    "Space": "lesson.key.space",
    "Shift+Space": "lesson.key.shift_space",
    "Backspace": "lesson.key.backspace",
}
MAGIC = b"ALL1"
KEY = "lesson"  # session key of the mounted deck; its state lives under KEY["deck"]
SENT = "_lesson_sent"  # digest of the arrays this session's browser was last sent
NEED = "_lesson_need"  # set when the browser asks for the arrays again


def key_names(keys: tuple[str, ...], lang: str) -> str:
    """Keys as the key list writes them: "→ / ↓ / Space / PageDown / N"; digits in a row as
    "1–9"."""
    out: list[str] = []
    for key in keys:
        run = out[-1].split("–") if out else [""]
        if key.isdigit() and run[-1].isdigit() and int(key) == int(run[-1]) + 1:
            out[-1] = f"{run[0]}–{key}"  # 1 2 3 … 9 → 1–9
        else:
            out.append(t(KEY_WORDS[key], lang) if key in KEY_WORDS else KEY_NAMES.get(key, key))
    return " / ".join(out)


def key_rows(lang: str) -> list[tuple[str, str]]:
    """(keys, what they do) per action of KEY_MAP, in its order (README's key table is these)."""
    return [(key_names(keys, lang), t(does, lang)) for _, keys, does in KEY_MAP]


def key_map() -> list[list]:
    """The key map as keys.js binds it (header.key_map): [[action, [key, …]], …]."""
    return [[action, list(keys)] for action, keys, _ in KEY_MAP]


def key_help(lang: str) -> list[str]:
    """The key list's lines (?): per action of KEY_MAP its keys, then what they do."""
    return [t("lesson.k.line", lang, keys=keys, does=does) for keys, does in key_rows(lang)]


@cache
def bundle() -> str:
    """The deck's code as one ES module (the view's and the deck's stylesheets in it): the
    committed build."""
    return BUNDLE.read_text(encoding="utf-8")


@cache
def _components():
    """(code, deck): the ~150 KB code rides in an element without data, sent once a session."""
    return explorer.register(
        "attention_lab.lesson_code", bundle(), "attention_lab.lesson", "__attentionLesson"
    )


def digest(arrays: dict[str, np.ndarray]) -> str:
    """Identity of what the browser caches: every array's name, shape and float32 bytes."""
    h = hashlib.blake2b(digest_size=12)
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name], dtype="<f4")
        h.update(f"{name}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def encode(header: dict, arrays: dict[str, np.ndarray] | None) -> bytes:
    """MAGIC, uint32 header length, header JSON (4-byte padded), then the float32 arrays.

    The header's "arrays" maps each name to [offset in floats, shape]; it is empty when the
    arrays are left out (the browser has them under header["digest"])."""
    names, index, offset = sorted(arrays or {}), {}, 0
    for name in names:
        index[name] = [offset, list(np.shape(arrays[name]))]
        offset += np.size(arrays[name])
    return explorer.pack(MAGIC, {**header, "arrays": index}, [arrays[name] for name in names])


def decode(payload: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The inverse of encode (for tests and tools)."""
    header, body = explorer.unpack(MAGIC, payload)
    arrays = {
        name: body[start : start + int(np.prod(shape))].reshape(shape)
        for name, (start, shape) in header["arrays"].items()
    }
    return header, arrays


def payload_for(header: dict, arrays: dict[str, np.ndarray]) -> bytes:
    """This run's bytes: the header, plus the arrays when the browser may not hold them."""
    key = digest(arrays)
    send = explorer.must_send(key, SENT, NEED)
    return encode({**header, "digest": key}, arrays if send else None)


def mount(header: dict, arrays: dict[str, np.ndarray], on_deck: Callable, on_block: Callable):
    """Draw the deck (updated in place on later runs: its key stays the same)."""
    code, deck = _components()
    code(key="lesson_code", width="stretch", height=0)
    deck(
        key=KEY,
        data=payload_for(header, arrays),
        default={"deck": None},
        on_deck_change=on_deck,
        on_need_change=partial(explorer.ask_again, NEED),
        on_block_change=on_block,
        width="stretch",
        height="content",
    )


def lesson_links(page: str, settings) -> None:
    """A lab page's way back to the scenes it goes further than ([scene] lab = page in their
    text tables): "in the lesson: §5", the sentence and settings kept (links.lesson_query)."""
    for scene in scenes.SCENES:
        if scene.lab == page:
            n = scene.number
            label = t("teach.in_lesson", settings.lang, n=n)
            query = {"at": str(n), **lesson_query(settings)}
            try:
                st.page_link("pages/lesson.py", label=label, query_params=query)
            except StreamlitAPIException:  # a page run without the router (AppTest): a link
                st.markdown(f"[{label}](lesson?{urlencode(query)})")
