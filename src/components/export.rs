//! Exports, as files the browser downloads: "Download SVG" and "Download PNG" of the moment on
//! show (the picture is the session's, `Session::moment_svg`, in the page's current theme; the
//! PNG is that SVG drawn by the browser at twice its size), "Download trace" (the run's events
//! as JSON, `Session::trace_json`) and the timeline of a range of steps as SVG
//! (`Session::timeline_svg`). The menu's exports are in a module of their own in the page's build
//! (src/split.rs): they run once it has arrived, on the first export of a visit; if it does not
//! arrive, the alert says which download could not be made.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::Ctx;
use crate::split::{run_loaded, NotArrived};

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
    download_blob(name, &blob)
}

/// Makes the browser download `bytes` as the file `name`.
fn download_bytes(name: &str, mime: &str, bytes: &[u8]) -> Option<()> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).ok()?;
    download_blob(name, &blob)
}

/// Makes the browser download `blob` as the file `name`.
fn download_blob(name: &str, blob: &web_sys::Blob) -> Option<()> {
    let url = web_sys::Url::create_object_url_with_blob(blob).ok()?;
    let document = web_sys::window()?.document()?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    web_sys::Url::revoke_object_url(&url).ok()
}

/// The moment's picture and the file name it is saved under, without the extension.
fn moment(ctx: Ctx) -> (String, String) {
    ctx.commit_source();
    let dark = dark_theme(ctx);
    ctx.peek(|s| {
        let kernel = s.kernel().map_or("kernel".to_string(), |k| k.name.clone());
        (
            s.moment_svg(dark),
            format!("wave-{kernel}-step-{}", s.step_count()),
        )
    })
}

/// The kernel's name, for file names.
fn kernel_name(ctx: Ctx) -> String {
    ctx.peek(|s| s.kernel().map_or("kernel".to_string(), |k| k.name.clone()))
}

/// Downloads the events of the run so far as JSON (docs/trace-format.md).
pub fn download_trace(ctx: Ctx) {
    run_loaded!(ctx, "The trace could not be downloaded", trace_file(ctx));
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(export, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn trace_file(ctx: Ctx) -> Result<(), NotArrived> {
    ctx.commit_source();
    // Replaying leaves the machine where it stands: nothing on show changes.
    let Some(export) = ctx.session.try_update_value(|s| s.trace_json()) else {
        return Ok(());
    };
    let export = match export {
        Ok(export) => export,
        Err(reason) => {
            ctx.notice.set(Some(reason));
            return Ok(());
        }
    };
    let name = format!(
        "wave-{}-trace-step-{}.json",
        kernel_name(ctx),
        export.last_step
    );
    if download(&name, "application/json", &export.json).is_none() {
        refused(ctx);
    } else if export.first_step > 0 {
        ctx.notice.set(Some(format!(
            "The trace holds the last {} steps (after step {}): {} events",
            export.last_step - export.first_step,
            export.first_step,
            export.events
        )));
    }
    Ok(())
}

/// "Download as lesson pack": the open pack when the work is one of its lessons, else the
/// kernel (see `Session::lesson_pack`).
pub fn download_lesson_pack(ctx: Ctx) {
    run_loaded!(
        ctx,
        "The lesson pack could not be downloaded",
        lesson_pack_file(ctx)
    );
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(export, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn lesson_pack_file(ctx: Ctx) -> Result<(), NotArrived> {
    ctx.commit_source();
    let open = super::lessons::open_pack().get_untracked();
    let written =
        ctx.peek(|s| Some(s.lesson_pack(open.as_ref().map(|o| (&o.pack, o.text.as_str())))));
    if let Some((name, text)) = written {
        if download(&name, "text/markdown", &text).is_none() {
            refused(ctx);
        }
    }
    Ok(())
}

/// Downloads the kernel as the `.wbin` binary `wave-asm` writes for it.
pub fn download_wbin(ctx: Ctx) {
    run_loaded!(
        ctx,
        "The .wbin binary could not be downloaded",
        wbin_file(ctx)
    );
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(export, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn wbin_file(ctx: Ctx) -> Result<(), NotArrived> {
    ctx.commit_source();
    match ctx.peek(|s| Some(s.wbin())) {
        Some(Ok(bytes)) => {
            let name = format!("{}.wbin", kernel_name(ctx));
            if download_bytes(&name, "application/octet-stream", &bytes).is_none() {
                refused(ctx);
            }
        }
        Some(Err(reason)) => ctx.notice.set(Some(reason)),
        None => {}
    }
    Ok(())
}

/// Downloads the timeline of steps `first..last` as an SVG picture; `error` is told why it
/// cannot (or cleared when it could).
pub fn download_timeline(ctx: Ctx, first: u64, last: u64, error: RwSignal<Option<String>>) {
    run_loaded!(
        ctx,
        "The timeline picture could not be downloaded",
        timeline_file(ctx, first, last, error)
    );
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(export, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn timeline_file(
    ctx: Ctx,
    first: u64,
    last: u64,
    error: RwSignal<Option<String>>,
) -> Result<(), NotArrived> {
    error.try_set(timeline_svg_file(ctx, first, last).err());
    Ok(())
}

fn timeline_svg_file(ctx: Ctx, first: u64, last: u64) -> Result<(), String> {
    let dark = dark_theme(ctx);
    let svg = ctx
        .session
        .try_update_value(|s| s.timeline_svg(first, last, dark))
        .ok_or_else(|| "The page is closing".to_string())??;
    let name = format!("wave-{}-timeline-{first}-{last}.svg", kernel_name(ctx));
    download(&name, "image/svg+xml", &svg)
        .ok_or_else(|| "The browser refused the download".to_string())
}

fn refused(ctx: Ctx) {
    ctx.notice
        .try_set(Some("The browser refused the download".to_string()));
}

/// Downloads the moment on show as an SVG picture.
pub fn download_svg(ctx: Ctx) {
    run_loaded!(
        ctx,
        "The SVG picture could not be downloaded",
        svg_file(ctx)
    );
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(export, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn svg_file(ctx: Ctx) -> Result<(), NotArrived> {
    let (svg, name) = moment(ctx);
    if download(&format!("{name}.svg"), "image/svg+xml", &svg).is_none() {
        refused(ctx);
    }
    Ok(())
}

/// Downloads the moment on show as a PNG: the SVG drawn at twice its size.
pub fn download_png(ctx: Ctx) {
    run_loaded!(
        ctx,
        "The PNG picture could not be downloaded",
        png_file(ctx)
    );
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(export, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn png_file(ctx: Ctx) -> Result<(), NotArrived> {
    let (svg, name) = moment(ctx);
    if draw_png(ctx, svg, format!("{name}.png")).is_none() {
        refused(ctx);
    }
    Ok(())
}

fn draw_png(ctx: Ctx, svg: String, name: String) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let image: web_sys::HtmlImageElement = document.create_element("img").ok()?.dyn_into().ok()?;
    let canvas: web_sys::HtmlCanvasElement =
        document.create_element("canvas").ok()?.dyn_into().ok()?;
    let loaded = image.clone();
    let on_load = wasm_bindgen::closure::Closure::once_into_js(move || {
        let drawn = (|| {
            let scale = 2.0;
            canvas.set_width((f64::from(loaded.natural_width()) * scale) as u32);
            canvas.set_height((f64::from(loaded.natural_height()) * scale) as u32);
            let context: web_sys::CanvasRenderingContext2d =
                canvas.get_context("2d").ok()??.dyn_into().ok()?;
            context.scale(scale, scale).ok()?;
            context
                .draw_image_with_html_image_element(&loaded, 0.0, 0.0)
                .ok()?;
            let on_blob =
                wasm_bindgen::closure::Closure::once_into_js(move |blob: Option<web_sys::Blob>| {
                    if blob.and_then(|b| download_blob(&name, &b)).is_none() {
                        refused(ctx);
                    }
                });
            canvas.to_blob(on_blob.unchecked_ref()).ok()
        })();
        if drawn.is_none() {
            refused(ctx);
        }
    });
    image.set_onload(Some(on_load.unchecked_ref()));
    let encoded = js_sys::encode_uri_component(&svg);
    image.set_src(&format!("data:image/svg+xml;charset=utf-8,{encoded}"));
    Some(())
}
