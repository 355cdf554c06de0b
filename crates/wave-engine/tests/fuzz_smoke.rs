//! A short, deterministic fuzz run on stable Rust, so CI exercises the fuzz targets without
//! nightly or cargo-fuzz: seeded random mutations of our seed programs (structure-aware line and
//! token edits, plus raw byte noise) go through the same bodies as `fuzz/fuzz_targets/*`.
//!
//! `WAVE_FUZZ_ITERATIONS=N` changes the number of inputs per target (default below);
//! `WAVE_FUZZ_SEED=S` the seed. A failing input is printed before the panic propagates.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod body;

use std::panic::{catch_unwind, AssertUnwindSafe};

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use wave_engine::numbers::parse_u64;

const DEFAULT_ITERATIONS: u64 = 8000;

fn env_u64(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(text) => parse_u64(&text).unwrap_or_else(|e| panic!("{name}={text}: {e}")),
        Err(_) => default,
    }
}

/// SplitMix64: a stable stream, so a seed names the same inputs forever.
struct Rng(SplitMix64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(SplitMix64::seed_from_u64(seed))
    }

    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// Runs `f` on `input`; on a panic prints the input (escaped) so it can be replayed.
fn guarded(what: &str, input: &[u8], f: impl FnOnce(&[u8])) {
    if let Err(panic) = catch_unwind(AssertUnwindSafe(|| f(input))) {
        eprintln!("{what} panicked on input (hex): {}", hex(input));
        eprintln!("as text: {:?}", String::from_utf8_lossy(input));
        std::panic::resume_unwind(panic);
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn seed_programs_compile_and_most_run() {
    // The corpus must be meaningful: most seeds compile cleanly (a few are deliberately in the
    // dialect or use constructs with warnings), and all run without panicking.
    let mut clean = 0;
    for source in body::SEED_PROGRAMS {
        let compiled = wave_engine::compile(source);
        if compiled.program.is_some() {
            clean += 1;
        }
        for config in [
            [0u8; body::CONFIG_BYTES],
            [31, 7, 4, 2, 1, 8, 40, 255, 0, 0, 0, 1],
        ] {
            guarded("seed program", source.as_bytes(), |_| {
                body::run_source(source, &config);
            });
        }
    }
    assert!(
        clean >= body::SEED_PROGRAMS.len() - 1,
        "only {clean} seeds compile"
    );
}

#[test]
fn structure_aware_mutations_never_panic() {
    let iterations = env_u64("WAVE_FUZZ_ITERATIONS", DEFAULT_ITERATIONS);
    let mut rng = Rng::new(env_u64("WAVE_FUZZ_SEED", 0xF022));
    let mut reached_machine: u64 = 0;
    for _ in 0..iterations {
        let len = 1 + (rng.next() % 16) as usize;
        let input = rng.bytes(len + body::CONFIG_BYTES + 1);
        guarded("fuzz_mutated", &input, |data| {
            reached_machine += body::fuzz_mutated(data).min(1) as u64
        });
    }
    // Mutants must often still compile and run, or the loop only exercises the parser.
    assert!(
        reached_machine * 10 >= iterations,
        "only {reached_machine} of {iterations} mutants reached the machine"
    );
}

#[test]
fn raw_bytes_never_panic() {
    let iterations = env_u64("WAVE_FUZZ_ITERATIONS", DEFAULT_ITERATIONS);
    let mut rng = Rng::new(env_u64("WAVE_FUZZ_SEED", 0xB17E5) ^ 0x5A5A);
    for i in 0..iterations {
        let config = rng.bytes(body::CONFIG_BYTES);
        let source = body::SEED_PROGRAMS[(i % body::SEED_PROGRAMS.len() as u64) as usize];
        let mut text = source.as_bytes().to_vec();
        // Byte-level noise: overwrite, insert, delete and duplicate runs of bytes.
        for _ in 0..1 + rng.next() % 6 {
            let at = (rng.next() as usize) % (text.len() + 1);
            match rng.next() % 4 {
                0 if at < text.len() => text[at] = rng.next() as u8,
                1 => {
                    let n = 1 + (rng.next() % 8) as usize;
                    let noise = rng.bytes(n);
                    text.splice(at..at, noise);
                }
                2 if at < text.len() => {
                    let end = (at + 1 + (rng.next() % 16) as usize).min(text.len());
                    text.drain(at..end);
                }
                _ => {
                    let end = (at + (rng.next() % 24) as usize).min(text.len());
                    let copy = text[at..end].to_vec();
                    let to = (rng.next() as usize) % (text.len() + 1);
                    text.splice(to..to, copy);
                }
            }
        }
        let mut input = config;
        input.extend(text);
        guarded("fuzz_bytes", &input, |data| {
            body::fuzz_bytes(data);
        });
    }
}
