//! Browser entry point: mount the playground on `<body>`.

fn main() {
    console_error_panic_hook::set_once();
    if index_html_found_no_wasm_simd() {
        // index.html has shown why the playground cannot run here; the page stays as it is.
        return;
    }
    // Before anything runs: the engine takes the browser's fused multiply-add if it has one.
    wave_playground::fma::offer_to_engine();
    wave_playground::components::lanes::intern_lane_classes();
    leptos::mount::mount_to_body(wave_playground::App);
}

/// index.html marks the document when the browser lacks WebAssembly SIMD. Such a browser cannot
/// compile this module at all, so the check only keeps the page as index.html left it should the
/// module load anyway (the end-to-end test pretends the probe failed in a browser that has SIMD).
fn index_html_found_no_wasm_simd() -> bool {
    web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.document_element())
        .is_some_and(|root| root.has_attribute("data-unsupported"))
}
