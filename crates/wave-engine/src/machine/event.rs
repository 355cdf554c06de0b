//! Control-flow events: what a view animates. The machine writes them into a caller-owned sink,
//! so a fast run that wants none pays nothing ([`NoEvents`] compiles away).
//!
//! A machine in [`Behaviour::WaveEmu`](super::Behaviour) also reports where it departs from the
//! spec ([`EventSink::depart`]), through a method of its own rather than an [`EventKind`], so
//! that code matching every event kind keeps compiling; a sink that does not show departures
//! leaves the method as it is and never sees them.

use super::frame::FrameKind;
use super::reference::DepartureEvent;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A frame was pushed (`if` or `loop`); `mask` is the entry mask.
    Push(FrameKind),
    /// A frame was popped at its reconvergence point; `mask` is the reconverged mask.
    Pop(FrameKind),
    /// An `if` split the wave: `mask` took the then side, `other` the else side.
    Diverge {
        other: u64,
    },
    /// The wave switched to the else side; `mask` is the else side's lanes.
    Else,
    /// No active lane is left on this path: the wave jumps to `to` (spec §5.2 skipping).
    Skip {
        to: u32,
    },
    /// Lanes in `mask` broke out of the innermost loop.
    Break,
    /// Lanes in `mask` continued to the next iteration.
    Continue,
    /// A loop starts another iteration with `mask`.
    Iterate,
    /// Lanes in `mask` halted.
    Halt,
    /// The wave arrived at a barrier.
    BarrierWait,
    /// Every live wave of the workgroup reached a barrier; all were released.
    BarrierRelease,
    /// A call (`mask` = active lanes) or return.
    Call,
    Return,
    /// The wave finished: no lane is left.
    WaveDone,
}

impl EventKind {
    /// A stable name: "push-if", "push-loop", "pop-if", "pop-loop", "diverge", "else", "skip",
    /// "break", "continue", "iterate", "halt", "barrier-wait", "barrier-release", "call",
    /// "return", "wave-done". Views use it for CSS classes and traces write it.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Push(FrameKind::If) => "push-if",
            EventKind::Push(FrameKind::Loop) => "push-loop",
            EventKind::Pop(FrameKind::If) => "pop-if",
            EventKind::Pop(FrameKind::Loop) => "pop-loop",
            EventKind::Diverge { .. } => "diverge",
            EventKind::Else => "else",
            EventKind::Skip { .. } => "skip",
            EventKind::Break => "break",
            EventKind::Continue => "continue",
            EventKind::Iterate => "iterate",
            EventKind::Halt => "halt",
            EventKind::BarrierWait => "barrier-wait",
            EventKind::BarrierRelease => "barrier-release",
            EventKind::Call => "call",
            EventKind::Return => "return",
            EventKind::WaveDone => "wave-done",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    pub wave: u32,
    /// Index of the instruction that caused the event.
    pub pc: u32,
    pub mask: u64,
    pub kind: EventKind,
}

pub trait EventSink {
    fn emit(&mut self, event: Event);

    /// A machine in [`Behaviour::WaveEmu`](super::Behaviour) did something at this step that the
    /// spec's rule would not (see [`Departure`](super::Departure)). Ignored unless a sink
    /// overrides it; a spec machine never calls it.
    fn depart(&mut self, departure: DepartureEvent) {
        let _ = departure;
    }

    /// False for a sink that drops everything ([`NoEvents`]): a hot loop holding the sink as a
    /// `dyn EventSink` asks once, then skips the calls instead of making one per wave.
    fn is_listening(&self) -> bool {
        true
    }
}

/// Discards events; used by fast runs.
pub struct NoEvents;

impl EventSink for NoEvents {
    #[inline(always)]
    fn emit(&mut self, _event: Event) {}

    fn is_listening(&self) -> bool {
        false
    }
}

impl EventSink for Vec<Event> {
    fn emit(&mut self, event: Event) {
        self.push(event);
    }
}

/// Keeps the events and the departures of a run, in order within each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    pub events: Vec<Event>,
    pub departures: Vec<DepartureEvent>,
}

impl EventSink for Recorded {
    fn emit(&mut self, event: Event) {
        self.events.push(event);
    }

    fn depart(&mut self, departure: DepartureEvent) {
        self.departures.push(departure);
    }
}
