//! Execution commands: reset, step, time-sliced run, pause, run to a line, breakpoints,
//! selection, and re-running to a step count.

use wave_engine::instr::{Guard, Instr};
use wave_engine::machine::{wave_op_flow, Behaviour, Machine, NoEvents, Stop};
use wave_engine::program::Kernel;

use crate::session::{Selection, Session, Snapshot};
use crate::status::{RunProgress, RunState};
use crate::time_travel::Landing;

/// Scheduled instructions `step` may run (other waves included) before the selected wave executes
/// one; only reached when every other wave spins for that long.
pub(crate) const STEP_LIMIT: u64 = 1 << 24;
/// Slice size for runs that do not need to yield (run_to_step, select_workgroup, run_all).
const BIG_SLICE: u64 = 1 << 22;

/// `instr` with the guard a machine of `behaviour` runs it under: the reference emulator reads
/// `@p0` as no guard (departure D9, reported as `Departure::P0Unconditional`) and runs the
/// instruction on every active lane; any other guard, and every guard in spec mode, stays.
pub(crate) fn as_run(behaviour: Behaviour, instr: &Instr) -> Instr {
    match (behaviour, instr.guard) {
        (Behaviour::WaveEmu, Guard::P0) => Instr {
            guard: Guard::Always,
            ..*instr
        },
        _ => *instr,
    }
}

impl Session {
    /// Back to the start: a fresh machine with the configured memory, nothing executed. Does
    /// nothing but update the state when the source or configuration has errors.
    pub fn reset(&mut self) {
        self.machine_start = crate::shown_wave_run::next_machine_start();
        self.machine = None;
        self.history = None;
        self.motion = None;
        self.opening = None;
        self.run_target = None;
        self.last_events.clear();
        self.single_step = false;
        self.open_question = None;
        self.reveal = None;
        self.asked.clear();
        self.check_run = None;
        self.check_report = None;
        self.selection.workgroup = 0;
        if !self.program_current {
            let errors = self.diagnostics.iter().filter(|d| d.is_error()).count();
            self.state = RunState::SourceErrors(errors);
            return;
        }
        let (Some(launch), Some(kernel)) = (self.launch.as_ref(), self.kernel()) else {
            self.state = RunState::ConfigErrors;
            return;
        };
        let mut machine = match Machine::new(kernel, &launch.config) {
            Ok(machine) => machine,
            Err(_) => {
                self.state = RunState::ConfigErrors;
                return;
            }
        };
        if self.form.reference_behaviour {
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
        self.clamp_selection();
        self.before = self.snapshot();
    }

    /// One instruction of the selected wave (other waves run as the scheduler picks them). When
    /// the selected wave has finished, one scheduled instruction of whatever wave runs next.
    /// Returns false when nothing could run.
    pub fn step(&mut self) -> bool {
        if !self.state.can_run() || self.open_question.is_some() {
            return false;
        }
        self.reveal = None;
        // A wave standing on a question it was not asked yet (at the start, or after going
        // back) is asked before the instruction runs.
        if self.open_question_here() {
            return true;
        }
        self.before = self.snapshot();
        self.last_events.clear();
        self.run_target = None;
        self.motion = None;
        self.travel_note = None;
        let from = self.step_count();
        let wave = self.selection.wave as usize;
        let Some(machine) = self.machine.as_mut() else {
            return false;
        };
        let selected_live = machine
            .workgroup()
            .waves
            .get(wave)
            .is_some_and(|w| !w.is_done());
        self.single_step = selected_live;
        let mut stop = if selected_live {
            machine.step_wave(wave, STEP_LIMIT, &mut self.last_events)
        } else {
            machine.run(1, &[], &mut self.last_events)
        };
        // A grid whose last workgroup just finished reports it only when asked to go on; ask
        // now (it executes nothing) so the status says "finished" at once.
        let last_workgroup =
            machine.workgroup().index as u64 + 1 == machine.launch().workgroup_count();
        if matches!(stop, Stop::Stepped | Stop::SliceUsed)
            && machine.workgroup().is_done()
            && last_workgroup
        {
            stop = machine.run(1, &[], &mut self.last_events);
        }
        self.record_history();
        let to = self.step_count();
        if to > from {
            self.landings.insert(
                to,
                Landing {
                    from,
                    events: true,
                    single: selected_live,
                },
            );
        }
        self.after_stop(stop, false);
        self.open_question_here();
        true
    }

    /// Runs up to `max_steps` scheduled instructions; the page calls it again, in a new task,
    /// while it returns [`RunProgress::Running`]. Stops before an instruction on a
    /// breakpoint line (except the one a new run starts from, so Run leaves the breakpoint it is
    /// paused at) or on the `run_to_line` target, at the end, and at traps.
    pub fn run_slice(&mut self, max_steps: u64) -> RunProgress {
        if !self.state.can_run() || self.open_question.is_some() {
            return RunProgress::Idle;
        }
        if let Some(moment) = self.opening {
            return self.opening_slice(moment, max_steps);
        }
        if let Some(motion) = self.motion {
            // A move steps one wave at a time, several scheduled instructions each.
            return self.motion_slice(motion, (max_steps / 8).max(1));
        }
        let continuing = self.state == RunState::Running;
        if !continuing {
            self.reveal = None;
            if self.open_question_here() {
                return RunProgress::Paused {
                    line: self.current_line().unwrap_or(0),
                };
            }
            self.before = self.snapshot();
            self.single_step = false;
            self.run_from = self.step_count();
            self.travel_note = None;
        }
        self.last_events.clear();
        let mask = self.breakpoint_mask();
        let (Some(machine), Some(history)) = (self.machine.as_mut(), self.history.as_mut()) else {
            return RunProgress::Idle;
        };
        // A new run goes on from where the user stands, even on a breakpoint line; later slices
        // stop at every breakpoint (the machine remembers the one it last stopped at).
        if !continuing {
            machine.leave_breakpoint(&mut NoEvents);
        }
        let mut stop = history.run(machine, max_steps.max(1), &mask);
        machine.finish_if_done();
        if stop == Stop::SliceUsed && machine.is_finished() {
            stop = Stop::Finished;
        }
        let progress = self.after_stop(stop, true);
        if matches!(progress, RunProgress::Paused { .. }) {
            self.open_question_here();
        }
        if progress != RunProgress::Running {
            let from = self.run_from;
            self.landings.insert(
                self.step_count(),
                Landing {
                    from,
                    events: false,
                    single: false,
                },
            );
        }
        progress
    }

    /// Runs to the end, a breakpoint or a trap without yielding (tests, the command line), and
    /// completes the check when the grid finished.
    pub fn run_all(&mut self) -> RunProgress {
        loop {
            match self.run_slice(BIG_SLICE) {
                RunProgress::Running => continue,
                other => {
                    while self.advance_check(u64::MAX) {}
                    return other;
                }
            }
        }
    }

    /// Stops a time-sliced run between two slices.
    pub fn pause(&mut self) {
        self.run_target = None;
        self.motion = None;
        self.opening = None;
        if self.state == RunState::Running {
            self.state = RunState::Paused {
                at_breakpoint: false,
            };
        }
    }

    /// Prepares "run to cursor": the next `run_slice` calls stop before the first instruction of
    /// `line` (or of the next line that has one). Returns that line, or `None` when no
    /// instruction is at or after `line`.
    pub fn run_to_line(&mut self, line: u32) -> Option<u32> {
        let target = self.instruction_line_at_or_after(line)?;
        self.run_target = Some(target);
        Some(target)
    }

    /// Toggles a breakpoint on `line`, moved to the next line with an instruction when `line` has
    /// none. Returns the line that now has a breakpoint, or `None` when one was removed (or no
    /// instruction is at or after `line`).
    pub fn toggle_breakpoint(&mut self, line: u32) -> Option<u32> {
        if self.breakpoints.remove(&line) {
            return None;
        }
        let target = if self.program_current {
            self.instruction_line_at_or_after(line)?
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

    pub fn clear_breakpoints(&mut self) {
        self.breakpoints.clear();
    }

    /// Shows wave `wave` of the current workgroup; false when there is no such wave.
    pub fn select_wave(&mut self, wave: u32) -> bool {
        if wave < self.wave_count() {
            self.selection.wave = wave;
            self.clamp_selection();
            true
        } else {
            false
        }
    }

    /// Shows lane `lane` in the lane detail; false when the selected wave has no such lane.
    pub fn select_lane(&mut self, lane: u32) -> bool {
        if lane < self.wave_width() {
            self.selection.lane = lane;
            true
        } else {
            false
        }
    }

    /// Number of workgroups in the grid (0 when nothing can run).
    pub fn workgroup_count(&self) -> u64 {
        self.machine
            .as_ref()
            .map_or(0, |m| m.launch().workgroup_count())
    }

    /// Waves per workgroup.
    pub fn wave_count(&self) -> u32 {
        self.machine
            .as_ref()
            .map_or(0, |m| m.workgroup().waves.len() as u32)
    }

    /// Lanes per wave.
    pub fn wave_width(&self) -> u32 {
        self.machine.as_ref().map_or(0, |m| m.launch().wave_width)
    }

    /// Moves to the start of workgroup `index` (workgroups run one after another: later ones are
    /// reached by running, earlier ones by resetting and running).
    pub fn select_workgroup(&mut self, index: u32) -> Result<(), String> {
        let count = self.workgroup_count();
        if count == 0 {
            return Err("nothing can run".to_string());
        }
        if index as u64 >= count {
            return Err(format!(
                "workgroup {index} does not exist: the grid has {count}"
            ));
        }
        let current = self.machine.as_ref().map_or(0, |m| m.workgroup().index);
        let finished = self.machine.as_ref().is_some_and(|m| m.is_finished());
        if index < current || finished || !self.state.can_run() {
            self.reset();
        }
        self.before = self.snapshot();
        self.single_step = false;
        self.last_events.clear();
        let Some(machine) = self.machine.as_mut() else {
            return Err("nothing can run".to_string());
        };
        let stop = loop {
            match machine.run_to_workgroup(index, BIG_SLICE, &mut NoEvents) {
                Ok(()) => break None,
                Err(Stop::SliceUsed) => {}
                Err(other) => break Some(other),
            }
        };
        match stop {
            Some(other) => {
                self.after_stop(other, false);
                Err(format!("the run ended before workgroup {index}"))
            }
            None => {
                if self.step_count() > 0 {
                    self.state = RunState::Paused {
                        at_breakpoint: false,
                    };
                }
                self.clamp_selection();
                Ok(())
            }
        }
    }

    /// Resets and runs exactly `steps` scheduled instructions (or until the end or a trap), which
    /// reproduces the state a share link describes.
    pub fn run_to_step(&mut self, steps: u64) {
        self.reset();
        if !self.state.can_run() || steps == 0 {
            return;
        }
        self.go_to_step(steps);
    }

    /// Updates state and selection after the machine stopped.
    pub(crate) fn after_stop(&mut self, stop: Stop, running: bool) -> RunProgress {
        self.note_progress();
        let progress = match stop {
            Stop::Finished => {
                self.state = RunState::Finished;
                self.run_target = None;
                self.check_run = self.check.map(crate::check::CheckRun::new);
                RunProgress::Finished
            }
            Stop::Trap(trap) => {
                self.state = RunState::Trapped(trap);
                self.run_target = None;
                self.selection.wave = trap.wave;
                if let Some(lane) = trap.lane {
                    self.selection.lane = lane;
                }
                RunProgress::Trapped
            }
            Stop::Breakpoint { wave, pc } => {
                let line = self.line_of(pc).unwrap_or(0);
                let reached_target = self.run_target == Some(line);
                self.run_target = None;
                self.selection.wave = wave;
                // A question's line stops a run too, without being a breakpoint.
                self.state = RunState::Paused {
                    at_breakpoint: !reached_target && self.breakpoints.contains(&line),
                };
                RunProgress::Paused { line }
            }
            Stop::SliceUsed if running => {
                self.state = RunState::Running;
                RunProgress::Running
            }
            Stop::SliceUsed | Stop::Stepped | Stop::WaveFinished => {
                self.state = RunState::Paused {
                    at_breakpoint: false,
                };
                RunProgress::Paused {
                    line: self.current_line().unwrap_or(0),
                }
            }
        };
        self.clamp_selection();
        progress
    }

    /// Per instruction: whether a run stops before it; empty when no instruction stops one, so
    /// that the engine's loops skip the per-instruction test.
    pub(crate) fn breakpoint_mask(&self) -> Vec<bool> {
        let Some(kernel) = self.kernel() else {
            return Vec::new();
        };
        let questions = self.unasked_question_lines();
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

    pub(crate) fn instruction_line_at_or_after(&self, line: u32) -> Option<u32> {
        self.kernel()?
            .lines
            .iter()
            .copied()
            .filter(|&l| l >= line)
            .min()
    }

    pub(crate) fn clamp_selection(&mut self) {
        if let Some(machine) = self.machine.as_ref() {
            self.selection.workgroup = machine.workgroup().index;
            let waves = machine.workgroup().waves.len() as u32;
            if self.selection.wave >= waves {
                self.selection.wave = waves.saturating_sub(1);
            }
            let width = machine.launch().wave_width;
            if self.selection.lane >= width {
                self.selection.lane = width.saturating_sub(1);
            }
        }
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        match self.machine.as_ref() {
            Some(machine) => Self::snapshot_of(
                machine,
                &self.selection,
                &self.used_registers,
                crate::session::kernel_of(self.program.as_ref(), &self.form),
            ),
            None => Snapshot::default(),
        }
    }

    /// The selected wave's registers, predicates, active lanes and next instruction in
    /// `machine` (which runs `kernel`) now.
    pub(crate) fn snapshot_of(
        machine: &Machine,
        selection: &Selection,
        used_registers: &[u8],
        kernel: Option<&Kernel>,
    ) -> Snapshot {
        let Some(wave) = machine.workgroup().waves.get(selection.wave as usize) else {
            return Snapshot::default();
        };
        Snapshot {
            workgroup: machine.workgroup().index,
            wave: selection.wave,
            registers: used_registers
                .iter()
                .filter(|&&r| (r as u32) < wave.register_count())
                .map(|&r| (r, wave.row(r).to_vec()))
                .collect(),
            predicates: wave.predicates(),
            active: crate::lanes::active_lanes(wave),
            pc: (!wave.is_done()).then_some(wave.pc()),
            step: machine.step_count(),
            flow: kernel
                .and_then(|k| k.code.get(wave.pc() as usize))
                .filter(|_| !wave.is_done())
                .and_then(|instr| wave_op_flow(wave, &as_run(machine.behaviour(), instr))),
        }
    }

    /// The selected wave of the current workgroup.
    pub fn selected_wave(&self) -> Option<&wave_engine::machine::Wave> {
        self.machine
            .as_ref()?
            .workgroup()
            .waves
            .get(self.selection.wave as usize)
    }
}
