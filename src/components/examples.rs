//! The examples picker (in the header) and the explanation panel beside the editor. Which
//! example the work came from is the session's (so share links and autosaves keep it).

use leptos::prelude::*;

use super::{target_value, use_ctx};
use wave_session::examples::{example, examples};
use wave_session::Session;

#[component]
pub fn ExamplePicker() -> impl IntoView {
    let ctx = use_ctx();
    let current = Memo::new(move |_| ctx.with(|s| s.example().unwrap_or_default()));
    let on_change = move |event: leptos::ev::Event| {
        let id = target_value(&event);
        if let Some(found) = example(&id) {
            ctx.replace_session(Session::from_example(&found));
            ctx.alert.set(None);
        }
    };
    view! {
        <select
            class="select examples"
            aria-label="Examples"
            prop:value=move || current.get()
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

/// The example's explanation (collapsible), marked when the work differs from the example, with
/// a way back to the original.
#[component]
pub fn ExampleNotes() -> impl IntoView {
    let ctx = use_ctx();
    let id = Memo::new(move |_| ctx.with(|s| s.example()));
    let current = Memo::new(move |_| id.get().and_then(example));
    let edited = Memo::new(move |_| ctx.with(|s| s.example_edited()));
    let restore = move |_| {
        if let Some(found) = current.get_untracked() {
            ctx.replace_session(Session::from_example(&found));
        }
    };
    view! {
        <Show when=move || current.with(Option::is_some)>
            <details class="example-notes" open>
                <summary>
                    {move || current.with(|e| e.as_ref().map(|e| e.title).unwrap_or_default())}
                    <span class="edited-note" hidden=move || !edited.get()>"edited"</span>
                </summary>
                <p>
                    {move || current.with(|e| e.as_ref().map(|e| e.explanation).unwrap_or_default())}
                </p>
                <Show when=move || edited.get()>
                    <button type="button" class="btn small" on:click=restore>
                        "Restore the original example"
                    </button>
                </Show>
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
