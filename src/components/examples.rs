//! The examples picker (in the header) and the explanation panel beside the editor.

use leptos::prelude::*;

use super::{target_value, use_ctx};
use crate::examples::{example, examples};
use crate::session::Session;

#[component]
pub fn ExamplePicker() -> impl IntoView {
    let ctx = use_ctx();
    let on_change = move |event: leptos::ev::Event| {
        let id = target_value(&event);
        if let Some(found) = example(&id) {
            ctx.replace_session(Session::from_example(&found));
            ctx.example_id.set(found.id.to_string());
            ctx.alert.set(None);
        }
    };
    view! {
        <select
            class="select examples"
            aria-label="Examples"
            prop:value=move || ctx.example_id.get()
            on:change=on_change
        >
            <option value="">"Examples…"</option>
            {examples()
                .into_iter()
                .map(|e| view! { <option value=e.id>{e.title}</option> })
                .collect_view()}
        </select>
    }
}

/// The loaded example's explanation (collapsible) and, after a run, its result check.
#[component]
pub fn ExampleNotes() -> impl IntoView {
    let ctx = use_ctx();
    let current = move || example(&ctx.example_id.get());
    view! {
        <Show when=move || current().is_some()>
            <details class="example-notes" open>
                <summary>
                    {move || current().map(|e| e.title).unwrap_or_default()}
                </summary>
                <p>{move || current().map(|e| e.explanation).unwrap_or_default()}</p>
            </details>
        </Show>
    }
}

/// The result check of the example once the grid finished.
#[component]
pub fn CheckReport() -> impl IntoView {
    let ctx = use_ctx();
    let report = move || {
        ctx.with(|s| {
            s.check_report().map(str::to_string).or_else(|| {
                s.check_pending()
                    .then(|| "Checking the result…".to_string())
            })
        })
    };
    view! {
        <Show when=move || report().is_some()>
            <p class="check-report">
                {move || report().unwrap_or_default()}
            </p>
        </Show>
    }
}
