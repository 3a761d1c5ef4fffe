"""The lesson's browser side: one components-v2 element (deck JS + CSS, no build step) and its
binary payload (header JSON + named float32 arrays), sent again only when the numbers change."""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import streamlit as st

from ui import explorer

HERE = Path(__file__).resolve().parent
# The lesson's own files, one job each, in bundle order (each names only files before it),
# after the attention view's (explorer.VIEW_FILES: its maps are the view, mounted with
# createView). tests/test_explorer_bundle.py checks the order.
JS_FILES = (
    "pen.js",
    "arith.js",
    "deck.js",
    "frame.js",
    "stage.js",
    "keys.js",
    "widgets.js",
    "views.js",
    "chart.js",
    "scenes_words.js",
    "scenes_library.js",
    "scenes_formula.js",
    "scenes_scaling.js",
    "scenes_heads.js",
    "scenes_cost.js",
    "run.js",
)
CSS = (HERE / "lesson.css", HERE / "lesson_parts.css")  # the deck's stylesheet, in this order
MAGIC = b"ALL1"
KEY = "lesson"  # session key of the mounted deck; its state lives under KEY["deck"]
SENT = "_lesson_sent"  # digest of the arrays this session's browser was last sent
NEED = "_lesson_need"  # set when the browser asks for the arrays again


def named_files() -> list[tuple[str, Path]]:
    """(name, path) of every file of the deck's bundle, in order: the view's, then the deck's."""
    named = [(f"explorer/{n}", explorer.HERE / n) for n in explorer.VIEW_FILES]
    return named + [(f"lesson/{n}", HERE / n) for n in JS_FILES]


def view_text(lang: str) -> dict[str, str]:
    """The attention view's words, as the deck's views read them (header.view_text)."""
    return explorer.strings(lang)


@cache
def bundle() -> str:
    """The deck's code as one ES module: the view's stylesheet and its own (LESSON_CSS, in that
    order: the deck's rules for the view come last), then the files of named_files()."""
    css = explorer.stylesheet() + "".join(path.read_text(encoding="utf-8") for path in CSS)
    return f"const LESSON_CSS = {json.dumps(css)};\n{explorer.join_files(named_files())}"


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
    index, blobs, offset = {}, [], 0
    for name in sorted(arrays or {}):
        a = np.ascontiguousarray(arrays[name], dtype="<f4")
        index[name] = [offset, list(a.shape)]
        blobs.append(a.tobytes())
        offset += a.size
    raw = json.dumps({**header, "arrays": index}, ensure_ascii=False, separators=(",", ":"))
    raw = raw.encode()
    raw += b" " * (-len(raw) % 4)
    return MAGIC + struct.pack("<I", len(raw)) + raw + b"".join(blobs)


def decode(payload: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The inverse of encode (for tests and tools)."""
    if payload[:4] != MAGIC:
        raise ValueError("not a lesson payload")
    (size,) = struct.unpack("<I", payload[4:8])
    header = json.loads(payload[8 : 8 + size])
    body = np.frombuffer(payload[8 + size :], dtype="<f4")
    arrays = {
        name: body[start : start + int(np.prod(shape))].reshape(shape)
        for name, (start, shape) in header["arrays"].items()
    }
    return header, arrays


def _ask_again() -> None:
    """on_need_change: the browser lost the arrays (or never got them): send them next run."""
    st.session_state[NEED] = True


def payload_for(header: dict, arrays: dict[str, np.ndarray]) -> bytes:
    """This run's bytes: the header, plus the arrays when the browser may not hold them."""
    ss = st.session_state
    key = digest(arrays)
    send = ss.pop(NEED, False) or ss.get(SENT) != key
    ss[SENT] = key
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
        on_need_change=_ask_again,
        on_block_change=on_block,
        width="stretch",
        height="content",
    )
