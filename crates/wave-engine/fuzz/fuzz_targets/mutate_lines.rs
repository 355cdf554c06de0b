//! Structure-aware: the bytes pick a seed program and drive line/token mutations of it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = wave_engine_fuzz::fuzz_mutated(data);
});
