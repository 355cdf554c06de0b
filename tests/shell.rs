//! Mounts the page shell in a real browser and checks its DOM.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a browser document")
}

fn kernel_source() -> web_sys::HtmlTextAreaElement {
    document()
        .query_selector("textarea[aria-label='Kernel source']")
        .unwrap()
        .expect("the kernel source textbox")
        .dyn_into()
        .unwrap()
}

fn footer_text() -> String {
    document()
        .query_selector(".editor-pane .pane-footer")
        .unwrap()
        .expect("the editor footer")
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn shell_mounts_with_landmark_header_and_default_kernel() {
    // Mount into a fresh element so each test sees only its own copy of the page.
    let root: web_sys::HtmlElement = document()
        .create_element("div")
        .unwrap()
        .dyn_into()
        .unwrap();
    document().body().unwrap().append_child(&root).unwrap();
    let handle = leptos::mount::mount_to(root.clone(), wave_playground::App);
    leptos::task::tick().await;

    let document = document();
    let main = document
        .query_selector("main")
        .unwrap()
        .expect("a <main> landmark");
    assert!(
        main.query_selector(".editor-pane").unwrap().is_some(),
        "editor pane inside main"
    );
    assert!(
        main.query_selector(".machine-pane").unwrap().is_some(),
        "machine pane inside main"
    );
    let header = document
        .query_selector("header")
        .unwrap()
        .expect("a <header>");
    assert!(header
        .text_content()
        .unwrap_or_default()
        .contains("WAVE Playground"));
    assert_eq!(kernel_source().value(), wave_playground::DEFAULT_KERNEL);
    let default_lines = wave_playground::DEFAULT_KERNEL.lines().count();
    assert_eq!(footer_text(), format!("{default_lines} lines"));

    // Typing is reflected: the footer follows the editor's content.
    let editor = kernel_source();
    editor.set_value(".kernel k\n    halt\n.end");
    let input = web_sys::Event::new("input").unwrap();
    editor.dispatch_event(&input).unwrap();
    leptos::task::tick().await;
    assert_eq!(footer_text(), "3 lines");
    drop(handle);
    root.remove();
}
