//! `cargo run --release -p wave-bench`: runs each benchmark kernel on the reference emulator
//! (wave-emu 0.1.2) and on our engine with the same inputs, checks that device memory comes out
//! bit-identical (and that the GEMMs are right, against a reference computed here), and prints a
//! Markdown table of the timings. Exits non-zero when anything differs or fails.
//!
//! Options (`--help` lists them): `--sizes 256,512` (GEMM sizes), `--reps N` (repetitions of our
//! engine; the best is reported), `--emu-reps N`, `--only naive|blocked|divergence`,
//! `--wave-width N` (default 32), `--ours-only`, `--portable` (our portable loop, as wasm runs it),
//! `--no-history` (skip the time-travel table: a run recording history, and going to steps),
//! `--divergence-threads N` (default 65536).
//!
//! `--checksums` runs our engine alone and prints, per case, its wave-instructions and an FNV-1a
//! checksum of the output, the lines `wasm-runner/checksums.txt` holds: the wasm runner must give
//! the same (`wasm-runner/check.mjs`), and a test here checks the file against this engine.
//!
//! `cargo run --release -p wave-bench -- whole-process [--sizes 256,512] [--reps N]` times the
//! command lines instead, `wavesim run` against `wave-emu`, each as a whole process (see
//! `whole_process.rs`).

// Nothing here needs `unsafe`; the engine below keeps it behind validated kernels.
#![forbid(unsafe_code)]

#[cfg(not(target_arch = "wasm32"))]
mod bench;
#[cfg(not(target_arch = "wasm32"))]
mod cases;
#[cfg(not(target_arch = "wasm32"))]
mod history;
#[cfg(not(target_arch = "wasm32"))]
mod whole_process;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("whole-process") {
        whole_process::main()
    } else {
        bench::main()
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
