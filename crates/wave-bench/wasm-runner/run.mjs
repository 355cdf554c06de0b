// Times our engine compiled to wasm32 on the blocked GEMM (see Cargo.toml for the build).
// Usage: node crates/wave-bench/wasm-runner/run.mjs [N=512] [reps=3]
import { readFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";

const here = new URL(".", import.meta.url);
const wasmPath = new URL(
  "target/wasm32-unknown-unknown/release/wave_bench_wasm.wasm",
  here,
);
const n = Number(process.argv[2] ?? 512);
const reps = Number(process.argv[3] ?? 3);

const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {});
const { prepare, run, checksum } = instance.exports;

let best = Infinity;
let instructions = 0n;
for (let i = 0; i < reps; i++) {
  const status = prepare(n);
  if (status !== 0) throw new Error(`prepare(${n}) failed with ${status}`);
  const start = performance.now();
  instructions = run();
  const ms = performance.now() - start;
  if (instructions < 0n) throw new Error(`run failed with ${instructions}`);
  best = Math.min(best, ms);
  console.log(`rep ${i + 1}: ${ms.toFixed(1)} ms`);
}
console.log(
  `blocked GEMM N=${n} in wasm (node ${process.version}): best ${best.toFixed(1)} ms, ` +
    `${instructions} wave-instructions, C checksum 0x${(checksum() >>> 0).toString(16)}`,
);
