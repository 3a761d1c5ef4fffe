"""AppTest helpers shared by the page tests: open a page through the router, read its charts.

at = open_app("steps", weights="random", steps_step=3)   # session values set first
specs = chart_specs(at)                                   # every plotly chart, as JSON
seen = shown_app("heads", weights="random")               # the same first run, shared: read only
"""

from __future__ import annotations

import base64
import json
import re
from functools import lru_cache, partial

import numpy as np
from streamlit.testing.v1 import AppTest

from deploy.local import REPO_ROOT
from ui import explorer
from ui.settings import DEFAULT_SENTENCE
from ui.state import compute_lab

APP = str(REPO_ROOT / "app.py")
TIMEOUT_S = 180  # one script run on a shared 2-core machine; a cap, never a measurement


def open_app(
    page: str = "main", *, query: dict[str, str] | None = None, timeout: float = TIMEOUT_S, **state
) -> AppTest:
    """app.py run once, on pages/<page>.py, with `query` as its link's parameters and `state` in
    session state: what opening /<page>?<query> in a browser runs (the router, then that page).

    The page is chosen before the first run (its url path is its file name), so the main page
    is not drawn first: that was a whole main-page run per page test. (A further `at.run()` of
    the main page runs pages/main.py without the router under AppTest; tests/pages/test_main.py's
    `run_app` avoids that.)
    """
    at = AppTest.from_file(APP, default_timeout=timeout)
    for name, value in (query or {}).items():
        at.query_params[name] = value
    for key, value in state.items():
        at.session_state[key] = value
    if page != "main":
        at.switch_page(f"pages/{page}.py")
    return at.run()


def shown_app(page: str = "main", *, query: dict[str, str] | None = None, **state) -> AppTest:
    """open_app's first run of that page in that state, made once per process and shared by
    every test that only reads it (its elements, charts, session state).

    Many tests read the same first view (the heads page on random weights: nine of them); each
    used to draw it again. Clicking or setting a widget needs a run of its own: open_app. The
    shared AppTest refuses to run again, so a test cannot change what the next one reads.
    """
    return _shown(page, tuple(sorted((query or {}).items())), tuple(sorted(state.items())))


@lru_cache(maxsize=64)
def _shown(page: str, query: tuple, state: tuple) -> AppTest:
    at = open_app(page, query=dict(query), **dict(state))

    def refuse(*args, **kwargs):
        raise RuntimeError(f"shown_app({page!r}) is shared and read-only: use open_app to act")

    at._run = at.run = at.switch_page = refuse  # a widget's .run() goes through at._run
    return at


# The example sentence's words (jieba) and where 他 is: what the findings tests read about.
EXAMPLE_TOKENS = [
    "小明",
    "把",
    "书",
    "放在",
    "了",
    "桌子",
    "上",
    "，",
    "然后",
    "他",
    "走",
    "了",
    "。",
]
TA = EXAMPLE_TOKENS.index("他")


def opened(page: str = "main", *, query: dict[str, str] | None = None, **state) -> AppTest:
    """open_app, and the page raised nothing."""
    at = open_app(page, query=query, **state)
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(page: str = "main", *, query: dict[str, str] | None = None, **state) -> AppTest:
    """shown_app (the shared first run, read only), and the page raised nothing."""
    at = shown_app(page, query=query, **state)
    assert not at.exception, [e.value for e in at.exception]
    return at


def chart_specs(at: AppTest) -> list[dict]:
    """Every plotly chart the last run drew, as the JSON spec the browser receives."""
    return [json.loads(element.proto.spec) for element in at.get("plotly_chart")]


def chart_specs_by_key(at: AppTest) -> dict[str, dict]:
    """The same, by each chart's widget key (the end of its element id)."""
    return {e.proto.id.rsplit("-", 1)[-1]: json.loads(e.proto.spec) for e in at.get("plotly_chart")}


def unwrapped(text: str | None) -> str:
    """A chart title or label as written, whatever lines the figure kit broke it into: the
    breaks (<br>) and the spaces they replaced taken out, so the text compares with the table's."""
    return re.sub(r"<br>|\s", "", text or "")


def decode(obj) -> np.ndarray:
    """A plotly array from its JSON: a plain list or a base64 typed array."""
    if isinstance(obj, dict) and "bdata" in obj:
        flat = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=obj["dtype"])
        shape = obj.get("shape")
        return flat.reshape([int(d) for d in str(shape).split(",")]) if shape else flat
    return np.asarray(obj, dtype=float)


# The browser's cache of scores by digest: the view gets them once per sentence/model setting.
BROWSER: dict[str, np.ndarray] = {}


def sent(at: AppTest) -> bytes:
    """The attention view's payload as this run sent it."""
    (element,) = [
        e for e in at.get("bidi_component") if e.proto.component_name == explorer.VIEW_NAME
    ]
    return element.proto.bytes


def view(at: AppTest) -> tuple[dict, np.ndarray]:
    """The attention view's header and the scores the browser holds for it."""
    header, scores = explorer.decode(sent(at))
    if scores is not None:
        BROWSER[header["digest"]] = scores
    assert header["digest"] in BROWSER, "the view was sent no scores it has seen"
    return header, BROWSER[header["digest"]]


def head_scores(at: AppTest) -> np.ndarray:
    """(h, n, n) raw scores the view was sent, checked against a plain loop over Q and K."""
    header, scores = view(at)
    ss = at.session_state
    texts = [tok["t"] for tok in header["tokens"]]
    lab = compute_lab(
        ss["sentence"], ss["mode"], ss["d_model"], ss["heads"], ss["scale"], ss["causal"],
        ss["pos"], ss["seed"], ss["weights"],
    )  # fmt: skip
    assert lab.texts == texts
    q, k = lab.result.q, lab.result.k  # (h, n, d_k) each, the core's projections
    h, n, d_k = q.shape
    loop = [
        [[sum(float(q[a, i, d]) * float(k[a, j, d]) for d in range(d_k)) for j in range(n)]
         for i in range(n)]
        for a in range(h)
    ]  # fmt: skip
    np.testing.assert_allclose(scores, loop, rtol=1e-5, atol=1e-4)  # sent as float32
    return scores


# ---- what the page tests share -----------------------------------------------------------------


def ok(at: AppTest) -> AppTest:
    """The run, once it is known to have raised nothing."""
    assert not at.exception, [e.value for e in at.exception]
    return at


def said(at: AppTest) -> str:
    """Every markdown element's text, one per line."""
    return "\n".join(m.value for m in at.markdown)


def captions(at: AppTest) -> list[str]:
    """Every caption's text."""
    return [c.value for c in at.caption]


def chart(at: AppTest, title: str) -> dict:
    """The chart spec titled `title` (line breaks of the wrapping left out)."""
    found = [
        c
        for c in chart_specs(at)
        if unwrapped(c["layout"].get("title", {}).get("text")) == unwrapped(title)
    ]
    assert found, (
        f"no chart titled {title!r}: {[c['layout'].get('title') for c in chart_specs(at)]}"
    )
    return found[0]


# The teaching pages' openers on the random weights unless a test says `weights=…`.
open_random = partial(opened, weights="random")
shown_random = partial(shown, weights="random")


def lab(scale=True, causal=False, pos=False, weights="random", mode="word", seed=0):
    """The Lab of the example sentence at d_model 64 and 4 heads in the given state."""
    return compute_lab(DEFAULT_SENTENCE, mode, 64, 4, scale, causal, pos, seed, weights)
