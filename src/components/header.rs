//! The header: brand, examples picker, Open file…, Copy link, Copy embed code, theme toggle, the Export menu,
//! presenter mode and Help.

use leptos::prelude::*;

use super::compare::CompareToggle;
use super::examples::ExamplePicker;
use super::export_menu::ExportMenu;
use super::open_file::OpenFileButton;
use super::{storage_get, storage_set, use_ctx, THEME_KEY};

/// The theme choices in the order the toggle cycles through them.
const THEMES: [&str; 3] = ["system", "light", "dark"];

/// The page's `<html>` element, where the theme, presenter mode and the embedded layout show.
pub fn root_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// Applies a theme choice: `data-theme` on `<html>` overrides `prefers-color-scheme`.
pub fn apply_theme(theme: &str) {
    let Some(root) = root_element() else {
        return;
    };
    let _ = match theme {
        "light" | "dark" => root.set_attribute("data-theme", theme),
        _ => root.remove_attribute("data-theme"),
    };
}

/// Presenter mode shows as `data-presenter` on `<html>`: the stylesheet does the rest.
pub fn apply_presenter(on: bool) {
    let Some(root) = root_element() else {
        return;
    };
    let _ = if on {
        root.set_attribute("data-presenter", "")
    } else {
        root.remove_attribute("data-presenter")
    };
}

/// The stored theme choice ("system" when none).
pub fn stored_theme() -> String {
    storage_get(THEME_KEY)
        .filter(|t| THEMES.contains(&t.as_str()))
        .unwrap_or_else(|| "system".to_string())
}

/// A button of the header that runs one command.
#[component]
fn HeaderButton(
    label: &'static str,
    title: &'static str,
    on_press: impl Fn() + 'static,
) -> impl IntoView {
    view! {
        <button class="btn" type="button" title=title on:click=move |_| on_press()>
            {label}
        </button>
    }
}

#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let theme = ctx.theme;
    Effect::new(move |_| apply_theme(&theme.get()));
    Effect::new(move |_| apply_presenter(ctx.presenter.get()));
    let cycle_theme = move |_| {
        let next = THEMES
            .iter()
            .position(|t| *t == theme.get_untracked())
            .map_or("system", |i| THEMES[(i + 1) % THEMES.len()]);
        storage_set(THEME_KEY, next);
        theme.set(next.to_string());
    };
    let theme_icon = move || match theme.get().as_str() {
        "light" => "☀",
        "dark" => "☾",
        _ => "◐",
    };
    view! {
        <header class="app-header">
            <h1 class="brand">
                <span class="brand-mark" aria-hidden="true">"≋"</span>
                "WAVE Playground"
            </h1>
            <ExamplePicker />
            <span class="header-spacer"></span>
            <span class="notice" aria-live="polite">{move || ctx.notice.get()}</span>
            <CompareToggle />
            <OpenFileButton />
            <button class="btn" type="button" on:click=move |_| copy_link(ctx)>
                "Copy link"
            </button>
            <HeaderButton
                label="Copy embed code"
                title="An <iframe> of this moment for a course page"
                on_press=move || super::embed::copy_embed_code(ctx)
            />
            <button
                class="btn"
                type="button"
                title="Cycle the theme: system, light, dark"
                on:click=cycle_theme
            >
                <span aria-hidden="true" class="theme-icon">{theme_icon}</span>
                {move || format!("Theme: {}", theme.get())}
            </button>
            <ExportMenu />
            <HeaderButton
                label="Presenter mode"
                title="Large type and lanes for a projector (Alt+P; Escape leaves)"
                on_press=move || ctx.presenter.set(true)
            />
            <button
                class="btn"
                type="button"
                aria-haspopup="dialog"
                on:click=move |_| ctx.help_open.set(true)
            >
                "Help"
            </button>
        </header>
        <Show when=move || ctx.presenter.get()>
            <button
                class="btn presenter-exit"
                type="button"
                title="Back to the whole page (Escape)"
                on:click=move |_| ctx.presenter.set(false)
            >
                "Leave presenter mode"
            </button>
        </Show>
    }
}

/// Puts the whole state in the URL hash and copies the URL.
fn copy_link(ctx: super::Ctx) {
    let Some(hash) = ctx.page_state() else {
        return;
    };
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    if location.set_hash(&hash).is_err() {
        ctx.notice
            .set(Some("Could not update the address bar".to_string()));
        return;
    }
    let url = location.href().unwrap_or_default();
    copy_text(
        ctx,
        &url,
        "Link copied",
        "Link in the address bar (the clipboard refused: copy it from there)",
        "Link in the address bar (no clipboard access: copy it from there)",
    );
}

/// Puts `text` on the clipboard and says how that went: `copied`, `refused` (the browser said
/// no), or `absent` (the page has no clipboard, e.g. served over plain HTTP).
pub fn copy_text(
    ctx: super::Ctx,
    text: &str,
    copied: &'static str,
    refused: &'static str,
    absent: &'static str,
) {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return;
    };
    let has_clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !has_clipboard {
        ctx.notice.set(Some(absent.to_string()));
        return;
    }
    let promise = navigator.clipboard().write_text(text);
    leptos::task::spawn_local(async move {
        let message = match wasm_bindgen_futures::JsFuture::from(promise).await {
            Ok(_) => copied,
            Err(_) => refused,
        };
        ctx.notice.try_set(Some(message.to_string()));
    });
}
