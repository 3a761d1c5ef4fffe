/* The lesson's scenes by their numbers: each scene's number is its own fact, declared in its text
   table and sent in the header (header.numbers: { s01: 1, …, s04b: 4.5, … }; ui/lesson/scenes.py),
   so a scene put between two others leaves theirs as they are. D.scenes maps a number to its
   scene; the lesson runs in the numbers' order: the first, the last, the one after or before,
   the scene a number names (the nearest for another). */

/** The scenes by number, { 1: §1, …, 4.5: §4½, … }, from the scene files' modules (run.js's glob
    import, { "s01.js": module }) and the numbers their tables declare; each one's default export
    is its scene, whose id is its file's name. */
export function sceneList(files, numbers) {
  const out = {};
  for (const [name, module] of Object.entries(files)) {
    const id = name.replace(/\.js$/, "");
    const scene = module.default;
    if (scene?.id !== id) throw new Error(`scenes/${name}: export default defineScene({ id: "${id}" …`);
    if (!(id in numbers)) throw new Error(`scenes/${name}: its text table declares no number`);
    out[numbers[id]] = scene;
  }
  return out;
}

/** The scenes' numbers, in the lesson's order. */
export function sceneNumbers(D) {
  return Object.keys(D.scenes).map(Number).sort((a, b) => a - b);
}

/** The number of the scene after scene k (null after the last), or before it (null before the
    first): by = 1 or -1. */
export function sceneBeside(D, k, by) {
  const list = sceneNumbers(D);
  return list[list.indexOf(k) + by] ?? null;
}

/** The scene a number names: its own, else the nearest (a whole number rounded first, as the
    link's at= is read: ui/lesson/scenes.py nearest), within the first and the last. */
export function sceneAt(D, k) {
  const list = sceneNumbers(D);
  const n = Number(k);
  if (list.includes(n)) return n;
  if (!Number.isFinite(n)) return list[0];
  const whole = Math.min(Math.max(Math.round(n), list[0]), list[list.length - 1]);
  if (list.includes(whole)) return whole;
  return list.reduce((best, m) => (Math.abs(m - n) < Math.abs(best - n) ? m : best), list[0]);
}
