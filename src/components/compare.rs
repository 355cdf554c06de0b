//! Compare mode: two runs side by side, each a whole session with its own context (editor,
//! launch form, machine, run task), moved together by the commands here. The comparison itself
//! (the engine's numbers, the results) is `wave_session::comparison`'s.

use leptos::prelude::*;

use super::{use_ctx, Ctx};
use wave_session::examples::ComparePair;
use wave_session::{AutosaveWork, Session};

/// Which of the two runs a context drives (a single run is run A).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

impl Side {
    /// The name of its region.
    pub fn region(self) -> &'static str {
        match self {
            Side::A => "Run A",
            Side::B => "Run B",
        }
    }
}

/// Both runs while comparing (the lesson pair they came from is [`Ctx::lesson`]).
#[derive(Clone, Copy)]
pub struct Pair {
    pub a: Ctx,
    pub b: Ctx,
}

impl Pair {
    pub fn both(&self) -> [Ctx; 2] {
        [self.a, self.b]
    }

    fn lesson(&self) -> Option<&'static str> {
        self.a.lesson.try_get_untracked().flatten()
    }

    /// The autosave of both runs (`None` when the page is gone).
    pub fn autosave_work(&self) -> Option<AutosaveWork> {
        let b = self.b.session;
        self.a
            .session
            .try_with_value(|a| b.try_with_value(|b| a.autosave_work_compared(b, self.lesson())))
            .flatten()
    }

    /// The share state of both runs at their moments.
    pub fn share_state(&self) -> Option<String> {
        let b = self.b.session;
        self.a
            .session
            .try_with_value(|a| b.try_with_value(|b| a.share_state_compared(b, self.lesson())))
            .flatten()
    }

    /// Runs both (each in its own chain of slices, so they take turns), or pauses both.
    pub fn run_or_pause(&self) {
        if self.both().iter().any(|c| c.running.get_untracked()) {
            self.both().iter().for_each(Ctx::stop);
        } else {
            self.both().iter().for_each(Ctx::run);
        }
    }

    /// One instruction of each run's selected wave; a run that has finished stays where it is.
    pub fn step(&self) {
        for ctx in self.both() {
            if ctx.peek(|s| s.state().can_run()) {
                ctx.step();
            } else {
                ctx.stop();
            }
        }
    }

    pub fn step_back(&self) {
        for ctx in self.both() {
            if ctx.peek(Session::can_step_back) {
                ctx.step_back();
            }
        }
    }

    pub fn next_event(&self) {
        for ctx in self.both() {
            if ctx.peek(|s| s.state().can_run()) {
                ctx.move_selected_wave(Session::next_event);
            }
        }
    }

    pub fn previous_event(&self) {
        for ctx in self.both() {
            if ctx.peek(Session::can_step_back) {
                ctx.travel(Session::previous_event);
            }
        }
    }

    pub fn reset(&self) {
        self.both().iter().for_each(Ctx::reset);
    }

    /// Both runs to step `step` (a run that ends sooner stops at its end).
    pub fn travel_to(&self, step: u64) {
        for ctx in self.both() {
            ctx.travel_to(step);
        }
    }
}

/// The context the Examples menu and "Open file…" act on: run B's when its region had focus
/// last while comparing, else run A's.
pub fn target(ctx: Ctx) -> Ctx {
    match ctx.pair.get_untracked() {
        Some(pair) if ctx.focused.get_untracked() == Side::B => pair.b,
        Some(pair) => pair.a,
        None => ctx,
    }
}

/// Starts comparing: run B begins as a copy of run A, at A's moment.
pub fn enter(a: Ctx) {
    if a.pair.get_untracked().is_some() {
        return;
    }
    a.commit_source();
    let state = a.peek(Session::share_state);
    let copy = match Session::restore_opening(&state) {
        Ok(copy) => copy,
        // A state too large for a link: the same kernel and launch, from the start.
        Err(_) => {
            let (source, form) = a.peek(|s| (s.source().to_string(), s.form().clone()));
            Session::new(&source, form)
        }
    };
    begin(a, copy, None);
}

/// Shows `b` beside run A (which is `a`, the page's own context).
fn begin(a: Ctx, mut b: Session, lesson: Option<&'static str>) {
    b.set_questions_on(Ctx::stored_questions_on());
    let heading = b.opening().is_some();
    let b = a.second(b);
    a.lesson.set(lesson);
    a.pair.set(Some(Pair { a, b }));
    if heading {
        b.run();
    }
    b.check_if_pending();
    a.autosave();
}

/// Stops comparing: run A stays as the single run.
pub fn leave(ctx: Ctx) {
    let Some(pair) = ctx.pair.get_untracked() else {
        return;
    };
    pair.a.commit_source();
    pair.b.stop();
    pair.b.cancel_recompile();
    // Run B's save, if one is due, has nothing to save once the pair is gone.
    pair.b.cancel_autosave();
    ctx.focused.set(Side::A);
    ctx.lesson.set(None);
    ctx.pair.set(None);
    // Run B's machine and history can be large: keep nothing of it once its views are gone.
    pair.b
        .session
        .try_set_value(Session::new("", Default::default()));
    pair.a.autosave_now();
}

/// Opens a lesson pair: A and B as its two runs, straight in compare mode.
pub fn open_lesson(ctx: Ctx, lesson: &ComparePair) {
    let a = match ctx.pair.get_untracked() {
        Some(pair) => pair.a,
        None => ctx,
    };
    if let Some(pair) = a.pair.get_untracked() {
        a.lesson.set(Some(lesson.id));
        a.replace_session(Session::from_example(&lesson.a));
        pair.b.replace_session(Session::from_example(&lesson.b));
    } else {
        a.replace_session(Session::from_example(&lesson.a));
        begin(a, Session::from_example(&lesson.b), Some(lesson.id));
    }
    a.alert.set(None);
}

/// The page opened a link or autosave: run B beside run A when it holds one.
pub fn open(a: Ctx, opened_b: Option<Session>, lesson: Option<String>) {
    if let Some(b) = opened_b {
        let lesson = lesson
            .as_deref()
            .and_then(wave_session::examples::compare_pair)
            .map(|p| p.id);
        begin(a, b, lesson);
    }
}

/// Gives `ctx` to the views inside (run B's views read run B).
#[component]
pub fn WithRun(ctx: Ctx, children: Children) -> impl IntoView {
    provide_context(ctx);
    children()
}

/// The "Compare runs" toggle of the header.
#[component]
pub fn CompareToggle() -> impl IntoView {
    let ctx = use_ctx();
    let on = move || ctx.pair.with(Option::is_some);
    view! {
        <button
            class="btn"
            type="button"
            title="Two runs side by side, stepped together, with their numbers compared"
            aria-pressed=move || if on() { "true" } else { "false" }
            on:click=move |_| if on() { leave(ctx) } else { enter(ctx) }
        >
            "Compare runs"
        </button>
    }
}
