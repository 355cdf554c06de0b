// Times our engine compiled to wasm32 on one benchmark kernel (see Cargo.toml for the build).
// Usage: node crates/wave-bench/wasm-runner/run.mjs KERNEL SIZE [REPS=3] [--wasm PATH]
//   KERNEL naive | blocked | divergence; SIZE N for the GEMMs, threads for divergence (0: 65536).
// Prints each repetition, then the best time, the wave-instructions and the output checksum
// (FNV-1a, as `cargo run --release -p wave-bench -- --checksums` prints it natively).
import { KERNELS, caseName, hex, load, wasmOption } from "./wasm.mjs";

const { wasm, rest } = wasmOption(process.argv.slice(2));
const [kernel, sizeText, repsText = "3"] = rest;
const size = Number(sizeText);
const reps = Number(repsText);
if (!KERNELS.includes(kernel) || !Number.isInteger(size) || !(reps >= 1) || rest.length > 3) {
  console.error(
    "usage: node run.mjs naive|blocked|divergence SIZE [REPS] [--wasm PATH]\n" +
      "  e.g. node run.mjs naive 256 5, node run.mjs blocked 512 3, node run.mjs divergence 0 3",
  );
  process.exit(2);
}

const runner = await load(wasm);
let best = Infinity;
let last;
for (let i = 0; i < reps; i++) {
  last = runner.run(kernel, size);
  best = Math.min(best, last.ms);
  console.log(`rep ${i + 1}: ${last.ms.toFixed(1)} ms`);
}
console.log(
  `${caseName(kernel, size)} in wasm (node ${process.version}, ${wasm}): ` +
    `best ${best.toFixed(1)} ms, ${last.instructions} wave-instructions, ` +
    `checksum ${hex(last.checksum)}`,
);
