//! Offline use: registers the service worker (`src/offline/sw.js`, written into the build by
//! `scripts/build-offline.mjs`) and says when a new version has taken over. Not in debug builds:
//! a cache would keep serving the build before the last rebuild.

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::Ctx;

/// How long after the app's start the worker is registered.
const REGISTER_DELAY: Duration = Duration::from_millis(1500);

/// Listens for a new build taking over, and registers the worker once the page has started:
/// fetching, parsing and installing it would otherwise compete with the page's first frames for
/// the main thread (on a repeat visit, the registration alone is about 15 ms of a slow phone's
/// start), and nothing needs it sooner. A timer, not a frame, so that a page opened in a
/// background tab registers it too.
pub fn register_service_worker(ctx: Ctx) {
    if cfg!(debug_assertions) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let secure = window.is_secure_context();
    let navigator = window.navigator();
    let has_workers = js_sys::Reflect::has(&navigator, &"serviceWorker".into()).unwrap_or(false);
    if !secure || !has_workers {
        return;
    }
    let container = navigator.service_worker();
    // A page that already had a worker gets a new one only when a new build was installed (the
    // browser looks for one at every load, so this listens from the start).
    if container.controller().is_some() {
        let on_change = Closure::<dyn Fn()>::new(move || {
            ctx.notice.try_set(Some(
                "A new version of WAVE Playground is installed: it runs from the next load"
                    .to_string(),
            ));
        });
        container.set_oncontrollerchange(Some(on_change.as_ref().unchecked_ref()));
        on_change.forget();
    }
    // Registering again is harmless, and a failure only means no offline use.
    set_timeout(
        move || {
            let _ = container.register("sw.js");
        },
        REGISTER_DELAY,
    );
}
