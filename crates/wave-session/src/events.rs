//! The control-flow events of the last step, for animations, and where that step departed from
//! the spec (a machine with the reference emulator's behaviour only).

use wave_engine::machine::{DepartureEvent, Event, EventKind, EventSink, FrameKind};

use crate::build::Build;
use crate::text::{lanes_phrase, lanes_text};

/// The label a departure's entry carries in the events list, beside its colour.
pub const DEPARTURE_LABEL: &str = "differs from spec";

/// What the command on show emitted: its control-flow events and, on a machine with the
/// reference emulator's behaviour, its departures from the spec, each with the number of events
/// emitted before it (its place among them). The session's event sink.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct StepEvents {
    pub(crate) events: Vec<Event>,
    /// In the order they happened; the places never decrease.
    pub(crate) departures: Vec<(usize, DepartureEvent)>,
}

impl StepEvents {
    pub(crate) fn clear(&mut self) {
        self.events.clear();
        self.departures.clear();
    }

    /// Some step of the command departed from the spec.
    pub(crate) fn departed(&self) -> bool {
        !self.departures.is_empty()
    }

    /// The number of events (departures aside).
    pub(crate) fn len(&self) -> usize {
        self.events.len()
    }

    /// Drops all but the latest `max` events, and all but the latest `max` departures among
    /// the events kept (a departure before the first event kept goes with the events dropped).
    pub(crate) fn keep_latest(&mut self, max: usize) {
        let dropped = self.events.len().saturating_sub(max);
        if dropped > 0 {
            self.events.drain(..dropped);
            self.departures.retain(|(at, _)| *at >= dropped);
            for (at, _) in &mut self.departures {
                *at -= dropped;
            }
        }
        if self.departures.len() > max {
            self.departures.drain(..self.departures.len() - max);
        }
    }
}

impl EventSink for StepEvents {
    fn emit(&mut self, event: Event) {
        self.events.push(event);
    }

    fn depart(&mut self, departure: DepartureEvent) {
        self.departures.push((self.events.len(), departure));
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventView {
    pub wave: u32,
    /// Source line of the instruction that caused it.
    pub line: u32,
    /// "push-if", "push-loop", "pop-if", "pop-loop", "diverge", "else", "skip", "break",
    /// "continue", "iterate", "halt", "barrier-wait", "barrier-release", "call", "return",
    /// "wave-done", or "departure" for a step that departed from the spec: a stable name for
    /// CSS classes.
    pub kind: &'static str,
    /// For a departure, which one ([`Departure::name`](wave_engine::machine::Departure::name):
    /// "break-revived", "p0-unconditional", …).
    pub departure: Option<&'static str>,
    /// The lanes the event concerns.
    pub lanes: Vec<u32>,
    /// A sentence for screen readers and logs (for a departure, what follows
    /// [`DEPARTURE_LABEL`]).
    pub text: String,
}

fn lanes_of(mask: u64) -> Vec<u32> {
    (0..64).filter(|l| mask >> l & 1 == 1).collect()
}

/// The events of `shown` (a command of a run of `build`'s kernel on waves `width` lanes wide),
/// with each departure from the spec as an entry of its own where it happened among them.
pub(crate) fn event_views(shown: &StepEvents, build: &Build, width: u32) -> Vec<EventView> {
    let mut departures = shown.departures.iter().peekable();
    let mut views = Vec::with_capacity(shown.events.len() + shown.departures.len());
    for (index, event) in shown.events.iter().enumerate() {
        while let Some((_, departure)) = departures.next_if(|(at, _)| *at <= index) {
            views.push(departure_view(departure, build, width));
        }
        views.push(event_view(event, build, width));
    }
    views.extend(departures.map(|(_, departure)| departure_view(departure, build, width)));
    views
}

fn departure_view(departure: &DepartureEvent, build: &Build, width: u32) -> EventView {
    let line = build.line_of(departure.pc).unwrap_or(0);
    let lanes = match departure.mask {
        0 => String::new(),
        mask => format!(", {}", lanes_phrase(mask, width.max(1))),
    };
    EventView {
        wave: departure.wave,
        line,
        kind: "departure",
        departure: Some(departure.departure.name()),
        lanes: lanes_of(departure.mask),
        text: format!("at line {line}{lanes}: {}", departure.departure.sentence()),
    }
}

fn event_view(event: &Event, build: &Build, width: u32) -> EventView {
    let width = width.max(1);
    let line = build.line_of(event.pc).unwrap_or(0);
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
            build.line_of(to).unwrap_or(0)
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
        departure: None,
        lanes: lanes_of(event.mask),
        text,
    }
}
