//! Opening a kernel from a file: "Open file…" in the header (the browser's file chooser) or a
//! file dropped anywhere on the page. Text opens as source; a `.wbin` binary opens as its
//! disassembly (`wave_session::open_file`) and runs at once; a `.md` file opens as a lesson pack
//! (`lessons`, whose reader is a module of its own). A file that cannot be opened leaves the work
//! on show as it was and says why.

use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wave_session::Session;

use super::{use_ctx, Ctx};
use crate::split::{arrived, loaded, NotArrived};

/// Opens the bytes of the file `name` in place of the current kernel (the editor keeps the old
/// text in its undo history), keeping the launch configuration. In a module of its own in the
/// page's build (src/split.rs): the `.wbin` decoder and disassembler are needed only here.
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(open_file, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn open_bytes(ctx: Ctx, name: String, bytes: Vec<u8>) -> Result<(), NotArrived> {
    // While comparing, the run whose region had focus last.
    let ctx = super::compare::target(ctx);
    match wave_session::open_file(&name, &bytes) {
        Ok(opened) => {
            let mut form = ctx.peek(|s| s.form().clone());
            form.kernel = String::new();
            ctx.replace_session(Session::new(&opened.source, form));
            ctx.alert.set(None);
            ctx.notice.set(Some(opened.note));
            if opened.from_binary {
                ctx.run();
            }
        }
        Err(reason) => ctx.alert.set(Some(reason)),
    }
    Ok(())
}

/// Reads `file` and opens it.
fn read_file(ctx: Ctx, file: web_sys::File) {
    let name = file.name();
    let reading = JsFuture::from(file.array_buffer());
    wasm_bindgen_futures::spawn_local(async move {
        match reading.await {
            Ok(buffer) => {
                let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                if name.to_ascii_lowercase().ends_with(".md") {
                    super::lessons::open_pack_file(ctx, name, bytes).await;
                    return;
                }
                let failed = format!("{name} could not be opened");
                let opened = loaded!(open_bytes(ctx, name, bytes));
                arrived(ctx, &failed, opened);
            }
            Err(_) => ctx
                .alert
                .set(Some(format!("The browser could not read {name}"))),
        }
    });
}

/// The first file a drag carries, if it carries files.
fn dragged_file(event: &web_sys::DragEvent) -> Option<web_sys::File> {
    event.data_transfer()?.files()?.get(0)
}

/// Whether a drag carries files (not text or a link from the page itself).
fn carries_files(event: &web_sys::DragEvent) -> bool {
    event
        .data_transfer()
        .is_some_and(|transfer| transfer.types().includes(&"Files".into(), 0))
}

/// The page as a drop target: `dropping` is true while a file is dragged over it.
pub fn on_drag_over(event: web_sys::DragEvent, dropping: RwSignal<bool>) {
    if carries_files(&event) {
        // Taking the drag over is what makes the browser deliver the drop here instead of
        // opening the file in place of the page.
        event.prevent_default();
        dropping.set(true);
    }
}

pub fn on_drop(ctx: Ctx, event: web_sys::DragEvent, dropping: RwSignal<bool>) {
    dropping.set(false);
    if let Some(file) = dragged_file(&event) {
        event.prevent_default();
        read_file(ctx, file);
    }
}

#[component]
pub fn OpenFileButton() -> impl IntoView {
    let ctx = use_ctx();
    let input: NodeRef<leptos::html::Input> = NodeRef::new();
    let on_change = move |_| {
        let Some(element) = input.get_untracked() else {
            return;
        };
        if let Some(file) = element.files().and_then(|files| files.get(0)) {
            read_file(ctx, file);
        }
        // The same file chosen again is a change too.
        element.set_value("");
    };
    view! {
        <button
            class="btn"
            type="button"
            title="Open a .wave source, a .wbin binary or a .md lesson pack (or drop one on the page)"
            on:click=move |_| {
                if let Some(element) = input.get_untracked() {
                    element.click();
                }
            }
        >
            "Open file…"
        </button>
        <input
            type="file"
            class="visually-hidden"
            tabindex="-1"
            aria-hidden="true"
            accept=".wave,.wbin,.txt,.md"
            node_ref=input
            on:change=on_change
        />
    }
}
