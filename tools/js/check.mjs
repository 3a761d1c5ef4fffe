/* What esbuild does not check in the browser code's modules, read with a JavaScript parser
   (acorn, pinned in package.json), never with patterns over the text; tests/tools/test_js.py
   runs it and expects no line.

     node tools/js/check.mjs [--used NAME …] FILE …   (paths from the repository's root)

   Prints, as JSON, a list of problems:
     - a name a file imports and never uses;
     - a name a file exports that no other file imports (dead; --used names those a test
       imports, "keys.js:ACTIONS"); an entry's default export (the component's) counts as used;
     - a circle of imports (a file that, through its imports, imports itself: the files import
       one way, from the leaves up to the entries);
     - a leaf (a file with a line `// leaf: …` at its top, after its header: pure arithmetic or text)
       that imports a file that is not a leaf, or names the page, the clock, timers, storage or
       the network. */

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as acorn from "acorn";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// What a leaf may not name: the page, the clock, timers, storage, the network, randomness.
const IMPURE = new Set([
  "document", "window", "globalThis", "navigator", "location", "localStorage", "fetch",
  "setTimeout", "setInterval", "requestAnimationFrame", "addEventListener", "Date",
  "performance", "ResizeObserver", "IntersectionObserver", "console",
]);
const LEAF_MARK = "// leaf:"; // a line of its own at a leaf's top: "// leaf: pure …"

/** The file's module, parsed: its imports ({from, names: [{imported, local}]}), its named
    exports, whether it has a default export, every name it refers to, and member accesses
    written as `object.property` (for Math.random). */
function readModule(file) {
  const code = readFileSync(path.resolve(ROOT, file), "utf8");
  const ast = acorn.parse(code, { ecmaVersion: "latest", sourceType: "module" });
  const mod = { file, imports: [], exports: [], hasDefault: false, refs: new Set(), members: new Set(),
    leaf: code.split("\n").some((line) => line.startsWith(LEAF_MARK)) };
  for (const node of ast.body) {
    if (node.type === "ImportDeclaration") {
      const names = node.specifiers.map((s) => ({
        imported: s.type === "ImportSpecifier" ? s.imported.name : s.type === "ImportDefaultSpecifier" ? "default" : "*",
        local: s.local.name,
      }));
      mod.imports.push({ from: node.source.value, names });
    } else if (node.type === "ExportNamedDeclaration") {
      const d = node.declaration;
      if (d?.id) mod.exports.push(d.id.name);
      for (const v of d?.declarations || []) mod.exports.push(v.id.name);
      for (const s of node.specifiers) mod.exports.push(s.exported.name);
    } else if (node.type === "ExportDefaultDeclaration") mod.hasDefault = true;
  }
  walk(ast, mod);
  return mod;
}

// Fields whose Identifier is a name of something else, not a reference to a binding.
const NOT_A_REFERENCE = {
  MemberExpression: ["property"], Property: ["key"], MethodDefinition: ["key"],
  PropertyDefinition: ["key"], LabeledStatement: ["label"], BreakStatement: ["label"],
  ContinueStatement: ["label"], ExportSpecifier: ["exported"], MetaProperty: ["meta", "property"],
};

function walk(node, mod) {
  if (Array.isArray(node)) return node.forEach((n) => walk(n, mod));
  if (!node || typeof node.type !== "string") return;
  if (node.type === "ImportDeclaration") return; // its names are bindings, not uses
  if (node.type === "Identifier") return void mod.refs.add(node.name);
  if (node.type === "MemberExpression" && !node.computed && node.object.type === "Identifier") {
    mod.members.add(`${node.object.name}.${node.property.name}`);
  }
  const skip = node.computed ? [] : NOT_A_REFERENCE[node.type] || [];
  for (const [key, value] of Object.entries(node)) {
    if (!skip.includes(key) && value && typeof value === "object") walk(value, mod);
  }
}

/** The problems of these files taken together (see the header). */
export function problems(files, used = []) {
  const mods = new Map(files.map((f) => [f, readModule(f)]));
  const out = [];
  const imported = new Set(used); // "file.js:name" of every name some file imports
  for (const mod of mods.values()) {
    for (const { from, names } of mod.imports) {
      const target = path.posix.join(path.posix.dirname(mod.file), from);
      for (const { imported: name, local } of names) {
        imported.add(`${target}:${name}`);
        if (!mod.refs.has(local)) out.push(`${mod.file} imports ${local} and never uses it`);
      }
      if (mod.leaf && !mods.get(target)?.leaf && !from.endsWith(".css")) {
        out.push(`${mod.file} is a leaf and imports ${from}, which is not`);
      }
    }
    if (mod.leaf) {
      const named = [...mod.refs].filter((n) => IMPURE.has(n));
      if (mod.members.has("Math.random")) named.push("Math.random");
      for (const n of named.sort()) out.push(`${mod.file} is a leaf and names ${n}`);
    }
  }
  out.push(...circles(mods));
  for (const mod of mods.values()) {
    for (const name of mod.exports) {
      const short = `${path.posix.basename(mod.file)}:${name}`;
      if (!imported.has(`${mod.file}:${name}`) && !imported.has(short)) {
        out.push(`${mod.file} exports ${name}, which no file imports`);
      }
    }
  }
  return out;
}

/** Each circle of imports among these modules, once: "a.js → b.js → a.js". */
function circles(mods) {
  const out = [];
  const done = new Set();
  const visit = (file, trail) => {
    if (trail.includes(file)) {
      const circle = [...trail.slice(trail.indexOf(file)), file];
      out.push(`an import circle: ${circle.join(" → ")}`);
      return;
    }
    if (done.has(file) || !mods.has(file)) return;
    for (const { from } of mods.get(file).imports) {
      visit(path.posix.join(path.posix.dirname(file), from), [...trail, file]);
    }
    done.add(file);
  };
  for (const file of mods.keys()) visit(file, []);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const used = [];
  const files = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--used") used.push(args[++i]);
    else files.push(args[i]);
  }
  console.log(JSON.stringify(problems(files, used)));
}
