//! A wasm32 entry point for timing our engine outside the browser UI: `prepare(n)` compiles the
//! blocked GEMM kernel and fills A and B (seeded), `run()` executes the whole grid and returns
//! the number of wave-instructions (or a negative code on failure), `checksum()` folds C so the
//! caller can compare with the native run. No imports, no wasm-bindgen: plain `extern "C"`.

use std::sync::Mutex;

use rand_xoshiro::rand_core::{Rng as _, SeedableRng};
use rand_xoshiro::SplitMix64;
use wave_engine::machine::{LaunchConfig, Machine, Stop};

const GEMM_BLOCKED: &str = include_str!("../../kernels/gemm_blocked.wave");

struct State {
    machine: Machine,
    n: u32,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// Returns 0 on success, 1 for a bad size, 2 if the kernel does not compile, 3 for a bad launch.
#[no_mangle]
pub extern "C" fn prepare(n: u32) -> i32 {
    if n == 0 || !n.is_multiple_of(64) || n > 2048 {
        return 1;
    }
    let compiled = wave_engine::compile(GEMM_BLOCKED);
    let Some(kernel) = compiled.program.and_then(|p| p.kernels.into_iter().next()) else {
        return 2;
    };
    let bytes = n * n * 4;
    let config = LaunchConfig {
        grid: [n / 64, n / 64, 1],
        workgroup: [1, 1, 1],
        wave_width: 32,
        local_memory: 16 * 1024,
        device_memory: 3 * bytes,
        max_instructions: 0,
        initial_registers: vec![(0, n), (1, 0), (2, bytes), (3, 2 * bytes)],
    };
    let Ok(mut machine) = Machine::new(&kernel, &config) else {
        return 3;
    };
    // Same generator, seed and values as the native benchmark (`src/bench.rs`).
    let mut rng = SplitMix64::seed_from_u64(0x5EED_0000 + n as u64);
    let memory = machine.device_mut().bytes_mut();
    for chunk in memory[..2 * bytes as usize].chunks_exact_mut(4) {
        let value = ((rng.next_u64() >> 52) as i32 - 2048) as f32 / 2048.0;
        chunk.copy_from_slice(&value.to_le_bytes());
    }
    if let Ok(mut state) = STATE.lock() {
        *state = Some(State { machine, n });
    }
    0
}

/// Runs the prepared grid to the end; wave-instructions executed, or -1 (nothing prepared) /
/// -2 (the run trapped).
#[no_mangle]
pub extern "C" fn run() -> i64 {
    let Ok(mut state) = STATE.lock() else {
        return -1;
    };
    let Some(state) = state.as_mut() else {
        return -1;
    };
    match state.machine.run_to_end() {
        Stop::Finished => state.machine.stats().wave_instructions as i64,
        _ => -2,
    }
}

/// FNV-1a over the bytes of C, to compare with the native run.
#[no_mangle]
pub extern "C" fn checksum() -> u32 {
    let Ok(state) = STATE.lock() else {
        return 0;
    };
    let Some(state) = state.as_ref() else {
        return 0;
    };
    let bytes = (state.n * state.n * 4) as usize;
    let c = &state.machine.device().bytes()[2 * bytes..3 * bytes];
    c.iter().fold(0x811C_9DC5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}
