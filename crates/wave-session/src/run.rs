//! The run: one machine started from a build, its history for moving through time, where each
//! command landed, its breakpoints, and the state the page shows it in. Two runs of the same
//! build are two values of [`Run`].

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use wave_engine::machine::{
    windows_back, Arrival, EventKind, EventSink, History, Machine, NoEvents, Replayed, Stop, Trap,
    WaveSteps, DEFAULT_BUDGET,
};

use crate::build::Build;
use crate::check::{Check, CheckRun};
use crate::events::StepEvents;
use crate::view::View;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    /// The source has this many errors: nothing can run.
    SourceErrors(usize),
    /// Some field of the launch configuration is invalid: nothing can run.
    ConfigErrors,
    /// Reset, nothing executed yet.
    Ready,
    /// Stopped between instructions (after a step, a pause or at a breakpoint).
    Paused {
        at_breakpoint: bool,
    },
    /// A time-sliced run is in progress (the page keeps calling `run_slice`).
    Running,
    Finished,
    Trapped(Trap),
}

/// What one `run_slice` call came back with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunProgress {
    /// The slice was used up: the page calls again in a new task.
    Running,
    /// Stopped before executing the instruction at this source line (a breakpoint, or the
    /// target of `run_to_line`).
    Paused {
        line: u32,
    },
    Finished,
    Trapped,
    /// Nothing can run (errors, or already finished).
    Idle,
}

impl RunState {
    pub fn can_run(&self) -> bool {
        matches!(
            self,
            RunState::Ready | RunState::Paused { .. } | RunState::Running
        )
    }
}

/// Where a forward command that ended at some step began, and whether it showed its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Landing {
    pub(crate) from: u64,
    pub(crate) events: bool,
    /// Between `from` and the landing the selected wave ran exactly one instruction.
    pub(crate) single: bool,
}

/// A move that runs the selected wave until a condition holds; run in slices by `run_slice`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Motion {
    pub(crate) kind: MotionKind,
    pub(crate) workgroup: u32,
    pub(crate) wave: usize,
    /// The step the move began at.
    pub(crate) from: u64,
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum MotionKind {
    /// Until the wave leaves the instructions `start..=end` with its stacks no deeper than they
    /// were (an `if` or `loop` done, a `call` returned).
    Over {
        start: u32,
        end: u32,
        depth: usize,
        calls: usize,
    },
    /// Until the innermost frame pops (or, inside a call made within it, the call returns).
    Out { depth: usize, calls: usize },
    /// Until the wave has an event.
    NextEvent,
}

/// A moment of a run a link or autosave names: the step, the selected wave and lane, the
/// timeline's zoom, and whether the run had trapped there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Moment {
    pub(crate) steps: u64,
    pub(crate) wave: u32,
    pub(crate) lane: u32,
    #[serde(default)]
    pub(crate) zoom: u64,
    #[serde(default)]
    pub(crate) trapped: bool,
}

/// Events kept on show after a move that ran many instructions (the latest ones), and as many
/// departures from the spec among them.
pub(crate) const MAX_SHOWN_EVENTS: usize = 200;

/// Is `kind` one of the moments "Previous/Next event" stops at?
pub(crate) fn is_stop_event(kind: EventKind) -> bool {
    !matches!(kind, EventKind::Call | EventKind::Return)
}

/// A number for each start of a machine that no other start in the page shares, whichever
/// session it is in: after one session replaces another (an example opened, a link followed),
/// the new one's value differs from the old one's even though both count from their creation.
fn next_machine_start() -> u64 {
    static STARTS: AtomicU64 = AtomicU64::new(1);
    STARTS.fetch_add(1, Ordering::Relaxed)
}

/// One run of a build.
pub(crate) struct Run {
    machine: Option<Machine>,
    /// Checkpoints of the machine since its start, to reach any earlier step by replay.
    history: Option<History>,
    /// Where each command that moved forward ended, and where it began: going back to such a
    /// step shows what that command showed.
    landings: BTreeMap<u64, Landing>,
    /// The step the current run began at.
    run_from: u64,
    /// A step over, step out or next-event search under way (run in slices like Run).
    motion: Option<Motion>,
    /// The furthest step the machine has been at since its start.
    furthest: u64,
    /// The run has been seen to finish: `furthest` is its end.
    end_known: bool,
    state: RunState,
    breakpoints: BTreeSet<u32>,
    /// `run_to_line`'s target line; cleared when reached or paused.
    run_target: Option<u32>,
    /// Which start of a machine this is, unique in the page (see `ShownWaveRun`).
    machine_start: u64,
    /// The moment a link or autosave being opened is heading for (see `share`).
    opening: Option<Moment>,
    /// The check computing after the grid finished.
    check_run: Option<CheckRun>,
    check_report: Option<String>,
}

impl Default for Run {
    fn default() -> Self {
        Run {
            machine: None,
            history: None,
            landings: BTreeMap::new(),
            run_from: 0,
            motion: None,
            furthest: 0,
            end_known: false,
            state: RunState::Ready,
            breakpoints: BTreeSet::new(),
            run_target: None,
            machine_start: 0,
            opening: None,
            check_run: None,
            check_report: None,
        }
    }
}

impl Run {
    /// Back to the start: a fresh machine of `build` with its configured memory, nothing
    /// executed (breakpoints stay). Returns false, with the state saying why, when `build`
    /// cannot run.
    pub(crate) fn start(&mut self, build: &Build) -> bool {
        self.machine_start = next_machine_start();
        self.machine = None;
        self.history = None;
        self.motion = None;
        self.opening = None;
        self.run_target = None;
        self.check_run = None;
        self.check_report = None;
        if !build.program_current() {
            self.state = RunState::SourceErrors(build.error_count());
            return false;
        }
        let (Some(launch), Some(kernel)) = (build.launch(), build.kernel()) else {
            self.state = RunState::ConfigErrors;
            return false;
        };
        let mut machine = match Machine::new(kernel, &launch.config) {
            Ok(machine) => machine,
            Err(_) => {
                self.state = RunState::ConfigErrors;
                return false;
            }
        };
        if build.form().reference_behaviour {
            machine.set_behaviour(wave_engine::machine::Behaviour::WaveEmu);
        }
        machine
            .device_mut()
            .bytes_mut()
            .copy_from_slice(&launch.device_memory);
        self.state = if machine.is_finished() {
            RunState::Finished
        } else {
            RunState::Ready
        };
        self.machine = Some(machine);
        self.start_history();
        true
    }

    /// Makes the history of a freshly started machine.
    fn start_history(&mut self) {
        self.history = self
            .machine
            .as_mut()
            .map(|m| History::new(m, DEFAULT_BUDGET));
        self.landings.clear();
        self.motion = None;
        self.furthest = 0;
        self.end_known = false;
    }

    pub(crate) fn machine(&self) -> Option<&Machine> {
        self.machine.as_ref()
    }

    pub(crate) fn history(&self) -> Option<&History> {
        self.history.as_ref()
    }

    /// The machine and its history, to run or replay.
    pub(crate) fn machine_and_history(&mut self) -> Option<(&mut Machine, &mut History)> {
        Some((self.machine.as_mut()?, self.history.as_mut()?))
    }

    pub(crate) fn state(&self) -> RunState {
        self.state
    }

    pub(crate) fn state_ref(&self) -> &RunState {
        &self.state
    }

    pub(crate) fn set_state(&mut self, state: RunState) {
        self.state = state;
    }

    /// Scheduled wave-instructions since the start.
    pub(crate) fn step_count(&self) -> u64 {
        self.machine
            .as_ref()
            .map_or(0, |m| m.stats().wave_instructions)
    }

    /// Number of workgroups in the grid (0 when nothing can run).
    pub(crate) fn workgroup_count(&self) -> u64 {
        self.machine
            .as_ref()
            .map_or(0, |m| m.launch().workgroup_count())
    }

    /// Waves per workgroup.
    pub(crate) fn wave_count(&self) -> u32 {
        self.machine
            .as_ref()
            .map_or(0, |m| m.workgroup().waves().len() as u32)
    }

    /// Lanes per wave.
    pub(crate) fn wave_width(&self) -> u32 {
        self.machine.as_ref().map_or(0, |m| m.launch().wave_width)
    }

    /// Which start of a machine this is, unique in the page.
    pub(crate) fn machine_start(&self) -> u64 {
        self.machine_start
    }

    /// One instruction of wave `wave` (other waves run as the scheduler picks them, at most
    /// `limit` scheduled instructions), or, when that wave has finished, one scheduled
    /// instruction of whatever wave runs next; events go to `events`. Returns how the machine
    /// stopped and whether the wave was live, or `None` without a machine.
    pub(crate) fn step_wave(
        &mut self,
        wave: usize,
        limit: u64,
        events: &mut impl EventSink,
    ) -> Option<(Stop, bool)> {
        let machine = self.machine.as_mut()?;
        let live = machine
            .workgroup()
            .waves()
            .get(wave)
            .is_some_and(|w| !w.is_done());
        let mut stop = if live {
            machine.step_wave(wave, limit, events)
        } else {
            machine.run(1, &[], events)
        };
        // A grid whose last workgroup just finished reports it only when asked to go on; ask
        // now (it executes nothing) so the status says "finished" at once.
        let last_workgroup =
            machine.workgroup().index() as u64 + 1 == machine.launch().workgroup_count();
        if matches!(stop, Stop::Stepped | Stop::SliceUsed)
            && machine.workgroup().is_done()
            && last_workgroup
        {
            stop = machine.run(1, &[], events);
        }
        self.record_history();
        Some((stop, live))
    }

    /// Runs up to `max_steps` scheduled instructions, stopping before those `mask` marks. A new
    /// run (`continuing` false) first leaves the breakpoint the machine stands on. `None`
    /// without a machine.
    pub(crate) fn run_for(
        &mut self,
        max_steps: u64,
        mask: &[bool],
        continuing: bool,
    ) -> Option<Stop> {
        let (machine, history) = self.machine_and_history()?;
        if !continuing {
            machine.leave_breakpoint(&mut NoEvents);
        }
        let mut stop = history.run(machine, max_steps.max(1), mask);
        machine.finish_if_done();
        if stop == Stop::SliceUsed && machine.is_finished() {
            stop = Stop::Finished;
        }
        Some(stop)
    }

    /// Runs to the start of workgroup `index`, `slice` steps at a time. `Ok` once there;
    /// `Err(None)` without a machine, `Err(Some(stop))` when the run ended on the way.
    pub(crate) fn run_to_workgroup(&mut self, index: u32, slice: u64) -> Result<(), Option<Stop>> {
        let machine = self.machine.as_mut().ok_or(None)?;
        loop {
            match machine.run_to_workgroup(index, slice, &mut NoEvents) {
                Ok(()) => return Ok(()),
                Err(Stop::SliceUsed) => {}
                Err(other) => return Err(Some(other)),
            }
        }
    }

    /// Moves the machine to step `target` (back or forward), running at most `max_steps`
    /// steps on the way. `None` without a machine.
    pub(crate) fn go_to(&mut self, target: u64, max_steps: u64) -> Option<Arrival> {
        let (machine, history) = self.machine_and_history()?;
        Some(history.go_to(machine, target, max_steps))
    }

    /// The steps before `step` at which wave `wave` of the current workgroup started its last
    /// `wanted` instructions, and where that workgroup started. Leaves the machine where it was.
    pub(crate) fn wave_steps_before(
        &mut self,
        wave: usize,
        step: u64,
        wanted: usize,
    ) -> Option<WaveSteps> {
        let (machine, history) = self.machine_and_history()?;
        let workgroup = machine.workgroup().index();
        Some(history.wave_steps_before(machine, workgroup, wave, step, wanted))
    }

    /// The latest `found(instruction)` of the instructions replayed before now, searching
    /// ever wider windows back (see [`windows_back`]). Leaves the machine where it was.
    pub(crate) fn search_back<T>(
        &mut self,
        mut found: impl FnMut(&Replayed<'_>) -> Option<T>,
    ) -> Option<T> {
        let now = self.step_count();
        let (machine, history) = self.machine_and_history()?;
        for from in windows_back(now) {
            let mut latest = None;
            history.replay_each(machine, from, now, |r| {
                if let Some(hit) = found(r) {
                    latest = Some(hit);
                }
            });
            if latest.is_some() {
                return latest;
            }
        }
        None
    }

    /// Puts the machine at step `target`, and `view` as it was when the command `landing`
    /// names first got there: the selected wave's registers as they were at the command's
    /// start (of `build`'s used registers), and its events.
    pub(crate) fn arrive(
        &mut self,
        target: u64,
        landing: Option<Landing>,
        build: &Build,
        view: &mut View,
    ) {
        let Some((machine, history)) = self.machine_and_history() else {
            return;
        };
        match landing {
            Some(landing) if landing.from < target => {
                history.go_to(machine, landing.from, u64::MAX);
                view.take_before(Some(machine), build.used_registers(), build.kernel());
                view.set_single_step(landing.single);
                if landing.events {
                    let steps = target - machine.step_count();
                    machine.run(steps, &[], view.events_mut());
                    machine.finish_if_done();
                    view.events_mut().keep_latest(MAX_SHOWN_EVENTS);
                }
                history.go_to(machine, target, u64::MAX);
            }
            _ => {
                history.go_to(machine, target, u64::MAX);
                view.take_before(Some(machine), build.used_registers(), build.kernel());
            }
        }
    }

    /// Runs `motion`'s wave one instruction at a time (each at most `limit` scheduled
    /// instructions), at most `max_steps` of them, until the move is done or reaches an
    /// instruction `mask` marks; events go to `shown`, of which about the latest
    /// [`MAX_SHOWN_EVENTS`] are kept. Returns the last stop, whether the move is done, and
    /// whether a marked instruction ended it; `None` without a machine.
    pub(crate) fn advance_motion(
        &mut self,
        motion: Motion,
        max_steps: u64,
        limit: u64,
        mask: &[bool],
        shown: &mut StepEvents,
    ) -> Option<(Stop, bool, bool)> {
        let (machine, history) = self.machine_and_history()?;
        let mut stop = Stop::SliceUsed;
        let mut done = false;
        let mut at_breakpoint = false;
        for _ in 0..max_steps.max(1) {
            let seen = shown.len();
            stop = machine.step_wave(motion.wave, limit, shown);
            machine.finish_if_done();
            history.record(machine);
            let new_events = &shown.events[seen..];
            let wave = (machine.workgroup().index() == motion.workgroup)
                .then(|| machine.workgroup().waves().get(motion.wave))
                .flatten()
                .filter(|w| !w.is_done());
            if stop != Stop::Stepped || wave.is_none() {
                done = true;
                break;
            }
            let Some(wave) = wave else { break };
            done = match motion.kind {
                MotionKind::Over {
                    start,
                    end,
                    depth,
                    calls,
                } => {
                    !(start..=end).contains(&wave.pc())
                        && wave.stack().len() <= depth
                        && wave.calls().len() <= calls
                }
                MotionKind::Out { depth, calls } => {
                    let in_call = calls > 0 && wave.calls().len() < calls;
                    in_call || (depth > 0 && wave.stack().len() < depth)
                }
                MotionKind::NextEvent => new_events
                    .iter()
                    .any(|e| e.wave as usize == motion.wave && is_stop_event(e.kind)),
            };
            if !done && mask.get(wave.pc() as usize).copied().unwrap_or(false) {
                done = true;
                at_breakpoint = true;
            }
            if shown.len() > 2 * MAX_SHOWN_EVENTS || shown.departures.len() > 2 * MAX_SHOWN_EVENTS {
                shown.keep_latest(MAX_SHOWN_EVENTS);
            }
            if done {
                break;
            }
        }
        Some((stop, done, at_breakpoint))
    }

    /// Notes how far the machine has been (the timeline's extent).
    pub(crate) fn note_progress(&mut self) {
        let now = self.step_count();
        self.furthest = self.furthest.max(now);
        if self.machine.as_ref().is_some_and(Machine::is_finished) {
            self.end_known = true;
        }
    }

    /// Takes a checkpoint when one is due.
    pub(crate) fn record_history(&mut self) {
        if let Some((machine, history)) = self.machine_and_history() {
            history.record(machine);
        }
    }

    /// The furthest step the run is known to reach.
    pub(crate) fn known_end(&self) -> u64 {
        let recorded = self.history.as_ref().map_or(0, |h| h.last_step());
        self.furthest.max(recorded).max(self.step_count())
    }

    /// The run has been seen to finish: [`Run::known_end`] is its end.
    pub(crate) fn end_known(&self) -> bool {
        self.end_known
    }

    /// Remembers that the command that began at `landing.from` ended at `step`.
    pub(crate) fn land(&mut self, step: u64, landing: Landing) {
        self.landings.insert(step, landing);
    }

    /// How the command that ended at `step` began, if one did.
    pub(crate) fn landing(&self, step: u64) -> Option<Landing> {
        self.landings.get(&step).copied()
    }

    pub(crate) fn run_from(&self) -> u64 {
        self.run_from
    }

    pub(crate) fn set_run_from(&mut self, step: u64) {
        self.run_from = step;
    }

    pub(crate) fn motion(&self) -> Option<Motion> {
        self.motion
    }

    pub(crate) fn set_motion(&mut self, motion: Option<Motion>) {
        self.motion = motion;
    }

    pub(crate) fn opening(&self) -> Option<Moment> {
        self.opening
    }

    pub(crate) fn set_opening(&mut self, opening: Option<Moment>) {
        self.opening = opening;
    }

    pub(crate) fn run_target(&self) -> Option<u32> {
        self.run_target
    }

    pub(crate) fn set_run_target(&mut self, line: Option<u32>) {
        self.run_target = line;
    }

    /// Source lines with a breakpoint, ascending.
    pub(crate) fn breakpoints(&self) -> &BTreeSet<u32> {
        &self.breakpoints
    }

    pub(crate) fn set_breakpoints(&mut self, lines: impl IntoIterator<Item = u32>) {
        self.breakpoints = lines.into_iter().collect();
    }

    /// Toggles a breakpoint on `line`, moved to the next line with an instruction of `build`'s
    /// kernel when `line` has none. Returns the line that now has a breakpoint, or `None` when
    /// one was removed (or no instruction is at or after `line`).
    pub(crate) fn toggle_breakpoint(&mut self, build: &Build, line: u32) -> Option<u32> {
        if self.breakpoints.remove(&line) {
            return None;
        }
        let target = if build.program_current() {
            build.instruction_line_at_or_after(line)?
        } else {
            line
        };
        if self.breakpoints.remove(&target) {
            None
        } else {
            self.breakpoints.insert(target);
            Some(target)
        }
    }

    pub(crate) fn clear_breakpoints(&mut self) {
        self.breakpoints.clear();
    }

    /// Per instruction of `build`'s kernel: whether a run stops before it (a breakpoint, the
    /// run-to-cursor line, or one of `questions`' lines); empty when no instruction stops one,
    /// so that the engine's loops skip the per-instruction test.
    pub(crate) fn breakpoint_mask(&self, build: &Build, questions: &[u32]) -> Vec<bool> {
        let Some(kernel) = build.kernel() else {
            return Vec::new();
        };
        let mask: Vec<bool> = kernel
            .lines
            .iter()
            .map(|line| {
                self.breakpoints.contains(line)
                    || self.run_target == Some(*line)
                    || questions.contains(line)
            })
            .collect();
        if mask.contains(&true) {
            mask
        } else {
            Vec::new()
        }
    }

    /// Starts `check` on the finished grid (computed by [`Run::advance_check`]); with no check,
    /// drops a pending one.
    pub(crate) fn start_check(&mut self, check: Option<Check>) {
        self.check_run = check.map(CheckRun::new);
    }

    /// Drops the pending check and its report.
    pub(crate) fn clear_check(&mut self) {
        self.check_run = None;
        self.check_report = None;
    }

    pub(crate) fn check_pending(&self) -> bool {
        self.check_run.is_some()
    }

    /// Computes about `budget` multiply-adds of the pending check against `initial` memory.
    /// Returns true while some work remains.
    pub(crate) fn advance_check(&mut self, initial: Option<&[u8]>, budget: u64) -> bool {
        let (Some(run), Some(initial), Some(machine)) =
            (self.check_run.as_mut(), initial, self.machine.as_ref())
        else {
            self.check_run = None;
            return false;
        };
        match run.advance(initial, machine.device().bytes(), budget) {
            Some(report) => {
                self.check_report = Some(report);
                self.check_run = None;
                false
            }
            None => true,
        }
    }

    pub(crate) fn check_report(&self) -> Option<&str> {
        self.check_report.as_deref()
    }
}
