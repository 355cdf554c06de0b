// Times our engine compiled to wasm32 on one benchmark kernel (see Cargo.toml for the build).
// Usage: node crates/wave-bench/wasm-runner/run.mjs KERNEL SIZE [REPS=3] [--wasm PATH] [--lent-fma]
//   KERNEL naive | blocked | divergence; SIZE N for the GEMMs, threads for divergence (0: 65536).
//   --lent-fma: `fma` through the page's relaxed-SIMD module (target/editor/relaxed-fma.wasm), as
//   in a browser that lends it, instead of the engine's own pass in f64.
// Prints each repetition, then the best time, the wave-instructions and the output checksum
// (FNV-1a, as `cargo run --release -p wave-bench -- --checksums` prints it natively).
import { KERNELS, caseName, hex, load, wasmOption } from "./wasm.mjs";

const { wasm, rest: args } = wasmOption(process.argv.slice(2));
const lentFma = args.includes("--lent-fma");
const rest = args.filter((arg) => arg !== "--lent-fma");
const [kernel, sizeText, repsText = "3"] = rest;
const size = Number(sizeText);
const reps = Number(repsText);
if (!KERNELS.includes(kernel) || !Number.isInteger(size) || !(reps >= 1) || rest.length > 3) {
  console.error(
    "usage: node run.mjs naive|blocked|divergence SIZE [REPS] [--wasm PATH] [--lent-fma]\n" +
      "  e.g. node run.mjs naive 256 5, node run.mjs blocked 512 3, node run.mjs divergence 0 3",
  );
  process.exit(2);
}

const runner = await load(wasm, { lentFma });
if (lentFma && !runner.lentFma) {
  console.error("the engine refused the lent fma module (it did not give the per-lane rules' results)");
  process.exit(1);
}
let best = Infinity;
let last;
for (let i = 0; i < reps; i++) {
  last = runner.run(kernel, size);
  best = Math.min(best, last.ms);
  console.log(`rep ${i + 1}: ${last.ms.toFixed(1)} ms`);
}
console.log(
  `${caseName(kernel, size)} in wasm (node ${process.version}, ${wasm}` +
    `${lentFma ? ", fma lent by the relaxed-SIMD module" : ""}): ` +
    `best ${best.toFixed(1)} ms, ${last.instructions} wave-instructions, ` +
    `checksum ${hex(last.checksum)}`,
);
