//! "Timeline picture…": a range of steps (the timeline's window to start with) and a button that
//! downloads the selected wave's timeline over it as an SVG picture (`Session::timeline_svg`).

use leptos::ev::SubmitEvent;
use leptos::prelude::*;
use wave_session::MAX_PICTURE_STEPS;

use super::export::download_timeline;
use super::use_ctx;

/// Opens and closes the range form below the timeline's head.
#[component]
pub fn TimelinePictureButton(open: RwSignal<bool>) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <button
            type="button"
            class="btn small"
            aria-expanded=move || open.get().to_string()
            aria-controls=ctx.id("timeline-picture")
            title="Save the timeline of a range of steps as an SVG picture"
            on:click=move |_| open.update(|o| *o = !*o)
        >
            "Timeline picture…"
        </button>
    }
}

/// The range form. `window` is the timeline's window (first step, last step), read when the
/// form opens.
#[component]
pub fn TimelinePictureForm(
    open: RwSignal<bool>,
    #[prop(into)] window: Signal<Option<(u64, u64)>>,
) -> impl IntoView {
    let ctx = use_ctx();
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    // Each opening starts from the window on show, clipped to what one picture holds.
    Effect::new(move |_| {
        if open.get() {
            if let Some((first, last)) = window.get_untracked() {
                from.set(
                    first
                        .max(last.saturating_sub(MAX_PICTURE_STEPS))
                        .to_string(),
                );
                to.set(last.to_string());
            }
            error.set(None);
        }
    });
    let submit = move |event: SubmitEvent| {
        event.prevent_default();
        let step = |text: String, name: &str| {
            text.trim()
                .parse::<u64>()
                .map_err(|_| format!("{name}: write a step number, like 120"))
        };
        match step(from.get_untracked(), "From step")
            .and_then(|first| Ok((first, step(to.get_untracked(), "To step")?)))
        {
            Ok((first, last)) => download_timeline(ctx, first, last, error),
            Err(message) => error.set(Some(message)),
        }
    };
    view! {
        <Show when=move || open.get()>
            <form
                id=ctx.id("timeline-picture")
                class="timeline-picture"
                aria-label="Timeline picture"
                on:submit=submit
            >
                <label>
                    "From step "
                    <input
                        type="number"
                        min="0"
                        inputmode="numeric"
                        prop:value=from
                        on:input=move |event| from.set(event_target_value(&event))
                    />
                </label>
                <label>
                    "to step "
                    <input
                        type="number"
                        min="1"
                        inputmode="numeric"
                        prop:value=to
                        on:input=move |event| to.set(event_target_value(&event))
                    />
                </label>
                <button type="submit" class="btn small">"Download timeline SVG"</button>
                <span class="muted">{format!("up to {MAX_PICTURE_STEPS} steps")}</span>
                <p class="field-error" role="alert">{move || error.get()}</p>
            </form>
        </Show>
    }
}
