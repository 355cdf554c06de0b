//! The header's "Export" menu: a disclosure button over the downloads (the moment as SVG or
//! PNG, the run's trace as JSON, the kernel as a `.wbin` binary, the lesson pack as Markdown). It closes when one is chosen, on Escape (focus back on the
//! button) and when focus leaves it.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::export::{
    download_lesson_pack, download_png, download_svg, download_trace, download_wbin,
};
use super::{use_ctx, Ctx};

/// One entry: its label, its tooltip and what it does.
type Entry = (&'static str, &'static str, fn(Ctx));

const ENTRIES: [Entry; 5] = [
    (
        "Download SVG",
        "A picture of this moment (code, lanes, stack, caption) for slides",
        download_svg,
    ),
    (
        "Download PNG",
        "The same picture as a PNG image",
        download_png,
    ),
    (
        "Download trace",
        "The control-flow events of the run so far, as JSON",
        download_trace,
    ),
    (
        "Download .wbin",
        "The kernel as the binary wave-asm writes, for wave-emu",
        download_wbin,
    ),
    (
        "Download as lesson pack",
        "The open lesson pack, or this kernel as a pack of one lesson (Markdown)",
        download_lesson_pack,
    ),
];

#[component]
pub fn ExportMenu() -> impl IntoView {
    let ctx = use_ctx();
    let open = RwSignal::new(false);
    let container: NodeRef<leptos::html::Div> = NodeRef::new();
    let toggle: NodeRef<leptos::html::Button> = NodeRef::new();
    let on_focus_out = move |event: web_sys::FocusEvent| {
        let inside = event
            .related_target()
            .and_then(|target| target.dyn_into::<web_sys::Node>().ok())
            .zip(container.get_untracked())
            .is_some_and(|(target, container)| container.contains(Some(&target)));
        if !inside {
            open.set(false);
        }
    };
    let on_key = move |event: web_sys::KeyboardEvent| {
        if event.key() == "Escape" && open.get_untracked() {
            // Escape closes the menu only (not presenter mode or a dialog behind it).
            event.stop_propagation();
            open.set(false);
            if let Some(button) = toggle.get_untracked() {
                let _ = button.focus();
            }
        }
    };
    view! {
        <div class="export-menu" node_ref=container on:focusout=on_focus_out on:keydown=on_key>
            <button
                class="btn"
                type="button"
                node_ref=toggle
                aria-expanded=move || open.get().to_string()
                aria-controls="export-menu-items"
                title="Save this moment as a picture, or the run's events as JSON"
                on:click=move |_| open.update(|o| *o = !*o)
            >
                "Export"
                <span class="menu-arrow" aria-hidden="true">"▾"</span>
            </button>
            <div id="export-menu-items" class="export-menu-items" hidden=move || !open.get()>
                {ENTRIES
                    .iter()
                    .map(|&(label, title, action)| {
                        view! {
                            <button
                                class="btn"
                                type="button"
                                title=title
                                on:click=move |_| {
                                    open.set(false);
                                    action(ctx);
                                }
                            >
                                {label}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
        </div>
    }
}
