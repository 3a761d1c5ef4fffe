"""The attention view's cell and query–key map, computed again in numpy for the browser tests
(tests/browser/test_cell.py, test_lesson_cell.py): the lab, the core's numbers for a cell, the
check of a breakdown against them, the plane of one head's queries and keys; the view mounted in
a bare page with the bytes Python sends (`mount`, test_view_js.py's too), once it has settled."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attention_core import causal_mask, scaled_dot_product_attention
from tests.browser_support import wait_settled
from ui import explorer
from ui.state import compute_lab

SENTENCE = "小明把书放在了桌子上，然后他走了。"  # 了 twice: tokens 4 and 11


def lab_of(weights: str = "random", heads: int = 4):
    return compute_lab(SENTENCE, "word", 64, heads, True, False, False, 0, weights)


def core(lab, scale: bool, causal: bool, tau: float | None = None):
    """The core's attention of every head from the Q and K the browser was sent (float32)."""
    q, k = (a.astype(np.float32).astype(np.float64) for a in (lab.result.q, lab.result.k))
    n = q.shape[1]
    mask = causal_mask(n) if causal else None
    if tau is not None:
        return scaled_dot_product_attention(q / tau, k, k, scale=False, mask=mask)
    return scaled_dot_product_attention(q, k, k, scale=scale, mask=mask)


def check(b: dict, lab, head: int, i: int, j: int, scale: bool, causal: bool) -> None:
    """A breakdown against numpy: its vectors, products, sum (= the core's raw score), the
    scaled score and the softmax share (= the core's weight)."""
    q = lab.result.q[head, i].astype(np.float32)
    k = lab.result.k[head, j].astype(np.float32)
    assert (b["head"], b["i"], b["j"]) == (head, i, j)
    np.testing.assert_array_equal(np.float32(b["q"]), q)
    np.testing.assert_array_equal(np.float32(b["k"]), k)
    prod = q.astype(np.float64) * k.astype(np.float64)
    np.testing.assert_allclose(b["products"], prod, rtol=1e-12)
    assert b["sum"] == pytest.approx(float(np.sum(prod)), rel=1e-12, abs=1e-12)
    raw = lab.result.heads.scores[head, i, j]  # the core's float64 raw score
    scale_of = np.abs(q).max() * np.abs(k).max() * len(q)
    assert abs(b["sum"] - raw) <= 1e-5 * max(abs(raw), scale_of * 1e-2)
    top = np.argsort(-np.abs(prod), kind="stable")[:3] + 1  # dimensions counted from 1
    assert set(b["top"]) == set(top.tolist())
    want = core(lab, scale, causal)
    div = math.sqrt(len(q)) if scale else 1.0
    assert b["divisor"] == pytest.approx(div)
    masked = causal and j > i
    assert b["masked"] == masked
    if masked:
        assert b["scaled"] is None and b["share"] == 0
    else:
        assert b["scaled"] == pytest.approx(want.scaled[head, i, j], rel=1e-5, abs=1e-6)
        assert b["share"] == pytest.approx(want.weights[head, i, j], rel=1e-5, abs=1e-7)
    np.testing.assert_allclose(b["row"], want.weights[head, i], atol=1e-6)


def plane(q: np.ndarray, k: np.ndarray, f: int) -> tuple[np.ndarray, np.ndarray]:
    """Numpy's reference: x on u = q_f/|q_f|; y on the keys' first principal component with u
    taken out (eigh), its largest component positive. Returns (keys, queries), each (n, 2)."""
    q, k = q.astype(np.float64), k.astype(np.float64)
    u = q[f] / np.linalg.norm(q[f])
    rest = k - np.outer(k @ u, u)  # (n, d)
    rest -= rest.mean(axis=0)
    _, vecs = np.linalg.eigh(rest.T @ rest)  # ascending
    v = vecs[:, -1]
    v = v if v[np.argmax(np.abs(v))] > 0 else -v
    return np.stack([k @ u, k @ v], 1), np.stack([q @ u, q @ v], 1)


def payload(lab, start=None, focus: int = 9) -> list[int]:
    """The bytes ui/explorer.payload_for sends on a first load (Q, K; with `start` Q₀, K₀)."""
    view = explorer.ViewState(True, False, focus, 0, None)
    tokens = [{"t": s, "tag": "x", "tag_name": "x", "gloss": "he" if s == "他" else None,
               "roles": []} for s in lab.texts]  # fmt: skip
    header = explorer.header_for(
        lab, view, lang="zh", classroom=False, numbers=True, shared=True, tokens=tokens,
        jobs=[{"label": "", "rel": "", "clear": False, "relation": ""}] * lab.heads,
        digest="d", with_scores=True, ack=0,
    )  # fmt: skip
    arrays = [lab.result.q, lab.result.k]
    header["start"] = None
    if start is not None:
        arrays += [start.result.q, start.result.k]
        header["start"] = {"step": start.record.step, "final": lab.record.step}
    return list(explorer.encode(header, arrays))


def mount(page, lab, start=None, size=(1024, 768)) -> None:
    """The view in a bare page, fed through streamlit.js's run() as Streamlit would."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.set_content('<div id="host" style="width: 980px"></div>')
    page.add_script_tag(content=explorer.bundle(), type="module")
    page.wait_for_function("() => !!globalThis.__attentionLab")
    page.evaluate(
        """(bytes) => globalThis.__attentionLab.run({ data: new Uint8Array(bytes),
             parentElement: document.getElementById('host'), setStateValue() {},
             setTriggerValue() {} })""",
        payload(lab, start),
    )
    wait_settled(page)
