//! Offline use: registers the service worker (`src/offline/sw.js`, written into the build by
//! `scripts/build-offline.mjs`) and says when a new version has taken over. Not in debug builds:
//! a cache would keep serving the build before the last rebuild.

use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

use super::Ctx;

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
    // A page that already had a worker gets a new one only when a new build was installed.
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
    let _ = container.register("sw.js");
}
