//! The page shell: header, an editor pane holding the kernel source, and a machine pane.

use leptos::prelude::*;

use crate::DEFAULT_KERNEL;

#[component]
pub fn App() -> impl IntoView {
    let (source, set_source) = signal(DEFAULT_KERNEL.to_string());
    let line_count = move || source.with(|text| text.lines().count());

    view! {
        <header class="app-header">
            <span class="brand">
                <span class="brand-mark" aria-hidden="true">"≋"</span>
                "WAVE Playground"
            </span>
            <span class="tagline">"Step GPU kernels lane by lane"</span>
        </header>
        <main class="workspace">
            <section class="pane editor-pane" aria-labelledby="editor-heading">
                <h2 id="editor-heading" class="pane-title">"Kernel"</h2>
                <textarea
                    class="source"
                    aria-label="Kernel source"
                    spellcheck="false"
                    autocomplete="off"
                    prop:value=move || source.get()
                    on:input=move |event| set_source.set(event_target_value(&event))
                ></textarea>
                <p class="pane-footer">{move || format!("{} lines", line_count())}</p>
            </section>
            <section class="pane machine-pane" aria-labelledby="machine-heading">
                <h2 id="machine-heading" class="pane-title">"Machine"</h2>
                <p class="machine-note">
                    "Lanes, the divergence stack and registers of the selected wave appear here."
                </p>
            </section>
        </main>
    }
}
