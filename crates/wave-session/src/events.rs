//! The control-flow events of the last step, for animations.

use wave_engine::machine::{EventKind, FrameKind};

use crate::session::Session;
use crate::stack::lanes_text;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventView {
    pub wave: u32,
    /// Source line of the instruction that caused it.
    pub line: u32,
    /// "push-if", "push-loop", "pop-if", "pop-loop", "diverge", "else", "skip", "break",
    /// "continue", "iterate", "halt", "barrier-wait", "barrier-release", "call", "return",
    /// "wave-done": a stable name for CSS classes.
    pub kind: &'static str,
    /// The lanes the event concerns.
    pub lanes: Vec<u32>,
    /// A sentence for screen readers and logs.
    pub text: String,
}

fn lanes_of(mask: u64) -> Vec<u32> {
    (0..64).filter(|l| mask >> l & 1 == 1).collect()
}

impl Session {
    /// Events of the last `step` (runs collect none).
    pub fn last_events(&self) -> Vec<EventView> {
        let width = self.wave_width().max(1);
        self.last_events
            .iter()
            .map(|event| {
                let line = self.line_of(event.pc).unwrap_or(0);
                let lanes = lanes_text(event.mask, width);
                let frame = |k: FrameKind| match k {
                    FrameKind::If => "if",
                    FrameKind::Loop => "loop",
                };
                let text = match event.kind {
                    EventKind::Push(FrameKind::If) => {
                        format!("if at line {line} entered by lanes {lanes}")
                    }
                    EventKind::Push(FrameKind::Loop) => {
                        format!("loop at line {line} entered by lanes {lanes}")
                    }
                    EventKind::Pop(k) => {
                        format!("{} reconverged at line {line}: lanes {lanes}", frame(k))
                    }
                    EventKind::Diverge { other } => format!(
                        "diverged at line {line}: then lanes {lanes}, else lanes {}",
                        lanes_text(other, width)
                    ),
                    EventKind::Else => format!("else side at line {line}: lanes {lanes}"),
                    EventKind::Skip { to } => format!(
                        "no lane on this path: skipped from line {line} to line {}",
                        self.line_of(to).unwrap_or(0)
                    ),
                    EventKind::Break => format!("lanes {lanes} broke out at line {line}"),
                    EventKind::Continue => format!("lanes {lanes} continued at line {line}"),
                    EventKind::Iterate => {
                        format!("next iteration at line {line}: lanes {lanes}")
                    }
                    EventKind::Halt => format!("lanes {lanes} halted at line {line}"),
                    EventKind::BarrierWait => {
                        format!("wave {} waits at the barrier at line {line}", event.wave)
                    }
                    EventKind::BarrierRelease => {
                        format!("wave {} released from the barrier", event.wave)
                    }
                    EventKind::Call => format!("call at line {line}"),
                    EventKind::Return => format!("return at line {line}"),
                    EventKind::WaveDone => format!("wave {} finished", event.wave),
                };
                EventView {
                    wave: event.wave,
                    line,
                    kind: event.kind.name(),
                    lanes: lanes_of(event.mask),
                    text,
                }
            })
            .collect()
    }
}
