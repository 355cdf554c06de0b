//! The page's components. They only read the session's view models and call its commands; the
//! shared state they need (the session, what runs, UI choices) lives in [`Ctx`].

pub mod alerts;
pub mod config;
pub mod controls;
pub mod editor;
pub mod examples;
pub mod header;
pub mod help;
pub mod lanes;
pub mod memory;
pub mod registers;
pub mod stack;
pub mod stats;

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::session::{NumberFormat, RunProgress, Session};

/// Typing waits this long for a pause before the source is recompiled.
pub const RECOMPILE_DEBOUNCE_MS: u64 = 250;
/// localStorage key of the autosaved work.
pub const AUTOSAVE_KEY: &str = "wave-playground.autosave";
/// localStorage key of the theme choice ("light", "dark" or "system").
pub const THEME_KEY: &str = "wave-playground.theme";
/// Work per run slice before yielding to the browser.
const SLICE_BUDGET_MS: f64 = 10.0;
/// While running, the views refresh at most this often.
const RUN_REFRESH_MS: f64 = 200.0;

/// The bottom tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Diagnostics,
    Memory,
    Statistics,
    Launch,
}

/// Everything the components share. `Copy`: every field is an arena handle.
#[derive(Clone, Copy)]
pub struct Ctx {
    session: StoredValue<Session, LocalStorage>,
    /// Bumped after every session change; views read the session through [`Ctx::with`].
    version: RwSignal<u64>,
    /// The editor's text (ahead of the session while a recompile is pending).
    pub text: RwSignal<String>,
    pending_recompile: StoredValue<Option<TimeoutHandle>, LocalStorage>,
    /// A time-sliced run is in progress.
    pub running: RwSignal<bool>,
    run_generation: StoredValue<u64>,
    slice_steps: StoredValue<u64>,
    /// Time spent executing since the last reset (None before any run).
    pub run_time_ms: RwSignal<Option<f64>>,
    pub autoplay: RwSignal<bool>,
    /// Autoplay speed in steps per second.
    pub speed: RwSignal<u32>,
    pub format: RwSignal<NumberFormat>,
    /// 1-based line of the editor's caret.
    pub cursor_line: RwSignal<u32>,
    /// The example loaded last (its id), for the picker and the explanation.
    pub example_id: RwSignal<String>,
    /// A transient note ("Link copied").
    pub notice: RwSignal<Option<String>>,
    /// An error to show in a `role=alert` element.
    pub alert: RwSignal<Option<String>>,
    pub help_open: RwSignal<bool>,
    pub tab: RwSignal<Tab>,
}

impl Ctx {
    pub fn new(session: Session) -> Self {
        let text = session.source().to_string();
        Ctx {
            session: StoredValue::new_local(session),
            version: RwSignal::new(0),
            text: RwSignal::new(text),
            pending_recompile: StoredValue::new_local(None),
            running: RwSignal::new(false),
            run_generation: StoredValue::new(0),
            slice_steps: StoredValue::new(1000),
            run_time_ms: RwSignal::new(None),
            autoplay: RwSignal::new(false),
            speed: RwSignal::new(4),
            format: RwSignal::new(NumberFormat::I32),
            cursor_line: RwSignal::new(1),
            example_id: RwSignal::new(String::new()),
            notice: RwSignal::new(None),
            alert: RwSignal::new(None),
            help_open: RwSignal::new(false),
            tab: RwSignal::new(Tab::Diagnostics),
        }
    }

    /// Reads the session, tracking changes (use inside reactive closures).
    pub fn with<R>(&self, f: impl FnOnce(&Session) -> R) -> R
    where
        R: Default,
    {
        self.version.track();
        self.session.try_with_value(f).unwrap_or_default()
    }

    /// Changes the session and refreshes the views. `None` when the page is gone.
    pub fn act<R>(&self, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
        let result = self.session.try_update_value(f);
        self.refresh();
        result
    }

    /// Changes the session without refreshing the views (the run loop refreshes them itself).
    fn act_quietly<R>(&self, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
        self.session.try_update_value(f)
    }

    fn refresh(&self) {
        self.version.try_update(|v| *v = v.wrapping_add(1));
    }

    /// Keeps the work (source and configuration) in local storage.
    pub fn autosave(&self) {
        if let Some(text) = self.session.try_with_value(|s| s.autosave()) {
            storage_set(AUTOSAVE_KEY, &text);
        }
    }

    /// Stops a run and autoplay.
    pub fn stop(&self) {
        if self.running.get_untracked() {
            self.running.set(false);
            self.run_generation.update_value(|g| *g += 1);
            self.act(|s| s.pause());
        }
        self.autoplay.set(false);
    }

    /// Replaces the session (an example, a link); the editor follows.
    pub fn replace_session(&self, session: Session) {
        self.stop();
        self.cancel_recompile();
        self.text.set(session.source().to_string());
        self.act(move |s| *s = session);
        self.run_time_ms.set(None);
        self.autosave();
    }

    fn cancel_recompile(&self) {
        if let Some(Some(handle)) = self.pending_recompile.try_update_value(|p| p.take()) {
            handle.clear();
        }
    }

    /// The editor's text changed: stop, and recompile after a pause in typing.
    pub fn edit(&self, text: String) {
        self.stop();
        self.text.set(text);
        self.cancel_recompile();
        let ctx = *self;
        let handle = set_timeout_with_handle(
            move || ctx.commit_source(),
            Duration::from_millis(RECOMPILE_DEBOUNCE_MS),
        )
        .ok();
        if handle.is_none() {
            // No timers: recompile at once rather than never.
            self.commit_source();
            return;
        }
        self.pending_recompile.set_value(handle);
    }

    /// Recompiles the editor's text now (the debounce fired, or a command needs it current).
    pub fn commit_source(&self) {
        self.cancel_recompile();
        let Some(text) = self.text.try_get_untracked() else {
            return;
        };
        let same = self
            .session
            .try_with_value(|s| s.source() == text)
            .unwrap_or(true);
        if !same {
            self.act(|s| s.set_source(&text));
            self.run_time_ms.set(None);
            self.autosave();
        }
    }

    pub fn step(&self) {
        self.commit_source();
        if self.running.get_untracked() {
            self.stop();
        }
        self.act(|s| s.step());
    }

    pub fn reset(&self) {
        self.commit_source();
        self.stop();
        self.act(|s| s.reset());
        self.run_time_ms.set(None);
    }

    /// Run / continue, or pause when running.
    pub fn run_or_pause(&self) {
        if self.running.get_untracked() {
            self.stop();
        } else {
            self.run();
        }
    }

    pub fn run(&self) {
        self.commit_source();
        self.autoplay.set(false);
        let can_run = self
            .session
            .try_with_value(|s| s.state().can_run())
            .unwrap_or(false);
        if !can_run || self.running.get_untracked() {
            return;
        }
        let generation = self
            .run_generation
            .try_update_value(|g| {
                *g += 1;
                *g
            })
            .unwrap_or(0);
        self.running.set(true);
        self.run_slice(generation, now_ms());
    }

    pub fn run_to_cursor(&self) {
        self.commit_source();
        self.stop();
        let line = self.cursor_line.get_untracked();
        let target = self.act(|s| {
            if s.state().can_run() {
                s.run_to_line(line)
            } else {
                None
            }
        });
        if let Some(Some(_)) = target {
            self.run();
        }
    }

    fn run_slice(&self, generation: u64, last_refresh: f64) {
        let ctx = *self;
        let current = self.run_generation.try_get_value() == Some(generation);
        if !current || !self.running.get_untracked() {
            return;
        }
        let steps = self.slice_steps.get_value();
        let started = now_ms();
        let Some(progress) = self.act_quietly(|s| s.run_slice(steps)) else {
            return;
        };
        let elapsed = now_ms() - started;
        self.run_time_ms
            .update(|t| *t = Some(t.unwrap_or(0.0) + elapsed));
        // Adapt the slice so one takes about SLICE_BUDGET_MS.
        let next = if elapsed < 0.5 {
            steps.saturating_mul(4)
        } else {
            ((steps as f64) * SLICE_BUDGET_MS / elapsed) as u64
        };
        self.slice_steps.set_value(next.clamp(64, 1 << 24));
        if progress == RunProgress::Running {
            let refresh = if now_ms() - last_refresh > RUN_REFRESH_MS {
                self.refresh();
                now_ms()
            } else {
                last_refresh
            };
            request_animation_frame(move || ctx.run_slice(generation, refresh));
        } else {
            self.running.set(false);
            self.refresh();
        }
    }

    /// Starts or stops autoplay (one step every 1/speed seconds).
    pub fn toggle_autoplay(&self) {
        if self.autoplay.get_untracked() {
            self.autoplay.set(false);
            return;
        }
        self.commit_source();
        if self.running.get_untracked() {
            self.stop();
        }
        self.autoplay.set(true);
        let generation = self
            .run_generation
            .try_update_value(|g| {
                *g += 1;
                *g
            })
            .unwrap_or(0);
        self.autoplay_tick(generation);
    }

    fn autoplay_tick(&self, generation: u64) {
        let ctx = *self;
        if self.run_generation.try_get_value() != Some(generation)
            || self.autoplay.try_get_untracked() != Some(true)
        {
            return;
        }
        let stepped = self.act(|s| s.step() && s.state().can_run());
        if stepped != Some(true) {
            self.autoplay.set(false);
            return;
        }
        let delay = 1000 / u64::from(self.speed.get_untracked().clamp(1, 60));
        set_timeout(
            move || ctx.autoplay_tick(generation),
            Duration::from_millis(delay),
        );
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn storage_get(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok().flatten()
}

pub fn storage_set(key: &str, value: &str) {
    if let Some(storage) = local_storage() {
        // A full or disabled storage only loses the autosave; the page goes on.
        let _ = storage.set_item(key, value);
    }
}

/// The value of the `<select>` / `<input>` an event came from.
pub fn target_value(event: &web_sys::Event) -> String {
    let Some(target) = event.target() else {
        return String::new();
    };
    if let Some(select) = target.dyn_ref::<web_sys::HtmlSelectElement>() {
        return select.value();
    }
    if let Some(input) = target.dyn_ref::<web_sys::HtmlInputElement>() {
        return input.value();
    }
    if let Some(area) = target.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        return area.value();
    }
    String::new()
}

/// A row of lanes as small cells (for masks).
#[component]
pub fn LaneStrip(lanes: Vec<bool>) -> impl IntoView {
    view! {
        <span class="strip" aria-hidden="true">
            {lanes
                .into_iter()
                .map(|on| view! { <span class="strip-cell" class:on=on></span> })
                .collect_view()}
        </span>
    }
}
