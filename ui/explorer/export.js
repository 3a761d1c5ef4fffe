/* PNG of the whole view at projector resolution (1920 px wide): every head's map, the chosen
   head's before/after panels and the focus bars, drawn again at that size, not screenshotted. */

const EXPORT_WIDTH = 1920;

function exportCanvas(ctl) {
  const { header, state } = ctl;
  const doc = ctl.els.root.ownerDocument;
  const fonts = { label: 22, min: 12, title: 26, cell: 18 };
  const pad = 24;
  const inner = EXPORT_WIDTH - 2 * pad;
  const cols = Math.min(header.h, 4);
  const measure = doc.createElement("canvas").getContext("2d");
  const labels = labelsOf(ctl);
  const g = mapGeometry(measure, labels, Math.floor((inner - GAP * (cols - 1)) / cols), 980, fonts);
  const pg = mapGeometry(measure, labels, Math.floor((inner - 2 * GAP) / 3), 980, fonts);
  const titleH = fonts.title + 16;
  const mapsH = Math.ceil(header.h / cols) * (titleH + g.height + GAP);
  const barsH = 360;
  const height = pad + 2 * titleH + mapsH + 2 * titleH + pg.height + GAP + 2 * titleH + barsH + pad;
  const out = doc.createElement("canvas");
  out.width = EXPORT_WIDTH;
  out.height = height;
  const ctx = out.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, EXPORT_WIDTH, height);
  ctx.fillStyle = "#000";
  ctx.textBaseline = "top";
  const title = (text, x, y) => {
    ctx.font = `${fonts.title}px ${FONT_STACK}`;
    ctx.fillStyle = "#000";
    ctx.textAlign = "left";
    ctx.fillText(text, x, y);
  };
  const place = (draw, x, y, w, h) => {
    const c = doc.createElement("canvas");
    draw(c);
    ctx.drawImage(c, x, y, w, h);
  };
  const saved = ctl.layout;
  ctl.layout = { ...saved, fonts };
  let y = pad;
  title(header.tokens.map((t) => t.t).join(" "), pad, y);
  y += titleH;
  title(`${ctl.els.note.textContent}${state.causal ? ` · ${header.text.causal}` : ""}`, pad, y);
  y += titleH;
  for (let k = 0; k < header.h; k++) {
    const x = pad + (k % cols) * (g.width + GAP);
    const top = y + Math.floor(k / cols) * (titleH + g.height + GAP);
    title(ctl.els.maps[k].fig.querySelector("figcaption").textContent, x, top);
    const spec = { ...weightSpec(ctl, k, ctl.weights[k], 1), marks: { focusRow: state.focus } };
    place((c) => drawMap(c, g, spec), x, top + titleH, g.width, g.height);
  }
  y += mapsH;
  title(ctl.els.panelsTitle.textContent, pad, y);
  y += titleH;
  const captions = panelCaptions(ctl);
  panelSpecs(ctl).forEach((spec, i) => {
    const x = pad + i * (pg.width + GAP);
    title(captions[i], x, y);
    const plain = { ...spec, marks: { focusRow: state.focus } };
    place((c) => drawMap(c, pg, plain), x, y + titleH, pg.width, pg.height);
  });
  y += titleH;
  y += pg.height + GAP;
  title(ctl.els.focusTitle.textContent, pad, y);
  y += titleH;
  let x = pad; // the legend: one colour per head
  for (let k = 0; k < header.h; k++) {
    ctx.fillStyle = headColour(k);
    ctx.fillRect(x, y + 4, fonts.label, fonts.label);
    const name = fmt(header.text.head, { i: k + 1 });
    ctx.fillStyle = "#000";
    ctx.font = `${fonts.label}px ${FONT_STACK}`;
    ctx.fillText(name, x + fonts.label + 6, y + 2);
    x += fonts.label + 6 + ctx.measureText(name).width + 24;
  }
  y += titleH;
  const n = header.n;
  const rows = ctl.weights.map((w) => w.subarray(state.focus * n, (state.focus + 1) * n));
  place((c) => drawBars(c, inner, barsH, rows, labels, fonts, null), pad, y, inner, barsH);
  ctl.layout = saved;
  return out;
}

function exportPng(ctl) {
  const canvas = exportCanvas(ctl);
  canvas.toBlob((blob) => {
    const a = ctl.els.root.ownerDocument.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = "attention_lab.png";
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }, "image/png");
}
