//! The session: one piece of work as the page drives it. A façade over its parts: the
//! [`Build`] (source, program, launch form), the [`Run`] (machine, history, landings,
//! breakpoints), the [`View`] of that run (selection, what the last command changed) with its
//! [`Timeline`], and [`Teaching`] (questions, answers, score). The commands here coordinate the
//! parts; what the views show is computed by the reader modules from the parts they read.

mod commands;
mod compare;
mod quiz;
mod share;
mod time_travel;
mod views;
mod warp;

pub use share::Opened;

use wave_engine::compile::CompileJob;
use wave_engine::machine::Machine;
use wave_engine::program::Kernel;
use wave_engine::Compiled;

pub use compare::comparison;

use crate::build::Build;
use crate::check::Check;
use crate::examples::Example;
use crate::form::{ConfigForm, FormErrors, ValidLaunch};
use crate::quiz::Teaching;
use crate::run::{Run, RunState};
use crate::shown::Shown;
use crate::timeline::Timeline;
use crate::view::{Selection, View};

pub struct Session {
    build: Build,
    run: Run,
    view: View,
    timeline: Timeline,
    teaching: Teaching,
}

impl Session {
    /// A session on `source` with `form` as the launch configuration (validated at once).
    pub fn new(source: &str, form: ConfigForm) -> Self {
        let mut session = Session {
            build: Build::new(form),
            run: Run::default(),
            view: View::default(),
            timeline: Timeline::default(),
            teaching: Teaching::default(),
        };
        session.set_source(source);
        session
    }

    /// A session on one of the examples (its source, configuration and result check).
    pub fn from_example(example: &Example) -> Self {
        let mut session = Session::new(&example.source, example.form.clone());
        session.build.start_from_example(example);
        session
    }

    /// A session on lesson `index` of `pack` (its source and launch configuration), or `None`
    /// past the pack's last lesson. Its progress is kept under the pack's name.
    pub fn from_pack_lesson(pack: &crate::pack::Pack, index: usize) -> Option<Self> {
        let lesson = pack.lessons.get(index)?;
        let mut session = Session::new(&lesson.source, lesson.form.clone());
        session
            .build
            .set_pack_lesson(Some(format!("{}/{}", pack.key, lesson.id)));
        Some(session)
    }

    /// The pack lesson this work came from, as `Pack::key/id` (see [`Session::from_pack_lesson`]).
    pub fn pack_lesson(&self) -> Option<&str> {
        self.build.pack_lesson()
    }

    /// The run on show, as the readers take it.
    fn shown(&self) -> Shown<'_> {
        Shown {
            build: &self.build,
            run: &self.run,
            view: &self.view,
            asking: self.teaching.asking_line(),
        }
    }

    /// The id of the gallery example this work came from (its explanation stays on show), until
    /// the source no longer declares any of that example's kernels.
    pub fn example(&self) -> Option<&'static str> {
        self.build.example()
    }

    /// The source differs from the example's own.
    pub fn example_edited(&self) -> bool {
        self.build.example_edited()
    }

    /// Replaces the source (the caller debounces typing): recompiles, keeps the last good program
    /// when there are errors, revalidates the configuration and resets the machine.
    pub fn set_source(&mut self, text: &str) {
        let (source, compiled) = CompileJob::new(text.to_string()).finish();
        self.set_compiled(source, compiled);
    }

    /// [`Session::set_source`] for a source compiled elsewhere (a [`CompileJob`] run a few
    /// lines at a time): `compiled` must be the compile of `source`.
    ///
    /// [`CompileJob`]: wave_engine::compile::CompileJob
    pub fn set_compiled(&mut self, source: String, compiled: Compiled) {
        self.build.set_compiled(source, compiled);
        self.rebuilt();
    }

    pub fn source(&self) -> &str {
        self.build.source()
    }

    /// Replaces the launch configuration form; revalidates and resets.
    pub fn set_form(&mut self, form: ConfigForm) {
        self.build.set_form(form);
        self.rebuilt();
    }

    pub fn form(&self) -> &ConfigForm {
        self.build.form()
    }

    /// Inline messages for the invalid fields of the form (empty when everything is valid).
    pub fn form_errors(&self) -> &FormErrors {
        self.build.form_errors()
    }

    /// Names of the kernels of the last good program, for the kernel picker.
    pub fn kernel_names(&self) -> Vec<String> {
        self.build.kernel_names()
    }

    /// The validated launch (configuration, kernel, initial memory), when the form is valid.
    pub fn launch(&self) -> Option<&ValidLaunch> {
        self.build.launch()
    }

    /// `Some(size)` when the selected kernel's `.workgroup_size` overrides the form's workgroup.
    pub fn workgroup_override(&self) -> Option<[u32; 3]> {
        self.kernel().and_then(|k| k.workgroup_size)
    }

    /// The kernel that runs: the form's pick, or the first kernel when the pick is empty.
    pub fn kernel(&self) -> Option<&Kernel> {
        self.build.kernel()
    }

    pub fn machine(&self) -> Option<&Machine> {
        self.run.machine()
    }

    pub fn state(&self) -> &RunState {
        self.run.state_ref()
    }

    pub fn selection(&self) -> Selection {
        self.view.selection()
    }

    /// Source lines with a breakpoint, ascending.
    pub fn breakpoints(&self) -> Vec<u32> {
        self.run.breakpoints().iter().copied().collect()
    }

    /// Scheduled wave-instructions since the last reset: re-running to this count reproduces the
    /// state exactly (the scheduler is deterministic).
    pub fn step_count(&self) -> u64 {
        self.run.step_count()
    }

    /// The result check of the loaded example, if any.
    pub fn check(&self) -> Option<Check> {
        self.build.check()
    }

    pub fn set_check(&mut self, check: Option<Check>) {
        self.build.set_check(check);
        self.run.clear_check();
    }

    /// The grid finished and its check is still computing: call [`Session::advance_check`].
    pub fn check_pending(&self) -> bool {
        self.run.check_pending()
    }

    /// Computes about `budget` multiply-adds of the pending check (at least one row), and its
    /// report when it is complete. Returns true while some work remains. The page calls it in
    /// separate tasks so that a large check never holds the main thread for long.
    pub fn advance_check(&mut self, budget: u64) -> bool {
        let initial = self.build.launch().map(|l| l.device_memory.as_slice());
        self.run.advance_check(initial, budget)
    }

    /// The check's verdict once the grid finished, e.g. "GEMM check: max error 0 over 65536
    /// values".
    pub fn check_report(&self) -> Option<&str> {
        self.run.check_report()
    }

    /// Registers the kernel's source mentions, ascending (the rows of the registers view).
    pub fn used_registers(&self) -> &[u8] {
        self.build.used_registers()
    }

    /// After the source or form changed: where the questions stop, and a fresh machine.
    fn rebuilt(&mut self) {
        self.teaching.find_stops(&self.build);
        self.reset();
    }
}
