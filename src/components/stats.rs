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
    view! {
        <dl class="stats">
            {move || {
                items
                    .get()
                    .into_iter()
                    .map(|(label, value)| {
                        view! {
                            <div class="stat">
                                <dt>{label}</dt>
                                <dd>{value}</dd>
                            </div>
                        }
                    })
                    .collect_view()
            }}
        </dl>
        <p class="muted">
            "Run time is the time spent executing in this page since the last reset."
        </p>
    }
}
