//! The step caption under the run status: what the last step did to the selected wave, in one
//! sentence, announced politely to screen readers.

use leptos::prelude::*;

use super::use_ctx;

#[component]
pub fn StepCaption() -> impl IntoView {
    let ctx = use_ctx();
    let caption = Memo::new(move |previous| ctx.held_while_running(previous, |s| s.caption()));
    view! {
        <section class="caption" aria-label=ctx.landmark("Step caption")>
        <p aria-live="polite">
            {move || {
                caption
                    .with(|c| {
                        c.code
                            .clone()
                            .map(|code| {
                                view! {
                                    <code class="caption-code">{code}</code>
                                    {format!(" at line {}: ", c.line)}
                                }
                            })
                    })
            }}
            {move || caption.with(|c| c.sentence.clone())}
        </p>
        </section>
    }
}
