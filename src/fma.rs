//! The browser's fused multiply-add for the engine's `fma`, where it has one.
//!
//! Wasm has no fused multiply-add, so the engine computes `fma` in f64 with checks (about 40
//! vector operations for four lanes). Wasm's relaxed SIMD has `f32x4.relaxed_madd`, which a
//! browser compiles to the CPU's fused multiply-add where the CPU has one. The page cannot use it
//! in its own module (a browser without relaxed SIMD would reject the whole page), so it lives in a
//! module of its own (`src/fma/relaxed_fma.wat`, assembled by `scripts/build-editor.mjs`) that
//! shares the page's memory; its function goes into the page's function table, and the engine
//! takes it only after testing that it rounds once ([`wave_engine::machine::offer_fused_run`]).
//! Where any of that fails the engine keeps its own `fma`: the results are the same bits either way.

/// What came of offering the engine the browser's fused multiply-add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FmaOffer {
    /// The engine runs `fma` with it.
    Taken,
    /// The browser compiles `f32x4.relaxed_madd` as a multiply and an add (rounding twice) on
    /// this machine, or some result differed: the engine keeps its own `fma`.
    RoundsTwice,
    /// The browser has no relaxed SIMD: the engine keeps its own `fma`.
    NoRelaxedSimd,
    /// The module could not be set up (a failure of the page's, said in the console).
    NotInstalled,
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod relaxed {
    use super::FmaOffer;
    use wasm_bindgen::prelude::*;
    use wave_engine::machine::{offer_fused_run, FusedRun};

    /// The assembled module: about half a kilobyte.
    static MODULE: &[u8] = include_bytes!("../target/editor/relaxed-fma.wasm");

    #[wasm_bindgen(inline_js = "
        export function install_relaxed_fma(bytes, memory, table) {
            if (!WebAssembly.validate(bytes)) return -1;
            try {
                const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
                const index = table.grow(1);
                table.set(index, instance.exports.fma_run);
                return index;
            } catch (error) {
                console.warn(`WAVE Playground: the relaxed-SIMD fma module was not set up: ${error}`);
                return -2;
            }
        }
    ")]
    extern "C" {
        /// Instantiates the module on the page's memory and puts its `fma_run` at a new index
        /// of the page's function table: that index; -1 without relaxed SIMD; -2 on a failure.
        fn install_relaxed_fma(bytes: &[u8], memory: &JsValue, table: &JsValue) -> i32;
    }

    pub fn offer() -> FmaOffer {
        let index = install_relaxed_fma(
            MODULE,
            &wasm_bindgen::memory(),
            &wasm_bindgen::function_table(),
        );
        let index = match usize::try_from(index) {
            Ok(index) => index,
            Err(_) if index == -1 => return FmaOffer::NoRelaxedSimd,
            Err(_) => return FmaOffer::NotInstalled,
        };
        // SAFETY: on wasm a function pointer is an index into the function table, and this index
        // holds the module's `fma_run`, whose signature is `FusedRun`'s (a call through a
        // different one would trap, not run). It reads and writes only the rows it is given, as
        // `FusedRun` asks.
        let taken = unsafe {
            let run = std::mem::transmute::<usize, FusedRun>(index);
            offer_fused_run(run)
        };
        if taken {
            FmaOffer::Taken
        } else {
            FmaOffer::RoundsTwice
        }
    }
}

/// Offers the engine the browser's fused multiply-add, once at start.
pub fn offer_to_engine() -> FmaOffer {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return relaxed::offer();
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    FmaOffer::NoRelaxedSimd
}
