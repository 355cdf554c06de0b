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

#[wasm_bindgen_test]
fn the_gemm_check_s_rows_round_once_with_or_without_the_browser_s_fma() {
    let offer = wave_playground::fma::offer_to_engine();
    assert_ne!(offer, FmaOffer::NotInstalled);
    // Seeded values over a wide range of exponents, near-ties around one (where rounding once
    // and twice differ), subnormals and a NaN; rows of 200 (three calls of the lent module, the
    // last partial).
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (state >> 32) as u32
    };
    let mut value = |i: usize| match i % 5 {
        0 => 1.0 + (next() % 64) as f32 / 4096.0,
        1 => -(1.0 + (next() % 64) as f32 / 4096.0),
        2 => f32::from_bits(next() & 0x807F_FFFF),
        3 => f32::from_bits((next() & 0x8FFF_FFFF) | 0x3000_0000),
        _ if i == 199 => f32::NAN,
        _ => f32::from_bits(next() & 0xBFFF_FFFF),
    };
    let b: Vec<f32> = (0..200).map(&mut value).collect();
    let b_bytes: Vec<u8> = b.iter().flat_map(|v| v.to_le_bytes()).collect();
    let start: Vec<f32> = (0..200).map(&mut value).collect();
    for i in 0..40 {
        let a = value(i);
        let mut expected = start.clone();
        wave_engine::numeric::float::fma_row_by_round_to_odd(&mut expected, a, &b_bytes);
        let mut got = start.clone();
        wave_engine::machine::fused_fma_row(&mut got, a, &b_bytes);
        for (j, (got, expected)) in got.iter().zip(&expected).enumerate() {
            let agree = got.to_bits() == expected.to_bits() || (got.is_nan() && expected.is_nan());
            assert!(
                agree,
                "{a} * {} + {}: {got} against {expected}",
                b[j], start[j]
            );
        }
    }
}
