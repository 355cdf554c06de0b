//! The Statistics tab.

use leptos::prelude::*;

use super::use_ctx;

#[component]
pub fn StatsView() -> impl IntoView {
    let ctx = use_ctx();
    let items = move || ctx.with(|s| s.stats(ctx.run_time_ms.get()).items);
    view! {
        <dl class="stats">
            {move || {
                items()
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
