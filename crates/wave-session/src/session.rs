//! The session: one piece of work (source, launch configuration, machine, selection) and the
//! state every view reads.

use std::collections::{BTreeMap, BTreeSet};

use wave_engine::compile::CompileJob;
use wave_engine::machine::{History, Machine, WaveOpFlow};
use wave_engine::program::{Kernel, Program};
use wave_engine::syntax::questions::Question;
use wave_engine::{compile, Compiled, Diagnostic};

use crate::check::{self, Check};
use crate::events::StepEvents;
use crate::examples::{self, Example};
use crate::form::{ConfigForm, FormErrors, ValidLaunch};
use crate::registers;
use crate::status::RunState;
use crate::time_travel::{Landing, Motion};

/// Which workgroup, wave and lane the views show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// Linear workgroup index in the grid (the machine runs workgroups one after another, so this
    /// is always the workgroup the machine holds).
    pub workgroup: u32,
    pub wave: u32,
    pub lane: u32,
}

/// The selected wave's registers and predicates before the last command that executed, so the
/// views can flag what changed.
#[derive(Clone, Debug, Default)]
pub(crate) struct Snapshot {
    pub(crate) workgroup: u32,
    pub(crate) wave: u32,
    pub(crate) registers: Vec<(u8, Vec<u32>)>,
    pub(crate) predicates: [u64; 4],
    /// The wave's lanes that were executing.
    pub(crate) active: u64,
    /// The wave's next instruction (`None` when it had finished).
    pub(crate) pc: Option<u32>,
    /// The machine's step count.
    pub(crate) step: u64,
    /// What that instruction moves between lanes, when it is a cross-lane operation.
    pub(crate) flow: Option<WaveOpFlow>,
}

pub struct Session {
    pub(crate) source: String,
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The teaching questions written in the source's comments.
    pub(crate) questions: Vec<Question>,
    /// Where they stop the selected wave (see `quiz`), for the running kernel.
    pub(crate) question_stops: Vec<(u32, wave_engine::syntax::questions::QuestionKind)>,
    /// The last program that compiled without errors (kept while the source has errors).
    pub(crate) program: Option<Program>,
    /// True when `program` was compiled from the current `source`.
    pub(crate) program_current: bool,
    pub(crate) form: ConfigForm,
    pub(crate) form_errors: FormErrors,
    pub(crate) launch: Option<ValidLaunch>,
    pub(crate) machine: Option<Machine>,
    /// Checkpoints of the machine since its start (see `time_travel`).
    pub(crate) history: Option<History>,
    /// Where each command that moved forward ended, and where it began: going back to such a
    /// step shows what that command showed.
    pub(crate) landings: BTreeMap<u64, Landing>,
    /// The step the current run began at.
    pub(crate) run_from: u64,
    /// A step over, step out or next-event search under way (run in slices like Run).
    pub(crate) motion: Option<Motion>,
    /// What the last move in time has to say (a step past the end, nothing to go back to).
    pub(crate) travel_note: Option<String>,
    /// The furthest step the machine has been at since its start.
    pub(crate) furthest: u64,
    /// The run has been seen to finish: `furthest` is its end.
    pub(crate) end_known: bool,
    /// Steps the timeline shows at once (0: the whole run).
    pub(crate) timeline_zoom: u64,
    /// The moment a link or autosave being opened is heading for (see `share`).
    pub(crate) opening: Option<crate::share::Moment>,
    /// Timeline columns already built (see `timeline`).
    pub(crate) timeline_cache: Option<crate::timeline::ColumnCache>,
    pub(crate) state: RunState,
    pub(crate) breakpoints: BTreeSet<u32>,
    /// `run_to_line`'s target line; cleared when reached or paused.
    pub(crate) run_target: Option<u32>,
    pub(crate) selection: Selection,
    /// The events of the command on show, and its departures from the spec among them.
    pub(crate) last_events: StepEvents,
    pub(crate) before: Snapshot,
    /// The command on show ran exactly one instruction of the selected wave (the one at
    /// `before.pc`): the caption describes that instruction.
    pub(crate) single_step: bool,
    /// Registers written anywhere in the selected kernel's source, ascending.
    pub(crate) used_registers: Vec<u8>,
    pub(crate) check: Option<Check>,
    /// The check computing after the grid finished (see [`Session::advance_check`]).
    pub(crate) check_run: Option<check::CheckRun>,
    pub(crate) check_report: Option<String>,
    /// The gallery example this work came from, while it still is that example.
    pub(crate) example: Option<ExampleOrigin>,
    /// Which start of a machine this is, unique in the page (see [`ShownWaveRun`]).
    pub(crate) machine_start: u64,
    /// Whether the source's questions stop the run (see `quiz`).
    pub(crate) questions_on: bool,
    /// The question the selected wave is stopped at.
    pub(crate) open_question: Option<crate::quiz::OpenQuestion>,
    /// What the last answered or skipped question revealed, until the next command.
    pub(crate) reveal: Option<crate::quiz::Reveal>,
    /// Lines whose question was asked in this run, with the step it was asked at.
    pub(crate) asked: BTreeMap<u32, u64>,
    pub(crate) score: crate::quiz::Score,
}

/// The example a session started from, kept through edits (then marked edited) until the source
/// no longer declares any of the example's kernels.
#[derive(Clone, Debug)]
pub(crate) struct ExampleOrigin {
    pub(crate) id: &'static str,
    /// The example's own source, to tell whether the work is edited.
    pub(crate) source: String,
    /// Kernel names the example declares.
    pub(crate) kernels: Vec<String>,
}

impl ExampleOrigin {
    fn of(example: &Example) -> Self {
        let kernels = compile(&example.source)
            .program
            .map(|p| p.kernels.into_iter().map(|k| k.name).collect())
            .unwrap_or_default();
        ExampleOrigin {
            id: example.id,
            source: example.source.clone(),
            kernels,
        }
    }
}

impl Session {
    /// A session on `source` with `form` as the launch configuration (validated at once).
    pub fn new(source: &str, form: ConfigForm) -> Self {
        let mut session = Session {
            source: String::new(),
            diagnostics: Vec::new(),
            questions: Vec::new(),
            question_stops: Vec::new(),
            program: None,
            program_current: false,
            form,
            form_errors: FormErrors::default(),
            launch: None,
            machine: None,
            history: None,
            landings: BTreeMap::new(),
            run_from: 0,
            motion: None,
            travel_note: None,
            furthest: 0,
            end_known: false,
            timeline_zoom: 0,
            timeline_cache: None,
            opening: None,
            state: RunState::Ready,
            breakpoints: BTreeSet::new(),
            run_target: None,
            selection: Selection::default(),
            last_events: StepEvents::default(),
            before: Snapshot::default(),
            single_step: false,
            used_registers: Vec::new(),
            check: None,
            check_run: None,
            check_report: None,
            example: None,
            machine_start: 0,
            questions_on: true,
            open_question: None,
            reveal: None,
            asked: BTreeMap::new(),
            score: crate::quiz::Score::default(),
        };
        session.set_source(source);
        session
    }

    /// A session on one of the examples (its source, configuration and result check).
    pub fn from_example(example: &Example) -> Self {
        let mut session = Session::new(&example.source, example.form.clone());
        session.check = example.check;
        session.example = Some(ExampleOrigin {
            id: example.id,
            source: example.source.clone(),
            kernels: session.kernel_names(),
        });
        session
    }

    /// The id of the gallery example this work came from (its explanation stays on show), until
    /// the source no longer declares any of that example's kernels.
    pub fn example(&self) -> Option<&'static str> {
        self.example.as_ref().map(|e| e.id)
    }

    /// The source differs from the example's own.
    pub fn example_edited(&self) -> bool {
        self.example
            .as_ref()
            .is_some_and(|e| e.source != self.source)
    }

    /// Remembers that this work came from the example `id` (a share link or autosave says so);
    /// an id the gallery does not have, or an example whose kernels the source no longer
    /// declares, is ignored.
    pub(crate) fn remember_example(&mut self, id: Option<&str>) {
        self.example = id
            .and_then(examples::example)
            .map(|e| ExampleOrigin::of(&e));
        self.forget_example_if_replaced();
    }

    /// Forgets the example once the source, compiled without errors, declares none of its
    /// kernels: the work is something else now. (Sources with errors keep it: that is typing.)
    fn forget_example_if_replaced(&mut self) {
        let replaced = match (&self.example, self.program_current, &self.program) {
            (Some(example), true, Some(program)) => !program
                .kernels
                .iter()
                .any(|k| example.kernels.contains(&k.name)),
            _ => false,
        };
        if replaced {
            self.example = None;
        }
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
        self.source = source;
        self.diagnostics = compiled.diagnostics;
        self.questions = compiled.questions;
        match compiled.program {
            Some(program) => {
                self.program = Some(program);
                self.program_current = true;
            }
            None => self.program_current = false,
        }
        self.forget_example_if_replaced();
        self.revalidate();
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Replaces the launch configuration form; revalidates and resets.
    pub fn set_form(&mut self, form: ConfigForm) {
        self.form = form;
        self.revalidate();
    }

    pub fn form(&self) -> &ConfigForm {
        &self.form
    }

    /// Inline messages for the invalid fields of the form (empty when everything is valid).
    pub fn form_errors(&self) -> &FormErrors {
        &self.form_errors
    }

    /// Names of the kernels of the last good program, for the kernel picker.
    pub fn kernel_names(&self) -> Vec<String> {
        self.program
            .iter()
            .flat_map(|p| p.kernels.iter().map(|k| k.name.clone()))
            .collect()
    }

    /// The validated launch (configuration, kernel, initial memory), when the form is valid.
    pub fn launch(&self) -> Option<&ValidLaunch> {
        self.launch.as_ref()
    }

    /// `Some(size)` when the selected kernel's `.workgroup_size` overrides the form's workgroup.
    pub fn workgroup_override(&self) -> Option<[u32; 3]> {
        self.kernel().and_then(|k| k.workgroup_size)
    }

    /// The kernel that runs: the form's pick, or the first kernel when the pick is empty.
    pub fn kernel(&self) -> Option<&Kernel> {
        kernel_of(self.program.as_ref(), &self.form)
    }

    pub fn machine(&self) -> Option<&Machine> {
        self.machine.as_ref()
    }

    pub fn state(&self) -> &RunState {
        &self.state
    }

    pub fn selection(&self) -> Selection {
        self.selection
    }

    /// Source lines with a breakpoint, ascending.
    pub fn breakpoints(&self) -> Vec<u32> {
        self.breakpoints.iter().copied().collect()
    }

    /// Scheduled wave-instructions since the last reset: re-running to this count reproduces the
    /// state exactly (the scheduler is deterministic).
    pub fn step_count(&self) -> u64 {
        self.machine
            .as_ref()
            .map_or(0, |m| m.stats().wave_instructions)
    }

    /// The result check of the loaded example, if any.
    pub fn check(&self) -> Option<Check> {
        self.check
    }

    pub fn set_check(&mut self, check: Option<Check>) {
        self.check = check;
        self.check_run = None;
        self.check_report = None;
    }

    /// The grid finished and its check is still computing: call [`Session::advance_check`].
    pub fn check_pending(&self) -> bool {
        self.check_run.is_some()
    }

    /// Computes about `budget` multiply-adds of the pending check (at least one row), and its
    /// report when it is complete. Returns true while some work remains. The page calls it in
    /// separate tasks so that a large check never holds the main thread for long.
    pub fn advance_check(&mut self, budget: u64) -> bool {
        let (Some(run), Some(launch), Some(machine)) = (
            self.check_run.as_mut(),
            self.launch.as_ref(),
            self.machine.as_ref(),
        ) else {
            self.check_run = None;
            return false;
        };
        match run.advance(&launch.device_memory, machine.device().bytes(), budget) {
            Some(report) => {
                self.check_report = Some(report);
                self.check_run = None;
                false
            }
            None => true,
        }
    }

    /// The check's verdict once the grid finished, e.g. "GEMM check: max error 0 over 65536
    /// values".
    pub fn check_report(&self) -> Option<&str> {
        self.check_report.as_deref()
    }

    /// Registers the kernel's source mentions, ascending (the rows of the registers view).
    pub fn used_registers(&self) -> &[u8] {
        &self.used_registers
    }

    /// Validates the form against the current program and resets the machine.
    fn revalidate(&mut self) {
        self.question_stops = self.find_question_stops();
        self.used_registers = match (self.program_current, self.kernel()) {
            (true, Some(kernel)) => registers::used_registers(kernel),
            _ => Vec::new(),
        };
        let kernel = if self.program_current {
            self.kernel()
        } else {
            None
        };
        match self.form.validate(kernel, self.program_current) {
            Ok(launch) => {
                self.form_errors = FormErrors::default();
                self.launch = Some(launch);
            }
            Err(errors) => {
                self.form_errors = errors;
                self.launch = None;
            }
        }
        self.reset();
    }
}

/// The kernel of `program` that `form` picks: its kernel name, or the first kernel when that is
/// empty.
pub(crate) fn kernel_of<'a>(program: Option<&'a Program>, form: &ConfigForm) -> Option<&'a Kernel> {
    let program = program?;
    let name = form.kernel.trim();
    if name.is_empty() {
        program.kernels.first()
    } else {
        program.kernel(name)
    }
}
