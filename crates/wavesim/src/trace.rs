//! `--trace` text: one line per executed wave-instruction, then one indented line per control-flow
//! event it caused.

use std::fmt::Write;

use wave_engine::machine::{Event, EventKind, FrameKind};
use wave_engine::program::Kernel;

/// The state of a wave just before it executes an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepState {
    pub workgroup: [u32; 3],
    pub wave: u32,
    pub pc: u32,
    pub active: u64,
    pub depth: usize,
}

/// Formats masks with as many hex digits as the wave has lanes / 4, so columns line up.
pub struct Tracer<'k> {
    source: &'k str,
    kernel: &'k Kernel,
    digits: usize,
}

impl<'k> Tracer<'k> {
    pub fn new(source: &'k str, kernel: &'k Kernel, wave_width: u32) -> Self {
        Tracer {
            source,
            kernel,
            digits: wave_width.div_ceil(4).max(1) as usize,
        }
    }

    fn mask(&self, mask: u64) -> String {
        format!("0x{mask:0width$x}", width = self.digits)
    }

    /// Source text of the instruction at `pc` (its statement span), or `?` when unknown.
    pub fn text(&self, pc: u32) -> &'k str {
        wave_trace::instruction_text(self.kernel, self.source, pc)
    }

    pub fn line(&self, pc: u32) -> u32 {
        self.kernel.lines.get(pc as usize).copied().unwrap_or(0)
    }

    /// The step line, e.g. `wg(0,0,0) wave[1] pc=4 line 9 mask=0x0000000f depth=1: if p0`.
    pub fn step(&self, state: &StepState) -> String {
        let [x, y, z] = state.workgroup;
        format!(
            "wg({x},{y},{z}) wave[{}] pc={} line {} mask={} depth={}: {}\n",
            state.wave,
            state.pc,
            self.line(state.pc),
            self.mask(state.active),
            state.depth,
            self.text(state.pc)
        )
    }

    /// Indented event lines; events of another wave than the stepping one name their wave.
    pub fn events(&self, stepping: u32, events: &[Event]) -> String {
        let mut out = String::new();
        for event in events {
            let who = if event.wave == stepping {
                String::new()
            } else {
                format!("wave[{}] ", event.wave)
            };
            let what = match event.kind {
                EventKind::Push(kind) => format!("push {}", frame(kind)),
                EventKind::Pop(kind) => format!("pop {}", frame(kind)),
                EventKind::Diverge { other } => {
                    format!(
                        "diverge then={} else={}",
                        self.mask(event.mask),
                        self.mask(other)
                    )
                }
                EventKind::Else => "else".into(),
                EventKind::Skip { to } => format!("skip to pc={to} (line {})", self.line(to)),
                EventKind::Break => "break".into(),
                EventKind::Continue => "continue".into(),
                EventKind::Iterate => "iterate".into(),
                EventKind::Halt => "halt".into(),
                EventKind::BarrierWait => "barrier wait".into(),
                EventKind::BarrierRelease => "barrier release".into(),
                EventKind::Call => "call".into(),
                EventKind::Return => "return".into(),
                EventKind::WaveDone => "wave done".into(),
            };
            let mask = match event.kind {
                EventKind::Diverge { .. } | EventKind::Skip { .. } => String::new(),
                _ => format!(" mask={}", self.mask(event.mask)),
            };
            let _ = writeln!(out, "    {who}{what}{mask}");
        }
        out
    }
}

fn frame(kind: FrameKind) -> &'static str {
    match kind {
        FrameKind::If => "if",
        FrameKind::Loop => "loop",
    }
}
