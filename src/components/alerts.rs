//! Errors the user must see (a link that could not be opened), in a `role=alert` element.

use leptos::prelude::*;

use super::use_ctx;

#[component]
pub fn Alerts() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <Show when=move || ctx.alert.get().is_some()>
            <div class="alert" role="alert">
                <span class="alert-text">{move || ctx.alert.get().unwrap_or_default()}</span>
                <button
                    type="button"
                    class="btn small"
                    aria-label="Dismiss"
                    on:click=move |_| ctx.alert.set(None)
                >
                    "×"
                </button>
            </div>
        </Show>
    }
}
