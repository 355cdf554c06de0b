//! The embedded page (`#…&embed`): a slim bar instead of the header, with "Open in WAVE
//! Playground", which carries the exact state to the full page; and "Copy embed code" for the
//! full page's header. What the flags mean and the snippet itself are the session's
//! (`wave_session::embed`).

use leptos::prelude::*;

use super::{use_ctx, Ctx};
use wave_session::{embed_code, examples::example};

/// The compact layout shows as `data-embed` on `<html>`.
pub fn apply_embed(on: bool) {
    if let (true, Some(root)) = (on, super::header::root_element()) {
        let _ = root.set_attribute("data-embed", "");
    }
}

/// The playground's address without its hash (where it is served, any sub-path included).
fn page_address() -> Option<String> {
    let location = web_sys::window()?.location();
    let href = location.href().ok()?;
    Some(href.split('#').next().unwrap_or(&href).to_string())
}

/// What the work is called: its example's title, else its kernel's name.
fn work_title(ctx: Ctx) -> String {
    ctx.peek(|s| {
        s.example()
            .and_then(example)
            .map(|e| e.title.to_string())
            .or_else(|| s.kernel().map(|k| k.name.clone()))
            .unwrap_or_else(|| "a kernel".to_string())
    })
}

/// Opens the full page in a new tab at exactly this state: source, configuration, step and
/// selection.
fn open_full_page(ctx: Ctx) {
    let (Some(page), Some(state)) = (page_address(), ctx.page_state()) else {
        return;
    };
    let url = format!("{page}#{state}");
    let opened = web_sys::window()
        .and_then(|w| w.open_with_url_and_target(&url, "_blank").ok())
        .flatten();
    if opened.is_none() {
        ctx.notice.set(Some(
            "The browser blocked the new tab: allow pop-ups for this page".to_string(),
        ));
    }
}

/// Puts a ready `<iframe>` of this moment on the clipboard.
pub fn copy_embed_code(ctx: Ctx) {
    let (Some(page), Some(state)) = (page_address(), ctx.page_state()) else {
        return;
    };
    let code = embed_code(
        &page,
        &state,
        &format!("WAVE Playground: {}", work_title(ctx)),
        false,
    );
    super::header::copy_text(
        ctx,
        &code,
        "Embed code copied: paste it into your course page",
        "The clipboard refused the embed code",
        "No clipboard access here (the page needs HTTPS or localhost to copy the embed code)",
    );
}

#[component]
pub fn EmbedBar() -> impl IntoView {
    let ctx = use_ctx();
    let title = Memo::new(move |_| {
        ctx.track();
        work_title(ctx)
    });
    let href = page_address().unwrap_or_default();
    view! {
        <header class="embed-bar">
            <h1 class="brand">
                <span class="brand-mark" aria-hidden="true">"≋"</span>
                "WAVE Playground"
            </h1>
            <span class="embed-title">{move || title.get()}</span>
            <span class="notice" aria-live="polite">{move || ctx.notice.get()}</span>
            <a
                class="btn small"
                href=href
                target="_blank"
                rel="noopener"
                on:click=move |event| {
                    event.prevent_default();
                    open_full_page(ctx);
                }
            >
                "Open in WAVE Playground"
            </a>
        </header>
    }
}
