//! Moving through time: step back, go to a step, step over and out, previous and next event,
//! reverse continue.
//!
//! A step count names one state of the whole machine (the scheduler is deterministic), so the
//! engine's [`History`](wave_engine::machine::History) reaches any earlier step by restoring a
//! checkpoint and replaying. What the views show around a state (the selected wave's registers
//! before its last change, the events of the command that got there) is rebuilt the same way:
//! each forward command leaves a
//! [`Landing`] saying where it began, and arriving at its end again replays from there.

use wave_engine::instr::Op;
use wave_engine::machine::{Arrival, Replayed, Stop};

use crate::run::{
    is_stop_event, Landing, Moment, Motion, MotionKind, RunProgress, RunState, MAX_SHOWN_EVENTS,
};

use super::commands::STEP_LIMIT;
use super::Session;

impl Session {
    /// What the last move in time had to say, if anything (e.g. that a step was past the end).
    pub fn travel_note(&self) -> Option<&str> {
        self.view.travel_note()
    }

    /// Whether there is an earlier step to go back to.
    pub fn can_step_back(&self) -> bool {
        self.step_count() > 0
            && self.run.state() != RunState::Running
            && self.run.history().is_some()
    }

    /// Undoes the selected wave's last instruction: back to the step where its instruction
    /// before that had just run (where a Step of it ended), or to its workgroup's start. With no
    /// instruction of the selected wave to undo, one scheduled step back. Returns false when
    /// there is nothing earlier.
    pub fn step_back(&mut self) -> bool {
        if !self.can_step_back() {
            return false;
        }
        let now = self.step_count();
        let wave = self.view.selection().wave as usize;
        let finished = self
            .run
            .machine()
            .and_then(|m| m.workgroup().waves().get(wave))
            .is_none_or(|w| w.is_done());
        let Some(found) = self.run.wave_steps_before(wave, now, 3) else {
            return false;
        };
        let start = found.workgroup_start.unwrap_or(0);
        let starts = &found.starts;
        // Step, on a wave with nothing left to run, runs one scheduled instruction: undo one.
        let one_back = (now - 1, now.checked_sub(2));
        let (target, from) = match starts.len() {
            _ if finished && starts.last() != Some(&(now - 1)) => one_back,
            0 => one_back,
            1 => (start, None),
            n => {
                let from = if n >= 3 { starts[n - 3] + 1 } else { start };
                (starts[n - 2] + 1, Some(from))
            }
        };
        self.arrive(target, self.landing_at(target, from));
        true
    }

    /// How to show step `step`: as the command that ended there showed it, else from `from`
    /// with the events in between.
    fn landing_at(&self, step: u64, from: Option<u64>) -> Option<Landing> {
        self.run.landing(step).or(from.map(|from| Landing {
            from,
            events: true,
            single: true,
        }))
    }

    /// Goes to step `target` (back or forward). A step past the end goes to the end and says
    /// so in [`Session::travel_note`]. Returns false when nothing can run.
    pub fn go_to_step(&mut self, target: u64) -> bool {
        if self.run.history().is_none() || self.run.state() == RunState::Running {
            return false;
        }
        self.view.set_travel_note(None);
        if self.run.go_to(target, u64::MAX).is_none() {
            return false;
        }
        let reached = self.step_count();
        if reached < target {
            self.view.set_travel_note(Some(format!(
                "Step {target} is past the end of the run: it ends at step {reached}."
            )));
        }
        let landing = match self.run.landing(reached) {
            Some(landing) => Some(landing),
            None => self.default_landing(reached),
        };
        self.arrive(reached, landing);
        true
    }

    /// Where the views at `step` begin when no command ended there: the selected wave's last
    /// instruction before it, with everything that ran since.
    fn default_landing(&mut self, step: u64) -> Option<Landing> {
        let wave = self.view.selection().wave as usize;
        let found = self.run.wave_steps_before(wave, step, 2)?;
        let start = found.workgroup_start.unwrap_or(0);
        let from = match found.starts.len() {
            0 => return None,
            1 => start,
            n => found.starts[n - 2] + 1,
        };
        Some(Landing {
            from,
            events: true,
            single: true,
        })
    }

    /// Puts the machine at step `target` and the views as they were when a command first got
    /// there: the selected wave's registers as they were at the command's start, its events.
    pub(super) fn arrive(&mut self, target: u64, landing: Option<Landing>) {
        self.run.set_motion(None);
        self.run.set_run_target(None);
        self.view.clear_command();
        self.teaching.forget_from(target);
        if self.run.machine().is_none() {
            return;
        }
        self.run
            .arrive(target, landing, &self.build, &mut self.view);
        self.settle_state();
    }

    /// The run state that goes with where the machine stands after a move in time.
    fn settle_state(&mut self) {
        self.run.note_progress();
        let Some(machine) = self.run.machine() else {
            return;
        };
        let finished = machine.is_finished();
        let trap = machine.trap();
        let at_start = machine.step_count() == 0;
        self.run.clear_check();
        let state = if let Some(trap) = trap {
            RunState::Trapped(trap)
        } else if finished {
            self.run.start_check(self.build.check());
            RunState::Finished
        } else if at_start {
            RunState::Ready
        } else {
            RunState::Paused {
                at_breakpoint: false,
            }
        };
        self.run.set_state(state);
        self.clamp_selection();
    }

    /// Step over: on an `if`, `loop` or `call` of the selected wave, runs it until that
    /// construct is done (reconverged after its `endif`/`endloop`, or returned); otherwise one
    /// instruction, like Step. The page runs it in slices, like Run ([`Session::run_slice`]).
    pub fn step_over(&mut self) -> bool {
        let Some((op, target, pc, depth, calls)) = self.selected_position() else {
            return false;
        };
        let (start, end) = match op {
            Op::If | Op::Loop => (pc, target),
            Op::Call => (pc, pc),
            _ => return self.step(),
        };
        self.begin_motion(MotionKind::Over {
            start,
            end,
            depth,
            calls,
        })
    }

    /// Step out: runs the selected wave until the innermost construct it is in reconverges (its
    /// frame pops) or the call it is in returns; outside any, to the wave's end.
    pub fn step_out(&mut self) -> bool {
        let Some((_, _, _, depth, calls)) = self.selected_position() else {
            return false;
        };
        self.begin_motion(MotionKind::Out { depth, calls })
    }

    /// Runs the selected wave to its next divergence, reconvergence, break, continue, loop
    /// iteration, skipped path, barrier or halt.
    pub fn next_event(&mut self) -> bool {
        if self.selected_position().is_none() {
            return false;
        }
        self.begin_motion(MotionKind::NextEvent)
    }

    /// The selected wave's next instruction (op, target, pc) and its stack and call depths,
    /// while it can run.
    fn selected_position(&self) -> Option<(Op, u32, u32, usize, usize)> {
        if !self.run.state().can_run() || self.run.state() == RunState::Running {
            return None;
        }
        let wave = self.selected_wave()?;
        if wave.is_done() {
            return None;
        }
        let instr = self.kernel()?.code.get(wave.pc() as usize)?;
        Some((
            instr.op,
            instr.target,
            wave.pc(),
            wave.stack().len(),
            wave.calls().len(),
        ))
    }

    fn begin_motion(&mut self, kind: MotionKind) -> bool {
        let Some((workgroup, from)) = self
            .run
            .machine()
            .map(|m| (m.workgroup().index(), m.step_count()))
        else {
            return false;
        };
        if self.teaching.asking() {
            return false;
        }
        self.teaching.clear_reveal();
        self.take_before();
        self.view.clear_command();
        self.run.set_run_target(None);
        self.view.set_travel_note(None);
        self.run.set_motion(Some(Motion {
            kind,
            workgroup,
            wave: self.view.selection().wave as usize,
            from,
        }));
        self.run.set_state(RunState::Running);
        true
    }

    /// One slice of the move under way: at most `max_steps` instructions of the selected wave.
    pub(super) fn motion_slice(&mut self, motion: Motion, max_steps: u64) -> RunProgress {
        let mask = self.breakpoint_mask();
        let shown = self.view.events_mut();
        let Some((stop, done, at_breakpoint)) = self
            .run
            .advance_motion(motion, max_steps, STEP_LIMIT, &mask, shown)
        else {
            self.run.set_motion(None);
            return RunProgress::Idle;
        };
        if !done {
            return RunProgress::Running;
        }
        shown.keep_latest(MAX_SHOWN_EVENTS);
        self.run.set_motion(None);
        let end = self.step_count();
        self.run.land(
            end,
            Landing {
                from: motion.from,
                events: true,
                single: false,
            },
        );
        match stop {
            Stop::Finished | Stop::Trap(_) => self.after_stop(stop, false),
            _ => {
                self.settle_state();
                let line = self.current_line().unwrap_or(0);
                if at_breakpoint && self.run.breakpoints().contains(&line) {
                    self.run.set_state(RunState::Paused {
                        at_breakpoint: true,
                    });
                }
                self.open_question_here();
                RunProgress::Paused { line }
            }
        }
    }

    /// Goes back to the selected wave's previous event (the step right after the instruction
    /// that caused it). Returns false when it has none before this step.
    pub fn previous_event(&mut self) -> bool {
        let (wave, workgroup, now) = (
            self.view.selection().wave,
            self.view.selection().workgroup,
            self.step_count(),
        );
        let found = self.search_back(|r| {
            let hit = r.step + 1 < now
                && r.workgroup == workgroup
                && r.events
                    .iter()
                    .any(|e| e.wave == wave && is_stop_event(e.kind));
            hit.then_some((r.step + 1, Some(r.step)))
        });
        self.land_after_search(found, "No earlier event of this wave.")
    }

    /// Reverse continue: goes back to the latest earlier step at which a run stops at a
    /// breakpoint (or the run-to-cursor line). Returns false when there is none.
    pub fn reverse_continue(&mut self) -> bool {
        let mask = self.breakpoint_mask();
        if !mask.contains(&true) {
            self.view
                .set_travel_note(Some("No breakpoint is set.".to_string()));
            return false;
        }
        let found = self.search_back(|r| {
            mask.get(r.pc as usize)
                .copied()
                .unwrap_or(false)
                .then_some((r.step, None))
        });
        let moved = self.land_after_search(found, "No earlier breakpoint hit.");
        if moved {
            self.run.set_state(RunState::Paused {
                at_breakpoint: true,
            });
        }
        moved
    }

    /// Run to cursor backwards: goes back to the latest earlier step at which a wave was about
    /// to run the first instruction of `line` (or of the next line that has one). Returns false
    /// when the run has not been there before this step.
    pub fn reverse_to_line(&mut self, line: u32) -> bool {
        let Some(target) = self.build.instruction_line_at_or_after(line) else {
            self.view
                .set_travel_note(Some(format!("No instruction at or after line {line}.")));
            return false;
        };
        let Some(kernel) = self.kernel() else {
            return false;
        };
        let at_line: Vec<bool> = kernel.lines.iter().map(|l| *l == target).collect();
        let found = self.search_back(|r| {
            at_line
                .get(r.pc as usize)
                .copied()
                .unwrap_or(false)
                .then_some((r.step, None))
        });
        let moved = self.land_after_search(
            found,
            &format!("The run has not been at line {target} before this step."),
        );
        if moved {
            if let Some(wave) = self.run.machine().and_then(|m| m.workgroup().pick()) {
                self.view.selection_mut().wave = wave as u32;
            }
            self.run.set_state(RunState::Paused {
                at_breakpoint: false,
            });
        }
        moved
    }

    fn land_after_search(&mut self, found: Option<(u64, Option<u64>)>, none: &str) -> bool {
        match found {
            Some((step, from)) => {
                self.view.set_travel_note(None);
                self.arrive(step, self.landing_at(step, from));
                true
            }
            None => {
                self.view.set_travel_note(Some(none.to_string()));
                false
            }
        }
    }

    /// The latest `found(instruction)` of the instructions replayed before now, searching
    /// ever wider windows back (see [`Run::search_back`]). Leaves the machine where it was.
    fn search_back<T>(&mut self, found: impl FnMut(&Replayed<'_>) -> Option<T>) -> Option<T> {
        if !self.can_step_back() {
            return None;
        }
        self.run.search_back(found)
    }
}

/// Opening a link or autosave: the run to its moment, in slices.
impl Session {
    /// The step a link or autosave being opened is heading for, while the run there goes on.
    pub fn opening(&self) -> Option<u64> {
        self.run.opening().map(|m| m.steps)
    }

    /// One slice of the run to the opened moment: at most `max_steps` steps.
    pub(super) fn opening_slice(&mut self, moment: Moment, max_steps: u64) -> RunProgress {
        let Some(arrival) = self.run.go_to(moment.steps, max_steps.max(1)) else {
            self.run.set_opening(None);
            return RunProgress::Idle;
        };
        if arrival == Arrival::OnTheWay {
            self.run.set_state(RunState::Running);
            return RunProgress::Running;
        }
        self.run.set_opening(None);
        self.run.set_state(RunState::Paused {
            at_breakpoint: false,
        });
        // The moment's wave is selected before arriving, so that the views show what its last
        // step showed (its caption, events and departures from the spec), as going to the step
        // in the session the moment came from does.
        self.select_wave(moment.wave);
        self.select_lane(moment.lane);
        self.go_to_step(moment.steps);
        // A trap that executes nothing happens on the attempt after the last counted step.
        if moment.trapped && self.run.state().can_run() {
            self.run_slice(1);
        }
        self.select_wave(moment.wave);
        self.select_lane(moment.lane);
        self.view.set_travel_note(None);
        match self.run.state() {
            RunState::Finished => RunProgress::Finished,
            RunState::Trapped(_) => RunProgress::Trapped,
            _ => RunProgress::Paused {
                line: self.current_line().unwrap_or(0),
            },
        }
    }

    /// Runs the opening of a link or autosave to its end in one go (tests, the command line).
    pub(super) fn finish_opening(&mut self) {
        while self.run.opening().is_some() {
            self.run_slice(u64::MAX);
        }
    }
}
