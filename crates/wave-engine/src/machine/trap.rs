//! Traps: runtime errors as values, located precisely enough for an editor to point at them.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrapKind {
    MemoryOutOfBounds {
        space: MemorySpace,
        address: u32,
        width: u32,
    },
    StackOverflow,
    CallStackOverflow,
    /// `return` reached with `if`/`loop` frames still open since the matching `call`.
    ReturnInsideConstruct,
    /// The wave ran past its kernel's last instruction without halting.
    RanOffEnd,
    /// The workgroup used up its instruction budget.
    BudgetExceeded {
        limit: u64,
    },
    /// `Behaviour::WaveEmu` only, the reference's run-time structure errors: an `else` whose
    /// innermost frame is not an `if` ("else without matching if"), and likewise for `endif`,
    /// `endloop`, and a `break` or `continue` with no loop frame open. Valid source reaches them
    /// through the reference's frame rules: a `continue` inside an `if` jumps back and leaves
    /// the `if`'s frame open, so a later `endloop` finds an `if` frame on top.
    ElseWithoutIf,
    EndIfWithoutIf,
    EndLoopWithoutLoop,
    BreakOutsideLoop,
    ContinueOutsideLoop,
    /// `Behaviour::WaveEmu` only: waves wait at a barrier that cannot be released, because the
    /// reference releases a barrier only when every wave of the workgroup is at one, and a wave
    /// has halted (D18). wave-emu reports it as "deadlock detected: … waves waiting at different
    /// barriers".
    BarrierDeadlock,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemorySpace {
    Device,
    Local,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trap {
    pub kind: TrapKind,
    /// Linear workgroup index in the grid and the wave inside it.
    pub workgroup: u32,
    pub wave: u32,
    /// The lane that faulted, for per-lane faults.
    pub lane: Option<u32>,
    /// Index of the faulting instruction (the kernel's `lines`/`spans` locate it in the source).
    pub pc: u32,
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrapKind::MemoryOutOfBounds {
                space,
                address,
                width,
            } => {
                let space = match space {
                    MemorySpace::Device => "device",
                    MemorySpace::Local => "local",
                };
                write!(
                    f,
                    "{space} memory access out of bounds: {width} bytes at address {address:#x}"
                )
            }
            TrapKind::StackOverflow => write!(
                f,
                "divergence stack overflow: more than 32 nested if/loop frames"
            ),
            TrapKind::CallStackOverflow => {
                write!(f, "call stack overflow: more than 8 nested calls")
            }
            TrapKind::ReturnInsideConstruct => {
                write!(f, "return inside an if or loop that the called code opened")
            }
            TrapKind::RanOffEnd => write!(f, "ran past the end of the kernel (missing halt?)"),
            TrapKind::BudgetExceeded { limit } => {
                write!(
                    f,
                    "instruction budget exceeded: {limit} wave-instructions in one workgroup"
                )
            }
            TrapKind::ElseWithoutIf => write!(f, "else without a matching if frame (wave-emu)"),
            TrapKind::EndIfWithoutIf => write!(f, "endif without a matching if frame (wave-emu)"),
            TrapKind::EndLoopWithoutLoop => {
                write!(f, "endloop without a matching loop frame (wave-emu)")
            }
            TrapKind::BreakOutsideLoop => write!(f, "break with no loop frame open (wave-emu)"),
            TrapKind::ContinueOutsideLoop => {
                write!(f, "continue with no loop frame open (wave-emu)")
            }
            TrapKind::BarrierDeadlock => write!(
                f,
                "barrier deadlock: a wave of the workgroup has halted, so the waves waiting at a barrier are never released (wave-emu)"
            ),
        }
    }
}
