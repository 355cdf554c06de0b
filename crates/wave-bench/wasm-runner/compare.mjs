// Builds the wasm runner twice, with wasm SIMD (the repository's .cargo/config.toml) and without
// it (RUSTFLAGS="" in a separate target directory), times both on the naive GEMM N=256, the
// blocked GEMM N=512 and the divergence kernel (65,536 threads), the two builds taking turns, and
// prints a Markdown table of the best times and the speed-up. Exits 1 if the two builds differ in
// wave-instructions or output checksum.
// Usage: node crates/wave-bench/wasm-runner/compare.mjs [--reps N=5] [--no-build]
import { spawnSync } from "node:child_process";
import { caseName, here, hex, load } from "./wasm.mjs";

const args = process.argv.slice(2);
const repsAt = args.indexOf("--reps");
const reps = repsAt < 0 ? 5 : Number(args[repsAt + 1]);
const build = !args.includes("--no-build");
const known = (arg, i) =>
  arg === "--no-build" || arg === "--reps" || (repsAt >= 0 && i === repsAt + 1);
if (!(reps >= 1) || !args.every(known)) {
  console.error("usage: node compare.mjs [--reps N] [--no-build]");
  process.exit(2);
}

const CASES = [
  ["naive", 256],
  ["blocked", 512],
  ["divergence", 0],
];
const manifest = `${here}Cargo.toml`;
const cargo = [
  "build",
  "--release",
  "--locked",
  "--target",
  "wasm32-unknown-unknown",
  "--manifest-path",
  manifest,
];
const noSimdDir = `${here}target/no-simd`;
const builds = [
  {
    label: "no simd128",
    command: `RUSTFLAGS="" CARGO_TARGET_DIR=${noSimdDir} cargo ${cargo.join(" ")}`,
    env: { RUSTFLAGS: "", CARGO_TARGET_DIR: noSimdDir },
    wasm: `${noSimdDir}/wasm32-unknown-unknown/release/wave_bench_wasm.wasm`,
  },
  {
    label: "simd128",
    command: `cargo ${cargo.join(" ")}`,
    env: {},
    wasm: `${here}target/wasm32-unknown-unknown/release/wave_bench_wasm.wasm`,
  },
];

for (const b of builds) {
  if (!build) break;
  console.error(`$ ${b.command}`);
  const env = { ...process.env };
  // The simd128 build takes its flags from .cargo/config.toml, which RUSTFLAGS would override.
  for (const name of ["RUSTFLAGS", "CARGO_ENCODED_RUSTFLAGS", "CARGO_TARGET_DIR"]) {
    delete env[name];
  }
  const result = spawnSync("cargo", cargo, { env: { ...env, ...b.env }, stdio: "inherit" });
  if (result.status !== 0) process.exit(1);
}
for (const b of builds) b.runner = await load(b.wasm);

let differ = false;
const rows = [];
for (const [kernel, size] of CASES) {
  console.error(`timing ${caseName(kernel, size)} ...`);
  const best = builds.map(() => null);
  for (let rep = 0; rep < reps; rep++) {
    builds.forEach((b, i) => {
      const run = b.runner.run(kernel, size);
      if (best[i] === null || run.ms < best[i].ms) best[i] = run;
    });
  }
  const [plain, simd] = best;
  const same = plain.instructions === simd.instructions && plain.checksum === simd.checksum;
  if (!same) {
    differ = true;
    console.error(
      `${caseName(kernel, size)}: the builds differ: ` +
        `${plain.instructions} / ${hex(plain.checksum)} without simd128, ` +
        `${simd.instructions} / ${hex(simd.checksum)} with`,
    );
  }
  const ms = (t) => (t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${t.toFixed(1)} ms`);
  const checksum = `${hex(simd.checksum)}${same ? "" : " **differs**"}`;
  const speedup = `${(plain.ms / simd.ms).toFixed(2)}×`;
  rows.push(
    `| ${caseName(kernel, size)} | ${simd.instructions.toLocaleString("en-US")} | ${checksum} ` +
      `| ${ms(plain.ms)} | ${ms(simd.ms)} | ${speedup} |`,
  );
}

console.log(
  `Node ${process.version}, wave width 32, best of ${reps} runs of each build taking turns ` +
    `(the run alone, not the set-up).\n`,
);
console.log("| case | wave-instructions | checksum | no simd128 | simd128 | speed-up |");
console.log("|---|---:|---|---:|---:|---:|");
for (const row of rows) console.log(row);
if (differ) process.exit(1);
