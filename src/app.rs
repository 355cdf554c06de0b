//! The page layout: header, the editor pane, the machine pane (controls, lanes, divergence stack,
//! registers) and the tabs (diagnostics, memory, statistics, launch configuration). The pieces
//! live in `components/`; this file composes them and chooses the session the page starts with.

use leptos::prelude::*;

use crate::components::alerts::Alerts;
use crate::components::config::ConfigView;
use crate::components::controls::Controls;
use crate::components::data_movement::DataMovementView;
use crate::components::editor::{DiagnosticsList, Editor};
use crate::components::embed::EmbedBar;
use crate::components::header::Header;
use crate::components::help::HelpOverlay;
use crate::components::lanes::Lanes;
use crate::components::memory::MemoryView;
use crate::components::open_file::{on_drag_over, on_drop};
use crate::components::registers::Registers;
use crate::components::stack::Stack;
use crate::components::stats::StatsView;
use crate::components::{storage_get, Ctx, Tab, AUTOSAVE_KEY};
use wave_session::DEFAULT_KERNEL;
use wave_session::{split_page_hash, PageOptions, Session};

/// The first-visit session: the default kernel on one wave of eight lanes.
pub fn default_session() -> Session {
    Session::new(
        DEFAULT_KERNEL,
        wave_session::examples::small_form(8, 8, 256),
    )
}

/// The autosaved work, or the default kernel.
fn saved_session() -> Session {
    storage_get(AUTOSAVE_KEY)
        .and_then(|text| Session::restore_autosave_opening(&text).ok())
        .unwrap_or_else(default_session)
}

/// The session the page opens with: a share link in the URL hash, else the autosaved work. A
/// link that cannot be opened is explained, and the autosaved work is kept.
/// An embedded page whose link cannot be opened shows the default kernel, never the visitor's
/// own work.
fn initial_session() -> (Session, Option<String>, PageOptions) {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let (state, page) = split_page_hash(&hash);
    let fallback = || {
        if page.embed {
            default_session()
        } else {
            saved_session()
        }
    };
    if state.is_empty() {
        return (fallback(), None, page);
    }
    match Session::restore_opening(state) {
        Ok(session) => (session, None, page),
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

#[component]
fn TabButton(
    tab: Tab,
    label: &'static str,
    #[prop(optional)] badge: Option<Signal<usize>>,
) -> impl IntoView {
    let ctx = crate::components::use_ctx();
    let id = format!("tab-{}", label.to_lowercase().replace(' ', "-"));
    view! {
        <button
            type="button"
            role="tab"
            id=id
            class="tab"
            aria-selected=move || if ctx.tab.get() == tab { "true" } else { "false" }
            tabindex=move || if ctx.tab.get() == tab { "0" } else { "-1" }
            on:click=move |_| ctx.tab.set(tab)
        >
            {label}
            {badge
                .map(|b| {
                    view! {
                        <span class="badge" aria-hidden="true" class:zero=move || b.get() == 0>
                            {move || b.get()}
                        </span>
                    }
                })}
        </button>
    }
}

#[component]
pub fn App() -> impl IntoView {
    let (mut session, alert, page) = initial_session();
    session.set_questions_on(Ctx::stored_questions_on());
    let ctx = Ctx::new(session, page);
    crate::components::embed::apply_embed(page.embed);
    crate::components::offline::register_service_worker(ctx);
    ctx.alert.set(alert);
    provide_context(ctx);
    // A link or autosave heading for a step gets there in slices, like Run (the page answers
    // meanwhile, and Pause stops it where it is).
    if ctx.peek(|s| s.opening().is_some()) {
        ctx.run();
    }
    // A link to a finished run with a result check: compute it.
    ctx.check_if_pending();
    crate::components::header::apply_theme(&crate::components::header::stored_theme());
    // Leaving the page mid-debounce must not lose the last keystrokes.
    let pagehide = window_event_listener(leptos::ev::pagehide, move |_| {
        ctx.commit_source();
        ctx.autosave_now();
    });
    on_cleanup(move || pagehide.remove());

    let problem_count = Signal::derive(move || ctx.with(|s| s.diagnostics().len()));
    let order = [Tab::Diagnostics, Tab::Memory, Tab::Statistics, Tab::Launch];
    let on_tab_key = move |event: web_sys::KeyboardEvent| {
        let at = order
            .iter()
            .position(|t| *t == ctx.tab.get_untracked())
            .unwrap_or(0);
        let next = match event.key().as_str() {
            "ArrowRight" => (at + 1) % order.len(),
            "ArrowLeft" => (at + order.len() - 1) % order.len(),
            _ => return,
        };
        event.prevent_default();
        ctx.tab.set(order[next]);
    };

    let dropping = RwSignal::new(false);
    view! {
        <div
            class="app"
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
            <main class="workspace">
                <Editor />
                <section class="pane machine-pane" aria-labelledby="machine-heading">
                    <h2 id="machine-heading" class="pane-title">"Machine"</h2>
                    <div class="machine-body">
                        <Controls />
                        <Lanes />
                        <DataMovementView />
                        <Stack />
                        {(!page.embed).then(|| view! { <Registers /> })}
                    </div>
                </section>
                {(!page.embed).then(|| view! {
                <section class="pane tabs-pane" aria-label="Details">
                    <div class="tabs" role="tablist" aria-label="Details" on:keydown=on_tab_key>
                        <TabButton tab=Tab::Diagnostics label="Diagnostics" badge=problem_count />
                        <TabButton tab=Tab::Memory label="Memory" />
                        <TabButton tab=Tab::Statistics label="Statistics" />
                        <TabButton tab=Tab::Launch label="Launch configuration" />
                    </div>
                    <div class="tab-panel" role="tabpanel" hidden=move || ctx.tab.get() != Tab::Diagnostics aria-labelledby="tab-diagnostics">
                        <DiagnosticsList />
                    </div>
                    <div class="tab-panel" role="tabpanel" hidden=move || ctx.tab.get() != Tab::Memory aria-labelledby="tab-memory">
                        <MemoryView />
                    </div>
                    <div class="tab-panel" role="tabpanel" hidden=move || ctx.tab.get() != Tab::Statistics aria-labelledby="tab-statistics">
                        <StatsView />
                    </div>
                    <div class="tab-panel" role="tabpanel" hidden=move || ctx.tab.get() != Tab::Launch aria-labelledby="tab-launch-configuration">
                        <ConfigView />
                    </div>
                </section>
                })}
            </main>
            <HelpOverlay />
        </div>
    }
}
