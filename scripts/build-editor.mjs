// Bundles the CodeMirror editor (src/editor/) into one ES module for the wasm-bindgen bindings
// in src/codemirror.rs, and assembles the relaxed-SIMD fma module (src/fma/). Run by
// scripts/setup.sh and by Trunk before each build; skips each part when its output is newer than
// its sources and the npm lockfile.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const sources = join(root, "src", "editor");
const out = join(root, "target", "editor", "wave-editor.js");
const inputs = [join(root, "package-lock.json"), ...readdirSync(sources).map((f) => join(sources, f))];

// wasm's relaxed-SIMD fma (src/fma/relaxed_fma.wat, see src/fma.rs), assembled by binaryen's
// wasm-as into the bytes the page embeds.
const fmaSource = join(root, "src", "fma", "relaxed_fma.wat");
const fmaOut = join(root, "target", "editor", "relaxed-fma.wasm");
const fresh = (output, sources) =>
  existsSync(output) && sources.every((f) => statSync(f).mtimeMs <= statSync(output).mtimeMs);
if (!fresh(fmaOut, [fmaSource, join(root, "package-lock.json")])) {
  mkdirSync(dirname(fmaOut), { recursive: true });
  execFileSync(join(root, "node_modules", ".bin", "wasm-as"),
    ["--enable-simd", "--enable-relaxed-simd", fmaSource, "-o", fmaOut], { stdio: "inherit" });
}

if (fresh(out, inputs)) process.exit(0);
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
