/* The browser code's build (`make js`): esbuild (pinned in package.json) bundles each
   component's entry with every module it imports into one ES module, committed under the
   component's dist/ so that `make run` needs only Python (ui/explorer/__init__.py and
   ui/lesson/deck.py read them). tests/tools/test_js.py builds them again into a temporary
   folder and fails when a committed one differs by a byte.

     node tools/js/build.mjs                write the bundles into the repository
     node tools/js/build.mjs --out DIR      write them under DIR instead (same relative paths)
     node tools/js/build.mjs --inputs       also print, as JSON, each bundle's source files

   The bundles are printed without the sources' whitespace and comments (names kept: a stack
   trace still reads), so they are small and no reader mistakes them for code to edit; the
   sources are what people read. Stylesheets are imported as their minified text (`import CSS
   from "./explorer.css"`: esbuild's CSS minifier, then a string). One import is esbuild's by a
   plugin of ours: `import SCENE_FILES from "glob:./scenes/*.js"` is every file the pattern
   matches beside the importer, in name order, as { "s01.js": its module, … }; so a new scene
   is its file, found by name, never a line in a list. */

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

// Each component's entry and its bundle (paths from the repository's root).
export const BUNDLES = [
  { entry: "ui/explorer/streamlit.js", out: "ui/explorer/dist/view.js" },
  { entry: "ui/lesson/run.js", out: "ui/lesson/dist/deck.js" },
];

/** `glob:./dir/pattern.js`: the files matching the pattern (`*` any run of characters, in the
    last part of the path only), in name order, as `export default { "name.js": module, … }`. */
const globPlugin = {
  name: "glob",
  setup(build) {
    build.onResolve({ filter: /^glob:/ }, (args) => ({
      path: path.join(args.resolveDir, args.path.slice("glob:".length)),
      namespace: "glob",
    }));
    build.onLoad({ filter: /.*/, namespace: "glob" }, (args) => {
      const dir = path.dirname(args.path);
      const [head, tail] = path.basename(args.path).split("*");
      const names = readdirSync(dir)
        .filter((n) => n.startsWith(head) && n.endsWith(tail) && n.length >= head.length + tail.length)
        .sort();
      const lines = names.map((n, i) => `import * as m${i} from "./${n}";`);
      lines.push(`export default { ${names.map((n, i) => `${JSON.stringify(n)}: m${i}`).join(", ")} };`);
      return { contents: lines.join("\n"), resolveDir: dir, watchDirs: [dir] };
    });
  },
};

/** `import CSS from "./x.css"`: the stylesheet, minified by esbuild, as a string. */
const cssTextPlugin = {
  name: "css-text",
  setup(build) {
    build.onLoad({ filter: /\.css$/ }, async (args) => {
      const css = await esbuild.transform(readFileSync(args.path, "utf8"), {
        loader: "css",
        minify: true,
        charset: "utf8",
        sourcefile: path.relative(ROOT, args.path),
      });
      return { contents: css.code.trim(), loader: "text" };
    });
  },
};

/** Build every bundle under `outRoot`; returns each bundle's source files (from the root). */
export async function build(outRoot = ROOT) {
  const inputs = {};
  for (const { entry, out } of BUNDLES) {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: path.join(outRoot, out),
      bundle: true,
      format: "esm",
      charset: "utf8", // Chinese, §, √ as they are written
      legalComments: "none",
      minifyWhitespace: true,
      plugins: [globPlugin, cssTextPlugin],
      banner: { js: `// GENERATED from ${entry} by \`make js\` (tools/js/build.mjs, esbuild): do not edit.` },
      metafile: true,
      logLevel: "warning",
    });
    if (result.warnings.length) throw new Error(`${entry}: esbuild warned (see above)`);
    inputs[out] = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith("glob:")).sort();
  }
  return inputs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--out");
  const inputs = await build(at >= 0 ? path.resolve(args[at + 1]) : ROOT);
  if (args.includes("--inputs")) console.log(JSON.stringify(inputs));
}
