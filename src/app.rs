//! The page layout: header, the run's panes (editor, machine, details tabs; two runs and the
//! comparison between them while comparing) and the help overlay. The pieces live in
//! `components/`; this file composes them and chooses the work the page starts with.

use leptos::prelude::*;

use crate::components::alerts::Alerts;
use crate::components::compare::{self, WithRun};
use crate::components::compare_pane::{BothRunsBar, ComparePane};
use crate::components::embed::EmbedBar;
use crate::components::header::Header;
use crate::components::help::HelpOverlay;
use crate::components::open_file::{on_drag_over, on_drop};
use crate::components::run_region::RunRegion;
use crate::components::{storage_get, Ctx, AUTOSAVE_KEY};
use wave_session::DEFAULT_KERNEL;
use wave_session::{split_page_hash, Opened, PageOptions, Session};

/// The first-visit session: the default kernel on one wave of eight lanes.
pub fn default_session() -> Session {
    Session::new(
        DEFAULT_KERNEL,
        wave_session::examples::small_form(8, 8, 256),
    )
}

/// The first-visit work: one run of the default kernel.
fn default_opened() -> Opened {
    Opened {
        a: default_session(),
        b: None,
        pair: None,
    }
}

/// The autosaved work (one run or two), or the default kernel.
fn saved_work() -> Opened {
    storage_get(AUTOSAVE_KEY)
        .and_then(|text| Session::restore_autosave_opening_compared(&text).ok())
        .unwrap_or_else(default_opened)
}

/// The session the page opens with: a share link in the URL hash, else the autosaved work. A
/// link that cannot be opened is explained, and the autosaved work is kept.
/// An embedded page whose link cannot be opened shows the default kernel, never the visitor's
/// own work.
fn initial_work() -> (Opened, Option<String>, PageOptions) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let (state, page) = split_page_hash(&hash);
    let fallback = || {
        if page.embed {
            default_opened()
        } else {
            saved_work()
        }
    };
    // `#pack=<url>` names a lesson pack, fetched once the page is up; the work is the usual.
    if state.is_empty() || state.starts_with("pack=") {
        return (fallback(), None, page);
    }
    match Session::restore_opening_compared(state) {
        Ok(opened) => (opened, None, page),
        Err(error) if page.embed => (
            fallback(),
            Some(format!("Could not open the embedded kernel: {error}.")),
            page,
        ),
        Err(error) => (
            fallback(),
            Some(format!(
                "Could not open the link: {error}. Your autosaved work is shown instead."
            )),
            page,
        ),
    }
}

/// The state part of the page's URL hash (a link's payload, or `pack=<url>`).
fn link_state() -> String {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    split_page_hash(&hash).0.to_string()
}

#[component]
pub fn App() -> impl IntoView {
    let (opened, alert, page) = initial_work();
    let Opened {
        a: mut session,
        b: second,
        pair: lesson,
    } = opened;
    session.set_questions_on(Ctx::stored_questions_on());
    let ctx = Ctx::new(session, page);
    crate::components::embed::apply_embed(page.embed);
    crate::components::offline::register_service_worker(ctx);
    ctx.alert.set(alert);
    provide_context(ctx);
    crate::components::first_frame::watch();
    // The work as opened is saved once the first frame is drawn and the browser is idle: leaving
    // the page unchanged (a reload) then finds it saved and encodes and writes nothing.
    crate::components::first_frame::after_first_frame(move || ctx.autosave());
    crate::components::lessons::provide_packs(ctx, &link_state());
    // A link or autosave heading for a step gets there in slices, like Run (the page answers
    // meanwhile, and Pause stops it where it is).
    if ctx.peek(|s| s.opening().is_some()) {
        ctx.run();
    }
    // A link to a finished run with a result check: compute it.
    ctx.check_if_pending();
    compare::open(ctx, second, lesson);
    crate::components::header::apply_theme(&crate::components::header::stored_theme());
    // Leaving the page mid-debounce must not lose the last keystrokes.
    let pagehide = window_event_listener(leptos::ev::pagehide, move |_| {
        match ctx.pair.get_untracked() {
            Some(pair) => pair.both().iter().for_each(Ctx::commit_source),
            None => ctx.commit_source(),
        }
        ctx.autosave_now();
    });
    on_cleanup(move || pagehide.remove());

    let comparing = move || ctx.pair.with(Option::is_some);
    let compared = crate::components::compare_pane::compared(ctx);
    let dropping = RwSignal::new(false);
    view! {
        <div
            class="app"
            class:two-runs=comparing
            class:dropping=move || dropping.get()
            on:dragover=move |event| on_drag_over(event, dropping)
            on:dragleave=move |event: web_sys::DragEvent| {
                // Leaving the page, not moving between its elements.
                if event.related_target().is_none() {
                    dropping.set(false);
                }
            }
            on:drop=move |event| on_drop(ctx, event, dropping)
        >
            {if page.embed {
                view! { <EmbedBar /> }.into_any()
            } else {
                view! { <Header /> }.into_any()
            }}
            <Alerts />
            {move || ctx.pair.get().map(|pair| view! { <BothRunsBar pair=pair compared=compared /> })}
            <main class="workspace" class:comparing=comparing>
                // Presenter mode hides the header: the page keeps its heading for screen readers.
                <Show when=move || ctx.presenter.get()>
                    <h1 class="visually-hidden">"WAVE Playground"</h1>
                </Show>
                <RunRegion />
                {move || {
                    ctx.pair
                        .get()
                        .map(|pair| {
                            view! {
                                <ComparePane pair=pair compared=compared />
                                <WithRun ctx=pair.b>
                                    <RunRegion />
                                </WithRun>
                            }
                        })
                }}
            </main>
            <HelpOverlay />
        </div>
    }
}
