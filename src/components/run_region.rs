//! One run's views: the editor, the machine (controls, lanes, data movement, stack, registers)
//! and the details tabs. The single run's panes are the page's grid cells (the region is
//! `display: contents` then); while comparing, each run is a region of its own, "Run A" and
//! "Run B", read from the context it is given.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::config::ConfigView;
use super::controls::Controls;
use super::data_movement::DataMovementView;
use super::editor::{DiagnosticsList, Editor};
use super::first_frame;
use super::lanes::Lanes;
use super::memory::MemoryView;
use super::registers::Registers;
use super::stack::Stack;
use super::stats::StatsView;
use super::{use_ctx, Ctx, Tab};
use crate::split::{arrived, loaded, NotArrived};

/// The id name of a tab's button (see [`Ctx::id`]); its panel is labelled by it.
fn tab_id_name(tab: Tab) -> &'static str {
    match tab {
        Tab::Diagnostics => "tab-diagnostics",
        Tab::Memory => "tab-memory",
        Tab::Statistics => "tab-statistics",
        Tab::Launch => "tab-launch-configuration",
    }
}

#[component]
fn TabButton(
    tab: Tab,
    label: &'static str,
    #[prop(optional)] badge: Option<Signal<usize>>,
) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <button
            type="button"
            role="tab"
            id=ctx.id(tab_id_name(tab))
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

/// The details tabs: diagnostics, memory, statistics, launch configuration.
#[component]
fn DetailsTabs() -> impl IntoView {
    let ctx = use_ctx();
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
    let panel_attributes = move |tab: Tab| (move || ctx.tab.get() != tab, ctx.id(tab_id_name(tab)));
    let (diagnostics_hidden, diagnostics_tab) = panel_attributes(Tab::Diagnostics);
    let (memory_hidden, memory_tab) = panel_attributes(Tab::Memory);
    let (statistics_hidden, statistics_tab) = panel_attributes(Tab::Statistics);
    let (launch_hidden, launch_tab) = panel_attributes(Tab::Launch);
    // A panel's view is built when its tab is first chosen and then kept (with what was typed or
    // picked in it): the page starts sooner without the hidden tables and forms, and nothing
    // keeps them up to date while nobody has looked at them.
    let opened =
        |tab: Tab| Memo::new(move |was: Option<&bool>| was == Some(&true) || ctx.tab.get() == tab);
    // Counts the times the panels' module arrived: a panel that said it could not be loaded
    // tries again when another panel's try succeeds.
    let arrivals = RwSignal::new(0u32);
    let lazy = move |panel: Panel, opened: Memo<bool>, tab_id: &str| {
        let tab_id = tab_id.to_string();
        let attempts = Attempts {
            tries: RwSignal::new(0),
            failed: RwSignal::new(false),
        };
        Effect::new(move |_| {
            arrivals.track();
            if attempts.failed.get_untracked() {
                attempts.retry();
            }
        });
        move || {
            attempts.tries.track();
            opened
                .get()
                .then(|| details_panel_view(ctx, panel, tab_id.clone(), attempts, arrivals))
        }
    };
    let (memory_opened, statistics_opened, launch_opened) = (
        opened(Tab::Memory),
        opened(Tab::Statistics),
        opened(Tab::Launch),
    );
    view! {
        <section class="pane tabs-pane" aria-label=ctx.landmark("Details")>
            <div class="tabs" role="tablist" aria-label="Details" on:keydown=on_tab_key>
                <TabButton tab=Tab::Diagnostics label="Diagnostics" badge=problem_count />
                <TabButton tab=Tab::Memory label="Memory" />
                <TabButton tab=Tab::Statistics label="Statistics" />
                <TabButton tab=Tab::Launch label="Launch configuration" />
            </div>
            <div class="tab-panel" role="tabpanel" hidden=diagnostics_hidden aria-labelledby=diagnostics_tab>
                <DiagnosticsList />
            </div>
            <div class="tab-panel" role="tabpanel" hidden=memory_hidden aria-labelledby=memory_tab>
                {lazy(Panel::Memory, memory_opened, &memory_tab)}
            </div>
            <div class="tab-panel" role="tabpanel" hidden=statistics_hidden aria-labelledby=statistics_tab>
                {lazy(Panel::Statistics, statistics_opened, &statistics_tab)}
            </div>
            <div class="tab-panel" role="tabpanel" hidden=launch_hidden aria-labelledby=launch_tab>
                {lazy(Panel::Launch, launch_opened, &launch_tab)}
            </div>
        </section>
    }
}

/// The details tabs whose panels arrive in a module of their own (see [`details_panel`]).
#[derive(Clone, Copy)]
enum Panel {
    Memory,
    Statistics,
    Launch,
}

/// What the alert and a panel say when the panels' module did not arrive: one text for the three
/// (one module), so that the alert goes whichever panel's next try succeeds.
const PANELS_NOT_LOADED: &str =
    "The Memory, Statistics and Launch configuration tabs could not be loaded";

/// A lazily loaded panel's tries at its module.
#[derive(Clone, Copy)]
struct Attempts {
    /// Bumped to build the panel again, which asks for the module again.
    tries: RwSignal<u32>,
    /// The last try did not arrive: the panel says so and offers another.
    failed: RwSignal<bool>,
}

impl Attempts {
    fn retry(self) {
        self.failed.set(false);
        self.tries.update(|n| *n += 1);
    }
}

/// A details tab's panel, once its module has arrived; "Loading…" meanwhile. When it does not
/// arrive, the alert says so and the panel offers to try again; the rest of the page goes on.
/// `tab_id` is the element id of the panel's tab.
fn details_panel_view(
    ctx: Ctx,
    panel: Panel,
    tab_id: String,
    attempts: Attempts,
    arrivals: RwSignal<u32>,
) -> impl IntoView {
    let waiting = RwSignal::new(true);
    // Nothing in the future is read reactively: a read would be forwarded to the view around it,
    // which would build the panel again and lose what was typed in it.
    let content = Suspend::new(async move {
        let loaded = arrived(ctx, PANELS_NOT_LOADED, loaded!(details_panel(panel)));
        waiting.set(false);
        match loaded {
            Some(content) => {
                arrivals.update(|n| *n += 1);
                Some(content)
            }
            None => {
                attempts.failed.set(true);
                None
            }
        }
    });
    let try_again = move |_| {
        // The button goes as the next try starts: the focus goes to the panel's tab, not the page.
        if let Some(tab) = document()
            .get_element_by_id(&tab_id)
            .and_then(|tab| tab.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = tab.focus();
        }
        attempts.retry();
    };
    view! {
        <p class="muted" role="status" hidden=move || !waiting.get()>"Loading…"</p>
        <p class="muted" hidden=move || !attempts.failed.get()>
            {format!("{PANELS_NOT_LOADED}. ")}
            <button type="button" class="btn" on:click=try_again>"Try again"</button>
        </p>
        {content}
    }
}

/// The panels of the Memory, Statistics and Launch configuration tabs: a module of their own
/// in the page's build, fetched when one of those tabs is first chosen (a first visit starts
/// on Diagnostics, and many never open the others).
#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(details, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn details_panel(panel: Panel) -> Result<AnyView, NotArrived> {
    Ok(match panel {
        Panel::Memory => view! { <MemoryView /> }.into_any(),
        Panel::Statistics => view! { <StatsView /> }.into_any(),
        Panel::Launch => view! { <ConfigView /> }.into_any(),
    })
}

/// The run's panes; a named region while comparing.
#[component]
pub fn RunRegion() -> impl IntoView {
    let ctx = use_ctx();
    let comparing = move || ctx.pair.with(Option::is_some);
    let embed = ctx.page.embed;
    let machine_heading = ctx.id("machine-heading");
    let machine_labelled_by = ctx.labelled_by("machine-heading");
    view! {
        <section
            class=move || format!("run-region run-{}", if ctx.side == super::Side::A { "a" } else { "b" })
            aria-label=move || comparing().then_some(ctx.side.region())
            on:focusin=move |_| {
                if ctx.focused.get_untracked() != ctx.side {
                    ctx.focused.set(ctx.side);
                }
            }
        >
            <h2 id=ctx.id("run-title") class="run-title" hidden=move || !comparing()>{ctx.side.region()}</h2>
            <Editor />
            <section class="pane machine-pane" aria-labelledby=machine_labelled_by>
                <h2 id=machine_heading class="pane-title">"Machine"</h2>
                <div class="machine-body">
                    <Controls />
                    <Lanes />
                    <DataMovementView />
                    <Stack />
                    // Registers are a single run's detail: the comparison is about masks and
                    // numbers, and two tables of 70 rows would push the table far down. The
                    // table follows the page's first frame (see `first_frame`).
                    {move || {
                        (!embed && !comparing() && first_frame::drawn())
                            .then(|| view! { <Registers /> })
                    }}
                </div>
            </section>
            {(!embed).then(|| view! { <DetailsTabs /> })}
        </section>
    }
}
