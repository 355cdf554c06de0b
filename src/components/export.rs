//! Exports of the moment on show, as files the browser downloads: "Download SVG" (the picture
//! is the session's, `Session::moment_svg`, in the page's current theme).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Ctx;

/// Whether the page shows its dark theme now (chosen, or the system's).
fn dark_theme(ctx: Ctx) -> bool {
    match ctx.theme.get_untracked().as_str() {
        "dark" => true,
        "light" => false,
        _ => web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
            .is_some_and(|query| query.matches()),
    }
}

/// Makes the browser download `text` as the file `name`.
fn download(name: &str, mime: &str, text: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let document = web_sys::window()?.document()?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    web_sys::Url::revoke_object_url(&url).ok()
}

/// Downloads the moment on show as an SVG picture.
pub fn download_svg(ctx: Ctx) {
    ctx.commit_source();
    let dark = dark_theme(ctx);
    let (svg, name) = ctx.peek(|s| {
        let kernel = s.kernel().map_or("kernel".to_string(), |k| k.name.clone());
        (
            s.moment_svg(dark),
            format!("wave-{kernel}-step-{}.svg", s.step_count()),
        )
    });
    if download(&name, "image/svg+xml", &svg).is_none() {
        ctx.notice
            .set(Some("The browser refused the download".to_string()));
    }
}
