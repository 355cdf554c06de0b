//! "Be the warp": the switch, and the panel in which the learner performs the control-flow
//! instruction the selected wave stands at: the lanes active after it (toggled in the Lanes
//! view, as for a `?mask` answer), what happens to the divergence stack, and for a push the
//! lanes the new frame saves. Asking and grading are the session's (`wave_session::warp`).

use leptos::prelude::*;

use super::switch::Switch;
use super::{use_ctx, Ctx};
use crate::split::{arrived, loaded, NotArrived};
use wave_session::{lanes_phrase, StackChange, WarpAnswer};

/// Turns Be the warp on or off for this run.
fn set_on(ctx: Ctx, on: bool) {
    ctx.commit_source();
    ctx.stop();
    ctx.act(|s| s.set_warp_on(on));
}

/// "Be the warp": stops before every control-flow instruction of the selected wave.
#[component]
pub fn WarpSwitch() -> impl IntoView {
    let ctx = use_ctx();
    let on = Memo::new(move |_| ctx.with(|s| s.warp_on()));
    view! {
        <Switch
            label="Be the warp"
            title="Stop before each control-flow instruction and perform it yourself"
            on=on
            toggle=Callback::new(move |on| set_on(ctx, on))
        />
    }
}

/// The answer being built: the stack choice, which mask the lane toggles edit, and the other
/// mask (the toggles edit `ctx.prediction`).
#[derive(Clone, Copy)]
struct Draft {
    stack: RwSignal<Option<StackChange>>,
    editing_saved: RwSignal<bool>,
    other: RwSignal<u64>,
}

impl Draft {
    /// The learner's answer, or `None` when the stack is not chosen yet.
    fn answer(self, ctx: Ctx) -> Option<WarpAnswer> {
        let toggled = ctx.prediction.get_untracked().unwrap_or(0);
        let other = self.other.get_untracked();
        let (lanes, saved) = if self.editing_saved.get_untracked() {
            (other, toggled)
        } else {
            (toggled, other)
        };
        Some(WarpAnswer {
            lanes,
            stack: self.stack.get_untracked()?,
            saved,
        })
    }

    /// The lane toggles edit the saved lanes (`true`) or the active lanes.
    fn edit_saved(self, ctx: Ctx, saved: bool) {
        if self.editing_saved.get_untracked() == saved {
            return;
        }
        let toggled = ctx.prediction.get_untracked().unwrap_or(0);
        ctx.prediction.set(Some(self.other.get_untracked()));
        self.other.set(toggled);
        self.editing_saved.set(saved);
    }
}

/// "Check": grades the answer (a wrong one is taken back, to be tried again).
fn check(ctx: Ctx, draft: Draft) {
    let Some(answer) = draft.answer(ctx) else {
        ctx.notice
            .set(Some("Pick what happens to the stack first.".to_string()));
        return;
    };
    ctx.commit_source();
    ctx.stop();
    ctx.act(|s| s.check_warp(&answer));
}

/// "Show me": runs the instruction and tells what it did.
fn show_me(ctx: Ctx) {
    ctx.commit_source();
    ctx.stop();
    ctx.act(|s| s.show_warp());
}

/// The radio buttons' labels: the four "Stack" choices, then which mask the lane toggles set.
fn choice_label(index: usize) -> &'static str {
    match StackChange::ALL.get(index) {
        Some(choice) => choice.label(),
        None if index == 4 => "Active after it",
        None => "Saved by the new frame",
    }
}

impl Draft {
    /// Whether radio button `index` (see [`choice_label`]) is checked.
    fn picked(self, index: usize) -> bool {
        match StackChange::ALL.get(index) {
            Some(choice) => self.stack.get() == Some(*choice),
            None => self.editing_saved.get() == (index == 5),
        }
    }

    /// Radio button `index` was checked.
    fn pick(self, ctx: Ctx, index: usize) {
        match StackChange::ALL.get(index) {
            Some(choice) => {
                self.stack.set(Some(*choice));
                if *choice != StackChange::Push {
                    self.edit_saved(ctx, false);
                }
            }
            None => self.edit_saved(ctx, index == 5),
        }
    }
}

/// Radio buttons `indices` in the group `name` (one function for both groups keeps one copy of
/// the view code in the wasm).
fn radios(ctx: Ctx, draft: Draft, indices: std::ops::Range<usize>, name: String) -> impl IntoView {
    indices
        .map(|index| {
            view! {
                <label class="warp-choice">
                    <input
                        type="radio"
                        name=name.clone()
                        prop:checked=move || draft.picked(index)
                        on:change=move |_| draft.pick(ctx, index)
                    />
                    {choice_label(index)}
                </label>
            }
        })
        .collect_view()
}

/// The lanes are the answer's toggles, and the open panel may have pushed them below the
/// machine pane's fold: once the panel is drawn, they are scrolled into view (no further than
/// needed, so nothing moves when they are already on screen).
fn bring_lanes_on_screen(ctx: Ctx) {
    let heading = ctx.id("lanes-heading");
    request_animation_frame(move || {
        let lanes = document()
            .get_element_by_id(&heading)
            .and_then(|h| h.parent_element());
        if let Some(lanes) = lanes {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            lanes.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}

/// The panel while Be the warp is on. Its views are a module of their own in the page's build
/// (most visits never turn it on), fetched when it is first switched on; if that module does
/// not arrive, the alert says so and Be the warp goes off again, so that no run waits for
/// answers nobody can give.
#[component]
pub fn WarpPanel() -> impl IntoView {
    let ctx = use_ctx();
    let on = Memo::new(move |_| ctx.with(|s| s.warp_on()));
    // The lanes stop being toggles when Be the warp goes off (the panel, which clears them
    // while it is on, is gone then), unless a `?mask` question has them.
    Effect::new(move |_| {
        if !on.get() && ctx.peek(|s| s.open_question().is_none()) {
            ctx.prediction.set(None);
        }
    });
    view! {
        <Show when=move || on.get()>
            {move || {
                Suspend::new(async move {
                    let panel = arrived(ctx, "Be the warp could not be loaded", loaded!(warp_panel(ctx)));
                    if panel.is_none() {
                        set_on(ctx, false);
                    }
                    panel
                })
            }}
        </Show>
    }
}

#[cfg_attr(
    feature = "split",
    leptos::wasm_split::wasm_split(warp, fallible, wasm_split_path = ::leptos::wasm_split)
)]
fn warp_panel(ctx: Ctx) -> Result<AnyView, NotArrived> {
    let question = Memo::new(move |_| ctx.with(|s| s.warp_question().cloned()));
    let verdict = Memo::new(move |_| ctx.with(|s| s.warp_verdict().cloned()));
    let score = Memo::new(move |_| ctx.with(|s| s.warp_score()));
    let width = Memo::new(move |_| ctx.with(|s| s.wave_width()));
    let draft = Draft {
        stack: RwSignal::new(None),
        editing_saved: RwSignal::new(false),
        other: RwSignal::new(0),
    };
    // A new instruction starts a new answer from the lanes active before it; a wrong try
    // keeps the answer to change. Closed, the lanes stop being toggles.
    let asked_at = Memo::new(move |_| question.with(|q| q.as_ref().map(|q| (q.step, q.line))));
    Effect::new(move |_| match asked_at.get() {
        Some(_) => {
            let before = question.with_untracked(|q| q.as_ref().map_or(0, |q| q.active_before));
            ctx.prediction.set(Some(before));
            draft.other.set(before);
            draft.stack.set(None);
            draft.editing_saved.set(false);
            bring_lanes_on_screen(ctx);
        }
        None => {
            if ctx.peek(|s| s.open_question().is_none()) {
                ctx.prediction.set(None);
            }
        }
    });
    // Enter on a lane checks (Space toggles it, as a click does).
    Effect::new(move |previous: Option<u32>| {
        let pressed = ctx.check_key.get();
        if previous.is_some_and(|p| p != pressed) && question.with_untracked(Option::is_some) {
            check(ctx, draft);
        }
        pressed
    });
    let toggled = move || lanes_phrase(ctx.prediction.get().unwrap_or(0), width.get());
    let other = move || lanes_phrase(draft.other.get(), width.get());
    let lanes_text = move || {
        if draft.editing_saved.get() {
            other()
        } else {
            toggled()
        }
    };
    let saved_text = move || {
        if draft.editing_saved.get() {
            toggled()
        } else {
            other()
        }
    };
    // One class says what is on show (the stylesheet hides the rest): each reactive attribute
    // costs the wasm code of its own.
    let verdict_class = move || {
        verdict.with(|v| match v.as_ref().map(|v| v.correct) {
            Some(Some(true)) => "reveal right",
            Some(Some(false)) => "reveal wrong",
            Some(None) => "reveal skipped",
            None => "reveal none",
        })
    };
    let panel_class = move || {
        let mut class = String::from("question-panel warp-panel");
        if question.with(Option::is_some) {
            class.push_str(" asking");
        }
        if draft.stack.get() == Some(StackChange::Push) {
            class.push_str(" pushing");
        }
        class
    };
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        let on_button = event
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlButtonElement>(t).ok())
            .is_some();
        if event.key() == "Enter" && !on_button && question.with_untracked(Option::is_some) {
            event.prevent_default();
            check(ctx, draft);
        }
    };
    // The parts not on show are hidden by the class rather than taken out: each `Show` costs
    // the wasm a copy of its children's view code.
    Ok(view! {
        <section class=panel_class aria-labelledby=ctx.labelled_by("warp-heading") on:keydown=on_keydown>
            <h3 id=ctx.id("warp-heading") class="view-title">"Be the warp"</h3>
            <p class=verdict_class aria-live="polite">
                {move || verdict.with(|v| v.as_ref().map(|v| v.text.clone()).unwrap_or_default())}
            </p>
            <p class="answer-hint warp-idle">
                "The run stops before each control-flow instruction of the selected wave for you to perform it."
            </p>
            <div class="warp-ask">
                <p class="prompt">
                    {move || question.with(|q| q.as_ref().map(|q| q.prompt()).unwrap_or_default())}
                </p>
                <p class="answer-hint">
                    "Click the lanes in the Lanes view (or Space on a lane), then Enter or Check. Active after it: "
                    <span class="answer-lanes">{lanes_text}</span>
                </p>
                <div class="warp-stack" role="radiogroup" aria-labelledby=ctx.labelled_by("warp-stack-label")>
                    <span id=ctx.id("warp-stack-label") class="warp-label">"Stack"</span>
                    {radios(ctx, draft, 0..4, ctx.id("warp-stack"))}
                </div>
                <div class="warp-push">
                    <div class="warp-stack" role="radiogroup" aria-labelledby=ctx.labelled_by("warp-edit-label")>
                        <span id=ctx.id("warp-edit-label") class="warp-label">"The lanes set"</span>
                        {radios(ctx, draft, 4..6, ctx.id("warp-edit"))}
                    </div>
                    <p class="answer-hint">
                        "Saved by the new frame: " <span class="answer-lanes">{saved_text}</span>
                    </p>
                </div>
                <div class="question-actions">
                    <button type="button" class="btn primary" on:click=move |_| check(ctx, draft)>
                        "Check"
                    </button>
                    <button type="button" class="btn" on:click=move |_| show_me(ctx)>
                        "Show me"
                    </button>
                </div>
            </div>
            <p class="score">
                {move || score.with(|s| (s.asked() > 0).then(|| format!("Be the warp: {}", s.text())))}
            </p>
        </section>
    }
    .into_any())
}
