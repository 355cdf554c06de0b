//! Execution commands: reset, step, time-sliced run, pause, run to a line, breakpoints,
//! selection, and re-running to a step count.

use wave_engine::machine::Stop;

use crate::run::{Landing, RunProgress, RunState};

use super::Session;

/// Scheduled instructions `step` may run (other waves included) before the selected wave executes
/// one; only reached when every other wave spins for that long.
pub(super) const STEP_LIMIT: u64 = 1 << 24;
/// Slice size for runs that do not need to yield (run_to_step, select_workgroup, run_all).
const BIG_SLICE: u64 = 1 << 22;

impl Session {
    /// Back to the start: a fresh machine with the configured memory, nothing executed. Does
    /// nothing but update the state when the source or configuration has errors.
    pub fn reset(&mut self) {
        self.view.clear_command();
        self.teaching.restart();
        self.view.selection_mut().workgroup = 0;
        if !self.run.start(&self.build) {
            return;
        }
        self.view.set_travel_note(None);
        self.clamp_selection();
        self.take_before();
    }

    /// Remembers the selected wave as it is now, as the "before" of the next command.
    pub(super) fn take_before(&mut self) {
        self.view.take_before(
            self.run.machine(),
            self.build.used_registers(),
            self.build.kernel(),
        );
    }

    /// One instruction of the selected wave (other waves run as the scheduler picks them). When
    /// the selected wave has finished, one scheduled instruction of whatever wave runs next.
    /// Returns false when nothing could run.
    pub fn step(&mut self) -> bool {
        if !self.run.state().can_run() || self.teaching.asking() {
            return false;
        }
        self.teaching.clear_reveal();
        // A wave standing on a question it was not asked yet (at the start, or after going
        // back) is asked before the instruction runs.
        if self.open_question_here() {
            return true;
        }
        if !self.step_now() {
            return false;
        }
        self.open_question_here();
        true
    }

    /// The body of [`Session::step`], asking nothing before or after: one instruction of the
    /// selected wave, with its landing. Returns false when nothing could run.
    pub(super) fn step_now(&mut self) -> bool {
        self.take_before();
        self.view.events_mut().clear();
        self.run.set_run_target(None);
        self.run.set_motion(None);
        self.view.set_travel_note(None);
        let from = self.step_count();
        let wave = self.view.selection().wave as usize;
        let Some((stop, selected_live)) =
            self.run.step_wave(wave, STEP_LIMIT, self.view.events_mut())
        else {
            return false;
        };
        self.view.set_single_step(selected_live);
        let to = self.step_count();
        if to > from {
            self.run.land(
                to,
                Landing {
                    from,
                    events: true,
                    single: selected_live,
                },
            );
        }
        self.after_stop(stop, false);
        true
    }

    /// Runs up to `max_steps` scheduled instructions; the page calls it again, in a new task,
    /// while it returns [`RunProgress::Running`]. Stops before an instruction on a
    /// breakpoint line (except the one a new run starts from, so Run leaves the breakpoint it is
    /// paused at) or on the `run_to_line` target, at the end, and at traps.
    pub fn run_slice(&mut self, max_steps: u64) -> RunProgress {
        if !self.run.state().can_run() || self.teaching.asking() {
            return RunProgress::Idle;
        }
        if let Some(moment) = self.run.opening() {
            return self.opening_slice(moment, max_steps);
        }
        if let Some(motion) = self.run.motion() {
            // A move steps one wave at a time, several scheduled instructions each.
            return self.motion_slice(motion, (max_steps / 8).max(1));
        }
        let continuing = self.run.state() == RunState::Running;
        if !continuing {
            self.teaching.clear_reveal();
            if self.open_question_here() {
                return RunProgress::Paused {
                    line: self.current_line().unwrap_or(0),
                };
            }
            self.take_before();
            self.view.set_single_step(false);
            let from = self.step_count();
            self.run.set_run_from(from);
            self.view.set_travel_note(None);
        }
        self.view.events_mut().clear();
        let mask = self.breakpoint_mask();
        // A new run goes on from where the user stands, even on a breakpoint line; later slices
        // stop at every breakpoint (the machine remembers the one it last stopped at).
        let Some(stop) = self.run.run_for(max_steps, &mask, continuing) else {
            return RunProgress::Idle;
        };
        let progress = self.after_stop(stop, true);
        if matches!(progress, RunProgress::Paused { .. }) {
            self.open_question_here();
        }
        if progress != RunProgress::Running {
            let from = self.run.run_from();
            let to = self.step_count();
            self.run.land(
                to,
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
        self.run.set_run_target(None);
        self.run.set_motion(None);
        self.run.set_opening(None);
        if self.run.state() == RunState::Running {
            self.run.set_state(RunState::Paused {
                at_breakpoint: false,
            });
        }
    }

    /// Prepares "run to cursor": the next `run_slice` calls stop before the first instruction of
    /// `line` (or of the next line that has one). Returns that line, or `None` when no
    /// instruction is at or after `line`.
    pub fn run_to_line(&mut self, line: u32) -> Option<u32> {
        let target = self.build.instruction_line_at_or_after(line)?;
        self.run.set_run_target(Some(target));
        Some(target)
    }

    /// Toggles a breakpoint on `line`, moved to the next line with an instruction when `line` has
    /// none. Returns the line that now has a breakpoint, or `None` when one was removed (or no
    /// instruction is at or after `line`).
    pub fn toggle_breakpoint(&mut self, line: u32) -> Option<u32> {
        self.run.toggle_breakpoint(&self.build, line)
    }

    pub fn clear_breakpoints(&mut self) {
        self.run.clear_breakpoints();
    }

    /// Shows wave `wave` of the current workgroup; false when there is no such wave.
    pub fn select_wave(&mut self, wave: u32) -> bool {
        if wave < self.wave_count() {
            self.view.selection_mut().wave = wave;
            self.clamp_selection();
            true
        } else {
            false
        }
    }

    /// Shows lane `lane` in the lane detail; false when the selected wave has no such lane.
    pub fn select_lane(&mut self, lane: u32) -> bool {
        if lane < self.wave_width() {
            self.view.selection_mut().lane = lane;
            true
        } else {
            false
        }
    }

    /// Number of workgroups in the grid (0 when nothing can run).
    pub fn workgroup_count(&self) -> u64 {
        self.run.workgroup_count()
    }

    /// Waves per workgroup.
    pub fn wave_count(&self) -> u32 {
        self.run.wave_count()
    }

    /// Lanes per wave.
    pub fn wave_width(&self) -> u32 {
        self.run.wave_width()
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
        let current = self.run.machine().map_or(0, |m| m.workgroup().index());
        let finished = self.run.machine().is_some_and(|m| m.is_finished());
        if index < current || finished || !self.run.state().can_run() {
            self.reset();
        }
        self.take_before();
        self.view.clear_command();
        match self.run.run_to_workgroup(index, BIG_SLICE) {
            Err(None) => Err("nothing can run".to_string()),
            Err(Some(other)) => {
                self.after_stop(other, false);
                Err(format!("the run ended before workgroup {index}"))
            }
            Ok(()) => {
                if self.step_count() > 0 {
                    self.run.set_state(RunState::Paused {
                        at_breakpoint: false,
                    });
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
        if !self.run.state().can_run() || steps == 0 {
            return;
        }
        self.go_to_step(steps);
    }

    /// Updates state and selection after the machine stopped.
    pub(super) fn after_stop(&mut self, stop: Stop, running: bool) -> RunProgress {
        self.run.note_progress();
        let progress = match stop {
            Stop::Finished => {
                self.run.set_state(RunState::Finished);
                self.run.set_run_target(None);
                self.run.start_check(self.build.check());
                RunProgress::Finished
            }
            Stop::Trap(trap) => {
                self.run.set_state(RunState::Trapped(trap));
                self.run.set_run_target(None);
                let selection = self.view.selection_mut();
                selection.wave = trap.wave;
                if let Some(lane) = trap.lane {
                    selection.lane = lane;
                }
                RunProgress::Trapped
            }
            Stop::Breakpoint { wave, pc } => {
                let line = self.build.line_of(pc).unwrap_or(0);
                let reached_target = self.run.run_target() == Some(line);
                self.run.set_run_target(None);
                self.view.selection_mut().wave = wave;
                // A question's line stops a run too, without being a breakpoint.
                let at_breakpoint = !reached_target && self.run.breakpoints().contains(&line);
                self.run.set_state(RunState::Paused { at_breakpoint });
                RunProgress::Paused { line }
            }
            Stop::SliceUsed if running => {
                self.run.set_state(RunState::Running);
                RunProgress::Running
            }
            Stop::SliceUsed | Stop::Stepped | Stop::WaveFinished => {
                self.run.set_state(RunState::Paused {
                    at_breakpoint: false,
                });
                RunProgress::Paused {
                    line: self.current_line().unwrap_or(0),
                }
            }
        };
        self.clamp_selection();
        progress
    }

    /// Per instruction: whether a run stops before it (a breakpoint, the run-to-cursor line, a
    /// question not asked yet); empty when no instruction stops one.
    pub(crate) fn breakpoint_mask(&self) -> Vec<bool> {
        let mut questions = self.teaching.unasked_question_lines();
        questions.extend(self.warp_lines());
        self.run.breakpoint_mask(&self.build, &questions)
    }

    /// Keeps the selection inside the machine.
    pub(super) fn clamp_selection(&mut self) {
        if let Some(machine) = self.run.machine() {
            self.view.clamp_to(machine);
        }
    }
}
