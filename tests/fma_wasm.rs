//! `fma` in the browser: with the browser's fused multiply-add where the engine takes it
//! (`src/fma.rs`), else the engine's own pass in f64. Either way every result must be the exact
//! per-lane rules' (`numeric::float::fma`). The check is the wasm runner's (which always runs the
//! engine's own pass): operands chosen for every case of both passes (f32 midpoints, exact and
//! not; cancellation; subnormals; infinities and NaNs, which stop a lent run on the way), in a run
//! of `fma`s with a chain, a destination that is an operand and a guard, at three wave widths.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;
use wave_playground::fma::FmaOffer;

// The benchmark's launches, which the fma check runs through; only part of them is used here.
#[allow(dead_code)]
#[path = "../crates/wave-bench/src/cases.rs"]
mod cases;
#[path = "../crates/wave-bench/wasm-runner/src/fma_check.rs"]
mod fma_check;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn fma_gives_the_per_lane_rules_results_with_or_without_the_browser_s() {
    let offer = wave_playground::fma::offer_to_engine();
    console_log!("the browser's fused multiply-add: {offer:?}");
    // Whether it rounds once depends on the CPU; that it can be set up does not.
    assert_ne!(offer, FmaOffer::NotInstalled);
    for wave_width in [16, 32, 64] {
        let wrong = fma_check::mismatches(0xb0a0 + u64::from(wave_width), 32, wave_width);
        assert_eq!(
            wrong, 0,
            "wave width {wave_width}: result words that differ"
        );
    }
}
