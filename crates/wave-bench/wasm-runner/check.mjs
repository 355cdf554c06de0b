// Runs every line of a checksum file in the wasm runner and compares the wave-instructions and
// the output checksum with the file's, which the native test (cargo test -p wave-bench) checks
// against the native engine. Exits 1 on any difference.
// The runs go twice: with the engine's own `fma` pass, then with `fma` lent by the page's
// relaxed-SIMD module (as a browser that has relaxed SIMD runs it). The engine takes that module
// only where it rounds once: on a CPU with FMA, a refusal is a failure.
// Usage: node crates/wave-bench/wasm-runner/check.mjs [FILE=checksums.txt] [--wasm PATH]
// For the benchmark's own sizes:
//   cargo run --release -p wave-bench -- --checksums > /tmp/bench-checksums.txt
//   node crates/wave-bench/wasm-runner/check.mjs /tmp/bench-checksums.txt
import { readFile } from "node:fs/promises";
import { KERNELS, caseName, here, hex, load, parseChecksums, wasmOption } from "./wasm.mjs";

const { wasm, rest } = wasmOption(process.argv.slice(2));
const file = rest[0] ?? `${here}checksums.txt`;
const expected = parseChecksums(await readFile(file, "utf8"));
const runner = await load(wasm);

let failures = 0;
function checkRuns(runner, how) {
  for (const want of expected) {
    const got = runner.run(want.kernel, want.size);
    const same = got.instructions === want.instructions && got.checksum === want.checksum;
    if (!same) failures++;
    console.log(
      `${same ? "ok  " : "FAIL"} ${caseName(want.kernel, want.size)}, ${how}: ` +
        `${got.instructions} wave-instructions, checksum ${hex(got.checksum)}` +
        (same ? "" : ` (expected ${want.instructions}, ${hex(want.checksum)})`),
    );
  }
}
// The runner with the engine's own fma, and the same runner lent the page's module where the
// engine takes it.
const runners = [[runner, "the engine's fma"]];
const lent = await load(wasm, { lentFma: true });
if (lent.lentFma) {
  runners.push([lent, "fma lent"]);
} else {
  const cpuHasFma = await readFile("/proc/cpuinfo", "utf8").then(
    (text) => /^flags\s*:.*\bfma\b/m.test(text),
    () => false,
  );
  if (cpuHasFma) failures++;
  console.log(
    `${cpuHasFma ? "FAIL" : "skip"} the engine refused the lent fma module` +
      (cpuHasFma ? " on a CPU with FMA" : " (no FMA on this CPU: it rounds twice)"),
  );
}
for (const [each, how] of runners) checkRuns(each, how);
// fma on operands chosen for its edge cases (NaNs that stop a lent run among them), at three
// wave widths (4,096 threads, 3 results each), against the exact per-lane rules compiled into the
// same build.
for (const [each, how] of runners) {
  for (const waveWidth of [16, 32, 64]) {
    const seed = 0xf3a0 + waveWidth;
    const wrong = each.fmaCheck(seed, 32, waveWidth);
    if (wrong !== 0) failures++;
    console.log(
      `${wrong === 0 ? "ok  " : "FAIL"} fma edge cases, wave width ${waveWidth}, ${how}: ` +
        (wrong === 0xffffffff ? "the kernel did not run" : `${wrong} of 12288 results differ`),
    );
  }
}
const missing = rest[0] ? [] : KERNELS.filter((k) => !expected.some((line) => line.kernel === k));
for (const kernel of missing) console.log(`FAIL ${file} has no ${kernel} line`);
if (failures > 0 || missing.length > 0 || expected.length === 0) {
  console.log(`${wasm}: differs from ${file}`);
  process.exit(1);
}
console.log(`${wasm}: all ${expected.length} runs match ${file}`);
