// Loading the wasm runner (src/lib.rs) and running one benchmark kernel in it; shared by run.mjs,
// check.mjs and compare.mjs.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";

/** In the order of the runner's kernel ids (`cases::Kernel::ALL`). */
export const KERNELS = ["naive", "blocked", "divergence"];

/** The divergence case's thread count when its size is given as 0 (as in `cases.rs`). */
export const DIVERGENCE_THREADS = 65536;

export const here = fileURLToPath(new URL(".", import.meta.url));

/** The build that `cargo build --release --target wasm32-unknown-unknown` makes. */
export const defaultWasm = `${here}target/wasm32-unknown-unknown/release/wave_bench_wasm.wasm`;

/** `size` as the runner reads it: 0 stands for the benchmark's divergence size. */
export function effectiveSize(kernel, size) {
  return kernel === "divergence" && size === 0 ? DIVERGENCE_THREADS : size;
}

export function caseName(kernel, size) {
  return kernel === "divergence"
    ? `divergence (${effectiveSize(kernel, size)} threads)`
    : `${kernel} GEMM N=${size}`;
}

/** The page's relaxed-SIMD fma module, as `scripts/build-editor.mjs` assembles it. */
export const lentFmaWasm = `${here}../../../target/editor/relaxed-fma.wasm`;

/**
 * Adds the page's relaxed-SIMD fma module to the runner's function table and offers it to the
 * engine, as the page does at start (src/fma.rs): whether the engine took it (it tests it first).
 */
async function lendFma(instance) {
  // Node 20 has relaxed SIMD behind a flag; it must be set before the module is compiled.
  v8.setFlagsFromString("--experimental-wasm-relaxed-simd");
  let bytes;
  try {
    bytes = await readFile(lentFmaWasm);
  } catch (error) {
    throw new Error(`${lentFmaWasm}: ${error.message} (node scripts/build-editor.mjs makes it)`);
  }
  const { memory, __indirect_function_table: table, offer_fused } = instance.exports;
  const lent = await WebAssembly.instantiate(bytes, { env: { memory } });
  const index = table.grow(1);
  table.set(index, lent.instance.exports.fma_run);
  return offer_fused(index) === 1;
}

/**
 * The runner at `path`, instantiated; `run(kernel, size)` prepares and times one run. With
 * `lentFma`, the engine's `fma` runs go through the page's relaxed-SIMD module (`lentFma` on the
 * result says whether the engine took it).
 */
export async function load(path = defaultWasm, { lentFma = false } = {}) {
  let bytes;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new Error(`${path}: ${error.message} (build it first: see Cargo.toml)`);
  }
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const { prepare, run, checksum, fma_check } = instance.exports;
  const taken = lentFma ? await lendFma(instance) : false;
  return {
    path,
    lentFma: taken,
    /** { ms, instructions (a BigInt), checksum (an unsigned number) } of one run. */
    run(kernel, size) {
      const id = KERNELS.indexOf(kernel);
      if (id < 0) throw new Error(`unknown kernel ${kernel}: ${KERNELS.join(", ")}`);
      const status = prepare(id, size);
      if (status === 1) throw new Error(`${kernel}: bad size ${size}`);
      if (status !== 0) throw new Error(`prepare(${kernel}, ${size}) failed with ${status}`);
      const start = performance.now();
      const instructions = run();
      const ms = performance.now() - start;
      if (instructions < 0n) {
        throw new Error(`${caseName(kernel, size)}: run failed with ${instructions}`);
      }
      return { ms, instructions, checksum: checksum() >>> 0 };
    },
    /** Result words of the fma check (src/fma_check.rs) that differ from the exact rules. */
    fmaCheck(seed, workgroups, waveWidth) {
      return fma_check(BigInt(seed), workgroups, waveWidth) >>> 0;
    },
  };
}

export function hex(checksum) {
  return `0x${checksum.toString(16).padStart(8, "0")}`;
}

/** The lines of a checksum file (see checksums.txt): { kernel, size, instructions, checksum }. */
export function parseChecksums(text) {
  const lines = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const fields = line.split(/\s+/);
    const [kernel, size, instructions, checksum] = fields;
    if (
      fields.length !== 4 ||
      !KERNELS.includes(kernel) ||
      !/^\d+$/.test(size) ||
      !/^\d+$/.test(instructions) ||
      !/^0x[0-9a-fA-F]{1,8}$/.test(checksum)
    ) {
      throw new Error(`line ${i + 1}: not "kernel size wave-instructions 0xchecksum": ${line}`);
    }
    lines.push({
      kernel,
      size: Number(size),
      instructions: BigInt(instructions),
      checksum: Number(checksum) >>> 0,
    });
  });
  return lines;
}

/** `--wasm PATH` taken out of `args`; the path (or the default build) and the rest. */
export function wasmOption(args) {
  const rest = [...args];
  const at = rest.indexOf("--wasm");
  if (at < 0) return { wasm: defaultWasm, rest };
  const wasm = rest[at + 1];
  if (!wasm) throw new Error("--wasm needs a path");
  rest.splice(at, 2);
  return { wasm, rest };
}
