//! Arbitrary bytes: the first few choose the launch, the rest is the source (UTF-8 lossy).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = wave_engine_fuzz::fuzz_bytes(data);
});
