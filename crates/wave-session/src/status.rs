//! Run state and the one-line status the page announces (`role=status`).

use wave_engine::machine::{Trap, TrapKind};

use crate::session::Session;

/// What the status adds when the last command departed from the spec.
pub const DEPARTS_NOTE: &str = " · departs from the spec (wave-emu behaviour)";

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

impl Session {
    /// The source line of the selected wave's next instruction, while it has one.
    pub fn current_line(&self) -> Option<u32> {
        let machine = self.machine.as_ref()?;
        if machine.is_finished() {
            return None;
        }
        let wave = machine
            .workgroup()
            .waves
            .get(self.selection.wave as usize)?;
        if wave.is_done() {
            return None;
        }
        self.line_of(wave.pc())
    }

    /// The source line of instruction `pc` of the running kernel.
    pub fn line_of(&self, pc: u32) -> Option<u32> {
        self.kernel()?.lines.get(pc as usize).copied()
    }

    /// "ready", "paused at line 7", "running…", "finished after 1234 wave-instructions",
    /// "trapped: <message> at line 9 (lane 2)", "instruction budget exceeded at line 12"; after
    /// a command that did something the spec would not (a machine with the reference
    /// emulator's behaviour), followed by [`DEPARTS_NOTE`], e.g. "paused at line 9 · departs
    /// from the spec (wave-emu behaviour)".
    pub fn status_text(&self) -> String {
        let text = self.state_text();
        if self.departed() && self.state != RunState::Running {
            format!("{text}{DEPARTS_NOTE}")
        } else {
            text
        }
    }

    fn state_text(&self) -> String {
        match self.state {
            RunState::SourceErrors(n) => {
                let s = if n == 1 { "" } else { "s" };
                format!("cannot run: {n} error{s} in the kernel")
            }
            RunState::ConfigErrors => {
                if self.program.is_none() || self.kernel().is_none() {
                    "cannot run: no kernel".to_string()
                } else {
                    "cannot run: the launch configuration has errors".to_string()
                }
            }
            RunState::Ready => "ready".to_string(),
            RunState::Paused { .. } if self.open_question.is_some() => {
                let line = self.open_question.as_ref().map_or(0, |q| q.line);
                format!("paused at line {line} for a question")
            }
            RunState::Paused { at_breakpoint } => {
                let place = match self.current_line() {
                    Some(line) => format!("paused at line {line}"),
                    None => "paused".to_string(),
                };
                if at_breakpoint {
                    format!("{place} (breakpoint)")
                } else {
                    place
                }
            }
            RunState::Running => match self.opening() {
                Some(step) => format!("going to step {step}…"),
                None => "running…".to_string(),
            },
            RunState::Finished => {
                format!("finished after {} wave-instructions", self.step_count())
            }
            RunState::Trapped(trap) => self.trap_text(&trap),
        }
    }

    fn trap_text(&self, trap: &Trap) -> String {
        let line = self
            .line_of(trap.pc)
            .map(|l| format!(" at line {l}"))
            .unwrap_or_default();
        if let TrapKind::BudgetExceeded { limit } = trap.kind {
            return format!(
                "instruction budget exceeded{line} ({limit} wave-instructions in workgroup {})",
                trap.workgroup
            );
        }
        let lane = trap
            .lane
            .map(|l| format!(" (lane {l})"))
            .unwrap_or_default();
        format!("trapped: {}{line}{lane}", trap.kind)
    }
}
