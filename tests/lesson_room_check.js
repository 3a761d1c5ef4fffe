// Everything a person at the back of the room must be able to read (tests/browser/test_lesson.py):
// page.evaluate(this file) returns the problems found, [] when none.
() => {
  const host = document.querySelector('[data-testid="stBidiComponentIsolated"]');
  const root = host.shadowRoot.querySelector('[data-testid="lesson"]');
  const out = [];
  const vw = innerWidth, vh = innerHeight;
  const shown = (el) => {
    if (el.closest('.sr-only, [hidden]')) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  // Text in one paragraph is one flow: its pieces may touch. A marked term (an inline-block
  // button) is a word of its sentence: its glyph box (1.45 em in the CJK font) meets the lines
  // above and below it by the same 3 px as the paragraph's own lines do at line-height 1.3.
  const inFlow = (el) => getComputedStyle(el).display === 'inline' || el.dataset.testid === 'lesson-term';
  const block = (el) => {
    while (el && inFlow(el)) el = el.parentElement;
    return el;
  };
  const boxes = [];
  const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    if (!node.textContent.trim() || !shown(node.parentElement)) continue;
    const el = node.parentElement;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 19.99) out.push(`text ${px}px: ${node.textContent.trim().slice(0, 30)}`);
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 0.5 || r.height < 0.5) continue;
      boxes.push([[r.left, r.top, r.width, r.height], block(el), node.textContent.slice(0, 24)]);
    }
  }
  for (const c of root.querySelectorAll('canvas')) {
    if (!shown(c)) continue;
    const b = c.getBoundingClientRect();
    const nums = (s) => (s || '').split(',').filter(Boolean).map(Number);
    for (const f of nums(c.dataset.fonts)) if (f < 20) out.push(`canvas font ${f}px`);
    for (const f of nums(c.dataset.cellFonts)) if (f < 16) out.push(`cell numbers ${f}px`);
    for (const [x, y, w, h] of JSON.parse(c.dataset.labels || '[]')) {
      const inside = x >= -1 && y >= -1 && x + w <= b.width + 1 && y + h <= b.height + 1;
      if (!inside) out.push(`canvas label cut at ${[x, y, w, h]}`);
      boxes.push([[b.left + x, b.top + y, w, h], c, `canvas ${Math.round(x)},${Math.round(y)}`]);
    }
  }
  for (const [[x, y, w, h], , s] of boxes) {
    if (x < -1 || y < -1 || x + w > vw + 1 || y + h > vh + 1) out.push(`off screen: ${s}`);
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, ea, sa] = boxes[i], [b, eb, sb] = boxes[j];
      if (ea === eb && ea.tagName !== 'CANVAS') continue;
      const ix = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
      const iy = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
      if (ix > 2 && iy > 2) out.push(`overlap: ${sa} / ${sb}`);
    }
  }
  for (const el of root.querySelectorAll('.side, .figure, .scene, .body, .topbar, .deck')) {
    if (!shown(el)) continue;
    if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1) {
      const name = el.className.split(' ')[0];
      const size = `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`;
      out.push(`cut: .${name} ${size}`);
    }
  }
  const main = document.querySelector('[data-testid="stMain"]');
  if (main.scrollHeight > main.clientHeight + 1) out.push(`main scrolls: ${main.scrollHeight}`);
  if (document.documentElement.scrollWidth > vw + 1) out.push('page scrolls sideways');
  return out;
}
