// Trunk pre-build hook: writes target/preview/preview.js, the script index.html inlines to show
// the kernel and its lesson's explanation before the wasm has arrived. It is src/preview/
// preview.js with the preview data (the default kernel and every built-in example's notes, the
// lessons' prose rendered by the session crate's own Markdown renderer: `cargo run -p
// wave-session --bin lesson-preview`) put in place of its placeholder, then minified. The file
// is rewritten only when it changes.
import { transform } from "esbuild";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const source = join(root, "src", "preview", "preview.js");
const out = join(root, "target", "preview", "preview.js");
const PLACEHOLDER = "__WAVE_PREVIEW_DATA__";

// The native build of the session crate, whatever target trunk builds for; RUSTFLAGS would
// replace the workspace's per-target flags, so it is left to cargo's own configuration.
const env = { ...process.env };
delete env.RUSTFLAGS;
delete env.CARGO_ENCODED_RUSTFLAGS;
delete env.CARGO_BUILD_TARGET;
const data = execFileSync(
  "cargo",
  ["run", "--quiet", "--locked", "-p", "wave-session", "--bin", "lesson-preview"],
  { cwd: root, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 << 20 },
);
JSON.parse(data);

const script = readFileSync(source, "utf8");
if (!script.includes(PLACEHOLDER)) {
  console.error(`build-preview: ${source} has no ${PLACEHOLDER}`);
  process.exit(1);
}
// A function as the replacement: `$` in the data must stay as it is. `</` is escaped so that
// nothing in the data can close the inline <script> element.
const filled = script.replace(PLACEHOLDER, () => data.replaceAll("</", "<\\/"));
const { code } = await transform(filled, { minify: true, target: "es2020", legalComments: "none" });
// Inlined in a <script> element, the code must not end it early or open an HTML comment in it.
if (/<\/script|<!--/i.test(code)) {
  console.error("build-preview: the minified preview holds </script or <!--, which would break the page");
  process.exit(1);
}
if (!existsSync(out) || readFileSync(out, "utf8") !== code) {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
}
console.log(`build-preview: ${out.slice(root.length + 1)}, ${code.length} bytes`);
