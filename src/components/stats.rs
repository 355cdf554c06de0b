//! The Statistics tab.

use leptos::prelude::*;

use super::{use_ctx, Tab};

#[component]
pub fn StatsView() -> impl IntoView {
    let ctx = use_ctx();
    // While another tab is open this panel is hidden: it keeps what it last showed and catches
    // up when its tab opens, so a step does not format statistics nobody can see.
    let items = Memo::new(move |previous: Option<&Vec<(&'static str, String)>>| {
        if ctx.tab.get() != Tab::Statistics {
            if let Some(previous) = previous {
                return previous.clone();
            }
        }
        ctx.with(|s| s.stats(ctx.run_time_ms.get()).items)
    });
    let count = move || items.with(Vec::len);
    view! {
        <dl class="stats">
            // One element per statistic, kept while the tab lives: a step rewrites the values
            // that changed instead of building the list again.
            <For each=move || 0..count() key=|index| *index let:index>
                <div class="stat">
                    <dt>{move || items.with(|all| all.get(index).map(|item| item.0))}</dt>
                    <dd>{move || items.with(|all| all.get(index).map(|item| item.1.clone()))}</dd>
                </div>
            </For>
        </dl>
        <p class="muted">
            "Run time is the time spent executing in this page since the last reset."
        </p>
    }
}
