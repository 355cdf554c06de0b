//! A wasm32 entry point for timing our engine outside the browser UI, on the native benchmark's
//! kernels with its launches and seeded inputs (`../src/cases.rs`, shared with it):
//! `prepare(kernel, size)` compiles the kernel and loads its inputs, `run()` executes the whole
//! grid at wave width 32 and returns the number of wave-instructions (or a negative code on
//! failure), `checksum()` folds the output bytes so the caller can compare with the native run
//! (`wave-bench --checksums`). No imports, no wasm-bindgen: plain `extern "C"`.

use std::ops::Range;
use std::sync::Mutex;

use wave_engine::machine::{Machine, Stop};

// The native benchmark uses all of this module; this runner needs only part of it.
#[allow(dead_code)]
#[path = "../../src/cases.rs"]
mod cases;

use cases::Kernel;

mod fma_check;

struct State {
    machine: Machine,
    output: Range<usize>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

/// `kernel` is an index into naive, blocked, divergence; `size` is N for the GEMMs (a multiple of
/// 64 up to 2048) and the thread count for divergence (a multiple of 256; 0 for the benchmark's
/// 65,536). Returns 0 on success, 1 for an unknown kernel or a bad size, 2 if the kernel does
/// not compile or the launch is refused.
#[no_mangle]
pub extern "C" fn prepare(kernel: u32, size: u32) -> i32 {
    let Some(&kernel) = Kernel::ALL.get(kernel as usize) else {
        return 1;
    };
    let Ok(launch) = cases::launch(kernel, size as usize) else {
        return 1;
    };
    let Ok(machine) = cases::machine(&launch, cases::WAVE_WIDTH) else {
        return 2;
    };
    let Ok(mut state) = STATE.lock() else {
        return 2;
    };
    *state = Some(State {
        machine,
        output: launch.output,
    });
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

/// FNV-1a over the output bytes (C, or the divergence records), as `wave-bench --checksums`
/// computes it.
#[no_mangle]
pub extern "C" fn checksum() -> u32 {
    let Ok(state) = STATE.lock() else {
        return 0;
    };
    let Some(state) = state.as_ref() else {
        return 0;
    };
    cases::fnv1a(&state.machine.device().bytes()[state.output.clone()])
}

/// Offers the engine the function at `index` of this module's function table as its fused
/// multiply-add (`machine::offer_fused_run`, which tests it first): 1 when taken, 0 when refused.
/// Node puts the page's relaxed-SIMD module there (`wasm.mjs`, `--lent-fma`), so that the runner
/// times and checks the path the page takes.
///
/// # Safety
/// The function at `index` has `FusedRun`'s signature and touches only the rows it is given (the
/// page's `src/fma/relaxed_fma.wat` does); a call through another signature traps.
#[no_mangle]
pub unsafe extern "C" fn offer_fused(index: u32) -> u32 {
    // SAFETY: on wasm a function pointer is an index into the function table; the caller vouches
    // for the function there (this function's contract).
    unsafe {
        let run = std::mem::transmute::<usize, wave_engine::machine::FusedRun>(index as usize);
        u32::from(wave_engine::machine::offer_fused_run(run))
    }
}

/// `fma` in this build against the exact per-lane rules on `workgroups` x 128 threads at
/// `wave_width` (a width the machine accepts), operands drawn from `seed` (see `fma_check.rs`):
/// the number of result words that differ, 0 when they agree; `u32::MAX` if the kernel did not
/// run.
#[no_mangle]
pub extern "C" fn fma_check(seed: u64, workgroups: u32, wave_width: u32) -> u32 {
    fma_check::mismatches(seed, workgroups, wave_width)
}
