//! The one-line status the page announces (`role=status`).

use wave_engine::machine::{Trap, TrapKind};

use crate::run::RunState;
use crate::shown::Shown;

/// What the status adds when the last command departed from the spec.
pub const DEPARTS_NOTE: &str = " · departs from the spec (wave-emu behaviour)";

impl Shown<'_> {
    /// "ready", "paused at line 7", "running…", "finished after 1234 wave-instructions",
    /// "trapped: <message> at line 9 (lane 2)", "instruction budget exceeded at line 12"; after
    /// a command that did something the spec would not (a machine with the reference
    /// emulator's behaviour), followed by [`DEPARTS_NOTE`], e.g. "paused at line 9 · departs
    /// from the spec (wave-emu behaviour)".
    pub(crate) fn status_text(&self) -> String {
        let text = self.state_text();
        if self.view.events().departed() && self.run.state() != RunState::Running {
            format!("{text}{DEPARTS_NOTE}")
        } else {
            text
        }
    }

    fn state_text(&self) -> String {
        match self.run.state() {
            RunState::SourceErrors(n) => {
                let s = if n == 1 { "" } else { "s" };
                format!("cannot run: {n} error{s} in the kernel")
            }
            RunState::ConfigErrors => {
                if self.build.program().is_none() || self.kernel().is_none() {
                    "cannot run: no kernel".to_string()
                } else {
                    "cannot run: the launch configuration has errors".to_string()
                }
            }
            RunState::Ready => "ready".to_string(),
            RunState::Paused { .. } if self.asking.is_some() => {
                let line = self.asking.unwrap_or(0);
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
            RunState::Running => match self.run.opening().map(|m| m.steps) {
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
