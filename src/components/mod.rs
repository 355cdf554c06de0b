//! The page's components. They only read the session's view models and call its commands; the
//! shared state they need (the session, what runs, UI choices) lives in [`Ctx`].

pub mod alerts;
pub mod caption;
pub mod compare;
pub mod compare_pane;
pub mod config;
pub mod controls;
pub mod data_movement;
pub mod editor;
pub mod embed;
pub mod examples;
pub mod export;
pub mod export_menu;
pub mod first_frame;
pub mod header;
pub mod held_height;
pub mod help;
pub mod lane_picture;
pub mod lane_strip;
pub mod lanes;
pub mod lessons;
pub mod memory;
pub mod near_screen;
pub mod offline;
pub mod open_file;
pub mod question;
pub mod registers;
pub mod run_region;
pub mod stack;
pub mod stats;
pub mod switch;
pub mod timeline;
pub mod timeline_picture;
pub mod timing;
pub mod warp;

use std::time::Duration;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::codemirror::WaveEditor;
pub use compare::{Pair, Side};

pub use timing::now_ms;
use timing::{post_task, Detail};
use wave_session::pacer::{autoplay_delay_ms, run_outcome, Pacer, Ticket};
pub use wave_session::pacer::{AUTOPLAY_SPEEDS, RECOMPILE_DEBOUNCE_MS};
use wave_session::recompile::{Recompile, COMPILE_SLICE_MS};
use wave_session::{
    Answer, AutosaveWork, NumberFormat, PageOptions, Progress, RunProgress, Session,
};

/// How long after the last change the moment is autosaved.
const AUTOSAVE_DELAY_MS: u64 = 700;
/// localStorage key of the autosaved work.
pub const AUTOSAVE_KEY: &str = "wave-playground.autosave";
/// localStorage key of the learner's progress (scores and lessons done).
pub const PROGRESS_KEY: &str = "wave-playground.progress";
/// localStorage key of the "Questions" switch ("on" or "off").
pub const QUESTIONS_KEY: &str = "wave-playground.questions";
/// localStorage key of the theme choice ("light", "dark" or "system").
pub const THEME_KEY: &str = "wave-playground.theme";
/// Multiply-adds of an example's result check per task: about 3 ms with the browser's fused
/// multiply-add (`machine::fused_fma_row`), about 10 ms without it.
const CHECK_BUDGET: u64 = 1 << 22;

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
    /// The CodeMirror editor once it is mounted (see `editor::Editor`).
    editor: StoredValue<Option<WaveEditor>, LocalStorage>,
    /// The editor holds edits the session has not compiled yet.
    edited: StoredValue<bool>,
    /// The editor's text being compiled a few lines per task (`Ctx::recompile_slice`).
    recompile: StoredValue<Option<Recompile>, LocalStorage>,
    /// Lines in the editor.
    pub line_count: RwSignal<u32>,
    /// Bumped whenever the session takes a new source, so the editor's diagnostics follow it.
    pub source_generation: RwSignal<u64>,
    pending_recompile: StoredValue<Option<TimeoutHandle>, LocalStorage>,
    /// The autosave due a moment after the last change (see [`Ctx::refresh`]).
    pending_autosave: StoredValue<Option<TimeoutHandle>, LocalStorage>,
    /// The work this page saved last and the text it wrote (see [`Ctx::autosave`]).
    last_autosave: StoredValue<Option<(AutosaveWork, String)>, LocalStorage>,
    /// A time-sliced run is in progress.
    pub running: RwSignal<bool>,
    /// Which run or autoplay is current, slice sizes, run timings, the result check's claim.
    pacer: StoredValue<Pacer>,
    /// Time spent executing since the last reset (None before any run).
    pub run_time_ms: RwSignal<Option<f64>>,
    pub autoplay: RwSignal<bool>,
    /// Autoplay speed in steps per second.
    pub speed: RwSignal<u32>,
    pub format: RwSignal<NumberFormat>,
    /// 1-based line of the editor's caret.
    pub cursor_line: RwSignal<u32>,
    /// A transient note ("Link copied").
    pub notice: RwSignal<Option<String>>,
    /// An error to show in a `role=alert` element.
    pub alert: RwSignal<Option<String>>,
    pub help_open: RwSignal<bool>,
    /// Presenter mode: large type, high contrast, only the code, the controls and the lanes.
    pub presenter: RwSignal<bool>,
    /// The theme choice: "system", "light" or "dark" (views drawn on a canvas redraw with it).
    pub theme: RwSignal<String>,
    pub tab: RwSignal<Tab>,
    /// The lanes the learner says will be active, while a `?mask` question is open.
    pub prediction: RwSignal<Option<u64>>,
    /// The line picked in the editor's gutter, while a `?next` question is open.
    pub picked_line: RwSignal<Option<u32>>,
    /// Counts Enter presses on a lane while Be the warp asks: its panel checks the answer.
    pub check_key: RwSignal<u32>,
    /// Scores and lessons done, as kept in local storage.
    pub progress: RwSignal<Progress>,
    /// How the page is shown (embedded, read-only), from the flags of the link it opened with.
    pub page: PageOptions,
    /// Which run this is: the single run and run A are [`Side::A`].
    pub side: Side,
    /// Both runs while comparing (the same handle in run A's and run B's context).
    pub pair: RwSignal<Option<Pair>>,
    /// The run whose region last had focus: examples and files open there.
    pub focused: RwSignal<Side>,
    /// The lesson pair the two runs came from, while comparing (its own signal: a new lesson
    /// leaves the runs' views in place).
    pub lesson: RwSignal<Option<&'static str>>,
}

impl Ctx {
    pub fn new(session: Session, page: PageOptions) -> Self {
        let lines = session.source().split('\n').count() as u32;
        Ctx {
            session: StoredValue::new_local(session),
            version: RwSignal::new(0),
            editor: StoredValue::new_local(None),
            edited: StoredValue::new(false),
            recompile: StoredValue::new_local(None),
            line_count: RwSignal::new(lines),
            source_generation: RwSignal::new(0),
            pending_recompile: StoredValue::new_local(None),
            pending_autosave: StoredValue::new_local(None),
            last_autosave: StoredValue::new_local(None),
            running: RwSignal::new(false),
            pacer: StoredValue::new(Pacer::default()),
            run_time_ms: RwSignal::new(None),
            autoplay: RwSignal::new(false),
            speed: RwSignal::new(4),
            format: RwSignal::new(NumberFormat::I32),
            cursor_line: RwSignal::new(1),
            notice: RwSignal::new(None),
            alert: RwSignal::new(None),
            help_open: RwSignal::new(false),
            presenter: RwSignal::new(false),
            theme: RwSignal::new(header::stored_theme()),
            tab: RwSignal::new(Tab::Diagnostics),
            prediction: RwSignal::new(None),
            picked_line: RwSignal::new(None),
            check_key: RwSignal::new(0),
            progress: RwSignal::new(Progress::parse(
                &storage_get(PROGRESS_KEY).unwrap_or_default(),
            )),
            page,
            side: Side::A,
            pair: RwSignal::new(None),
            focused: RwSignal::new(Side::A),
            lesson: RwSignal::new(None),
        }
    }

    /// Run B's context beside this one (run A's): its own session, editor, run and choices
    /// of its own; the page's notices, dialogs, theme, progress and pair shared.
    pub fn second(&self, session: Session) -> Self {
        let fresh = Ctx::new(session, self.page);
        Ctx {
            side: Side::B,
            notice: self.notice,
            alert: self.alert,
            help_open: self.help_open,
            presenter: self.presenter,
            theme: self.theme,
            progress: self.progress,
            format: self.format,
            speed: self.speed,
            pair: self.pair,
            focused: self.focused,
            lesson: self.lesson,
            // Either run saves the pair's work under one key: one record of the last save.
            last_autosave: self.last_autosave,
            ..fresh
        }
    }

    /// A unique element id for `name` in this run's views (run B's are prefixed).
    pub fn id(&self, name: &str) -> String {
        match self.side {
            Side::A => name.to_string(),
            Side::B => format!("b-{name}"),
        }
    }

    /// What a link to the page carries: this run, or both while comparing.
    pub fn page_state(&self) -> Option<String> {
        match self.pair.try_get_untracked().flatten() {
            Some(pair) => {
                pair.both().iter().for_each(Ctx::commit_source);
                pair.share_state()
            }
            None => {
                self.commit_source();
                self.session
                    .try_with_value(|s| match lessons::inline_pack(s) {
                        Some(pack) => s.share_state_with_pack(&pack),
                        None => s.share_state(),
                    })
            }
        }
    }

    /// `aria-labelledby` for a landmark of this run titled by the element `name`: while
    /// comparing, the run's title too ("Run B Lanes"), so the two runs' landmarks differ.
    pub fn labelled_by(&self, name: &'static str) -> impl Fn() -> String + Copy + 'static {
        let ctx = *self;
        move || match ctx.pair.with(Option::is_some) {
            true => format!("{} {}", ctx.id("run-title"), ctx.id(name)),
            false => ctx.id(name),
        }
    }

    /// `aria-label` for a landmark of this run: while comparing, with the run's name ("Run B
    /// Details").
    pub fn landmark(&self, label: &'static str) -> impl Fn() -> String + Copy + 'static {
        let ctx = *self;
        move || match ctx.pair.with(Option::is_some) {
            true => format!("{} {label}", ctx.side.region()),
            false => label.to_string(),
        }
    }

    /// The other run while comparing.
    pub fn partner(&self) -> Option<Ctx> {
        let pair = self.pair.try_get_untracked().flatten()?;
        Some(match self.side {
            Side::A => pair.b,
            Side::B => pair.a,
        })
    }

    /// Whether the "Questions" switch is on (it is unless turned off).
    pub fn stored_questions_on() -> bool {
        storage_get(QUESTIONS_KEY).as_deref() != Some("off")
    }

    /// Turns the questions on or off, for the work on show and whatever is opened after it.
    pub fn set_questions_on(&self, on: bool) {
        if !self.page.embed {
            storage_set(QUESTIONS_KEY, if on { "on" } else { "off" });
        }
        self.act(|s| s.set_questions_on(on));
    }

    /// Checks the learner's answer to the open question (runs its instruction).
    pub fn check_answer(&self, answer: Answer) {
        self.commit_source();
        self.stop();
        if let Some(Some(reveal)) = self.act(|s| s.check_answer(&answer)) {
            self.count_answer(reveal.correct);
        }
    }

    /// Reveals the open question's answer without one.
    pub fn skip_question(&self) {
        self.commit_source();
        self.stop();
        if let Some(Some(reveal)) = self.act(|s| s.skip_question()) {
            self.count_answer(reveal.correct);
        }
    }

    fn count_answer(&self, correct: Option<bool>) {
        let key = self.peek(|s| s.progress_key());
        self.progress.update(|p| p.record_answer(&key, correct));
        self.save_progress();
    }

    fn save_progress(&self) {
        // An embedded page keeps nothing in the visitor's storage.
        if self.page.embed {
            return;
        }
        if let Some(text) = self.progress.try_with_untracked(Progress::to_text) {
            storage_set(PROGRESS_KEY, &text);
        }
    }

    /// A lesson run to its end is done (the Examples menu marks it), and its run's Be the warp
    /// score, if it was played, is kept when it is the lesson's best.
    fn note_lesson_done(&self) {
        let finished = self.peek(|s| {
            ((s.example().is_some() || s.pack_lesson().is_some())
                && *s.state() == wave_session::RunState::Finished)
                .then(|| (s.progress_key(), s.warp_on().then(|| s.warp_score())))
        });
        if let Some((key, warp)) = finished {
            let changed = self
                .progress
                .try_update(|p| {
                    let newly = p.mark_done(&key);
                    let best = warp.is_some_and(|w| p.record_warp(&key, w));
                    newly || best
                })
                .unwrap_or(false);
            if changed {
                self.save_progress();
            }
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

    /// Reads the session without tracking changes: for a view that decides itself when to
    /// catch up (the register table, which leaves its cells as they are while off screen).
    pub fn peek<R: Default>(&self, f: impl FnOnce(&Session) -> R) -> R {
        self.session.try_with_value(f).unwrap_or_default()
    }

    /// Tracks every change of the session without reading it.
    pub fn track(&self) {
        self.version.track();
    }

    /// Reads the session for a view too heavy to redraw while a run is in progress (a register
    /// table of 70 × 32 cells redrawn five times a second would hold the main thread far longer
    /// than a run slice): during a run it keeps `previous` and tracks only `running`, so the
    /// view catches up once when the run stops. Use as `Memo::new(move |p| ctx.held_while_running(p, f))`.
    pub fn held_while_running<R: Clone + Default>(
        &self,
        previous: Option<&R>,
        f: impl FnOnce(&Session) -> R,
    ) -> R {
        if self.running.get() {
            if let Some(previous) = previous {
                return previous.clone();
            }
        }
        self.with(f)
    }

    /// When the command before the latest one changed the session (`None` if there was none):
    /// while the views follow the latest command, this says how soon it came after the one
    /// before, so a view can leave out an animation when commands come faster than it plays.
    pub fn previous_command_at(&self) -> Option<f64> {
        self.pacer
            .try_with_value(Pacer::previous_command_at)
            .flatten()
    }

    /// `aria-busy` for the views that hold still during a run.
    pub fn busy(&self) -> Option<&'static str> {
        self.running.get().then_some("true")
    }

    /// Changes the session and refreshes the views. `None` when the page is gone.
    pub fn act<R>(&self, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
        let at = now_ms();
        self.pacer.try_update_value(|p| p.record_command(at));
        let result = self.session.try_update_value(f);
        self.refresh();
        self.check_if_pending();
        result
    }

    /// When the grid has finished and its result check is pending, computes it in short tasks
    /// (a 256 × 256 reference GEMM in one go would hold the main thread for tens of ms), then
    /// shows the verdict.
    pub fn check_if_pending(&self) {
        let pending = self
            .session
            .try_with_value(|s| s.check_pending())
            .unwrap_or(false);
        if pending && self.pacer.try_update_value(Pacer::begin_check) == Some(true) {
            let ctx = *self;
            post_task(move || ctx.check_slice());
        }
    }

    fn check_slice(&self) {
        let more = self.act_quietly(|s| s.advance_check(CHECK_BUDGET));
        if more == Some(true) {
            let ctx = *self;
            post_task(move || ctx.check_slice());
        } else {
            self.pacer.try_update_value(Pacer::end_check);
            self.refresh();
        }
    }

    /// Changes the session without refreshing the views (the run loop refreshes them itself).
    fn act_quietly<R>(&self, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
        self.session.try_update_value(f)
    }

    /// Tells the views the session changed, and saves where the work stands once changes pause
    /// (a step does not wait for the encoding and the storage write).
    fn refresh(&self) {
        self.version.try_update(|v| *v = v.wrapping_add(1));
        self.note_lesson_done();
        let ctx = *self;
        let handle = set_timeout_with_handle(
            move || ctx.autosave(),
            Duration::from_millis(AUTOSAVE_DELAY_MS),
        )
        .ok();
        if let Some(Some(previous)) = self
            .pending_autosave
            .try_update_value(|p| std::mem::replace(p, handle))
        {
            previous.clear();
        }
    }

    /// Saves now, and drops the save [`Ctx::refresh`] had scheduled.
    pub fn autosave_now(&self) {
        self.cancel_autosave();
        self.autosave();
    }

    /// Drops the save [`Ctx::refresh`] had scheduled.
    pub fn cancel_autosave(&self) {
        if let Some(Some(pending)) = self.pending_autosave.try_update_value(|p| p.take()) {
            pending.clear();
        }
    }

    /// Keeps the work (source, configuration, and where it stands) in local storage, unless
    /// it is the work this page saved last and that save is still what storage holds (no
    /// other tab has saved since): then there is nothing to write, and leaving the page, which
    /// always saves, costs no encoding.
    pub fn autosave(&self) {
        // An embedded kernel is the course page's, not the visitor's work.
        if self.page.embed {
            return;
        }
        let work = match self.pair.try_get_untracked().flatten() {
            Some(pair) => pair.autosave_work(),
            // Run B alone is never the page's work: after compare mode ends, a save it had on
            // its way (a timer, a recompile's last slice) would put its emptied session there.
            None if self.side == Side::B => return,
            None => self.session.try_with_value(|s| s.autosave_work()),
        };
        let Some(work) = work else {
            return;
        };
        let stored = self.last_autosave.try_with_value(|last| {
            last.as_ref().is_some_and(|(saved, text)| {
                *saved == work && storage_get(AUTOSAVE_KEY).as_deref() == Some(text.as_str())
            })
        });
        if stored == Some(true) {
            return;
        }
        let text = work.text();
        storage_set(AUTOSAVE_KEY, &text);
        self.last_autosave.try_set_value(Some((work, text)));
    }

    /// Stops a run and autoplay.
    pub fn stop(&self) {
        if self.running.get_untracked() {
            self.running.set(false);
            self.pacer.update_value(Pacer::cancel);
            self.act(|s| s.pause());
            self.end_run("paused");
        }
        // Only a change notifies: a keystroke stops nothing, and redraws nothing for it.
        if self.autoplay.get_untracked() {
            self.autoplay.set(false);
        }
    }

    /// Replaces the session (an example, a link); the editor follows.
    pub fn replace_session(&self, session: Session) {
        self.stop();
        self.cancel_recompile();
        self.recompile.try_set_value(None);
        self.edited.set_value(false);
        self.with_editor(|editor| editor.set_text(session.source()));
        self.line_count
            .set(session.source().split('\n').count() as u32);
        self.source_generation.update(|g| *g += 1);
        let questions_on = Self::stored_questions_on();
        self.act(move |s| {
            *s = session;
            s.set_questions_on(questions_on);
        });
        self.run_time_ms.set(None);
        self.autosave();
    }

    fn cancel_recompile(&self) {
        if let Some(Some(handle)) = self.pending_recompile.try_update_value(|p| p.take()) {
            handle.clear();
        }
    }

    /// The editor, if it is mounted.
    pub fn with_editor<R>(&self, f: impl FnOnce(&WaveEditor) -> R) -> Option<R> {
        self.editor.try_with_value(|e| e.as_ref().map(f)).flatten()
    }

    /// The editor has just been mounted (`Some`) or is going away (`None`).
    pub fn attach_editor(&self, editor: Option<WaveEditor>) {
        self.editor.try_set_value(editor);
    }

    /// The user edited the text (now `lines` long): stop, and recompile after a pause in
    /// typing. The text itself stays in the editor until then: a keystroke in a long kernel
    /// copies nothing.
    pub fn edit(&self, lines: u32) {
        self.stop();
        self.edited.set_value(true);
        if self.line_count.get_untracked() != lines {
            self.line_count.set(lines);
        }
        self.cancel_recompile();
        // A recompile under way compiles text that is not current any more.
        self.recompile.try_set_value(None);
        let ctx = *self;
        let handle = set_timeout_with_handle(
            move || ctx.recompile_in_slices(),
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

    /// Recompiles the editor's text now, finishing a recompile under way: the command calling
    /// this needs the session current.
    pub fn commit_source(&self) {
        self.start_recompile();
        self.finish_recompile();
    }

    /// The pause in typing is over: recompile a few hundred lines per task (see
    /// `wave_session::recompile`), so the page answers meanwhile.
    fn recompile_in_slices(&self) {
        if self.start_recompile() {
            self.recompile_slice();
        }
    }

    /// Takes the editor's text into a new recompile when the session lacks its edits.
    fn start_recompile(&self) -> bool {
        self.cancel_recompile();
        if self.edited.try_get_value() != Some(true) {
            return false;
        }
        self.edited.set_value(false);
        let Some(text) = self.with_editor(WaveEditor::text) else {
            return false;
        };
        let same = self
            .session
            .try_with_value(|s| s.source() == text)
            .unwrap_or(true);
        if same {
            return false;
        }
        self.recompile
            .try_set_value(Some(Recompile::new(text, now_ms())));
        true
    }

    fn recompile_slice(&self) {
        let done = self.recompile.try_update_value(|recompile| {
            recompile
                .as_mut()
                .map(|r| r.slice(now_ms, COMPILE_SLICE_MS))
        });
        match done.flatten() {
            Some(true) => self.finish_recompile(),
            Some(false) => {
                let ctx = *self;
                post_task(move || ctx.recompile_slice());
            }
            // An edit or another source replaced it.
            None => {}
        }
    }

    /// Lowers the recompile under way, if any, and gives the session its result. The views
    /// follow in the next task and the autosave in the one after, so no single task of a long
    /// kernel's recompile carries all three (a command that called this refreshes the views
    /// itself, at once).
    fn finish_recompile(&self) {
        let Some(Some(recompile)) = self.recompile.try_update_value(Option::take) else {
            return;
        };
        let (source, compiled, times) = recompile.finish(now_ms);
        let lines = f64::from(self.line_count.get_untracked());
        self.act_quietly(|s| s.set_compiled(source, compiled));
        let end = now_ms();
        timing::measure(
            timing::RECOMPILE,
            times.started,
            end - times.started,
            &[
                ("lines", Detail::Number(lines)),
                ("slices", Detail::Number(f64::from(times.slices))),
                ("longestSliceMs", Detail::Number(times.longest_slice_ms)),
            ],
        );
        self.run_time_ms.set(None);
        let ctx = *self;
        post_task(move || {
            let views_started = now_ms();
            ctx.source_generation.try_update(|g| *g += 1);
            ctx.refresh();
            ctx.check_if_pending();
            post_task(move || {
                let views = now_ms() - views_started;
                timing::measure(timing::RECOMPILE_VIEWS, views_started, views, &[]);
                ctx.autosave_now();
            });
        });
    }

    /// Whether the session holds what the editor shows (no recompile pending or under way).
    pub fn source_is_current(&self) -> bool {
        self.edited.try_get_value() != Some(true)
            && self
                .recompile
                .try_with_value(Option::is_none)
                .unwrap_or(true)
    }

    pub fn step(&self) {
        let started = now_ms();
        self.commit_source();
        if self.running.get_untracked() {
            self.stop();
        }
        if self.act(|s| s.step()) == Some(true) {
            timing::measure_step(started);
        }
    }

    /// Undoes the selected wave's last instruction.
    pub fn step_back(&self) {
        let started = now_ms();
        self.commit_source();
        self.stop();
        if self.act(|s| s.step_back()) == Some(true) {
            timing::measure_step_back(started);
        }
        self.show_travel_note();
    }

    /// Step over, step out or next event: set up in the session, then run in slices like Run.
    pub fn move_selected_wave(&self, motion: fn(&mut Session) -> bool) {
        self.commit_source();
        self.stop();
        if self.act(motion) == Some(true) {
            self.run();
        }
    }

    /// A move back in time that the session makes at once (previous event, reverse continue).
    pub fn travel(&self, travel: impl FnOnce(&mut Session) -> bool) {
        self.commit_source();
        self.stop();
        self.act(travel);
        self.show_travel_note();
    }

    /// Goes to step `step` (the timeline).
    pub fn travel_to(&self, step: u64) {
        let started = now_ms();
        self.commit_source();
        self.stop();
        if self.act(|s| s.go_to_step(step)) == Some(true) {
            timing::measure_go_to(started);
        }
        self.show_travel_note();
    }

    /// Runs `f` on the session for a view that replays (the timeline): tracks changes like
    /// [`Ctx::with`] and changes nothing the other views show.
    pub fn replaying<R>(&self, f: impl FnOnce(&mut Session) -> R) -> Option<R> {
        self.version.track();
        self.session.try_update_value(f)
    }

    /// Back to the latest earlier step that was about to run the editor caret's line.
    pub fn reverse_to_cursor(&self) {
        let line = self.cursor_line.get_untracked();
        self.travel(move |s| s.reverse_to_line(line));
    }

    /// Shows what the last move in time had to say, if anything.
    fn show_travel_note(&self) {
        if let Some(note) = self.peek(|s| s.travel_note().map(str::to_string)) {
            self.notice.set(Some(note));
        }
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
        let started = now_ms();
        self.commit_source();
        self.autoplay.set(false);
        let can_run = self
            .session
            .try_with_value(|s| s.state().can_run())
            .unwrap_or(false);
        if !can_run || self.running.get_untracked() {
            return;
        }
        let steps = self.session.try_with_value(|s| s.step_count()).unwrap_or(0);
        let Some(ticket) = self.pacer.try_update_value(|p| p.start_run(started, steps)) else {
            return;
        };
        self.running.set(true);
        self.run_slice(ticket, now_ms());
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

    /// One slice of a run (about `SLICE_BUDGET_MS` of engine work, in legs), then the next one in
    /// a new task without waiting for a frame: the browser still paints and handles input (Pause)
    /// between tasks, and the views refresh every `RUN_REFRESH_MS`.
    fn run_slice(&self, ticket: Ticket, last_refresh: f64) {
        let ctx = *self;
        let current = self.pacer.try_with_value(|p| p.is_current(ticket)) == Some(true);
        if !current || !self.running.get_untracked() {
            return;
        }
        // In legs, stopping after the one that uses the budget (`Pacer::slice_goes_on`).
        let leg = self.pacer.with_value(Pacer::leg_steps);
        let started = now_ms();
        let mut steps_run = 0;
        let progress = loop {
            let Some(progress) = self.act_quietly(|s| s.run_slice(leg)) else {
                return;
            };
            steps_run += leg;
            let goes_on = progress == RunProgress::Running
                && self
                    .pacer
                    .with_value(|p| p.slice_goes_on(steps_run, now_ms() - started));
            if !goes_on {
                break progress;
            }
        };
        let elapsed = now_ms() - started;
        self.pacer
            .update_value(|p| p.slice_done(steps_run, elapsed));
        if progress == RunProgress::Running {
            let refresh = if self
                .pacer
                .with_value(|p| p.refresh_due(now_ms(), last_refresh))
            {
                self.show_run_time();
                self.refresh();
                now_ms()
            } else {
                last_refresh
            };
            post_task(move || ctx.run_slice(ticket, refresh));
        } else {
            self.running.set(false);
            self.refresh();
            self.check_if_pending();
            self.end_run(run_outcome(progress));
        }
    }

    /// Adds the engine time not shown yet to the Run time statistic.
    fn show_run_time(&self) {
        let unshown = self
            .pacer
            .try_update_value(Pacer::take_unshown_ms)
            .unwrap_or(0.0);
        if unshown > 0.0 {
            self.run_time_ms
                .update(|t| *t = Some(t.unwrap_or(0.0) + unshown));
        }
    }

    /// A run ended (`outcome`): shows its time and, once the views show the end, publishes the
    /// `wave:run` and `wave:run-engine` measures.
    fn end_run(&self, outcome: &'static str) {
        self.show_run_time();
        let steps = self.session.try_with_value(|s| s.step_count()).unwrap_or(0);
        let Some(run) = self.pacer.try_with_value(|p| p.summary(steps)) else {
            return;
        };
        post_task(move || {
            let detail = [
                ("engineMs", Detail::Number(run.engine_ms)),
                ("slices", Detail::Number(f64::from(run.slices))),
                ("longestSliceMs", Detail::Number(run.longest_slice_ms)),
                ("steps", Detail::Number(run.steps as f64)),
                ("outcome", Detail::Text(outcome)),
            ];
            timing::measure(
                timing::RUN,
                run.started_ms,
                now_ms() - run.started_ms,
                &detail,
            );
            timing::measure(timing::RUN_ENGINE, run.started_ms, run.engine_ms, &detail);
        });
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
        if let Some(ticket) = self.pacer.try_update_value(Pacer::start_autoplay) {
            self.autoplay_tick(ticket);
        }
    }

    fn autoplay_tick(&self, ticket: Ticket) {
        let ctx = *self;
        if self.pacer.try_with_value(|p| p.is_current(ticket)) != Some(true)
            || self.autoplay.try_get_untracked() != Some(true)
        {
            return;
        }
        // A question stops autoplay where it is asked.
        let stepped = self.act(|s| s.step() && s.state().can_run() && !s.asking());
        if stepped != Some(true) {
            self.autoplay.set(false);
            return;
        }
        let delay = autoplay_delay_ms(self.speed.get_untracked());
        set_timeout(
            move || ctx.autoplay_tick(ticket),
            Duration::from_millis(delay),
        );
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
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

/// "held while running" beside the title of a view that holds still during a run.
#[component]
pub fn HeldNote() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <span class="view-note held" hidden=move || !ctx.running.get()>
            "held while running"
        </span>
    }
}
