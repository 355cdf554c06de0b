//! Split points: functions that the page's build moves out of the first wasm module into modules
//! of their own, fetched the first time one of their functions is called.
//!
//! With the `split` feature (which the page's build turns on, see `scripts/build-split.mjs`), a
//! function marked `#[cfg_attr(feature = "split", wasm_split(MODULE, fallible, ...))]` becomes an
//! `async` function that loads MODULE before running; every function marked with the same MODULE
//! lands in the same module. Without the feature (the tests, `cargo clippy`, a build by hand) it
//! stays an ordinary function in the one module. [`loaded!`] calls either kind the same way, from
//! inside an `async` block.
//!
//! A module can fail to arrive: the network drops on a first visit, or a tab stays open across a
//! new deployment whose service worker has removed the old build's files. Every split point is
//! therefore `fallible`: it returns `Result<_, NotArrived>`, and its caller tells the person what
//! could not be done instead of letting a panic abort the whole page. A failure is not remembered,
//! so the next try fetches the module again.

use leptos::prelude::*;

use crate::components::Ctx;

/// A part of the playground that is a module of its own in the page's build did not arrive.
#[derive(Debug)]
pub(crate) struct NotArrived;

#[cfg(feature = "split")]
impl From<leptos::wasm_split::SplitLoaderError> for NotArrived {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> Self {
        // The loader has already written the cause (the failed fetch) to the console.
        NotArrived
    }
}

/// What the alert says when a module did not arrive: `failed` is what could not be done
/// ("Help could not be loaded"), in the playground's words.
pub(crate) fn not_arrived_message(failed: &str) -> String {
    format!(
        "{failed}: the part of the playground that does this did not arrive. The network may \
         have dropped, or a newer version of the playground has been installed since this page \
         was opened; try again, or reload the page."
    )
}

/// The value of a split point's call, or `None` after showing the alert that says `failed`
/// (see [`not_arrived_message`]) when its module did not arrive. The page goes on working
/// without that part; the alert stays until it is dismissed or replaced, or until the same call
/// succeeds on a later try.
pub(crate) fn arrived<T>(ctx: Ctx, failed: &str, loaded: Result<T, NotArrived>) -> Option<T> {
    match loaded {
        Ok(value) => {
            // The part has arrived after all, so the alert saying it had not is no longer true.
            let message = not_arrived_message(failed);
            if ctx
                .alert
                .try_with_untracked(|alert| alert.as_deref() == Some(message.as_str()))
                == Some(true)
            {
                ctx.alert.try_set(None);
            }
            Some(value)
        }
        Err(NotArrived) => {
            ctx.alert.try_set(Some(not_arrived_message(failed)));
            None
        }
    }
}

/// Calls a split-point function: awaits it when the page is built split, calls it directly when
/// it is not. Gives its `Result<_, NotArrived>`. Only valid inside an `async` block.
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
/// soon as its module has arrived (at once after the first time). If the module does not arrive,
/// the alert says `$failed` (see [`arrived`]).
macro_rules! run_loaded {
    ($ctx:expr, $failed:expr, $call:expr) => {{
        let ctx: $crate::components::Ctx = $ctx;
        #[cfg(feature = "split")]
        leptos::task::spawn_local(async move {
            $crate::split::arrived(ctx, $failed, $call.await);
        });
        #[cfg(not(feature = "split"))]
        $crate::split::arrived(ctx, $failed, $call);
    }};
}

pub(crate) use {loaded, run_loaded};

#[cfg(test)]
mod tests {
    use super::not_arrived_message;

    #[test]
    fn the_message_says_what_failed_first_and_then_the_way_out() {
        let message = not_arrived_message("Help could not be loaded");
        assert!(message.starts_with("Help could not be loaded: the part of the playground"));
        assert!(message.ends_with("try again, or reload the page."));
    }
}
