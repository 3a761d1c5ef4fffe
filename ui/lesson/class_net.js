/* The live class's wire (class.js uses it): the class's routes (classroom/README.md "HTTP API")
   called with fetch, a refusal's code, this phone's random token, and the deck's place as the
   class's state (scene and step ids, the question with its answer and why, the setup: the
   sentence and the figures the teacher's server measured) and back (a state's place on this
   deck), and the class in the address (room=CODE, join=CODE: a reload rejoins). */

import { quizOf } from "./quiz.js";

const TOKEN_KEY = "attention-lab.phone"; // this phone's random token (localStorage)
const TEXT_CAP = 400; // classroom/state.py TEXT_CAP

export function classUrl(D, path) {
  return new URL(path, D.els.root.ownerDocument.defaultView.location.origin).href;
}

/** A JSON call to the class's routes: {status, body} (status 0: no answer at all). */
export async function classCall(D, method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin", cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  try {
    const r = await fetch(classUrl(D, path), init);
    let got = null;
    try {
      got = await r.json();
    } catch {
      got = null;
    }
    return { status: r.status, body: got, retryAfter: Number(r.headers.get("Retry-After")) || 0 };
  } catch {
    return { status: 0, body: null, retryAfter: 0 };
  }
}

export function classErrorOf(res) {
  return res.body?.error || (res.status === 0 ? "store_unavailable" : "bad_json");
}

/** This phone's token: 16 random bytes, base64url, made once and kept on the device. */
export function phoneToken(D) {
  const win = D.els.root.ownerDocument.defaultView;
  let token = null;
  try {
    token = win.localStorage.getItem(TOKEN_KEY);
  } catch {
    token = null;
  }
  if (token && /^[A-Za-z0-9_-]{22,64}$/.test(token)) return token;
  const bytes = win.crypto.getRandomValues(new Uint8Array(16));
  token = win.btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_");
  token = token.replace(/=+$/, "");
  try {
    win.localStorage.setItem(TOKEN_KEY, token);
  } catch {
    /* private mode: a token for this page only */
  }
  return token;
}

/** [scene number, step index] of a state's scene and step id on this deck (null: unknown). */
export function classPlaceOf(D, state) {
  const k = Object.keys(D.scenes).find((n) => D.scenes[n].id === state.scene);
  if (!k) return null;
  const i = D.scenes[k].steps.findIndex((s) => s.id === state.step);
  return [Number(k), Math.max(0, i)];
}

/** The deck's place as the class's state: scene and step ids, the question asked or revealed
    here (its answer and why: the server shows them to phones only once revealed). */
export function placeBody(D) {
  const S = D.ctx;
  const scene = D.scenes[D.at].id;
  const step = S ? S.steps[D.step].id : null;
  const found = S ? quizOf(S, D.step) : null;
  return { scene, step, question: found ? questionOf(S, found) : null,
    revealed: !!found && !found.open, setup: setupOf(D) };
}

function questionOf(S, found) {
  const cut = (x) => String(x ?? "").slice(0, TEXT_CAP);
  const choices = found.quiz.choices(S);
  const labels = {};
  const why = {};
  for (const c of choices) {
    labels[c.id] = cut(c.label);
    if (c.why) why[c.id] = cut(c.why);
  }
  const right = choices.find((c) => c.right);
  return { id: found.id, choices: choices.map((c) => c.id), labels, why,
    answer: right ? right.id : null };
}

/** What phones need to show the projector's figures: the sentence, the numbers measured. */
function setupOf(D) {
  const h = D.header;
  const blocks = {};
  for (const name of ["variance", "cost"]) if (h.blocks[name]) blocks[name] = h.blocks[name];
  return { sentence: h.settings.sentence, settings: h.settings, blocks };
}
/** room=CODE (or join=CODE) in the address: a reload rejoins, never makes a second class. */
export function writeClassLink(D) {
  const K = D.klass;
  const win = D.els.root.ownerDocument.defaultView;
  const url = new URL(win.location.href);
  url.searchParams.delete("room");
  url.searchParams.delete("join");
  if (K && K.status !== "ended" && K.error !== "no_class") {
    url.searchParams.set(K.role === "teacher" ? "room" : "join", K.code);
  } else if (!K && D.header.classroom?.join) {
    url.searchParams.set("join", D.header.classroom.join);
  }
  if (url.href !== win.location.href) win.history.replaceState(win.history.state, "", url.href);
}
