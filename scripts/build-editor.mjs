// Bundles the CodeMirror editor (src/editor/) into one ES module for the wasm-bindgen bindings
// in src/codemirror.rs. Run by scripts/setup.sh and by Trunk before each build; skips the work
// when the bundle is newer than its sources and the npm lockfile.
import { build } from "esbuild";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sources = join(root, "src", "editor");
const out = join(root, "target", "editor", "wave-editor.js");
const inputs = [join(root, "package-lock.json"), ...readdirSync(sources).map((f) => join(sources, f))];

if (existsSync(out)) {
  const built = statSync(out).mtimeMs;
  if (inputs.every((f) => statSync(f).mtimeMs <= built)) process.exit(0);
}
await build({
  entryPoints: [join(sources, "editor.js")],
  outfile: out,
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  legalComments: "none",
  logLevel: "warning",
});
