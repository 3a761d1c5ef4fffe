/* The controls a scene puts next to its figure: token chips, head buttons, a switch, a slider, a
   button and a readout line. Each is a real form control with a name and a data-key, so a rebuild after a
   rerun puts the keyboard back where it was. */

import { button, deepActive, make } from "./elements.js";
import { tx } from "./text.js";
import { figureBox, roomOf } from "./room.js";
import { drawScene } from "./stage.js";
import { emit } from "./events.js";

/** A token's chip text: the word, and its English gloss when the lesson is in English. */
function chipText(D, tok) {
  const g = D.header.lang === "en" && tok.gloss && tok.gloss.length <= 14 ? tok.gloss : "";
  return g ? `${tok.t} · ${g}` : tok.t;
}

/** Pick the scene's query word (S.local.focus): chips (toggle buttons: the arrow keys stay the
    deck's) or, asked for (`select`: a phone, where thirteen chips would take three lines of the
    screen) or for a long sentence, one select; `key` is its data-key (and the select's
    data-testid). */
export function wTokens(S, key, legend, part, chosen, select = false) {
  const D = S.D;
  const doc = S.doc;
  const onPick = (i) => setLocal(S, { focus: part.tokens[i].t });
  if (select || part.n > 16) {
    const label = make(doc, "label", "pick");
    const sel = make(doc, "select", "", { "data-key": key, "data-testid": key });
    part.tokens.forEach((tok, i) => {
      const o = make(doc, "option", "", { value: String(i) }, `${i + 1}. ${tok.named || tok.t}`);
      o.selected = i === chosen;
      sel.append(o);
    });
    sel.addEventListener("change", () => onPick(Number(sel.value)));
    label.append(make(doc, "span", "", {}, legend), sel);
    return label;
  }
  const group = make(doc, "div", "chips", { role: "group", "aria-label": legend });
  group.append(make(doc, "p", "", { "aria-hidden": "true" }, legend));
  part.tokens.forEach((tok, i) => {
    group.append(button(doc, "", "", chipText(D, tok), () => onPick(i), {
      "data-i": String(i),
      "data-key": `${key}-${i}`,
      "aria-pressed": String(i === chosen),
      "aria-label": [tok.t, tok.gloss].filter(Boolean).join(" · "),
    }));
  });
  return group;
}

/** Pick a head: one toggle button per head of `part`, `head` pressed. */
export function headPicker(S, part, head, onPick, short = false) {
  const doc = S.doc;
  const name = tx(S.D, "lesson.head", { i: "" }).trim();
  const group = make(doc, "div", "chips", { role: "group", "aria-label": name });
  // short (a phone): "head" once, then the numbers, on one line
  if (short) group.append(make(doc, "span", "", { "aria-hidden": "true", style: "align-self: center" }, name));
  for (let k = 0; k < part.h; k++) {
    const label = tx(S.D, "lesson.head", { i: k + 1 });
    group.append(button(doc, "", "", short ? String(k + 1) : label, () => onPick(k), {
      "data-key": `head-${k}`,
      "aria-pressed": String(k === head),
      ...(short && { "aria-label": label }),
    }));
  }
  return group;
}

/** A switch (a checkbox with role switch) and its label. */
export function wSwitch(S, label, checked, onChange, key) {
  const box = make(S.doc, "label", "switch");
  const input = make(S.doc, "input", "", {
    type: "checkbox",
    role: "switch",
    "data-key": key,
    "data-testid": key,
  });
  input.checked = checked;
  input.addEventListener("change", () => onChange(input.checked));
  box.append(input, make(S.doc, "span", "", {}, label));
  return box;
}

/** A range slider over 0 … steps with its label and a value line. */
export function wSlider(S, label, steps, value, onInput, key) {
  const box = make(S.doc, "label", "slider");
  const name = make(S.doc, "span", "", {}, label);
  const input = make(S.doc, "input", "", {
    type: "range",
    min: "0",
    max: String(steps),
    step: "1",
    "data-key": key,
    "data-testid": key,
  });
  input.value = String(value);
  const out = make(S.doc, "output", "readout");
  input.addEventListener("input", () => onInput(Number(input.value), out));
  box.append(name, input, out);
  return { box, input, out };
}

export function wButton(S, label, onClick, key, cls = "") {
  return button(S.doc, cls, key, label, onClick, { "data-key": key });
}

/** A toggle button (aria-pressed): one of a few things the scene switches between. */
export function wToggle(S, label, pressed, onClick, key) {
  const b = wButton(S, label, onClick, key);
  b.setAttribute("aria-pressed", String(pressed));
  return b;
}

/** A phone's one figure of two (S.local.which): a toggle button each, `key`-0 and `key`-1, in a
    group `key`; a tap on the other switches. */
export function wWhich(S, key, legend, labels) {
  const box = make(S.doc, "div", "which", { role: "group", "data-testid": key, "aria-label": legend });
  labels.forEach((label, k) => {
    box.append(wToggle(S, label, S.local.which === k, () => setLocal(S, { which: k }), `${key}-${k}`));
  });
  return box;
}

export function wReadout(S, key) {
  return make(S.doc, "p", "readout", { "data-testid": key });
}

/** Change one of the scene's own settings (S.local: a what-if, √d_k, the mask, the focus, the
    head) and redraw: it stays in this scene, never reaches Python, another scene or the link;
    what the step shows changed (a teacher's question may list other words: the class hears). */
export function setLocal(S, patch) {
  Object.assign(S.local, patch);
  if (!S.D.inst || S.D.ctx !== S) return;
  drawScene(S.D, S.D.step, S.D.step);
  emit(S.D, "placechanged");
}

/** A token's text for a sentence in a label: “小明”; in English with its gloss as Python's
    ui.gloss.glossed writes it, “小明 (Xiaoming, name)”. */
export function quoteTok(D, tok) {
  return tok.named || tok.t;
}

export function pctText(w, digits = 0) {
  return `${(w * 100).toFixed(digits)}%`;
}

/** Replace the scene's controls, keeping the keyboard on the control it was on (data-key); on a
    phone, where the controls stand under the figure, the figure's box is measured again. */
export function fillSide(S, nodes) {
  const active = deepActive(S.doc);
  const key = active && S.side.contains(active) ? active.dataset.key : null;
  S.side.replaceChildren(...nodes.filter(Boolean));
  if (key) S.side.querySelector(`[data-key="${key}"]`)?.focus();
  if (roomOf(S.D).phone) S.box = figureBox(S.D);
}

/** Ask Python once for a measurement the scene needs (it arrives with the next rerun). The trigger
    names every measurement asked so far: two asked back to back (the handout asks for both) reach
    Python as the last trigger only, and the first would never come. */
export function askBlock(D, name) {
  if (D.header.blocks[name]) return;
  D.els.scene.dataset.waiting = name; // for tests: the figure says "measuring" until it comes
  if (D.asked[name]) return;
  D.asked[name] = true;
  D.api?.setTriggerValue("block", Object.keys(D.asked).join(" "));
}
