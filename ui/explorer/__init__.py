"""The main page's attention view, drawn in the browser from the core's Q and K.

Python sends the view, once per sentence/model setting, the tokens and every head's queries and
keys (float32; on the trained model also those of training step 0, for the query–key map's
switch), with the palette, sizes and words it draws with (ui/palette.py, ui/text.py). The
browser forms the raw scores Q·Kᵀ from them (cell.js qkScores: 2·d_k numbers per token instead
of n, so 64 tokens × 8 heads send 33 KB instead of 135 KB; tested equal to the core), derives
÷τ, the causal mask and the softmax (softmax.js, tested equal to
`scaled_dot_product_attention` in Chromium), takes one cell apart into its q and k (cell.js)
and draws the query–key map (qk.js); it answers √d_k, causal, focus, head, hover and τ
without a server round trip: view.js's `createView(host, opts)` → {update, setState, destroy}
(streamlit.js mounts it). What the user changes there comes back as component state "view";
`apply_view` copies it into the session so the share link and the rest of the page follow. On
the main page the view's switches are the √d_k and causal settings (the sidebar shows no second
pair). The rerun after such a change is the main page's view fragment only (pages/main.py
`view_fragment`: the view, the reading under it, the link) and sends only the small header: the
browser already holds the scores (keyed by their digest), and asks for them again with the
trigger "need" if it does not; the code element (`mount_code`) is drawn by full runs only.
Under launcher.py the code element carries only an import of the bundle from a content-hashed
URL the browser caches (ui/bundles.py), so a new session's page does not carry the 84 KB.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path

import numpy as np
import streamlit as st

from demo_model.reading import DECIDED_GAP, DECIDED_MIN
from ui import bundles, palette, text
from ui.text import SECTIONS, t

HERE = Path(__file__).resolve().parent
# The view's code: its ES modules (one job per file, STYLE.md) bundled from its entry
# streamlit.js by `make js` (esbuild, tools/js/build.mjs) into one committed file, read here, so
# the app needs no node; tests/tools/test_js.py fails when it is older than its sources.
BUNDLE = HERE / "dist" / "view.js"
# "Decided", as the reading decides it (top weight ≥ min, and ≥ gap above the runner-up): sent to
# every view, which answers it live as τ and the causal mask change the weights (a11y.js).
DECIDED = {"min": DECIDED_MIN, "gap": DECIDED_GAP}
MAGIC = b"ALV1"
VIEW_NAME = "attention_lab.explorer"  # the component that draws (the other carries the code)
KEY = "explorer"  # session-state key of the mounted view; its state lives under KEY["view"]
SENT = "_explorer_sent"  # digest of the scores this session's browser was last sent
NEED = "_explorer_need"  # set when the browser asks for the scores again
DIGESTED = "_explorer_digested"  # (Lab, step-0 Lab, digest) last sent: not hashed again
ACK = "explorer_ack"  # sequence number of the last view state applied
TAU = "explorer_tau"  # τ chosen on the view's slider (None = follow the √d_k switch)
HEAD = "chosen_head"  # head of the before/after panels
FOCUS_POS = "focus_pos"  # position of the focus token (tells the two 了 apart)
# Every string of the view: the keys of ui/text/explorer.toml (derived, not a hand copy). The
# browser reads each without its "explorer." prefix: T.live is explorer.live.
TEXT_KEYS = SECTIONS["explorer"]


@dataclass(frozen=True)
class ViewState:
    """What the view decides in the browser, as Python keeps it."""

    scale: bool  # divide by √d_k (τ = √d_k) or not (τ = 1), unless tau is set
    causal: bool  # mask future tokens
    focus: int  # focus token position
    head: int  # head of the before/after panels
    tau: float | None  # temperature from the slider, None = follow `scale`


def importer(url: str | None) -> str:
    """JS that imports the bundle from its URL (ui/bundles.py: launcher.py serves it, the browser
    caches it; the module runs once per page however often it is imported), or "" for none."""
    if url is None:
        return ""
    return f"""  import(new URL({json.dumps(url)}, document.baseURI).href)
    .catch((e) => console.error("attention view: its code did not load", e));
"""


def loader(name: str, url: str | None = None) -> str:
    """A component's own code when its bundle rides in a separate element: hand every call to
    globalThis[name] (the bundle's `run`), queued in globalThis[name + "Queue"] until it ran;
    with `url`, it also starts importing the bundle itself if it has not run yet."""
    return f"""export default function (component) {{
  const bundle = globalThis.{name};
  if (bundle) return bundle.run(component);
  (globalThis.{name}Queue ||= []).push(component);
{importer(url)}}}
"""


@cache
def bundle() -> str:
    """The view's code as one ES module (its stylesheet in it): the committed build."""
    return BUNDLE.read_text(encoding="utf-8")


def register(code_name: str, js: str, name: str, run_global: str, url: str | None = None):
    """(code, component): a bundle's code rides in a component mounted without data (its
    message is the same every run, so Streamlit sends it once and then a reference; no shadow
    root of its own), the component that draws carries only loader(run_global, url) and the
    payload (run_global: where the bundle publishes its `run`). With `url` the code element's
    `js` only starts the import (ui/bundles.py)."""
    code = st.components.v2.component(code_name, js=js, isolate_styles=False)
    return code, st.components.v2.component(name, js=loader(run_global, url))


@cache
def _components():
    """(code, view), registered once per process (AppTest re-registers them per runtime); tests
    and tools find the view as the page's only isolated element. Under launcher.py the code
    element only starts the import of the bundle from its cached URL (a few hundred bytes), as
    early in the page as the code itself came."""
    code_name, run_global = "attention_lab.explorer_code", "__attentionLab"
    if not bundles.served():
        return register(code_name, bundle(), VIEW_NAME, run_global)
    url = bundles.url("view")
    js = f"export default function () {{\n{importer(url)}}}\n"
    return register(code_name, js, VIEW_NAME, run_global, url)


SHARED_KEYS = {"head": "main.head", "query_axis": "main.query_axis", "key_axis": "main.key_axis"}


@cache
def strings(lang: str) -> dict[str, str]:
    """Every string the view shows, from ui/text (its explorer table, and the axis and head
    names every weight map of the app shares)."""
    own = {key.removeprefix("explorer."): t(key, lang) for key in TEXT_KEYS}
    return own | {name: t(key, lang) for name, key in SHARED_KEYS.items()}


def scores_digest(arrays, texts: Sequence[str]) -> str:
    """Identity of what the browser caches: the float32 arrays sent (Q and K: they fix the
    scores) and the token texts."""
    h = hashlib.blake2b(digest_size=12)
    for a in arrays if isinstance(arrays, (list, tuple)) else [arrays]:
        h.update(np.ascontiguousarray(a, dtype="<f4").tobytes())
    h.update("\x00".join(texts).encode())
    return h.hexdigest()


def pack(magic: bytes, header: dict, arrays: Sequence[np.ndarray]) -> bytes:
    """The view's and the deck's payload: `magic`, uint32 header length, header JSON (padded to
    4 bytes), then the arrays' float32 numbers one after the other."""
    raw = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 4)  # the numbers start 4-byte aligned
    data = b"".join(np.ascontiguousarray(a, dtype="<f4").tobytes() for a in arrays)
    return magic + struct.pack("<I", len(raw)) + raw + data


def unpack(magic: bytes, payload: bytes) -> tuple[dict, np.ndarray]:
    """The inverse of pack: the header and every float32 number after it, flat."""
    if payload[:4] != magic:
        raise ValueError(f"not a payload of {magic!r}")
    (size,) = struct.unpack("<I", payload[4:8])
    return json.loads(payload[8 : 8 + size]), np.frombuffer(payload[8 + size :], dtype="<f4")


def encode(header: dict, body: Sequence[np.ndarray] | np.ndarray | None) -> bytes:
    """The view's payload: the header, then the float32 arrays (Q, K and maybe Q₀, K₀, each
    (h, n, d_k); or one array of scores) or nothing."""
    arrays = [] if body is None else body if isinstance(body, (list, tuple)) else [body]
    return pack(MAGIC, header, arrays)


def decode_vectors(payload: bytes) -> tuple[dict, dict[str, np.ndarray]]:
    """The header and the arrays sent ("q", "k", and "q0", "k0" with a step-0 switch), each
    (h, n, d_k) float32; {} when the payload carries none (for tests and tools)."""
    header, flat = unpack(MAGIC, payload)
    if not header["scores"]:
        return header, {}
    h, n, d = header["h"], header["n"], header["d_k"]
    names = ["q", "k"] + (["q0", "k0"] if header.get("start") else [])
    return header, {
        name: flat[c * h * n * d : (c + 1) * h * n * d].reshape(h, n, d)
        for c, name in enumerate(names)
    }


def decode(payload: bytes) -> tuple[dict, np.ndarray | None]:
    """The header and the raw scores Q·Kᵀ (h, n, n) the browser forms from the Q and K sent
    (float64 products of the float32 numbers, as cell.js qkScores), or None when none were sent
    (for tests and tools)."""
    header, arrays = decode_vectors(payload)
    if not arrays:
        return header, None
    q, k = (arrays[name].astype(np.float64) for name in ("q", "k"))
    return header, q @ k.swapaxes(-1, -2)  # (h, n, n)


def wording(header: dict) -> str:
    """Identity of the header's words (tokens, jobs, texts): the view re-lays its words out
    only when it changes."""
    keys = ("lang", "tokens", "jobs", "text")
    raw = json.dumps([header[k] for k in keys], ensure_ascii=False, sort_keys=True)
    return hashlib.blake2b(raw.encode(), digest_size=8).hexdigest()


def header_for(
    lab,
    view: ViewState,
    *,
    lang: str,
    classroom: bool,
    numbers: bool,
    shared: bool,
    tokens: list[dict],
    jobs: list[str],
    digest: str,
    with_scores: bool,
    ack: int,
    page_run: int = 0,
) -> dict:
    """Everything but the scores, as the view reads it (view.js `update`)."""
    header = {
        "v": 1,
        "digest": digest,
        "scores": with_scores,
        "n": len(lab.tokens),
        "h": lab.heads,
        "d_k": lab.d_k,
        "tokens": tokens,
        "jobs": jobs,
        "source": lab.source,
        "lang": lang,
        "html_lang": text.LANGUAGES[lang].html,  # the view's <html lang> (dom.js)
        "classroom": classroom,
        "numbers": numbers,
        "shared": shared,
        "state": {
            "scale": view.scale,
            "causal": view.causal,
            "focus": view.focus,
            "head": view.head,
            "tau": view.tau,
        },
        "ack": ack,
        "decided": DECIDED,  # as the reading decides; the view answers it live
        "text": strings(lang),
        "palette": palette.for_view(classroom),
        "page_run": page_run,  # full runs of the page so far (the view shows it, for tests)
    }
    return header | {"wording": wording(header)}


def clean_tau(value, d_k: int) -> float | None:
    """τ from the slider or a link: a finite number in 1 … 4·√d_k, else None."""
    try:
        tau = float(value)
    except (TypeError, ValueError):
        return None
    top = 4 * math.sqrt(d_k)
    if not math.isfinite(tau):
        return None
    return round(min(max(tau, 1.0), top), 3)


def view_updates(view, texts: Sequence[str], heads: int, d_k: int) -> dict:
    """Session keys → values for a state the view sent; anything malformed is left out."""
    if not isinstance(view, dict):
        return {}
    out: dict = {}
    for name in ("scale", "causal"):
        if isinstance(view.get(name), bool):
            out[name] = view[name]
    focus = view.get("focus")
    if isinstance(focus, int) and not isinstance(focus, bool) and 0 <= focus < len(texts):
        out["focus_text"], out[FOCUS_POS] = texts[focus], focus
    head = view.get("head")
    if isinstance(head, int) and not isinstance(head, bool) and 0 <= head < heads:
        out[HEAD] = head
    if "tau" in view:
        out[TAU] = None if view["tau"] is None else clean_tau(view["tau"], d_k)
    if isinstance(view.get("seq"), int):
        out[ACK] = view["seq"]
    return out


def apply_view(texts: Sequence[str], heads: int, d_k: int) -> None:
    """on_view_change: copy the view's state into the session (sidebar keys, focus, head, τ)."""
    ss = st.session_state
    view = (ss.get(KEY) or {}).get("view")
    for name, value in view_updates(view, texts, heads, d_k).items():
        ss[name] = value


def ask_again(need: str) -> None:
    """on_need_change (the view's and the deck's): the browser lost the numbers (or never got
    them): send them next run."""
    st.session_state[need] = True


def must_send(digest: str, sent: str, need: str) -> bool:
    """Whether this run sends the numbers of `digest`: the browser asked for them again (`need`)
    or was last sent others (`sent`: the session key of the digest last sent)."""
    ss = st.session_state
    send = ss.pop(need, False) or ss.get(sent) != digest
    ss[sent] = digest
    return bool(send)


def payload_for(lab, view: ViewState, start=None, **header_kw) -> bytes:
    """The bytes for this run: header, plus every head's Q and K (and, with `start`, the Lab of
    the trained model's first saved step, its Q₀ and K₀) when the browser may not have them."""
    ss = st.session_state
    arrays = [lab.result.q, lab.result.k]  # (h, n, d_k) each; the browser forms Q·Kᵀ
    if start is not None and start.result.q.shape != lab.result.q.shape:
        start = None  # another tokenisation: no switch
    if start is not None:
        arrays += [start.result.q, start.result.k]
    memo = ss.get(DIGESTED)  # the fragment's reruns pass the same Lab objects again
    if memo is not None and memo[0] is lab and memo[1] is start:
        digest = memo[2]
    else:
        digest = scores_digest(arrays, lab.texts)
        ss[DIGESTED] = (lab, start, digest)
    with_scores = must_send(digest, SENT, NEED)
    header = header_for(
        lab,
        view,
        digest=digest,
        with_scores=with_scores,
        ack=int(ss.get(ACK, 0) or 0),
        **header_kw,
    )
    header["start"] = (
        None if start is None else {"step": start.record.step, "final": lab.record.step}
    )
    return encode(header, arrays if with_scores else None)


def mount_code() -> None:
    """The view's code (the bundle, a data-less element): once per full run of the page, outside
    any fragment the view reruns in, so a view change never re-sends or re-hashes its 84 KB.
    Under launcher.py only the import of the bundle from its cached URL (ui/bundles.py)."""
    code, _ = _components()
    code(key="explorer_code", width="stretch", height=0)


def mount(lab, view: ViewState, start=None, **header_kw) -> None:
    """Draw the view (updated in place on later runs: its key stays the same); `start`: the
    trained model's Lab at its first saved step (the query–key map's switch), or None. The page
    calls mount_code() before, once per full run."""
    data = payload_for(lab, view, start, **header_kw)
    _, draw = _components()
    draw(
        key=KEY,
        data=data,
        default={"view": None},
        on_view_change=partial(apply_view, lab.texts, lab.heads, lab.d_k),
        on_need_change=partial(ask_again, NEED),
        width="stretch",
        height="content",
    )
