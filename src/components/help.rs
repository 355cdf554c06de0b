//! The Help overlay: the keys.

use leptos::prelude::*;

use super::use_ctx;
use crate::split::{arrived, loaded, NotArrived};

const KEYS: [(&str, &str); 15] = [
    ("F5", "Run / continue (pause while running)"),
    ("Ctrl+Enter", "Run"),
    ("F10", "Step one instruction of the selected wave"),
    (
        "Shift+F10",
        "Step back: undo the selected wave's last instruction",
    ),
    ("F9", "Step over an if, loop or call"),
    ("Shift+F9", "Step out of the innermost if, loop or call"),
    ("F8", "Next event of the selected wave"),
    ("Shift+F8", "Previous event of the selected wave"),
    (
        "Alt+F5",
        "Reverse continue: back to the previous breakpoint hit",
    ),
    ("Shift+F5", "Reset"),
    ("Escape", "Close this help; leave presenter mode"),
    (
        "Alt+P",
        "Presenter mode: large type and lanes for a projector",
    ),
    (
        "Gutter click",
        "Toggle a breakpoint on that line (while a ?next question is open: pick that line)",
    ),
    (
        "Space on a lane",
        "While a ?mask question or Be the warp asks: toggle the lane in your answer",
    ),
    (
        "Enter on a lane",
        "While Be the warp asks: check your answer",
    ),
];

/// The editor's own keys (CodeMirror's, and the ones the playground adds).
const EDITOR_KEYS: [(&str, &str); 12] = [
    ("Ctrl+F9", "Toggle a breakpoint on the caret's line"),
    (
        "Tab / Shift+Tab",
        "Indent / outdent (after Ctrl+M, Tab moves on to the next control)",
    ),
    (
        "Ctrl+Space",
        "Complete a mnemonic (with its operands) or a label",
    ),
    (
        "F12 / Ctrl+click",
        "Go to the definition of the label under the caret",
    ),
    ("Ctrl+F", "Search and replace"),
    (
        "Ctrl+D",
        "Select the next occurrence too (type to change them all)",
    ),
    ("Ctrl+/", "Comment or uncomment the lines"),
    ("Ctrl+Shift+[ / ]", "Fold / unfold the if, loop or kernel"),
    ("Ctrl+Z / Ctrl+Y", "Undo / redo"),
    ("Ctrl+click, Alt+drag", "Add a caret, select a rectangle"),
    (
        "Ctrl+Shift+M",
        "List the diagnostics; the caret on one shows it",
    ),
    ("Ctrl+Alt+G", "Go to a line"),
];

#[component]
fn KeyList(keys: &'static [(&'static str, &'static str)]) -> impl IntoView {
    view! {
        <dl class="keys">
            {keys
                .iter()
                .map(|(key, what)| {
                    view! {
                        <dt>
                            <kbd>{*key}</kbd>
                        </dt>
                        <dd>{*what}</dd>
                    }
                })
                .collect_view()}
        </dl>
    }
}

#[component]
pub fn HelpOverlay() -> impl IntoView {
    let ctx = use_ctx();
    let close_button: NodeRef<leptos::html::Button> = NodeRef::new();
    // Focus moves into the dialog when it opens and back to where it was when it closes.
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |_| {
        if ctx.help_open.get() {
            let active = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.active_element())
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
            opener.set_value(active);
            // Untracked: when the dialog's module arrives after the click, the button's appearing
            // must not run this again, or the opener would become the button itself.
            if let Some(button) = close_button.get_untracked() {
                let _ = button.focus();
            }
        } else if let Some(Some(element)) = opener.try_update_value(|o| o.take()) {
            let _ = element.focus();
        }
    });
    view! {
        <Show when=move || ctx.help_open.get()>
            {move || {
                let help_open = ctx.help_open;
                Suspend::new(async move {
                    let dialog = arrived(
                        ctx,
                        "Help could not be loaded",
                        loaded!(help_dialog(help_open, close_button)),
                    );
                    if dialog.is_none() {
                        // Closed again, so that the next click on Help tries once more (and focus
                        // goes back to the control that opened it).
                        help_open.set(false);
                    }
                    dialog
                })
            }}
        </Show>
    }
}

/// The dialog itself, in a module of its own in the page's build: most visits never open it.
/// When its module arrives after the click, the close button takes the focus as it appears.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(help, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn help_dialog(
    help_open: RwSignal<bool>,
    close_button: NodeRef<leptos::html::Button>,
) -> Result<AnyView, NotArrived> {
    close_button.on_load(|button| {
        let _ = button.focus();
    });
    Ok(view! {
        <div class="overlay" on:click=move |_| help_open.set(false)>
            <div
                class="dialog"
                role="dialog"
                aria-modal="true"
                aria-labelledby="help-title"
                on:click=|event| event.stop_propagation()
                on:keydown=move |event: web_sys::KeyboardEvent| {
                    // A modal dialog keeps focus inside: its only control is Close.
                    if event.key() == "Tab" {
                        event.prevent_default();
                        if let Some(button) = close_button.get() {
                            let _ = button.focus();
                        }
                    }
                }
            >
                <h2 id="help-title">"Keyboard shortcuts"</h2>
                <KeyList keys=&KEYS />
                <h3>"In the editor"</h3>
                <KeyList keys=&EDITOR_KEYS />
                <p class="muted">
                    "Every control is reachable with Tab; the lanes, the stack and the registers follow the selected wave."
                </p>
                <button
                    type="button"
                    class="btn primary"
                    node_ref=close_button
                    on:click=move |_| help_open.set(false)
                >
                    "Close"
                </button>
            </div>
        </div>
    }
    .into_any())
}
