"""The attention view's JavaScript in Chromium without a server: its arithmetic against the
core, its ink rule against ui/palette, "decided" against the reading's rule, its layout (each
from its own ES module, as written), the bundles on a bare page, and createView/destroy."""

from __future__ import annotations

import math
from urllib.parse import urlparse

import numpy as np
import pytest

from attention_core import (
    causal_mask,
    scaled_dot_product_attention,
)
from demo_model.reading import top_two
from tests.browser.cell_support import lab_of, mount
from tests.browser_support import REPO_ROOT, wait_settled
from ui import explorer, palette
from ui.lesson import deck
from ui.state import compute_lab

pytestmark = pytest.mark.browser

SENTENCE = "小明把书放在了桌子上，然后他走了。"


ORIGIN = "http://modules.test"  # the repository's files, served by page.route (no server)


def modules_alone(page, *names: str) -> None:
    """The named files of ui/explorer imported in the page as the ES modules they are (leaves:
    they import only leaves), their exports together as the page's VIEW: a leaf's functions
    without the rest of the bundle."""

    def serve(route):
        path = urlparse(route.request.url).path
        if path == "/":
            imports = "".join(
                f'import * as m{i} from "/ui/explorer/{n}";' for i, n in enumerate(names)
            )
            found = ", ".join(f"m{i}" for i in range(len(names)))
            script = f"{imports}globalThis.VIEW = Object.assign({{}}, {found});"
            body = f"<script type=module>{script}</script>"
            return route.fulfill(body=body, content_type="text/html")
        route.fulfill(path=REPO_ROOT / path.lstrip("/"), content_type="text/javascript")

    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("() => !!globalThis.VIEW")


# ---- the arithmetic: softmax.js against the core, no server ----------------------------------


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("causal", [False, True])
def test_softmax_js_equals_scaled_dot_product_attention(page, scale, causal):
    modules_alone(page, "softmax.js")
    rng = np.random.default_rng(7)
    for n, d_k in ((1, 4), (13, 16), (40, 8), (64, 64)):
        q, k, v = rng.standard_normal((3, n, d_k)) * 3  # large scores: saturated rows too
        mask = causal_mask(n) if causal else None
        core = scaled_dot_product_attention(q, k, v, scale=scale, mask=mask)
        scores = core.scores.astype(np.float32)  # what Python sends the view
        got = page.evaluate(
            """([s, n, d, c]) => Array.from(VIEW.attentionWeights(
                 new Float32Array(s), 0, n, d, c, new Float64Array(n * n)))""",
            [scores.ravel().tolist(), n, math.sqrt(d_k) if scale else 1.0, causal],
        )
        np.testing.assert_allclose(np.reshape(got, (n, n)), core.weights, atol=1e-4, rtol=0)
        if causal:
            assert np.all(np.reshape(got, (n, n))[~causal_mask(n)] == 0)


def test_row_stats_js_equal_numpy(page):
    from attention_core.analysis import row_entropy

    modules_alone(page, "softmax.js")
    w = np.random.default_rng(3).dirichlet(np.ones(9) * 0.3, size=9)  # (9, 9) rows sum to 1
    got = page.evaluate(
        "([w, n]) => VIEW.rowStats(new Float64Array(w), n)", [w.ravel().tolist(), 9]
    )
    assert got["entropy"] == pytest.approx(row_entropy(w, base=2).mean(), abs=1e-9)
    assert got["max"] == pytest.approx(w.max(-1).mean(), abs=1e-12)


# ---- colour: the ink on a cell is ui/palette's rule ------------------------------------------


def test_ink_on_colour_in_js_equals_the_python_rule(page):
    modules_alone(page, "colour.js")
    view = palette.for_view(False)
    steps = range(0, 256, 15)
    grid = np.array([(r, g, b) for r in steps for g in steps for b in range(0, 256, 51)])
    near = [(v, v, v) for v in range(110, 140)]  # greys around the threshold (L ≈ 0.179 at 118)
    rgb = np.vstack([grid, near])
    got = page.evaluate(
        "([rgb, rule]) => rgb.map(([r, g, b]) => VIEW.inkOn(r, g, b, rule))",
        [rgb.tolist(), view["on_colour"]],
    )
    assert got == palette.text_on(rgb).tolist()
    for ramp in ("weight", "signed"):  # every entry of the ramps the view paints with
        lut, ink = page.evaluate(
            """([stops, rule]) => {
              const p = VIEW.paintRamp(stops, rule);
              return [Array.from(p.lut), p.ink]; }""",
            [view[ramp], view["on_colour"]],
        )
        colours = np.reshape(lut, (-1, 3))
        assert ink == palette.text_on(colours).tolist()
        want = palette.scale_colours(np.linspace(0, 1, len(colours)), 0, 1, view[ramp])
        np.testing.assert_allclose(colours, want, atol=1.0)  # the ramp is palette's, to 8 bits


def test_layout_keeps_the_focus_label_and_gives_panels_room(page):
    modules_alone(page, "layout.js")
    shown = page.evaluate("VIEW.labelIndices(13, 2, 9)")
    assert 9 in shown and 8 not in shown and 10 not in shown and shown[0] == 0
    assert page.evaluate("VIEW.labelIndices(13, 1, 4)") == list(range(13))
    view = palette.for_view(True)
    cols = page.evaluate(
        "([p]) => VIEW.viewLayout(1024 - 64, 768, 13, 4, true, p, 1).panelCols", [view]
    )  # a projector: every label fits under the panels' cells, so none is skipped
    assert cols < 3


# ---- "decided": the reading's rule, answered live in the browser ------------------------------


def test_decided_in_js_equals_the_readings_rule(page):
    """a11y.js decides with the thresholds Python sends (explorer.DECIDED, in every view's
    header) exactly as demo_model/reading.py's top_two does, on the same rows: random rows
    and rows on and beside the thresholds (a one-token row; a tie)."""
    modules_alone(page, "a11y.js")
    rng = np.random.default_rng(5)
    rows = [rng.dirichlet(np.ones(n) * a) for n in (2, 5, 13, 40) for a in (0.02, 0.1, 0.3, 1.0)]
    rows += [[1.0], [0.5, 0.5], [0.8, 0.3], [0.8, 0.2], [0.79999, 0.0], [0.9, 0.4], [0.9, 0.41],
             [0.3, 0.8], [0.1, 0.85, 0.35], [0.0, 0.0, 0.0]]  # fmt: skip
    rows = [np.asarray(r, dtype=float) for r in rows]
    got = page.evaluate(
        """([rows, rule]) => rows.map((w) => VIEW.decidedRow(w, w.length, rule).decided)""",
        [[r.tolist() for r in rows], explorer.DECIDED],
    )
    want = [top_two(r)[2] for r in rows]
    assert got == want
    assert 0 < sum(want) < len(want)  # both answers occur


# ---- the bundles on a bare page ----------------------------------------------------------------


@pytest.mark.parametrize("which", ["explorer", "lesson"])
def test_a_bundle_runs_and_names_only_its_own_globals(page, which):
    """Each committed bundle runs as one ES module and leaves on the page only where the
    components' loaders find it (its `run`, and the queue of calls made before it ran): its
    modules' names stay in their modules."""
    bundle, name = {
        "explorer": (explorer.bundle, "__attentionLab"),
        "lesson": (deck.bundle, "__attentionLesson"),
    }[which]
    code = bundle()
    page.set_content("<div></div>")
    before = set(page.evaluate("() => Object.keys(globalThis)"))
    page.add_script_tag(content=code, type="module")
    page.wait_for_function(f"() => !!globalThis.{name}")
    added = set(page.evaluate("() => Object.keys(globalThis)")) - before
    assert added == {name, f"{name}Queue"}
    assert "run" in page.evaluate(f"() => Object.keys(globalThis.{name})")


# ---- createView on a bare page: no Streamlit --------------------------------------------------

COUNTING = """<script>
window.__live = { listeners: 0, observers: 0 };
const add = EventTarget.prototype.addEventListener;
const remove = EventTarget.prototype.removeEventListener;
const held = new WeakMap(); // target → Map(listener → Set of "type|capture")
const key = (type, o) => `${type}|${!!(o === true || (o && o.capture))}`;
EventTarget.prototype.addEventListener = function (type, fn, o) {
  if (!held.has(this)) held.set(this, new Map());
  const m = held.get(this);
  if (!m.has(fn)) m.set(fn, new Set());
  if (!m.get(fn).has(key(type, o))) { m.get(fn).add(key(type, o)); window.__live.listeners++; }
  return add.call(this, type, fn, o);
};
EventTarget.prototype.removeEventListener = function (type, fn, o) {
  const ids = held.get(this)?.get(fn);
  if (ids && ids.delete(key(type, o))) window.__live.listeners--;
  return remove.call(this, type, fn, o);
};
for (const name of ["ResizeObserver", "IntersectionObserver"]) {
  const Real = window[name];
  window[name] = class extends Real {
    constructor(cb, o) { super(cb, o); this.__on = false; }
    observe(t, o) {
      if (!this.__on) { this.__on = true; window.__live.observers++; }
      return super.observe(t, o);
    }
    disconnect() {
      if (this.__on) { this.__on = false; window.__live.observers--; }
      return super.disconnect();
    }
  };
}
</script><div id="host" style="width: 900px"></div>"""


def bare_view(page, heads: int = 4):
    """A bare page with the bundle loaded; returns the header and scores of a random sentence."""
    page.set_content(COUNTING)
    page.add_script_tag(content=explorer.bundle(), type="module")
    page.wait_for_function("() => !!globalThis.__attentionLab")
    lab = compute_lab(SENTENCE, "word", 64, heads, True, False, False, 0, "random")
    view = explorer.ViewState(True, False, 9, 0, None)
    tokens = [{"t": s, "tag": "x", "tag_name": "x", "gloss": None, "roles": []} for s in lab.texts]
    header = explorer.header_for(
        lab, view, lang="zh", classroom=False, numbers=True, shared=True, tokens=tokens,
        jobs=[{"label": "", "rel": "", "clear": False, "relation": ""}] * heads,
        digest="d", with_scores=True, ack=0,
    )  # fmt: skip
    return header, lab.result.heads.scores.astype(np.float32).ravel().tolist()


MOUNT = """([header, scores]) => {
  const host = document.getElementById("host");
  window.__view = globalThis.__attentionLab.createView(host, { css: "" });
  window.__view.update(header, new Float32Array(scores));
  window.__view.setState(header.state);
}"""
BARE_RENDERS = """() => Number(
  document.querySelector('[data-testid="explorer"]')?.dataset.renders || 0)"""


def test_destroy_removes_every_listener_observer_and_node(page):
    header, scores = bare_view(page)
    before = page.evaluate("() => ({ ...window.__live })")
    for _ in range(2):  # mounted, destroyed, mounted again: nothing left over either time
        page.evaluate(MOUNT, [header, scores])
        page.wait_for_function(f"({BARE_RENDERS})() > 0")
        live = page.evaluate("() => ({ ...window.__live })")
        assert live["listeners"] > before["listeners"] + 10 and live["observers"] == 3
        page.evaluate("() => window.__view.destroy()")
        assert page.evaluate("() => ({ ...window.__live })") == before
        assert page.evaluate("() => document.getElementById('host').childElementCount") == 0


def test_the_view_draws_what_its_state_says_and_redraws_only_on_change(page):
    header, scores = bare_view(page)
    page.evaluate(MOUNT, [header, scores])
    wait_settled(page)  # laid out for its room (the first row fitted: a second commit)
    first = page.evaluate(BARE_RENDERS)
    page.evaluate(  # the same payload again, as a rerun that changed nothing sends it
        """([h, s]) => { window.__view.update(h, new Float32Array(s));
                         window.__view.setState(h.state); }""",
        [header, scores],
    )
    # A change schedules its draw for the next frame, before this callback: one frame tells.
    page.evaluate("() => new Promise(requestAnimationFrame)")
    assert page.evaluate(BARE_RENDERS) == first, "the same data and state drew again"
    page.evaluate("() => window.__view.setState({ causal: true })")
    page.wait_for_function(f"({BARE_RENDERS})() === {first + 1}")
    checked = "() => document.querySelector('[data-testid=\"explorer-causal\"]').checked"
    assert page.evaluate(checked)


# The view's root as tests wait for it: its layout generation and whether it has settled.
SETTLE_STATE = """() => { const r = document.querySelector('[data-testid="explorer"]');
  const map = r.querySelector('canvas[data-testid="explorer-map"]').getBoundingClientRect();
  return { gen: r.dataset.generation, settled: r.dataset.settled ?? null,
           label: Number(r.dataset.labelPx), top: map.top, w: map.width, h: map.height }; }"""


def test_a_resize_or_new_data_unsettles_the_view_until_it_has_drawn_again(page):
    """Issue 40: data-settled names data-generation once the view has laid out and drawn for its
    size and data; a resize or new data starts the next generation and clears it at once (so a
    test can never read the last layout as the new one), until the next draw."""
    header, scores = bare_view(page)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.evaluate(MOUNT, [header, scores])
    wait_settled(page)
    first = page.evaluate(SETTLE_STATE)
    assert first["settled"] == first["gen"]
    resized = page.evaluate(
        f"""() => {{ document.getElementById('host').style.width = '500px';
          return new Promise((r) => new ResizeObserver((_, o) => {{ o.disconnect();
            r(({SETTLE_STATE})()); }}).observe(document.getElementById('host'))); }}"""
    )
    assert int(resized["gen"]) > int(first["gen"]) and resized["settled"] is None
    wait_settled(page)
    narrow = page.evaluate(SETTLE_STATE)
    assert narrow["settled"] == narrow["gen"] == resized["gen"]
    assert narrow["w"] <= 500 < first["w"] * 2  # drawn for the new width before it said so
    again = page.evaluate(
        f"""([h, s]) => {{ window.__view.update({{ ...h, digest: 'other' }}, new Float32Array(s));
          return ({SETTLE_STATE})(); }}""",
        [header, scores],
    )
    assert int(again["gen"]) > int(narrow["gen"]) and again["settled"] is None
    wait_settled(page)


def test_when_the_page_above_the_view_grows_its_first_row_is_fitted_again(page):
    """Issue 40's failure: under load, the main page's view measured where its first row starts
    while the page above it was still building, and kept that fit (20 px labels at 1024 × 768
    where 24 were due). Now a change of the page around it fits the row again, as a new
    generation (mounted as Streamlit mounts it, with its stylesheet: two maps to a row)."""
    mount(page, lab_of("random"), size=(1024, 768))
    first = page.evaluate(SETTLE_STATE)
    page.evaluate(
        """() => { const d = document.createElement('div'); d.style.height = '300px';
                   document.body.prepend(d); }"""
    )
    wait_settled(page)
    lower = page.evaluate(SETTLE_STATE)
    assert int(lower["gen"]) > int(first["gen"])
    assert lower["top"] > first["top"] + 250 and lower["h"] < first["h"] - 60, (first, lower)
