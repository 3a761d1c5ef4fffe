/* The glue, and the view's entry (`make js` bundles it with everything it imports into
   ui/explorer/dist/view.js, which ui/explorer/__init__.py sends): the view as a Streamlit
   component (components v2). Payloads in (header JSON and, once per sentence, the float32
   scores); the settings the user chose sent back as component state "view", numbered, so a late
   rerun never undoes a newer click. What Python decides comes in the header (words, palette,
   <html lang>, the "decided" rule), never in the bundle: it is the same for every page and
   language, built once and committed; only the view's stylesheet is in it (text, imported). */

import STYLESHEET from "./explorer.css";
import { floatsOf, readPayload } from "./payload.js";
import { qkScores } from "./cell.js";
import { createView } from "./view.js";

// digest → {scores, vectors}: every head's raw Q·Kᵀ, formed here from the Q and K (and step 0's)
// Python sent (a few sentences back)
const SCORES = new Map();
const KEEP_SENTENCES = 8;
const MOUNTS = new Map(); // parent element → { view, api, seq, pending }

/** The payload Python's ui/explorer.encode wrote: header JSON and, maybe, every head's float32
    Q and K (then Q₀ and K₀ when header.start); the scores are formed from them (cell.js). */
function decodePayload(bytes) {
  const { header, body } = readPayload(bytes, "ALV1");
  if (!header.scores) return { header, scores: null };
  const { h, n, d_k: d } = header;
  const size = h * n * d;
  const all = floatsOf(body, size * (header.start ? 4 : 2));
  const part = (c) => all.subarray(c * size, (c + 1) * size);
  const vectors = { q: part(0), k: part(1), q0: header.start ? part(2) : null, k0: header.start ? part(3) : null };
  return { header, scores: { scores: qkScores(vectors.q, vectors.k, h, n, d), vectors } };
}

function remember(digest, scores) {
  SCORES.delete(digest);
  SCORES.set(digest, scores);
  while (SCORES.size > KEEP_SENTENCES) SCORES.delete(SCORES.keys().next().value);
}

/** The main page's view in a Streamlit element: every head, control and part, at the room's
    size. What the user changes goes back as component state "view", numbered, so a late rerun
    never undoes a newer click (Python echoes the number as `ack`). */
function mountIn(parent) {
  const m = Object.seal({ view: null, api: null, seq: 0, pending: 0 });
  m.view = createView(parent, {
    css: STYLESHEET,
    skipLink: true,
    onChange: (s) => {
      m.seq += 1;
      m.pending = m.seq;
      m.view.root.dataset.seq = String(m.seq);
      m.api.setStateValue("view", { ...s, seq: m.seq });
    },
  });
  return m;
}

function receive(m, bytes) {
  const { header, scores } = decodePayload(bytes);
  if (scores) remember(header.digest, scores);
  const known = SCORES.get(header.digest);
  if (!known) {
    m.api.setTriggerValue("need", header.digest);
    return;
  }
  m.view.update(header, known.scores, known.vectors);
  if (header.ack >= m.pending) m.view.setState(header.state);
  m.view.root.dataset.ack = String(header.ack); // for tests: Python has seen change number `ack`
  m.view.root.dataset.seq = String(m.seq);
  // for tests: full runs of the page so far (a view change reruns only the view's fragment)
  m.view.root.dataset.pageRun = String(header.page_run ?? "");
}

/** One call of the view component (Streamlit calls it again with each new payload); returns
    what Streamlit calls when the view leaves the page (or a newer payload overtook this call). */
function run(component) {
  const { data, parentElement, setStateValue, setTriggerValue } = component;
  let m = MOUNTS.get(parentElement);
  if (!m) {
    m = mountIn(parentElement);
    MOUNTS.set(parentElement, m);
  }
  m.api = { setStateValue, setTriggerValue };
  if (data) receive(m, data);
  return () =>
    setTimeout(() => {
      if (parentElement.isConnected || MOUNTS.get(parentElement) !== m) return;
      m.view.destroy();
      MOUNTS.delete(parentElement);
    }, 0);
}

// This module is the "code" component: mounted once per page with no data, so Streamlit sends
// the same message every run and the browser keeps it (one download per session). The small
// view component's loader hands its calls here, queued if they came before this module ran.
const waiting = globalThis.__attentionLabQueue || [];
globalThis.__attentionLab = { run, createView, mounts: () => MOUNTS.size };
globalThis.__attentionLabQueue = [];
for (const component of waiting.splice(0)) run(component);

/** The code component's own call: nothing (this module's work is done when it runs, above). */
export default function () {}
