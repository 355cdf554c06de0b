//! An on/off switch button (role `switch`), as the page's teaching switches draw it.

use leptos::prelude::*;

/// A switch named `label`; pressing it calls `toggle` with the state it asks for.
#[component]
pub fn Switch(
    label: &'static str,
    title: &'static str,
    #[prop(into)] on: Signal<bool>,
    toggle: Callback<bool>,
) -> impl IntoView {
    view! {
        <button
            type="button"
            role="switch"
            class="btn switch"
            aria-checked=move || if on.get() { "true" } else { "false" }
            title=title
            on:click=move |_| toggle.run(!on.get_untracked())
        >
            <span class="switch-knob" aria-hidden="true"></span>
            {label}
        </button>
    }
}
