//! Split points: functions that the page's build moves out of the first wasm module into modules
//! of their own, fetched the first time one of their functions is called.
//!
//! With the `split` feature (which the page's build turns on, see `scripts/build-split.mjs`), a
//! function marked `#[cfg_attr(feature = "split", wasm_split(MODULE, ...))]` becomes an `async`
//! function that loads MODULE before running; every function marked with the same MODULE lands in
//! the same module. Without the feature (the tests, `cargo clippy`, a build by hand) it stays an
//! ordinary function in the one module. [`loaded!`] calls either kind the same way, from inside
//! an `async` block.

/// Calls a split-point function: awaits it when the page is built split, calls it directly when
/// it is not. Only valid inside an `async` block.
macro_rules! loaded {
    ($call:expr) => {{
        #[cfg(feature = "split")]
        let value = $call.await;
        #[cfg(not(feature = "split"))]
        let value = $call;
        value
    }};
}

/// Runs a split-point function for its effect: at once when the page is not built split; else as
/// soon as its module has arrived (at once after the first time).
macro_rules! run_loaded {
    ($call:expr) => {{
        #[cfg(feature = "split")]
        leptos::task::spawn_local(async move { $call.await });
        #[cfg(not(feature = "split"))]
        $call;
    }};
}

pub(crate) use {loaded, run_loaded};
